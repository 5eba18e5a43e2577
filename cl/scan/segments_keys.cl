/* Segments given by keys: element i starts a segment if keys[i] != keys[i - 1] (element 0
 * always).  Keys are only compared for equality, so CLSCAN_KEY_TYPE is uint or ulong whatever
 * their signedness.  The heads parameter of the kernels is unused. */
#define KEY_T CLSCAN_KEY_TYPE

/* Whether element i starts a segment (without a branch: element 0 compares its key with
 * itself). */
CLSCAN_INLINE uchar clscan_head(__global const uchar *heads, __global const KEY_T *keys, ulong i)
{
    return (i == 0) | (keys[i] != keys[i - (i != 0)]);
}

/* The flags of a work-item's full run of elements from first on: the first element of each run
 * (which may be element 0), then the others one run after the other (measured on PoCL: in step
 * with the values, the key comparisons stayed scalar and the scan by key ran twice as slow). */
CLSCAN_INLINE void flags_load_full(clscan_flags *f, __global const uchar *heads, __global const KEY_T *keys, ulong first)
{
    for (uint l = 0; l < CLSCAN_LANES; ++l)
        f[VIDX(l, 0)] = head_flags(clscan_head(heads, keys, first + l * RUN));
    for (uint l = 0; l < CLSCAN_LANES; ++l)
        for (uint r = 1; r < RUN; ++r)
            f[VIDX(l, r)] = head_flags(keys[first + l * RUN + r] != keys[first + l * RUN + r - 1]);
}
