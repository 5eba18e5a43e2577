/* Segments given by head flags: element i starts a segment if heads[i] != 0 (element 0
 * always).  The keys parameter of the kernels is unused. */
#define KEY_T uchar

/* Whether element i starts a segment (without a branch). */
CLSCAN_INLINE uchar clscan_head(__global const uchar *heads, __global const KEY_T *keys, ulong i)
{
    return (i == 0) | (heads[i] != 0);
}

/* The flags of a work-item's full run of elements from first on: the first element of each run
 * (which may be element 0), then the others, run by run in step, as the values are loaded
 * (measured on PoCL: the fastest order for heads). */
CLSCAN_INLINE void flags_load_full(clscan_flags *f, __global const uchar *heads, __global const KEY_T *keys, ulong first)
{
    for (uint l = 0; l < CLSCAN_LANES; ++l)
        f[VIDX(l, 0)] = head_flags(clscan_head(heads, keys, first + l * RUN));
    for (uint r = 1; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            f[VIDX(l, r)] = head_flags(heads[first + l * RUN + r] != 0);
}
