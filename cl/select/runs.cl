/* Where runs of equal elements (the same CLSCAN_WORDS words, bytewise) start: flags[j] = j == 0
 * or element j differs from element j - 1, and flags[count] = 1.  So flags[0 ... count) flag the
 * first element of each run (unique, unique_by_key, the heads of reduce_by_key's segmented scan)
 * and flags[1 ... count] the last (reduce_by_key: where each run's reduction is). */
inline uchar clscan_runs_differ(__global const W *a, __global const W *b)
{
    /* Vector words compare by components: the element as uints, or as its uchar words. */
    const uint n = sizeof(W) >= 4 ? WORDS * sizeof(W) / 4 : WORDS;
    __global const uint *x = (__global const uint *)a, *y = (__global const uint *)b;
    __global const uchar *p = (__global const uchar *)a, *q = (__global const uchar *)b;
    uchar d = 0;
    for (uint w = 0; w < n; ++w)
        d |= sizeof(W) >= 4 ? x[w] != y[w] : p[w] != q[w];
    return d;
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_select_flags_runs(__global const W *src, ulong src_offset, ulong count, __global uchar *flags)
{
    const uint li = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * TILE;
    __global const W *s = src + src_offset * WORDS;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const ulong j = select_index(base, li, r);
        if (j >= count)
            continue;
        flags[j] = j == 0 || clscan_runs_differ(s + j * WORDS, s + (j - 1) * WORDS);
        if (j == count - 1)
            flags[count] = 1;
    }
}
