/* Segmented scans: the operator's T, NEUTRAL and COMB (before this file) become the value of a
 * (head flag, value) pair, and the scan parts after this file scan pairs with the segmented
 * operator
 *   comb((fa, a), (fb, b)) = (fa | fb, comb(fb ? NEUTRAL : a, b))
 * which is associative (doc/operators.md) and not commutative, so the tiles, levels and
 * look-back of plain scans serve unchanged: a head cuts every carry that reaches it.
 * scan/segments_heads.cl or scan/segments_keys.cl (after this file) say where heads come from.
 * Build option: CLSCAN_PAIR_BOUND, the bytes the host reserves per pair (checked below).
 * Runs programs (CLSCAN_RUNS, reduce-by-key: scan/runs.cl) count the heads instead:
 *   comb((na, a), (nb, b)) = (na + nb, comb(nb ? NEUTRAL : a, b)),
 * the same values, and n says how many segments start in the elements combined, so the
 * inclusive prefix of element i also gives its segment's rank.
 *
 * The values are arrays of the operator's type.  The levels of tile totals of reduce-then-scan
 * are kept as heads: a value array and a uchar array of flags (a scan by key runs its levels
 * with the kernels of the heads program of the same plan). */

typedef T clscan_value;

CLSCAN_INLINE clscan_value clscan_value_neutral(void)
{
    return NEUTRAL;
}

CLSCAN_INLINE clscan_value clscan_value_comb(clscan_value a, clscan_value b)
{
    return COMB(a, b);
}

#undef T
#undef NEUTRAL
#undef COMB
#undef COMB_STEP

#ifdef CLSCAN_RUNS
typedef uint clscan_heads;
#define HEADS_JOIN(a, b) ((a) + (b))
#else
typedef uchar clscan_heads;
#define HEADS_JOIN(a, b) ((a) | (b))
#endif

/* h: some segment starts within the elements combined (runs programs: how many).  (An exclusive scan also needs each
 * element's own head, to give a segment's first element the neutral value: the work-items keep
 * it with the element, in their flags, so the pair never carries it.) */
typedef struct clscan_pair {
    clscan_value v;
    clscan_heads h;
} clscan_pair;

/* The host sizes local and scratch memory with CLSCAN_PAIR_BOUND bytes per pair. */
typedef char clscan_pair_fits_its_bound[(sizeof(clscan_pair) <= CLSCAN_PAIR_BOUND) ? 1 : -1];

CLSCAN_INLINE clscan_pair clscan_pair_make(clscan_value v, clscan_heads h)
{
    clscan_pair p;
    p.v = v;
    p.h = h;
    return p;
}

CLSCAN_INLINE clscan_pair clscan_pair_neutral(void)
{
    return clscan_pair_make(clscan_value_neutral(), 0);
}

/* a is the previous pair, b the current one.  A head restarts from the neutral value rather
 * than taking b as it is, so that a segment's scan has the bits of a scan of that segment alone
 * (comb(NEUTRAL, b) need not be b bitwise: LAST_NONZERO turns -0.0 into +0.0). */
CLSCAN_INLINE clscan_pair clscan_pair_comb(clscan_pair a, clscan_pair b)
{
    clscan_pair r;
    r.v = clscan_value_comb(b.h ? clscan_value_neutral() : a.v, b.v);
    r.h = HEADS_JOIN(a.h, b.h);
    return r;
}

#define T clscan_pair
#define NEUTRAL clscan_pair_neutral()
#define COMB(a, b) clscan_pair_comb((a), (b))
#define COMB_STEP(a, b) COMB((a), (b))

/* A work-item's flags (scan/items_segmented.cl): bit 0 (FLAG_OWN) the element starts a
 * segment; the bits above (FLAG_RUN) a segment starts in its run up to it (the pair's h after
 * the work-item's sequential scan; runs programs: how many, as flags >> 1, in uints). */
typedef clscan_heads clscan_flags;
#define FLAG_OWN 1
#define FLAG_RUN ((clscan_flags)~1u)
#define FLAGS_HEADS(f) ((clscan_heads)((f) >> 1))
#ifdef CLSCAN_RUNS
#define FLAGS_JOIN(before, f) ((f) + ((before) & FLAG_RUN))
#else
#define FLAGS_JOIN(before, f) ((f) | ((before) & FLAG_RUN))
#endif

CLSCAN_INLINE clscan_flags head_flags(uchar h)   /* h: 0 or 1 */
{
    return h * (FLAG_OWN | 2);   /* the element's own head, and one head in the run */
}

/* Where elements come from and go to (see scan/io_plain.cl).  Both the heads and the keys are
 * parameters of every segmented kernel; the program uses one of them (the segments part). */
#define STORE_OUT(dst, i, x) ((dst)[i] = (x))
#define AS_T(x) clscan_pair_make((x), 0)
#define OUT_OF(t) (t).v
#define IN_T clscan_value
#define OUT_T clscan_value
#define OPT_T clscan_value
#define LEVELS_IN(p) (p)
#define IN_PARAMS , __global const uchar *heads, __global const KEY_T *keys
#define IN_ARGS , heads, keys
#define IN_KERNEL_PARAMS , __global const uchar *heads_buf, ulong heads_offset, \
                           __global const KEY_T *keys_buf, ulong keys_offset
#define IN_KERNEL_LOCALS __global const uchar *heads = heads_buf + heads_offset; \
                         __global const KEY_T *keys = keys_buf + keys_offset;
/* A carry's flag never changes a value to its right, so carries are kept as values only. */
#define CARRY_T clscan_value
#define CARRY_AT(c, i) clscan_pair_make((c)[i], 0)
/* Tile totals: the value, and in totals_heads (same indices) whether a segment starts in the
 * tile (runs programs: how many). */
#define TOTALS_PARAMS , __global clscan_heads *totals_heads
#define STORE_TOTAL(t, i, x) ((t)[i] = (x).v, totals_heads[i] = (x).h)
