/* The radix sort engine's tuning, decided once from the device: its blocks, the segmented
 * sort's work-groups, the limits between its kernels and the bucket offsets' choice, with the
 * measurements behind each. */
#include "algo.h"

/* Local memory of the table scatter: the (digit, work-item) table with its padding, the segment
 * totals and the digits' destinations. */
static cl_ulong table_local_bytes(size_t wg)
{
    const cl_ulong cells = (cl_ulong)RADIX * wg + 2 * wg;
    return cells * sizeof(cl_ushort) + (wg + RADIX) * sizeof(cl_uint);
}

/* The segmented kernel's (digit, work-item) table without its padding (the bitonic sort's pairs
 * live there), and all of that kernel's local memory (radix/segmented.cl). */
static cl_ulong segmented_table_bytes(size_t wg)
{
    return (cl_ulong)RADIX * wg * sizeof(cl_ushort);
}

static cl_ulong segmented_local_bytes(size_t wg)
{
    return table_local_bytes(wg) + (RADIX + 1) * sizeof(cl_uint);
}

/* The ranking scatter (radix/scatter_ranked.cl, RADIX work-items): the (warp, digit) counts, two
 * sets of (warp, digit) lane masks (16 KiB, later the block's keys staged: the larger of the two),
 * the digits' destinations and the block's order. */
static cl_ulong ranked_local_bytes(size_t items, size_t key_size)
{
    const cl_ulong warps = RADIX / 32, masks = 2 * warps * RADIX * sizeof(cl_uint);
    const cl_ulong staged = (cl_ulong)RADIX * items * key_size;
    return (warps * RADIX + RADIX) * sizeof(cl_uint) + (masks > staged ? masks : staged) +
           (cl_ulong)RADIX * items * sizeof(cl_ushort);
}

/* GPUs: RADIX work-items with the ranking scatter (coalesced loads, 33-46 KiB of local memory, 8
 * warps per work-group; H200, 2^26 uint32 keys: 3.0 ms against 6.6 ms for 32 work-items with the
 * table, in that scatter's first form) x keys a work-item: 32 of 1 or 2 bytes, 8 of 8 (the 16 KiB
 * of lane masks stage them), 24 of 4 bytes with values and 20 without (the staging grown to the
 * block; fewer where local memory is short).  H200, three rounds alternating in one build, 2^26:
 * uint32 pairs 2.395-2.398 ms with 24 against 2.693-2.697 with 20 and 2.950 with 16, bucketing
 * 1.430-1.433 against 1.547-1.549 and 1.678; uint32 keys 1.945-1.946 with 20 against 2.076-2.077
 * with 24 and 2.139, float 1.874-1.876 against 2.086 and 2.019; uint8 keys 0.486-0.502 ms with 32
 * against 0.514-0.524 with 16 and 0.654-0.659 with 8, uint16 0.995-1.006 against 1.073-1.088 and
 * 1.309-1.311.  CPUs, and devices without RADIX work-items per group: one work-item x 4096 keys with
 * the (digit, work-item) table (PoCL, 2^20 uint32 keys: about 4x faster than 16 x 256 or 4 x
 * 1024; the work-items of a work-group run one after the other anyway).  The plain sort's passes
 * by onesweep where they move values (H200, 2^26, two runs: uint32 pairs 2.99 ms against 3.34
 * by histogram, scan and scatter per pass, bucketing 2.21 against 2.32), not for keys alone
 * (uint32 keys 2.30 against 2.15, float 2.21 against 2.04: the look-back's waits cost more than
 * the histograms they save, and publishing a block's counts before its ranking changed nothing). */
static void passes_tuning(radix_engine *e, int allow_ranked)
{
    const clscan_device_info *info = &e->info;
    e->ranked = e->onesweep = 0;
    if (allow_ranked && clscan_policy_gpu(info, &e->dev) && info->max_work_group_size >= RADIX) {
        size_t r_items = e->key_size == 4 ? (e->value_size ? 24 : 20) : e->key_size == 8 ? 8 : 32;
        if (e->dev.radix_items > 0)
            r_items = (size_t)e->dev.radix_items;
        for (; r_items >= 1; r_items /= 2)
            if (ranked_local_bytes(r_items, e->key_size) + 256 <= info->local_mem_size) {
                e->wg = RADIX;
                e->items = r_items;
                e->ranked = 1;
                /* a sorter without values never takes onesweep by default: its kernels unbuilt */
                e->onesweep = e->dev.radix_passes >= 0 ? e->dev.radix_passes : e->value_size ? -1 : 0;
                return;
            }
    }
    e->wg = 1;
    e->items = 4096;   /* blocks of at most 65535 keys (16-bit counts) */
}

/* Segments longer than the segmented kernel sorts well go to the passes over the whole array: on
 * GPUs those beyond its sort in local memory (H200, 2^24 uint32 keys as rows of 65536: 0.88 ms
 * against 9.18 by one work-group per row; one row: 0.95 against 1993), on CPUs those of more than
 * 2^16 keys, where one work-group per segment would leave cores idle (PoCL, 2 cores, 2^22 keys in
 * segments of 1 ... 2^21: 78-88 ms against 103-107). */
static void long_segments(radix_engine *e)
{
    const int gpu = clscan_policy_gpu(&e->info, &e->dev) && e->seg_wg > 1;
    e->seg_global = gpu ? (e->seg_local > e->seg_small ? e->seg_local : e->seg_small) : (size_t)1 << 16;
}

/* The segmented sort: on GPUs 64 work-items x 8 keys per chunk (a table of 32 KiB; a segment's
 * work-group ranks its chunks one after the other, so small chunks waste little on small
 * segments; 32 work-items where local memory is short); segments of up to 32 keys ranked by
 * comparisons, up to 4096 (4-byte keys; as many as the table's bytes hold with an index each) by
 * a bitonic sort in local memory, longer ones by the passes.  H200, uint32 keys, 2^26 in segments
 * of 1 ... 1000: 4.38 ms with 64 work-items, 4.19 with 32 (bitonic up to 2048), 26.0 with 32 and
 * passes above 256 keys (CUB's segmented sort 15.6); rows of 4096 keys of a 4096 x 4096 array
 * 1.30 ms against 5.89 with 32 (passes), rows of 65536 9.17 against 16.18, rows of 256 0.80
 * against 0.68.  On CPUs one work-item x 4096 keys, as the passes of the whole array, and up to
 * 32 keys by comparisons (PoCL, 10^5 segments of 1 key: 5.3 us each through the four passes of
 * uint32 keys, 0.02 us by comparison; 1024 comparisons cost less than the passes); no bitonic
 * sort (one work-item would run its n log^2 n steps alone). */
static void segmented_tuning(radix_engine *e)
{
    const int gpu = clscan_policy_gpu(&e->info, &e->dev) && e->info.max_work_group_size >= 32;
    e->seg_wg = gpu ? 32 : 1;
    if (gpu && e->info.max_work_group_size >= 64 && segmented_local_bytes(64) + 256 <= e->info.local_mem_size)
        e->seg_wg = 64;
    e->seg_items = gpu ? 8 : 4096;
    e->seg_small = 32;
    e->seg_local = 0;
    if (gpu) {
        e->seg_local = 4096;
        while (e->seg_local * (e->key_size + sizeof(cl_uint)) > segmented_table_bytes(e->seg_wg))
            e->seg_local /= 2;
    }
    long_segments(e);
    /* The transposes: tiles of 32 x 32 elements (a GPU's 32 banks, 128-byte rows of 4-byte
     * keys), on GPUs 256 work-items (8 rows at a time), on CPUs 32 (a row at a time: PoCL runs
     * a work-group's work-items in a loop per region between barriers; PoCL on 2 busy cores,
     * 4096 x 4096 uint32 keys along columns: 536 ms with 32, 2012 ms with 256 in a run where the
     * rows took 459 ms, as they did, 451, with 32); fewer where the device allows fewer. */
    e->tr_tile = 32;
    while (e->tr_tile > 1 && e->tr_tile > e->info.max_work_group_size)
        e->tr_tile /= 2;
    e->tr_wg = e->tr_tile * (gpu ? 8 : 1);
    while (e->tr_wg > e->tr_tile && e->tr_wg > e->info.max_work_group_size)
        e->tr_wg /= 2;
    /* Short lines on GPUs: a work-item each, 64 to a work-group, each staging its line's keys
     * and their order in local memory (H200, 2^24 uint32 keys: 2^20 columns of 16 keys 0.130
     * ms against 2.03 by a work-group each after a transpose, 2^20 rows of 16 0.158 against
     * 1.78, 2^19 columns of 32 0.197 against 1.29).  CPUs keep the segmented kernel, whose
     * work-groups are one work-item already (PoCL, 2 cores, 2^20 rows of 16 uint32 keys: 80-88
     * ms against 127-164 by this kernel). */
    e->lines_max = gpu ? e->seg_small : 0;
    e->lines_wg = gpu ? 64 : 1;
    while (e->lines_wg > 1 && (e->lines_wg > e->info.max_work_group_size ||
                               e->lines_wg * e->seg_small * (e->key_size + 1) + 256 > e->info.local_mem_size))
        e->lines_wg /= 2;
}

/* What a step of the bucket offsets' search per bucket costs, in positions of the pass over the
 * sorted keys (lib/bucket.c searches where (nbuckets + 1) x its steps x this are at most count +
 * nbuckets).  Kernel times (bench/clscan-bench-bucket-offsets, medians), search against pass:
 * H200, 65536 buckets, 2^20 keys 0.009 ms against 0.012, 2^24 0.017 against 0.045, 2^26 0.024
 * against 0.147, a million buckets from 2^20 keys 0.028 against 0.014; PoCL, 2 cores, 65536
 * buckets, 2^20 keys 4.2-5.1 ms against 2.6-2.7, 2^22 4.6-5.5 against 5.0-6.9, 2^24 7.3-7.8
 * against 20.2-21.4, a million buckets from 2^16 keys 14.9 against 0.8.  A step costs GPUs
 * about a position, CPUs 1.5-4 (their searches' misses). */
static void offsets_tuning(radix_engine *e)
{
    e->offsets_search_cost = clscan_policy_gpu(&e->info, &e->dev) ? 1 : 4;
}

void radix_tune(radix_engine *e)
{
    passes_tuning(e, 1);
    segmented_tuning(e);
    offsets_tuning(e);
}

/* Devices whose kernels run fewer than RADIX work-items: the table scatter, and one work-item
 * per segment where the segmented kernel's work-groups do not fit either. */
void radix_tune_smaller(radix_engine *e)
{
    passes_tuning(e, 0);
    if (e->info.max_work_group_size < e->seg_wg) {
        e->seg_wg = 1;
        e->seg_items = 4096;
        e->seg_small = 32;
        e->seg_local = 0;
        long_segments(e);
    }
}

int radix_local_memory_fits(const radix_engine *e)
{
    return e->ranked || table_local_bytes(e->wg) + 256 <= e->info.local_mem_size;
}
