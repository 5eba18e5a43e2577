/* Flags set among the n elements from first (CPUs: a loop without branches).  Element 0 of the
 * range is taken before the loop, so that unique's flags (element i differs from i - 1) test no
 * index inside it: with the test, PoCL vectorised the loop into masked loads and index
 * compares (2^22 uint32, cycles in the one pass over 21 calls, three rounds alternating: 107-112
 * million against 201-265). */
inline uint count_range(FLAG_PARAMS, ulong first, uint n)
{
    uint kept = 0, r = 0;
    if (first == 0 && n) {
        kept = flag_at(FLAG_ARGS, 0);
        r = 1;
    }
    for (; r < n; ++r)
        kept += flag_past_first(FLAG_ARGS, first + r);
    return kept;
}

/* The flags of the n (at most 32) elements from i as the bits of a uint, bit k element i + k's
 * (the vector compress stores of compact/compress.cl); flags_mask_past_first, the same for i > 0
 * (see count_range). */
inline uint flags_mask(FLAG_PARAMS, ulong i, uint n)
{
    uint m = 0;
    for (uint k = 0; k < n; ++k)
        m |= flag_at(FLAG_ARGS, i + k) << k;
    return m;
}

inline uint flags_mask_past_first(FLAG_PARAMS, ulong i, uint n)
{
    uint m = 0;
    for (uint k = 0; k < n; ++k)
        m |= flag_past_first(FLAG_ARGS, i + k) << k;
    return m;
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
