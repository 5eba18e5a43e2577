/* Work-item li's CLSCAN_ITEMS (<= 32) consecutive flags of the block at base as the bits of a
 * uint (bit r: flag first + r is set; positions past count clear), and their count (GPUs).
 * A full block's flags are read 16 at a time when they are 16-byte aligned. */
inline uint own_flags(__global const uchar *flags, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    uint bits = 0;
    if (CLSCAN_ITEMS % 16 == 0 && base + TILE <= count && ((ulong)(flags + first) & 15) == 0) {
        __global const uint4 *q = (__global const uint4 *)(flags + first);
        for (uint v = 0; v < CLSCAN_ITEMS / 16; ++v) {
            const uint4 x = q[v];
            const uint words[4] = {x.s0, x.s1, x.s2, x.s3};
            for (uint j = 0; j < 4; ++j)
                for (uint b = 0; b < 4; ++b)   /* little-endian: byte b is flag 4j + b */
                    bits |= (uint)(((words[j] >> (8 * b)) & 0xffu) != 0) << (16 * v + 4 * j + b);
        }
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

inline uint count_own(__global const uchar *flags, ulong base, ulong count, uint li)
{
    return popcount(own_flags(flags, base, count, li));
}
