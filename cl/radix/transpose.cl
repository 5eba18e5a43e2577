/* Transposes of the keys and of the values (clscan_axis_sort_enqueue's columns): the rows x cols
 * array src (row r from src_offset + r * src_pitch) into the cols x rows array dst (row c from
 * dst_offset + c * dst_pitch), in tiles of CLSCAN_TR_TILE x CLSCAN_TR_TILE elements through local
 * memory, so that both the reads (along a row of src) and the writes (along a row of dst) of
 * neighbouring work-items are neighbouring elements: coalesced both ways (the tiled transpose of
 * Ruetsch and Micikevicius, "Optimizing Matrix Transpose in CUDA", 2009; a tile's rows padded by
 * one element against bank conflicts).  Work-group g moves tile (g / tiles_x, g % tiles_x); its
 * CLSCAN_TR_WG work-items take CLSCAN_TR_WG / CLSCAN_TR_TILE rows of the tile at a time.  The
 * elements between cols and a pitch are neither read nor written.  Values move word by word
 * (a value of CLSCAN_VALUE_WORDS words: one tile of words each), so the local memory stays one
 * tile of words whatever the value size. */
#define TR_STEP (CLSCAN_TR_WG / CLSCAN_TR_TILE)

#define TR_PARAMS ulong src_offset, ulong src_pitch, ulong dst_offset, ulong dst_pitch, ulong rows, ulong cols, \
                  ulong tiles_x
#define TR_PLACE()                                                                        \
    const ulong g = get_group_id(0), r0 = g / tiles_x * CLSCAN_TR_TILE,                    \
                c0 = g % tiles_x * CLSCAN_TR_TILE;                                         \
    const uint x = get_local_id(0) % CLSCAN_TR_TILE, y0 = get_local_id(0) / CLSCAN_TR_TILE

__kernel __attribute__((reqd_work_group_size(CLSCAN_TR_WG, 1, 1)))
void clscan_radix_transpose_keys(__global const K *src, __global K *dst, TR_PARAMS)
{
    __local K tile[CLSCAN_TR_TILE][CLSCAN_TR_TILE + 1];
    TR_PLACE();
    for (uint y = y0; y < CLSCAN_TR_TILE; y += TR_STEP)
        if (r0 + y < rows && c0 + x < cols)
            tile[y][x] = src[src_offset + (r0 + y) * src_pitch + c0 + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint y = y0; y < CLSCAN_TR_TILE; y += TR_STEP)
        if (c0 + y < cols && r0 + x < rows)
            dst[dst_offset + (c0 + y) * dst_pitch + r0 + x] = tile[x][y];
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_TR_WG, 1, 1)))
void clscan_radix_transpose_values(__global const VW *src, __global VW *dst, TR_PARAMS)
{
    __local VW tile[CLSCAN_TR_TILE][CLSCAN_TR_TILE + 1];
    TR_PLACE();
    for (uint w = 0; w < CLSCAN_VALUE_WORDS; ++w) {
        for (uint y = y0; y < CLSCAN_TR_TILE; y += TR_STEP)
            if (r0 + y < rows && c0 + x < cols)
                tile[y][x] = src[(src_offset + (r0 + y) * src_pitch + c0 + x) * CLSCAN_VALUE_WORDS + w];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint y = y0; y < CLSCAN_TR_TILE; y += TR_STEP)
            if (c0 + y < cols && r0 + x < rows)
                dst[(dst_offset + (c0 + y) * dst_pitch + r0 + x) * CLSCAN_VALUE_WORDS + w] = tile[x][y];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
