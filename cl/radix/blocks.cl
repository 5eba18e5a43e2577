/* The blocks of the passes over the whole array, and the segments they sort on their own.
 *
 * A pass sorts each segment of the keys on its own; the plain sort has one segment, all the
 * keys.  A segment of n keys has ceil(n / TILE) blocks of its own (one work-group each), and its
 * (digit, block) counts are laid out digit-major among themselves, the segments one after the
 * other: the counts of block j of segment s, digit d, at slot0 + d * stride with slot0 =
 * RADIX * first + j and stride its number of blocks (first: its first block).  One exclusive
 * scan of all the counts then gives each (segment, digit, block) the keys of smaller digits in
 * its segment, of its digit in the segment's earlier blocks, and of the segments before it:
 * the scatter replaces the last by the segment's start (keys of segments that the passes skip
 * are in neither).
 *   Uniform segments (seg_length > 0: the plain sort, seg_length = count, or the rows of a 2-D
 *   array): seg_blocks blocks each, work-group g in segment g / seg_blocks.
 *   Segments by offsets (seg_length = 0): first_block[s] is segment s's first block (an exclusive
 *   scan of the blocks of each, radix/segment_blocks.cl; those the passes skip have none),
 *   first_block[nsegments] their total; the work-groups past it have no keys and write the
 *   counts' remaining slots (zeros), so that the scan reads only counts written.  A total above
 *   nblocks (offsets that break the rules) leaves every block empty, and so does a block whose
 *   counts would fall outside the table (stride 0: it writes nothing).
 * Positions are the scratch's (no gaps); the inputs of the first pass and the outputs of the
 * last are moved by seg * gap elements (rows with a pitch). */
#define BLOCK_MAP_PARAMS                                                                                     \
    ulong seg_length, uint seg_blocks, __global const uint *first_block, __global const uint *seg_offsets,  \
        ulong seg_offsets_offset, uint seg_wide, ulong nsegments, ulong in_gap, ulong out_gap
#define BLOCK_MAP_ARGS seg_length, seg_blocks, first_block, seg_offsets, seg_offsets_offset, seg_wide, nsegments

typedef struct {
    ulong seg;        /* the segment */
    ulong seg_begin;  /* its first key */
    ulong begin;      /* the block's first key */
    uint n;           /* its keys (0: none) */
    ulong slot0;      /* its counts: digit d at slot0 + d * stride */
    ulong seg_slot;   /* the slot of (digit 0, block 0) of its segment */
    uint stride;
} radix_block;

inline ulong block_offset(__global const uint *offsets, ulong offsets_offset, uint wide, ulong s, ulong count)
{
    const ulong o = wide ? ((__global const ulong *)offsets)[offsets_offset + s] : (ulong)offsets[offsets_offset + s];
    return min(o, count);
}

/* Block g of the whole array (the plain sort). */
inline radix_block block_whole(uint g, uint nblocks, ulong count)
{
    radix_block b;
    b.seg = b.seg_begin = b.seg_slot = 0;
    b.begin = (ulong)g * TILE;
    b.n = (uint)min((ulong)TILE, count - b.begin);
    b.slot0 = g;
    b.stride = nblocks;
    return b;
}

inline radix_block block_of(uint g, uint nblocks, ulong count, ulong seg_length, uint seg_blocks,
                            __global const uint *first_block, __global const uint *seg_offsets,
                            ulong seg_offsets_offset, uint seg_wide, ulong nsegments)
{
    radix_block b;
    if (seg_length) {
        const uint j = g % seg_blocks;
        b.seg = g / seg_blocks;
        b.seg_begin = b.seg * seg_length;
        b.begin = b.seg_begin + (ulong)j * TILE;
        b.n = (uint)min((ulong)TILE, seg_length - (ulong)j * TILE);
        b.seg_slot = b.seg * RADIX * seg_blocks;
        b.slot0 = b.seg_slot + j;
        b.stride = seg_blocks;
        return b;
    }
    const uint total = first_block[nsegments];
    b.seg = 0;
    b.seg_begin = b.begin = 0;
    b.n = 0;
    b.seg_slot = 0;
    if (total > nblocks) {   /* offsets that break the rules: no block, no count written */
        b.slot0 = (ulong)RADIX * nblocks;
        b.stride = 0;
        return b;
    }
    if (g >= total) {        /* the slots past the segments' counts */
        b.slot0 = (ulong)RADIX * total + (g - total);
        b.stride = nblocks - total;
        return b;
    }
    /* The last segment whose first block is at most g (segments without blocks share theirs
     * with the next one). */
    ulong lo = 0, hi = nsegments - 1;
    while (lo < hi) {
        const ulong mid = (lo + hi + 1) / 2;
        if (first_block[mid] <= g)
            lo = mid;
        else
            hi = mid - 1;
    }
    const uint j = g - first_block[lo];
    b.seg = lo;
    b.seg_begin = block_offset(seg_offsets, seg_offsets_offset, seg_wide, lo, count);
    const ulong end = max(block_offset(seg_offsets, seg_offsets_offset, seg_wide, lo + 1, count), b.seg_begin);
    b.begin = b.seg_begin + (ulong)j * TILE;
    b.n = b.begin < end ? (uint)min((ulong)TILE, end - b.begin) : 0;
    b.seg_slot = (ulong)RADIX * first_block[lo];
    b.slot0 = b.seg_slot + j;
    b.stride = first_block[lo + 1] - first_block[lo];
    if (b.seg_slot + (ulong)RADIX * b.stride > (ulong)RADIX * nblocks)   /* a scan that wrapped: no block */
        b.n = b.stride = 0;
    return b;
}
