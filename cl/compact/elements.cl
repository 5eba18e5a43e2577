/* clscan stream compaction: keep the elements whose uchar flag is non-zero, in order.
 *
 * A program is this file, cl/common/wg_sum.cl, a flags part (compact/flags_loop.cl on CPUs,
 * compact/flags_bits.cl on GPUs), compact/count.cl and a scatter (compact/scatter_list.cl on
 * CPUs, compact/scatter_block.cl on GPUs), then the selections' parts (select/partition.cl,
 * select/index.cl, select/runs.cl and, after a predicate's definitions, select/flags_if.cl:
 * lib/select.c, lib/runs.c).  Build options:
 *   CLSCAN_WG          work-items per work-group (a power of two)
 *   CLSCAN_ITEMS       flags each work-item handles (consecutive ones, so that its kept
 *                      elements come out in order)
 *   CLSCAN_WORD        the widest of uint4, uint2, uint and uchar that divides an element's size
 *   CLSCAN_WORDS       the words of one element
 *   CLSCAN_SELECT_STRIDED  1 (GPUs): the flags kernels' work-items take neighbouring elements
 * A block is CLSCAN_WG * CLSCAN_ITEMS consecutive elements, one per work-group:
 *   clscan_compact_count    counts[b] = flags set in block b (and counts[nblocks] = 0);
 *   (the host scans counts[0 ... nblocks] exclusively with clscan: offsets, the last = total)
 *   clscan_compact_scatter_*  writes the block's kept elements (or their indices) in order
 *                           from offsets[b]; work-group 0 writes the total as a ulong.
 * Positions past count are skipped, and every work-item reaches every barrier. */
#define TILE (CLSCAN_WG * CLSCAN_ITEMS)
typedef CLSCAN_WORD W;
#define WORDS CLSCAN_WORDS
