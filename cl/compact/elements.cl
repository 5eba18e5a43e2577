/* clscan stream compaction: keep the elements whose flag is set, in order.
 *
 * A program is this file, common/compress.cl and compact/compress.cl (CPUs' vector stores),
 * cl/common/wg_sum.cl, select/index.cl, select/runs.cl, one flag source (where the flags come from:
 * select/from_flags.cl, the user's uchar array; select/from_predicate.cl, after a predicate's
 * definitions, the predicate of each element; select/from_runs.cl, whether an element starts a
 * run of equal ones), a flags part (compact/flags_loop.cl on CPUs,
 * compact/flags_bits.cl on GPUs), compact/count.cl, a scatter (compact/scatter_list.cl and
 * select/partition.cl on CPUs, compact/scatter_block.cl and select/partition_block.cl on GPUs):
 * lib/compact.c.  Build options:
 *   CLSCAN_WG          work-items per work-group (a power of two)
 *   CLSCAN_ITEMS       flags each work-item handles (consecutive ones, so that its kept
 *                      elements come out in order)
 *   CLSCAN_WORD        the widest of uint4, uint2, uint and uchar that divides an element's size
 *   CLSCAN_WORDS       the words of one element
 *   CLSCAN_SELECT_STRIDED  1 (GPUs): the work-items of the kernels that only count or make
 *                      flags take neighbouring elements
 *   CLSCAN_FLAGS_GIVEN 1 with select/from_flags.cl (the flags are bytes in memory, read 16 at a
 *                      time on GPUs), else 0
 * A block is CLSCAN_WG * CLSCAN_ITEMS consecutive elements, one per work-group:
 *   clscan_compact_count    counts[b] = flags set in block b (and counts[nblocks] = 0);
 *   (the host scans counts[0 ... nblocks] exclusively with clscan: offsets, the last = total)
 *   clscan_compact_scatter_*  writes the block's kept elements (or their indices) in order
 *                           from offsets[b]; work-group 0 writes the total as a ulong.
 * The flag sources evaluate their flags where the kernels need them, so that a selection by a
 * predicate or of runs reads src twice (count, scatter) and writes no flags.
 * Positions past count are skipped, and every work-item reaches every barrier. */
#define TILE (CLSCAN_WG * CLSCAN_ITEMS)
typedef CLSCAN_WORD W;
#define WORDS CLSCAN_WORDS
/* The arguments every flag source takes (select/from_*.cl: flag_at), first in every kernel. */
#define FLAG_PARAMS __global const W *src, ulong src_offset, __global const uchar *flags, ulong flags_offset
#define FLAG_ARGS src, src_offset, flags, flags_offset
