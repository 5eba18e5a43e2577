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

/* The flags of the n (8 or 4) elements from i as the bits of a uint, bit k element i + k's (the
 * vector compress stores of compact/compress.cl); flags_mask_past_first, the same for i > 0 (see
 * count_range).  The flags are gathered into a vector, whose mask common/compress.cl takes by one
 * compare: a loop over k was vectorised by PoCL 3.1 but left a loop of scalars by PoCL 5.0,
 * where the compress stores then lost up to a third to the scalar stores (doc/performance.md). */
#define FLAGS4(f) (f(FLAG_ARGS, i), f(FLAG_ARGS, i + 1), f(FLAG_ARGS, i + 2), f(FLAG_ARGS, i + 3))
#define FLAGS8(f) (f(FLAG_ARGS, i), f(FLAG_ARGS, i + 1), f(FLAG_ARGS, i + 2), f(FLAG_ARGS, i + 3), \
                   f(FLAG_ARGS, i + 4), f(FLAG_ARGS, i + 5), f(FLAG_ARGS, i + 6), f(FLAG_ARGS, i + 7))

inline uint flags_mask(FLAG_PARAMS, ulong i, uint n)
{
    return n == 8 ? lanes_mask8(as_int8((uint8)FLAGS8(flag_at))) : lanes_mask4(as_int4((uint4)FLAGS4(flag_at)));
}

inline uint flags_mask_past_first(FLAG_PARAMS, ulong i, uint n)
{
    return n == 8 ? lanes_mask8(as_int8((uint8)FLAGS8(flag_past_first)))
                  : lanes_mask4(as_int4((uint4)FLAGS4(flag_past_first)));
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
