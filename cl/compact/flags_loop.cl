/* Flags set among work-item li's CLSCAN_ITEMS consecutive flags of the block at base (CPUs:
 * any CLSCAN_ITEMS, a loop without branches). */
inline uint count_own(__global const uchar *flags, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    uint n = 0;
    if (base + TILE <= count) {   /* a full block: no bounds checks */
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            n += flags[first + r] != 0;
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            n += first + r < count && flags[first + r] != 0;
    }
    return n;
}
