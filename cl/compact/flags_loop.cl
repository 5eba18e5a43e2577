/* Flags set among work-item li's CLSCAN_ITEMS consecutive elements of the block at base (CPUs:
 * any CLSCAN_ITEMS, a loop without branches where the block is full). */
inline uint count_own(FLAG_PARAMS, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    uint n = 0;
    if (base + TILE <= count) {   /* a full block: no bounds checks */
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            n += flag_at(FLAG_ARGS, first + r);
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            n += first + r < count && flag_at(FLAG_ARGS, first + r);
    }
    return n;
}
