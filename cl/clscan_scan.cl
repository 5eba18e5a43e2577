/* clscan scan kernels, generic over the operator.
 *
 * Needs (from clscan_ops.cl or a user operator): T, NEUTRAL, COMB(a, b).
 * Needs from the build options:
 *   CLSCAN_WG        work-items per work-group (a power of two)
 *   CLSCAN_ITEMS     elements each work-item scans sequentially (a power of two)
 *   CLSCAN_EXCLUSIVE 0 or 1: the kind of clscan_scan_tiles
 *   CLSCAN_LANES     independent runs each work-item's elements are split into (a power of two
 *                    dividing CLSCAN_ITEMS): more lanes, shorter dependency chains, for CPUs
 *                    whose work-items run one after another (default 1)
 *   CLSCAN_STAGE     1: load and store a tile through local memory, so that neighbouring
 *                    work-items touch neighbouring addresses (coalesced, for GPUs);
 *                    0: each work-item reads its own run of CLSCAN_ITEMS elements (CPUs)
 *   CLSCAN_SUBGROUP  optional: scan the work-group in two levels, Hillis-Steele within groups of
 *                    this many consecutive work-items (a power of two dividing CLSCAN_WG, with
 *                    CLSCAN_WG / CLSCAN_SUBGROUP <= CLSCAN_SUBGROUP), then Hillis-Steele over
 *                    their totals.  With CLSCAN_NV_SHUFFLE=1 (NVIDIA, CLSCAN_SUBGROUP=32)
 *                    the first level runs in registers with PTX
 *                    warp shuffles and no barrier; otherwise in local memory, with the same
 *                    combinations in the same order, hence the same bits.
 *   CLSCAN_EXACT     1 when every grouping of comb gives the same bits (integers; MAX, MIN,
 *                    LAST_NONZERO): the look-back may then fold in a tree.
 *   CLSCAN_STREAM    1 (CPUs: CLSCAN_WG 1, CLSCAN_STAGE 0, CLSCAN_ITEMS >= 4; plain scans): the
 *                    work-group's one work-item scans its tile as four runs side by side in
 *                    named variables, keeping the runs' scans in local memory (see below).
 * Optional: CLSCAN_SWAP_COMB swaps comb's arguments everywhere.  It exists only to prove
 * that the test suite catches a scan that combines in the wrong order.  CLSCAN_TEST_FALLBACK,
 * with CLSCAN_WINDOW_POLLS=0u, makes every tile of the single pass recompute the totals of all
 * the tiles before it from their input (quadratic work; src and dst must not overlap): it
 * exists only for the test that the fallback gives the fast path's bits.
 *
 * A tile is CLSCAN_WG * CLSCAN_ITEMS consecutive elements, scanned by one work-group:
 *   1. each work-item scans its CLSCAN_ITEMS elements sequentially, in registers
 *      (item_scan; in CLSCAN_LANES independent runs);
 *   2. the work-group scans the work-items' totals with wg_scan: the Hillis-Steele
 *      double-buffered scan, or Blelloch's with -DCLSCAN_WG_SCAN_BLELLOCH;
 *   3. each work-item applies its prefix p (the tile's carry-in, then the totals of the
 *      work-items before it) as comb(p, x).
 * Positions past the count hold NEUTRAL, and every work-item reaches every barrier.
 * Arrays of many tiles are scanned by the host in levels (reduce-then-scan): clscan_reduce
 * writes each tile's total, the totals are scanned (recursively, with the same kernels), and
 * clscan_scan_tiles scans each tile with carry-in = the scanned total of the tiles before it. */

/* Where elements come from and go to.  Plain scans read and write arrays of T.  A segmented
 * scan (clscan_segmented.cl, included before this file) redefines these: its T is the (head
 * flag, value) pair, read from a value array and heads (or keys), and only the value is stored.
 *   IN_T, OUT_T       element types of the source and destination arrays
 *   IN_PARAMS         extra parameters of the functions that load (after src), IN_ARGS passes them
 *   IN_KERNEL_PARAMS  extra kernel parameters (last), IN_KERNEL_LOCALS turns them into IN_ARGS
 *   CARRY_AT(c, i)    element i of an array of tile carries as a T
 *   TOTALS_PARAMS, STORE_TOTAL(t, i, x)  where clscan_reduce writes the tiles' totals
 * Plain scans only (segmented programs have versions of their own of the work-item's loads,
 * stores and loops, below, which keep values and flags apart):
 *   LOAD_IN(src, i)   element i of the source as a T; STORE_OUT(dst, i, x) stores x there
 *   EXCLUSIVE_OUT(cur, prev)  the exclusive output of an element whose inclusive scan within its
 *                     run is cur, when the combination of everything before it is prev */
#ifndef CLSCAN_SEGMENTED
#define TOTALS_PARAMS
#define STORE_TOTAL(t, i, x) ((t)[i] = (x))
#define IN_T T
#define OUT_T T
#define IN_PARAMS
#define IN_ARGS
#define IN_KERNEL_PARAMS
#define IN_KERNEL_LOCALS
#define LOAD_IN(src, i) ((src)[i])
#define STORE_OUT(dst, i, x) ((dst)[i] = (x))
#define CARRY_AT(c, i) ((c)[i])
#define EXCLUSIVE_OUT(cur, prev) (prev)
#endif

#ifdef CLSCAN_SWAP_COMB
#define COMBINE(a, b) COMB(b, a)
#else
#define COMBINE(a, b) COMB(a, b)
#endif

/* The functions that take a work-item's elements (arrays in private memory) must be inlined:
 * PoCL (3.1, LLVM 15) leaves a large one with several callers as a call, and then compiles the
 * kernel that calls it to nothing (it crashes). */
#define CLSCAN_INLINE inline __attribute__((always_inline))

#define TILE (CLSCAN_WG * CLSCAN_ITEMS)
#ifndef CLSCAN_LANES
#define CLSCAN_LANES 1
#endif
#define RUN (CLSCAN_ITEMS / CLSCAN_LANES)

/* The work-group primitive: scans one value per work-item across the work-group.  Returns the
 * combination of the values of the work-items before li in *prev (valid for li > 0) and the
 * work-group's total in *total.  buf holds 2 * CLSCAN_WG elements.  Every work-item must call
 * it (it has barriers). */
#if defined(CLSCAN_SUBGROUP) && defined(CLSCAN_WG_SCAN_BLELLOCH)
#undef CLSCAN_SUBGROUP   /* Blelloch, asked for explicitly, wins */
#endif

#ifdef CLSCAN_SUBGROUP
#define SG CLSCAN_SUBGROUP
#define NSG (CLSCAN_WG / SG)
#if CLSCAN_NV_SHUFFLE
/* T as 32-bit words, for the shuffles (a partial last word travels whole). */
#define T_WORDS ((sizeof(T) + 3) / 4)
typedef union { T t; uint w[T_WORDS]; } t_words;

/* Lane l gets lane l - d's v (lanes below d keep their own). */
inline T shuffle_up(T v, uint d)
{
    t_words in, out;
    in.t = v;
    for (uint k = 0; k < T_WORDS; ++k) {
        uint r;
        asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(in.w[k]), "r"(d));
        out.w[k] = r;
    }
    return out.t;
}
#endif

/* Two levels of the seed's Hillis-Steele scan.  Level 1: each subgroup of SG consecutive
 * work-items scans its values (in registers with warp shuffles, or in the double-buffered local
 * array); level 2: the first NSG work-items scan the subgroups' totals.  On NVIDIA this replaces
 * log2(CLSCAN_WG) barriers by two. */
inline void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
{
    const uint lane = li % SG, sg = li / SG;
    T before;   /* the inclusive value of lane - 1 (lane > 0) */
#if CLSCAN_NV_SHUFFLE
    for (uint d = 1; d < SG; d <<= 1) {
        const T r = shuffle_up(v, d);
        if (lane >= d)
            v = COMBINE(r, v);   /* comb(previous, current) */
    }
    before = shuffle_up(v, 1);
    if (lane == SG - 1)
        buf[sg] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (sg == 0) {   /* one warp: shuffles need all its lanes */
        T s = lane < NSG ? buf[lane] : NEUTRAL;
        for (uint d = 1; d < NSG; d <<= 1) {
            const T r = shuffle_up(s, d);
            if (lane >= d)
                s = COMBINE(r, s);
        }
        if (lane < NSG)
            buf[NSG + lane] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local T *sg_incl = buf + NSG;
#else
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < SG; d <<= 1) {
        T r = buf[rd + li];
        if (lane >= d)
            r = COMBINE(buf[rd + li - d], r);
        buf[wr + li] = r;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd; rd = wr; wr = t;
    }
    v = buf[rd + li];
    before = lane > 0 ? buf[rd + li - 1] : NEUTRAL;
    /* Level 2 in the other half: the subgroups' totals, then Hillis-Steele among them. */
    if (li < NSG)
        buf[wr + li] = buf[rd + li * SG + SG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    {
        const uint t = rd; rd = wr; wr = t;
    }
    for (uint d = 1; d < NSG; d <<= 1) {
        if (li < NSG) {
            T r = buf[rd + li];
            if (li >= d)
                r = COMBINE(buf[rd + li - d], r);
            buf[wr + li] = r;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd; rd = wr; wr = t;
    }
    __local T *sg_incl = buf + rd;
#endif
    *total = sg_incl[NSG - 1];
    if (sg > 0)
        *prev = lane > 0 ? COMBINE(sg_incl[sg - 1], before) : sg_incl[sg - 1];
    else if (lane > 0)
        *prev = before;
}

#elif !defined(CLSCAN_WG_SCAN_BLELLOCH)
/* The seed's algorithm, Hillis-Steele: two halves of one __local array; each step reads one
 * half and writes the other, so one barrier per step suffices and no read races a write.
 * Work n*log2(n) - (n - 1), depth log2(n). */
inline void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
{
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        T r = buf[rd + li];
        if (li >= d)
            r = COMBINE(buf[rd + li - d], r);   /* comb(previous, current) */
        buf[wr + li] = r;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd; rd = wr; wr = t;
    }
    if (li > 0)
        *prev = buf[rd + li - 1];
    *total = buf[rd + CLSCAN_WG - 1];
}
#else
/* Blelloch: an up-sweep builds subtree totals in place, a down-sweep hands each subtree the
 * combination of everything to its left.  Work about 2n, depth 2*log2(n). */
inline void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
{
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        if ((li + 1) % (2 * d) == 0)
            buf[li] = COMBINE(buf[li - d], buf[li]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = buf[CLSCAN_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == CLSCAN_WG - 1)
        buf[li] = NEUTRAL;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = CLSCAN_WG / 2; d >= 1; d >>= 1) {
        if ((li + 1) % (2 * d) == 0) {
            const T left = buf[li - d];
            buf[li - d] = buf[li];
            buf[li] = COMBINE(buf[li], left);   /* what is left of me, then my left sibling */
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (li > 0)
        *prev = buf[li];
}
#endif

/* A work-item's elements are CLSCAN_LANES runs of RUN consecutive elements.  In registers,
 * element r of run l sits at VIDX(l, r): the runs are interleaved, so that one step of all the
 * runs' scans touches neighbouring registers (a CPU does it as one vector operation). */
#define VIDX(l, r) ((r) * CLSCAN_LANES + (l))

/* The staged tile has one unused slot after every 32 elements: work-item li reads its run at
 * li * CLSCAN_ITEMS, and without the padding 32 work-items of a warp would hit the same few
 * banks of local memory (an ITEMS-way conflict). */
#define SIDX(i) ((i) + ((i) >> 5))
#define STAGE_SIZE (TILE + TILE / 32)

/* A work-item's elements in registers: ITEMS_DECL(v) declares them, ITEMS_PARAM(v) and
 * ITEMS_ARG(v) pass them on.  Plain scans keep an array of T; segmented programs (below) keep
 * the values and the head flags in two arrays. */
#ifndef CLSCAN_SEGMENTED
#define ITEMS_DECL(v) T v[CLSCAN_ITEMS]
#define ITEMS_PARAM(v) T *v
#define ITEMS_ARG(v) v

/* Loads the work-item's CLSCAN_ITEMS consecutive elements from first on, NEUTRAL past count,
 * without staging (also for one work-item computing another's total). */
CLSCAN_INLINE void load_items_direct(T *v, __global const IN_T *src IN_PARAMS, ulong first, ulong count)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, r)] = first + l * RUN + r < count ? LOAD_IN(src, first + l * RUN + r) : NEUTRAL;
}

/* Loads the work-item's CLSCAN_ITEMS consecutive elements of the tile at `base` (NEUTRAL past
 * count).  `stage` holds STAGE_SIZE elements when CLSCAN_STAGE is 1. */
CLSCAN_INLINE void load_items(T *v, __global const IN_T *src IN_PARAMS, ulong base, ulong count, uint li,
                       __local T *stage)
{
#if CLSCAN_STAGE
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        stage[SIDX(i)] = base + i < count ? LOAD_IN(src, base + i) : NEUTRAL;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, r)] = stage[SIDX(li * CLSCAN_ITEMS + l * RUN + r)];
#else
    (void)stage;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count) {   /* a full tile: no checks in the loop */
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                v[VIDX(l, r)] = LOAD_IN(src, first + l * RUN + r);
    } else {
        load_items_direct(v, src IN_ARGS, first, count);
    }
#endif
}

/* Stores what load_items loaded, skipping positions past count. */
CLSCAN_INLINE void store_items(const T *v, __global OUT_T *dst, ulong base, ulong count, uint li,
                        __local T *stage)
{
#if CLSCAN_STAGE
    barrier(CLK_LOCAL_MEM_FENCE);   /* everyone has finished reading stage */
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            stage[SIDX(li * CLSCAN_ITEMS + l * RUN + r)] = v[VIDX(l, r)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        if (base + i < count)
            STORE_OUT(dst, base + i, stage[SIDX(i)]);
    }
#else
    (void)stage;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count) {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                STORE_OUT(dst, first + l * RUN + r, v[VIDX(l, r)]);
    } else {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                if (first + l * RUN + r < count)
                    STORE_OUT(dst, first + l * RUN + r, v[VIDX(l, r)]);
    }
#endif
}

/* Scans the work-item's elements in place, each run on its own (the runs' dependency chains are
 * independent, so a CPU overlaps them), and returns the item's total: the left fold of the
 * runs' totals.  Every total in the kernels comes from here, so equal inputs give equal bits. */
CLSCAN_INLINE T item_scan(T *v)
{
    for (uint r = 1; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, r)] = COMBINE(v[VIDX(l, r - 1)], v[VIDX(l, r)]);
    T total = v[VIDX(0, RUN - 1)];
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        total = COMBINE(total, v[VIDX(l, RUN - 1)]);
    return total;
}

/* Turns the runs' scans into the scan of the tile: run l gets prefix q[l] = p, then the totals
 * of the runs before it; inclusive v = comb(q, v); exclusive shifts right by one within the run,
 * with q in front. */
CLSCAN_INLINE void item_apply(T *v, T p, const int exclusive)
{
    T q[CLSCAN_LANES];
    q[0] = p;
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        q[l] = COMBINE(q[l - 1], v[VIDX(l - 1, RUN - 1)]);
    if (exclusive) {
        for (uint r = RUN - 1; r > 0; --r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                v[VIDX(l, r)] = EXCLUSIVE_OUT(v[VIDX(l, r)], COMBINE(q[l], v[VIDX(l, r - 1)]));
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, 0)] = EXCLUSIVE_OUT(v[VIDX(l, 0)], q[l]);
    } else {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                v[VIDX(l, r)] = COMBINE(q[l], v[VIDX(l, r)]);
    }
}

#else   /* CLSCAN_SEGMENTED */
/* Segmented programs: the work-item keeps its elements' values (x) and head flags (f) in two
 * arrays rather than an array of pairs, so that the sequential loops below run on plain values
 * (a CPU keeps them in vector registers) and the flags stay bytes beside them.  They compute
 * exactly what the pair operator of clscan_segmented.cl computes on the same elements in the
 * same order, hence the same bits; what leaves the work-item (its total, for the work-group,
 * the tiles and the levels) and what comes in (its prefix) are pairs as before.
 *   f bit 0 (FLAG_OWN): the element starts a segment (loaded);
 *   f bit 1 (FLAG_RUN): a segment starts in its run up to it (item_scan: the pair's h). */
#define ITEMS_DECL(v) clscan_value v[CLSCAN_ITEMS]; uchar v##_f[CLSCAN_ITEMS]
#define ITEMS_PARAM(v) clscan_value *v, uchar *v##_f
#define ITEMS_ARG(v) v, v##_f
#define FLAG_OWN 1
#define FLAG_RUN 2
#ifdef CLSCAN_SWAP_COMB
#define VALUE_COMBINE(a, b) clscan_value_comb((b), (a))
#else
#define VALUE_COMBINE(a, b) clscan_value_comb((a), (b))
#endif

inline uchar head_flags(uchar h)   /* h: 0 or 1 */
{
    return h * (FLAG_OWN | FLAG_RUN);
}

CLSCAN_INLINE void load_items_direct(clscan_value *x, uchar *f, __global const clscan_value *src IN_PARAMS,
                              ulong first, ulong count)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l) {
            const ulong i = first + l * RUN + r;
            x[VIDX(l, r)] = i < count ? src[i] : clscan_value_neutral();
            f[VIDX(l, r)] = i < count ? head_flags(clscan_head(heads, keys, i)) : 0;
        }
}

CLSCAN_INLINE void load_items(clscan_value *x, uchar *f, __global const clscan_value *src IN_PARAMS,
                       ulong base, ulong count, uint li, __local T *stage)
{
#if CLSCAN_STAGE
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        stage[SIDX(i)] = base + i < count ? clscan_pair_make(src[base + i], clscan_head(heads, keys, base + i))
                                          : NEUTRAL;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l) {
            const T p = stage[SIDX(li * CLSCAN_ITEMS + l * RUN + r)];
            x[VIDX(l, r)] = p.v;
            f[VIDX(l, r)] = head_flags(p.h);
        }
#else
    (void)stage;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count) {   /* a full tile: no checks in the loops */
        /* The values, the first flag of each run, then the other flags, in loops of their own:
         * only the first element of a run can be element 0 (which starts a segment whatever its
         * head or key), so the others need no test for it, and a CPU vectorises the loops.
         * Measured on PoCL (doc/perf/segmented-notes.md): heads run by run in step (as the
         * values), keys one run after the other (in step, the key loop stayed scalar and the
         * scan by key ran twice as slow). */
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                x[VIDX(l, r)] = src[first + l * RUN + r];
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            f[VIDX(l, 0)] = head_flags(clscan_head(heads, keys, first + l * RUN));
#ifdef CLSCAN_KEY_TYPE
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            for (uint r = 1; r < RUN; ++r)
#else
        for (uint r = 1; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
#endif
                f[VIDX(l, r)] = head_flags(clscan_head_after_first(heads, keys, first + l * RUN + r));
    } else {
        load_items_direct(x, f, src IN_ARGS, first, count);
    }
#endif
}

CLSCAN_INLINE void store_items(const clscan_value *x, const uchar *f, __global clscan_value *dst, ulong base,
                        ulong count, uint li, __local T *stage)
{
    (void)f;
#if CLSCAN_STAGE
    barrier(CLK_LOCAL_MEM_FENCE);   /* everyone has finished reading stage */
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            stage[SIDX(li * CLSCAN_ITEMS + l * RUN + r)].v = x[VIDX(l, r)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        if (base + i < count)
            dst[base + i] = stage[SIDX(i)].v;
    }
#else
    (void)stage;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count) {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                dst[first + l * RUN + r] = x[VIDX(l, r)];
    } else {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                if (first + l * RUN + r < count)
                    dst[first + l * RUN + r] = x[VIDX(l, r)];
    }
#endif
}

/* The pair operator on (x[r - 1], f[r - 1]) and (x[r], f[r]): the value restarts from the
 * neutral value at a head, the run flag is or-ed in. */
CLSCAN_INLINE clscan_pair item_pair(const clscan_value *x, const uchar *f, uint k)
{
    return clscan_pair_make(x[k], (f[k] & FLAG_RUN) != 0);
}

CLSCAN_INLINE clscan_pair item_scan(clscan_value *x, uchar *f)
{
    for (uint r = 1; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l) {
            const uint k = VIDX(l, r), j = VIDX(l, r - 1);
            x[k] = VALUE_COMBINE(f[k] & FLAG_OWN ? clscan_value_neutral() : x[j], x[k]);
            f[k] |= f[j] & FLAG_RUN;
        }
    T total = item_pair(x, f, VIDX(0, RUN - 1));
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        total = COMBINE(total, item_pair(x, f, VIDX(l, RUN - 1)));
    return total;
}

/* As the pair operator applies prefix q to the element's pair: q's value counts only if no
 * segment starts in the run up to the element.  Exclusive: an element that starts a segment gets
 * the neutral value, the others the inclusive result of the element before them. */
CLSCAN_INLINE void item_apply(clscan_value *x, uchar *f, T p, const int exclusive)
{
    T q[CLSCAN_LANES];
    q[0] = p;
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        q[l] = COMBINE(q[l - 1], item_pair(x, f, VIDX(l - 1, RUN - 1)));
    if (exclusive) {
        for (uint r = RUN - 1; r > 0; --r)
            for (uint l = 0; l < CLSCAN_LANES; ++l) {
                const uint k = VIDX(l, r), j = VIDX(l, r - 1);
                const clscan_value prev =
                    VALUE_COMBINE(f[j] & FLAG_RUN ? clscan_value_neutral() : q[l].v, x[j]);
                x[k] = f[k] & FLAG_OWN ? clscan_value_neutral() : prev;
            }
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            x[VIDX(l, 0)] = f[VIDX(l, 0)] & FLAG_OWN ? clscan_value_neutral() : q[l].v;
    } else {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l) {
                const uint k = VIDX(l, r);
                x[k] = VALUE_COMBINE(f[k] & FLAG_RUN ? clscan_value_neutral() : q[l].v, x[k]);
            }
    }
}
#endif

#if defined(CLSCAN_SEGMENTED) || !defined(CLSCAN_STREAM) || CLSCAN_STAGE || CLSCAN_WG != 1 || CLSCAN_ITEMS < 4
#undef CLSCAN_STREAM
#define CLSCAN_STREAM 0
#endif

#if CLSCAN_STREAM
/* ---- CPUs: a tile in four streamed runs -------------------------------------------------------
 * A work-group is one work-item, and its tile is four runs of SL consecutive elements.  The runs
 * are scanned side by side, each in a variable of its own (four independent dependency chains,
 * which a core overlaps), and their scans go to local memory (the cache); on the way out each
 * run gets its prefix.  On PoCL this beat the work-items' private arrays (kept on the stack,
 * read back and forth) with their strided runs (2^24 floats: doc/performance.md, item 20).  The
 * tile's total is the left fold of the four runs' totals, the same in every kernel below (the
 * single pass's fallback included), hence the same bits. */
#define SL (TILE / 4)

/* Element i of the tile at base, NEUTRAL past count (`full`: no check needed). */
CLSCAN_INLINE T stream_at(__global const IN_T *src IN_PARAMS, ulong base, uint i, ulong count, const int full)
{
    return full || base + i < count ? LOAD_IN(src, base + i) : NEUTRAL;
}

/* The runs' inclusive scans into runs[] (unless runs is 0); returns the tile's total. */
CLSCAN_INLINE T stream_runs(__global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *runs,
                            const int full)
{
    T a0 = stream_at(src IN_ARGS, base, 0, count, full);
    T a1 = stream_at(src IN_ARGS, base, SL, count, full);
    T a2 = stream_at(src IN_ARGS, base, 2 * SL, count, full);
    T a3 = stream_at(src IN_ARGS, base, 3 * SL, count, full);
    if (runs) {
        runs[0] = a0;
        runs[SL] = a1;
        runs[2 * SL] = a2;
        runs[3 * SL] = a3;
    }
    for (uint j = 1; j < SL; ++j) {
        a0 = COMBINE(a0, stream_at(src IN_ARGS, base, j, count, full));
        a1 = COMBINE(a1, stream_at(src IN_ARGS, base, SL + j, count, full));
        a2 = COMBINE(a2, stream_at(src IN_ARGS, base, 2 * SL + j, count, full));
        a3 = COMBINE(a3, stream_at(src IN_ARGS, base, 3 * SL + j, count, full));
        if (runs) {
            runs[j] = a0;
            runs[SL + j] = a1;
            runs[2 * SL + j] = a2;
            runs[3 * SL + j] = a3;
        }
    }
    return COMBINE(COMBINE(COMBINE(a0, a1), a2), a3);
}

/* The tile's total; with runs, also the runs' scans. */
CLSCAN_INLINE T stream_scan(__global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *runs)
{
    if (base + TILE <= count)
        return stream_runs(src IN_ARGS, base, count, runs, 1);
    return stream_runs(src IN_ARGS, base, count, runs, 0);
}

/* Run r's output: comb(q, its inclusive scan), or for exclusive the same shifted right by one
 * with q in front; n: the tile's elements before count. */
CLSCAN_INLINE void stream_store_run(__global OUT_T *dst, ulong base, uint n, __local const T *runs, uint r, T q,
                                    const int exclusive)
{
    const uint first = r * SL, end = n < first + SL ? n : first + SL;
    if (first >= end)
        return;
    if (exclusive) {
        STORE_OUT(dst, base + first, q);
        for (uint i = first + 1; i < end; ++i)
            STORE_OUT(dst, base + i, COMBINE(q, runs[i - 1]));
    } else {
        for (uint i = first; i < end; ++i)
            STORE_OUT(dst, base + i, COMBINE(q, runs[i]));
    }
}

/* The tile's output from the runs' scans and the carry-in: run r's prefix is the carry, then the
 * totals of the runs before it. */
CLSCAN_INLINE void stream_store(__global OUT_T *dst, ulong base, ulong count, __local const T *runs, T carry,
                                const int exclusive)
{
    const uint n = count - base < TILE ? (uint)(count - base) : TILE;
    const T q1 = COMBINE(carry, runs[SL - 1]);
    const T q2 = COMBINE(q1, runs[2 * SL - 1]);
    const T q3 = COMBINE(q2, runs[3 * SL - 1]);
    stream_store_run(dst, base, n, runs, 0, carry, exclusive);
    stream_store_run(dst, base, n, runs, 1, q1, exclusive);
    stream_store_run(dst, base, n, runs, 2, q2, exclusive);
    stream_store_run(dst, base, n, runs, 3, q3, exclusive);
}
#endif

/* Scans one tile of src into dst with carry-in `carry` (NEUTRAL for the first tile).  Every
 * output is comb(carry, ...), so the result is the fold from NEUTRAL whatever the tiling. */
CLSCAN_INLINE void scan_tile(__global const IN_T *src IN_PARAMS, __global OUT_T *dst, ulong count, T carry,
                      const int exclusive, __local T *hs, __local T *stage)
{
    const ulong base = (ulong)get_group_id(0) * TILE;
#if CLSCAN_STREAM
    (void)hs;
    stream_scan(src IN_ARGS, base, count, stage);
    stream_store(dst, base, count, stage, carry, exclusive);
#else
    const uint li = get_local_id(0);
    ITEMS_DECL(v);
    load_items(ITEMS_ARG(v), src IN_ARGS, base, count, li, stage);

    T prev = NEUTRAL, total;
    wg_scan(item_scan(ITEMS_ARG(v)), hs, li, &prev, &total);
    /* The work-item's prefix: the carry, then the totals of the work-items before it.  Exclusive
     * is the inclusive result shifted right by one, with the prefix in front. */
    item_apply(ITEMS_ARG(v), li > 0 ? COMBINE(carry, prev) : carry, exclusive);
    store_items(ITEMS_ARG(v), dst, base, count, li, stage);
#endif
}

#if CLSCAN_STAGE
#define STAGE_DECL __local T stage[STAGE_SIZE]
#elif CLSCAN_STREAM
#define STAGE_DECL __local T stage[TILE]   /* the runs' scans */
#else
#define STAGE_DECL __local T *stage = 0
#endif

/* The carry-in of this work-group's tile: the inclusive scan of the tile totals up to the tile
 * before it, or NEUTRAL for the first tile (and when there are no carries: one tile). */
inline T tile_carry(__global const OUT_T *carries, uint use_carries)
{
    const size_t g = get_group_id(0);
    return use_carries && g > 0 ? CARRY_AT(carries, g - 1) : NEUTRAL;
}

/* Scans count elements of src into dst (src == dst: in place), one tile per work-group, of the
 * kind CLSCAN_EXCLUSIVE. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_tiles(__global const IN_T *src, ulong src_offset, __global OUT_T *dst, ulong dst_offset,
                       ulong count, __global const OUT_T *carries, ulong carries_offset,
                       uint use_carries IN_KERNEL_PARAMS)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    IN_KERNEL_LOCALS
    scan_tile(src + src_offset IN_ARGS, dst + dst_offset, count,
              tile_carry(carries + carries_offset, use_carries), CLSCAN_EXCLUSIVE, hs, stage);
}

/* The same, always inclusive: used in place on the levels of tile totals. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_tiles_inclusive(__global OUT_T *data, ulong offset, ulong count,
                                 __global const OUT_T *carries, ulong carries_offset,
                                 uint use_carries IN_KERNEL_PARAMS)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    IN_KERNEL_LOCALS
    scan_tile(data + offset IN_ARGS, data + offset, count,
              tile_carry(carries + carries_offset, use_carries), 0, hs, stage);
}

/* Writes the total of each tile of src (count elements) to totals[group]. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_reduce(__global const IN_T *src, ulong src_offset, ulong count,
                   __global OUT_T *totals, ulong totals_offset IN_KERNEL_PARAMS TOTALS_PARAMS)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    IN_KERNEL_LOCALS
    const ulong base = (ulong)get_group_id(0) * TILE;
#if CLSCAN_STREAM
    (void)hs;
    (void)stage;
    STORE_TOTAL(totals, totals_offset + get_group_id(0), stream_scan(src + src_offset IN_ARGS, base, count, 0));
#else
    const uint li = get_local_id(0);
    ITEMS_DECL(v);
    load_items(ITEMS_ARG(v), src + src_offset IN_ARGS, base, count, li, stage);
    T prev, total;
    wg_scan(item_scan(ITEMS_ARG(v)), hs, li, &prev, &total);
    if (li == 0)
        STORE_TOTAL(totals, totals_offset + get_group_id(0), total);
#endif
}

/* ---- Single pass: chained scan with decoupled look-back --------------------------------------
 * One launch, and every element read once and written once (about 2n traffic against 3n for
 * reduce-then-scan).  Tiles take their index from a global ticket counter, so a tile waits only
 * on tiles that have already started.  Each tile publishes its total (AGGREGATE) as soon as it
 * has it, and its inclusive prefix (PREFIX) once it knows the prefix of the tile before it.
 * Look-back: the tile finds the nearest earlier tile with a PREFIX, then folds the totals of the
 * tiles after it from left to right (the whole work-group reads a window of CLSCAN_LOOKBACK x
 * CLSCAN_WG statuses at once, as often as needed up to CLSCAN_WINDOW_POLLS times; then one
 * work-item walks back).  That fold is the same left fold whichever tile the look-back stops
 * at, so the result is bitwise reproducible for every operator, floats included; exactly
 * associative operators (CLSCAN_EXACT) fold in a tree instead, with the same bits.  Spinning is bounded: a tile whose status does not arrive within CLSCAN_SPIN_LIMIT
 * polls has its total computed by the waiting work-group from its input, with the same
 * functions, hence the same bits ("decoupled fallback").
 * Status words carry the scan's epoch in their upper 30 bits, so the host never clears them
 * between scans. */
#ifndef CLSCAN_EXACT
#define CLSCAN_EXACT 0
#endif
/* Tiles of the look-back window per work-item.  On the H200 (2^28 floats, 256 x 16) a window
 * of 1 x 256 tiles beat 4 x 256 (1.28 against 1.70 ms) and 8 x 256 (2.25 ms): a longer poll
 * costs more than the farther reach gains. */
/* GPUs: the whole work-group finds the look-back's stop and folds (below); CPUs: one work-item. */
#ifndef CLSCAN_PARALLEL_LOOKBACK
#define CLSCAN_PARALLEL_LOOKBACK 0
#endif
#ifndef CLSCAN_LOOKBACK
#define CLSCAN_LOOKBACK 1
#endif
#define WINDOW (CLSCAN_LOOKBACK * CLSCAN_WG)
#define STATUS_AGGREGATE 1u
#define STATUS_PREFIX 2u
#ifndef CLSCAN_WINDOW_POLLS
#define CLSCAN_WINDOW_POLLS 65536u
#endif
#ifndef CLSCAN_SPIN_LIMIT
#define CLSCAN_SPIN_LIMIT 20000u
#endif

inline uint status_of(uint word, uint epoch)
{
    return (word >> 2) == epoch ? (word & 3u) : 0u;
}

/* Publishing a tile's AGGREGATE or PREFIX, and reading a tile's status with the value it
 * announces (its total for AGGREGATE, its inclusive prefix for PREFIX; nothing for 0).
 * Packed (CLSCAN_PACKED_STATUS=1, 4-byte values of the built-in operators, devices with 64-bit
 * atomics): one 64-bit word per tile, the status word in the upper half and the value's bits
 * in the lower, so that a poll is one load instead of a status load, a fence and a dependent
 * value load, and a tile publishes with one atomic exchange and no fence.  (An aligned 64-bit
 * load is one access on the devices that have 64-bit atomics.)  CLSCAN_PACKED_STATUS=2, 8-byte
 * values: one 16-byte word per tile (status, value), written with one vector store and read
 * with one vector load, which NVIDIA GPUs perform as single accesses (CUB relies on it).
 * Otherwise a status word per tile, and the values in `aggregates` and `prefixes`, written
 * before the status behind a fence.  The packed words start 16 bytes in, after the ticket
 * counter. */
#if defined(CLSCAN_PACKED_STATUS) && CLSCAN_PACKED_STATUS == 2 && !defined(CLSCAN_SEGMENTED)
typedef union {
    ulong u;
    T t;
} clscan_bits;

inline void publish(__global volatile uint *status, volatile __global T *aggregates,
                    volatile __global T *prefixes, uint g, uint epoch, uint st, T value)
{
    (void)aggregates;
    (void)prefixes;
    clscan_bits b;
    b.t = value;
    ((volatile __global ulong2 *)status)[1 + g] = (ulong2)((ulong)((epoch << 2) | st), b.u);
}

inline uint poll_tile(__global volatile uint *status, volatile __global T *aggregates,
                      volatile __global T *prefixes, ulong j, uint epoch, T *value)
{
    (void)aggregates;
    (void)prefixes;
    const ulong2 w = ((volatile __global ulong2 *)status)[1 + j];
    clscan_bits b;
    b.u = w.y;
    *value = b.t;
    return status_of((uint)w.x, epoch);
}
#elif defined(CLSCAN_PACKED_STATUS) && CLSCAN_PACKED_STATUS == 1 && !defined(CLSCAN_SEGMENTED)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef union {
    uint u;
    T t;
} clscan_bits;

inline void publish(__global volatile uint *status, volatile __global T *aggregates,
                    volatile __global T *prefixes, uint g, uint epoch, uint st, T value)
{
    (void)aggregates;
    (void)prefixes;
    clscan_bits b;
    b.t = value;
    atom_xchg((volatile __global ulong *)status + 2 + g, ((ulong)((epoch << 2) | st) << 32) | b.u);
}

inline uint poll_tile(__global volatile uint *status, volatile __global T *aggregates,
                      volatile __global T *prefixes, ulong j, uint epoch, T *value)
{
    (void)aggregates;
    (void)prefixes;
    const ulong w = ((volatile __global ulong *)status)[2 + j];
    clscan_bits b;
    b.u = (uint)w;
    *value = b.t;
    return status_of((uint)(w >> 32), epoch);
}
#else
inline void publish(__global volatile uint *status, volatile __global T *aggregates,
                    volatile __global T *prefixes, uint g, uint epoch, uint st, T value)
{
    if (st == STATUS_PREFIX)
        prefixes[g] = value;
    else
        aggregates[g] = value;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&status[1 + g], (epoch << 2) | st);
}

inline uint poll_tile(__global volatile uint *status, volatile __global T *aggregates,
                      volatile __global T *prefixes, ulong j, uint epoch, T *value)
{
    const uint s = status_of(status[1 + j], epoch);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (s == STATUS_PREFIX)
        *value = prefixes[j];
    else if (s == STATUS_AGGREGATE)
        *value = aggregates[j];
    return s;
}
#endif

/* Hillis-Steele's inclusive scan of n values, in place by one work-item: each step runs
 * downwards, so buf[i - d] still holds the previous step's value when buf[i] is updated. */
inline void hs_in_place(__local T *buf, uint n)
{
    for (uint d = 1; d < n; d <<= 1)
        for (uint i = n - 1; i >= d; --i)
            buf[i] = COMBINE(buf[i - d], buf[i]);
}

/* The total of the tile at `base`, computed by one work-item alone with the same combinations
 * in the same order as a work-group computes it (item_scan for each work-item's elements, then
 * the work-group primitive's tree, emulated in place in buf), hence with the same bits. */
CLSCAN_INLINE T tile_total_alone(__global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *buf)
{
#if CLSCAN_STREAM
    (void)buf;
    return stream_scan(src IN_ARGS, base, count, 0);   /* the same function as the tile's own */
#else
    for (uint w = 0; w < CLSCAN_WG; ++w) {
        ITEMS_DECL(v);
        const ulong first = base + (ulong)w * CLSCAN_ITEMS;
        load_items_direct(ITEMS_ARG(v), src IN_ARGS, first, count);
        buf[w] = item_scan(ITEMS_ARG(v));
    }
#ifndef CLSCAN_WG_SCAN_BLELLOCH
    /* Hillis-Steele's total is the balanced binary tree over the values; so is the two-level
     * scan's (CLSCAN_SUBGROUP): balanced trees within subgroups, then over their totals. */
    hs_in_place(buf, CLSCAN_WG);
#else
    for (uint d = 1; d < CLSCAN_WG; d <<= 1)
        for (uint i = 2 * d - 1; i < CLSCAN_WG; i += 2 * d)
            buf[i] = COMBINE(buf[i - d], buf[i]);
#endif
    return buf[CLSCAN_WG - 1];
#endif
}

/* status[0] is the ticket counter.  Packed: the 64-bit word 2 + t (16-byte word 1 + t) of status
 * is tile t's status and value.  Otherwise status[1 + t] is the status of tile t, values[t]
 * holds its total and values[tiles + t] its inclusive prefix. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_single_pass(__global const IN_T *src, ulong src_offset, __global OUT_T *dst,
                             ulong dst_offset, ulong count, __global volatile uint *status,
                             __global T *values, ulong tiles, uint ticket_base, uint epoch
                             IN_KERNEL_PARAMS)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    IN_KERNEL_LOCALS
    __local T l_value;
#if CLSCAN_PARALLEL_LOOKBACK
    __local uint l_tile, l_first[2], l_window[WINDOW];
    __local T window[WINDOW];
#else
    __local uint l_tile, l_need, l_window[CLSCAN_WG];
#endif
    const uint li = get_local_id(0);
    __global const IN_T *in = src + src_offset;
    volatile __global T *aggregates = values;
    volatile __global T *prefixes = values + tiles;

    if (li == 0) {
        l_tile = atomic_inc(&status[0]) - ticket_base;
#if CLSCAN_PARALLEL_LOOKBACK
        l_first[0] = WINDOW;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint g = l_tile;
    const ulong base = (ulong)g * TILE;

#if CLSCAN_STREAM
    /* The whole tile is read (into the runs' scans) before its total is published: an in-place
     * scan's input is intact for as long as another tile may need to reduce it. */
    const T total = stream_scan(in IN_ARGS, base, count, stage);
#else
    ITEMS_DECL(v);
    load_items(ITEMS_ARG(v), in IN_ARGS, base, count, li, stage);
    T prev = NEUTRAL, total;
    wg_scan(item_scan(ITEMS_ARG(v)), hs, li, &prev, &total);
#endif

    if (li == 0)
        publish(status, aggregates, prefixes, g, epoch, g == 0 ? STATUS_PREFIX : STATUS_AGGREGATE,
                g == 0 ? COMBINE(NEUTRAL, total) : total);

    T carry = NEUTRAL;
    if (g > 0) {
#if !CLSCAN_PARALLEL_LOOKBACK
        /* CPUs: one work-item finds the stop and folds (work-groups of a few work-items; every
         * barrier and local atomic costs more there than the short serial loops).  The window
         * is CLSCAN_WG tiles, in hs. */
        /* Fast path: the work-group reads the statuses of the CLSCAN_WG tiles before it at
         * once.  Given the nearest tile with a PREFIX in that window and AGGREGATEs for all the
         * tiles after it, the carry is that prefix folded left with those totals.  (Before tile
         * 0 there is a virtual prefix: NEUTRAL.)  Otherwise (a tile in between has not
         * published its total yet, or no tile in the window has its prefix yet) read the window
         * again, up to CLSCAN_WINDOW_POLLS times, then take the slow path. */
        __local T *window = hs;
        barrier(CLK_LOCAL_MEM_FENCE);   /* everyone has read hs in wg_scan */
        int done = 0;
        for (uint poll = 0; poll < CLSCAN_WINDOW_POLLS && !done; ++poll) {
            const long j = (long)g - 1 - (long)li;
            T value = NEUTRAL;   /* before tile 0: the virtual prefix */
            const uint s = j >= 0 ? poll_tile(status, aggregates, prefixes, j, epoch, &value) : STATUS_PREFIX;
            window[li] = value;
            l_window[li] = s;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (li == 0) {
                uint m = 0;
                while (m < CLSCAN_WG && l_window[m] == STATUS_AGGREGATE)
                    ++m;
                l_need = m < CLSCAN_WG && l_window[m] == STATUS_PREFIX;
                if (l_need) {
                    T acc = window[m];
                    for (uint i = m; i > 0; --i)
                        acc = COMBINE(acc, window[i - 1]);
                    l_value = acc;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            done = l_need;
            barrier(CLK_LOCAL_MEM_FENCE);   /* l_need and the window are rewritten next */
        }

#else
        /* Fast path: the work-group reads the statuses of the WINDOW tiles before it at once
         * (CLSCAN_LOOKBACK per work-item: the prefixes travel back that far per round trip).
         * Given the nearest tile with a PREFIX in that window and AGGREGATEs for all the tiles
         * after it, the carry is that prefix folded left with those totals.  (Before tile 0
         * there is a virtual prefix: NEUTRAL.)  Otherwise (a tile in between has not published
         * its total yet, or no tile in the window has its prefix yet) read the window again, up
         * to CLSCAN_WINDOW_POLLS times, then take the slow path.  window[w] is tile g - 1 - w. */
        int done = 0;
        for (uint poll = 0; poll < CLSCAN_WINDOW_POLLS && !done; ++poll) {
            /* Two slots for m, used in turns, so that resetting the next poll's needs no
             * barrier of its own (CPUs pay for every barrier). */
            __local uint *first = l_first + (poll & 1);
            for (uint k = 0; k < CLSCAN_LOOKBACK; ++k) {
                const uint w = k * CLSCAN_WG + li;
                const long j = (long)g - 1 - (long)w;
                T value = NEUTRAL;   /* before tile 0: the virtual prefix */
                const uint s = j >= 0 ? poll_tile(status, aggregates, prefixes, j, epoch, &value) : STATUS_PREFIX;
                window[w] = value;
                l_window[w] = s;
                /* m: the nearest tile without a total, found by all work-items at once. */
                if (s != STATUS_AGGREGATE)
                    atomic_min(first, w);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            const uint m = *first;
            if (li == 0)
                l_first[(poll + 1) & 1] = WINDOW;
            done = m < WINDOW && l_window[m] == STATUS_PREFIX;
            if (done) {   /* the same for every work-item */
#if CLSCAN_EXACT
                /* Any grouping gives the same bits: each work-item folds CLSCAN_LOOKBACK
                 * neighbouring tiles of window[m] ... window[0] in tile order (NEUTRAL in front),
                 * then the work-group primitive folds the work-items' results. */
                T y = NEUTRAL;
                for (uint k = CLSCAN_LOOKBACK; k-- > 0;) {
                    const uint w = (CLSCAN_WG - 1 - li) * CLSCAN_LOOKBACK + k;
                    if (w <= m)
                        y = COMBINE(y, window[w]);
                }
                T unused = NEUTRAL, folded;
                wg_scan(y, hs, li, &unused, &folded);
                if (li == 0)
                    l_value = folded;
#else
                /* Floats: the left fold, one combination after the other, so that the bits
                 * do not depend on where the look-back stopped.  Loads come eight at a time
                 * ahead of the combinations, which then run back to back. */
                if (li == 0) {
                    T acc = window[m];
                    uint i = m;
                    for (; i >= 8; i -= 8) {
                        T w8[8];
                        for (uint k = 0; k < 8; ++k)
                            w8[k] = window[i - 1 - k];
                        for (uint k = 0; k < 8; ++k)
                            acc = COMBINE(acc, w8[k]);
                    }
                    for (; i > 0; --i)
                        acc = COMBINE(acc, window[i - 1]);
                    l_value = acc;
                }
#endif
            }
            barrier(CLK_LOCAL_MEM_FENCE);   /* l_value and the window are rewritten next */
        }

#endif
        if (li == 0 && !done) {
            /* Slow path, one work-item, no barriers.  Phase 1: the nearest earlier tile with a
             * prefix (-1: none; start from the virtual prefix before tile 0), spinning a
             * bounded time on each status still missing. */
            T acc = NEUTRAL, value = NEUTRAL;
#ifdef CLSCAN_TEST_FALLBACK
            long found = -1;   /* tests only: recompute every total (src and dst apart) */
#else
            long found = (long)g - 1;
#endif
            for (; found >= 0; --found) {
                uint s = poll_tile(status, aggregates, prefixes, found, epoch, &value);
                for (uint spin = 0; s == 0 && spin < CLSCAN_SPIN_LIMIT; ++spin)
                    s = poll_tile(status, aggregates, prefixes, found, epoch, &value);
                if (s == STATUS_PREFIX) {
                    acc = value;
                    break;
                }
            }
            /* Phase 2: fold left from that prefix over the totals of the tiles up to g - 1; a
             * total still missing is computed here from the tile's input.  A tile that has
             * published its prefix meanwhile restarts the fold from that prefix: the left fold
             * from tile 0, the same bits. */
            for (long k = found + 1; k < (long)g; ++k) {
                uint s = poll_tile(status, aggregates, prefixes, k, epoch, &value);
#ifdef CLSCAN_TEST_FALLBACK
                s = 0;
#endif
                if (s == 0) {
                    const T alone = tile_total_alone(in IN_ARGS, (ulong)k * TILE, count, hs);
                    /* If the tile published its total meanwhile it may also have started to
                     * write its output (in-place scans): take the published value, equal by
                     * construction. */
#ifndef CLSCAN_TEST_FALLBACK
                    s = poll_tile(status, aggregates, prefixes, k, epoch, &value);
#endif
                    if (s == 0)
                        value = alone;
                }
                acc = s == STATUS_PREFIX ? value : COMBINE(acc, value);
            }
            l_value = acc;
        }
        if (li == 0)
            publish(status, aggregates, prefixes, g, epoch, STATUS_PREFIX, COMBINE(l_value, total));
        barrier(CLK_LOCAL_MEM_FENCE);
        carry = l_value;
    }

#if CLSCAN_STREAM
    stream_store(dst + dst_offset, base, count, stage, carry, CLSCAN_EXCLUSIVE);
#else
    item_apply(ITEMS_ARG(v), li > 0 ? COMBINE(carry, prev) : carry, CLSCAN_EXCLUSIVE);
    store_items(ITEMS_ARG(v), dst + dst_offset, base, count, li, stage);
#endif
}
