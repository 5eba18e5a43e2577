/* clscan segmented scans: the operator's T, NEUTRAL and COMB (from clscan_ops.cl or a custom
 * operator, before this file) become the value of a (head flag, value) pair, and the scan
 * kernels of clscan_scan.cl, included after this file, scan pairs with the segmented operator
 *   comb((fa, a), (fb, b)) = (fa | fb, comb(fb ? NEUTRAL : a, b))
 * which is associative (doc/operators.md) and not commutative, so the tiles, levels and
 * look-back of the plain scan serve unchanged: a head cuts every carry that reaches it.
 *
 * Needs from the build options:
 *   CLSCAN_PAIR_BOUND  the bytes the host reserves per pair (checked below)
 * Optional:
 *   CLSCAN_KEY_TYPE    a scan by key, with keys of this integer type (uint or ulong: keys are
 *                      only compared for equality, so signedness does not matter)
 *
 * Sources and destinations: the values are arrays of the operator's type; the heads are read
 * from a uchar array, or (by key) computed as keys[i] != keys[i-1]; element 0 of a scan always
 * starts a segment.  The levels of tile totals of reduce-then-scan are kept in the same form as
 * heads, a value array and a uchar array of flags: a scan by key runs its levels with the
 * kernels of the heads program of the same plan (same pairs, same tiles).  The choice between
 * heads and keys is made at compile time: a run-time switch in the loads costs a CPU its
 * vectorisation. */

#define CLSCAN_SEGMENTED 1

typedef T clscan_value;

inline clscan_value clscan_value_neutral(void)
{
    return NEUTRAL;
}

inline clscan_value clscan_value_comb(clscan_value a, clscan_value b)
{
    return COMB(a, b);
}

#undef T
#undef NEUTRAL
#undef COMB

/* h: some segment starts within the elements combined.  (Exclusive scans also need each
 * element's own head, to give a segment's first element the neutral value: the work-items keep
 * it with the element, in the flags of their registers, so the pair never carries it.) */
typedef struct clscan_pair {
    clscan_value v;
    uchar h;
} clscan_pair;

/* The host sizes local and scratch memory with CLSCAN_PAIR_BOUND bytes per pair. */
typedef char clscan_pair_fits_its_bound[(sizeof(clscan_pair) <= CLSCAN_PAIR_BOUND) ? 1 : -1];

inline clscan_pair clscan_pair_make(clscan_value v, uchar h)
{
    clscan_pair p;
    p.v = v;
    p.h = h;
    return p;
}

inline clscan_pair clscan_pair_neutral(void)
{
    return clscan_pair_make(clscan_value_neutral(), 0);
}

/* a is the previous pair, b the current one.  A head restarts from the neutral value rather
 * than taking b as it is, so that a segment's scan has the bits of a scan of that segment alone
 * (comb(NEUTRAL, b) need not be b bitwise: LAST_NONZERO turns -0.0 into +0.0). */
inline clscan_pair clscan_pair_comb(clscan_pair a, clscan_pair b)
{
    clscan_pair r;
    r.v = clscan_value_comb(b.h ? clscan_value_neutral() : a.v, b.v);
    r.h = a.h | b.h;
    return r;
}

#define T clscan_pair
#define NEUTRAL clscan_pair_neutral()
#define COMB(a, b) clscan_pair_comb((a), (b))

#ifdef CLSCAN_KEY_TYPE
#define KEY_T CLSCAN_KEY_TYPE
#else
#define KEY_T uchar   /* unused */
#endif

/* Whether element i starts a segment (without branches: element 0 compares its key with
 * itself). */
inline uchar clscan_head(__global const uchar *heads, __global const KEY_T *keys, ulong i)
{
#ifdef CLSCAN_KEY_TYPE
    (void)heads;
    return (i == 0) | (keys[i] != keys[i - (i != 0)]);
#else
    (void)keys;
    return (i == 0) | (heads[i] != 0);
#endif
}

/* The same for an element i > 0. */
inline uchar clscan_head_after_first(__global const uchar *heads, __global const KEY_T *keys, ulong i)
{
#ifdef CLSCAN_KEY_TYPE
    (void)heads;
    return keys[i] != keys[i - 1];
#else
    (void)keys;
    return heads[i] != 0;
#endif
}

/* The hooks of clscan_scan.cl (see there). */
#define IN_T clscan_value
#define OUT_T clscan_value
#define IN_PARAMS , __global const uchar *heads, __global const KEY_T *keys
#define IN_ARGS , heads, keys
#define IN_KERNEL_PARAMS , __global const uchar *heads_buf, ulong heads_offset, \
                           __global const KEY_T *keys_buf, ulong keys_offset
#define IN_KERNEL_LOCALS __global const uchar *heads = heads_buf + heads_offset; \
                         __global const KEY_T *keys = keys_buf + keys_offset;
/* (The loads, stores and the work-item's sequential loops have versions of their own for
 * segmented programs in clscan_scan.cl: values and flags kept apart.) */
/* A carry's flag never changes a value to its right, so carries are kept as values only. */
#define CARRY_AT(c, i) clscan_pair_make((c)[i], 0)
/* Tile totals: the value, and in totals_heads (same indices) whether a segment starts in the
 * tile. */
#define TOTALS_PARAMS , __global uchar *totals_heads
#define STORE_TOTAL(t, i, x) ((t)[i] = (x).v, totals_heads[i] = (x).h)
