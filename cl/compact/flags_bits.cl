/* The flags of the block at base on GPUs (CLSCAN_ITEMS <= 32): own_flags gives work-item li's
 * CLSCAN_ITEMS consecutive flags as the bits of a uint (bit r: flag first + r; positions past
 * count clear), count_own the number of flags set among li's share of the block. */

/* 16 byte flags (little-endian words) as 16 bits. */
inline uint bits16(uint4 x)
{
    const uint words[4] = {x.s0, x.s1, x.s2, x.s3};
    uint bits = 0;
    for (uint j = 0; j < 4; ++j)
        for (uint b = 0; b < 4; ++b)   /* byte b of word j is flag 4j + b */
            bits |= (uint)(((words[j] >> (8 * b)) & 0xffu) != 0) << (4 * j + b);
    return bits;
}

/* Given flags: a full block's are read 16 at a time when they are 16-byte aligned. */
inline uint given_bits(__global const uchar *flags, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    uint bits = 0;
    if (CLSCAN_ITEMS % 16 == 0 && base + TILE <= count && ((ulong)(flags + first) & 15) == 0) {
        __global const uint4 *q = (__global const uint4 *)(flags + first);
        for (uint v = 0; v < CLSCAN_ITEMS / 16; ++v)
            bits |= bits16(q[v]) << (16 * v);
        return bits;
    }
    if (base + TILE <= count) {   /* a full block: no bounds checks */
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            bits |= (uint)(flags[first + r] != 0) << r;
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            bits |= (uint)(first + r < count && flags[first + r] != 0) << r;
    }
    return bits;
}

/* Evaluated flags (a predicate, runs) are taken by neighbouring work-items for neighbouring
 * elements, so that the reads of src coalesce; the order does not matter to a count. */
inline uint count_own(FLAG_PARAMS, ulong base, ulong count, uint li)
{
    if (CLSCAN_FLAGS_GIVEN)
        return popcount(given_bits(flags + flags_offset, base, count, li));
    uint n = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const ulong j = base + (ulong)r * CLSCAN_WG + li;
        n += j < count && flag_at(FLAG_ARGS, j);
    }
    return n;
}

/* stage: TILE bytes of local memory, 16-byte aligned (unused with given flags).  Evaluated flags
 * go through it: written by neighbouring work-items for neighbouring elements (coalesced reads
 * of src), read back as each work-item's consecutive ones.  Every work-item must call it. */
inline uint own_flags(FLAG_PARAMS, ulong base, ulong count, uint li, __local uchar *stage)
{
    if (CLSCAN_FLAGS_GIVEN)
        return given_bits(flags + flags_offset, base, count, li);
    if (base + TILE <= count) {   /* a full block: every flag evaluated before any is staged */
        uchar f[CLSCAN_ITEMS];
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            f[r] = flag_at(FLAG_ARGS, base + (ulong)r * CLSCAN_WG + li) != 0;
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            stage[r * CLSCAN_WG + li] = f[r];
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const ulong j = base + (ulong)r * CLSCAN_WG + li;
            stage[r * CLSCAN_WG + li] = j < count && flag_at(FLAG_ARGS, j);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint bits = 0;
    if (CLSCAN_ITEMS % 16 == 0) {   /* 16 bytes a read: no bank conflicts */
        __local const uint4 *q = (__local const uint4 *)(stage + li * CLSCAN_ITEMS);
        for (uint v = 0; v < CLSCAN_ITEMS / 16; ++v)
            bits |= bits16(q[v]) << (16 * v);
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            bits |= (uint)stage[li * CLSCAN_ITEMS + r] << r;
    }
    return bits;
}
