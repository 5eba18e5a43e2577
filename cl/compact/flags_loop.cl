/* Flags set among the n elements from first (CPUs: a loop without branches). */
inline uint count_range(FLAG_PARAMS, ulong first, uint n)
{
    uint kept = 0;
    for (uint r = 0; r < n; ++r)
        kept += flag_at(FLAG_ARGS, first + r);
    return kept;
}

/* Flags set among work-item li's CLSCAN_ITEMS consecutive elements of the block at base (CPUs:
 * any CLSCAN_ITEMS; a full block's loop has a constant length). */
inline uint count_own(FLAG_PARAMS, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count)   /* a full block: no bounds checks */
        return count_range(FLAG_ARGS, first, CLSCAN_ITEMS);
    return first < count ? count_range(FLAG_ARGS, first, (uint)min((ulong)CLSCAN_ITEMS, count - first)) : 0;
}
