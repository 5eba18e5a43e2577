/* The variant record: which kernels a scan program is made of, decided once per plan (see
 * variant.h).  The automatic choices and the tuning table come from measurements on the H200
 * (NVIDIA's OpenCL) and on PoCL (doc/performance.md); other devices get the GPU or the CPU
 * policy by their type. */
#include "variant.h"

#include <stdio.h>
#include <string.h>

int clscan_policy_gpu(const clscan_device_info *info, const clscan_dev_options *dev)
{
    return dev->policy >= 0 ? dev->policy == 1 : !(info->type & CL_DEVICE_TYPE_CPU);
}

static int power_of_two(size_t n) { return n && !(n & (n - 1)); }

static size_t floor_power_of_two(size_t n)
{
    size_t p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

static size_t clamp(size_t x, size_t lo, size_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* Local memory the kernels of v declare: the primitive's buffer, the staged tile (one slot of
 * padding per 32 elements) or the streamed runs, the look-back window and its status words,
 * and a few scalars. */
static cl_ulong local_bytes(const clscan_variant *v)
{
    const cl_ulong wg = v->wg, tile = (cl_ulong)v->wg * v->items;
    const cl_ulong primitive = v->tiles == CLSCAN_TILES_STREAMED ? 0
                               : v->primitive == CLSCAN_PRIMITIVE_BLELLOCH ? wg : 2 * wg;
    const cl_ulong staged = v->tiles == CLSCAN_TILES_STAGED ? tile + tile / 32
                            : v->tiles == CLSCAN_TILES_STREAMED ? tile : 0;
    const cl_ulong window = v->parallel_lookback ? v->lookback * wg : wg;
    return (primitive + staged + window + 1) * v->element_size + (window + 3) * sizeof(cl_uint);
}

/* Room left for the compiler's own use of local memory. */
#define LOCAL_MEM_RESERVE 256

/* Bytes of elements a work-group keeps in its work-items' private memory: each work-item's own
 * elements (items tiles), its runs' prefixes and a few temporaries (streamed tiles: the four
 * runs' accumulators and totals, their prefixes).  PoCL runs a work-group's work-items on one
 * thread and keeps their private memory on its stack: int32 tiles of 8 MiB (512 x 4096) crashed
 * there, and so did streamed tiles of 128 KiB custom elements; GPUs spill long before.  The cap
 * leaves room for the rest of the stack. */
#define MAX_PRIVATE_TILE ((cl_ulong)1 << 20)

static cl_ulong private_bytes(const clscan_variant *v)
{
    const cl_ulong per_item = v->tiles == CLSCAN_TILES_STREAMED ? 16 : v->items + v->lanes + 8;
    return (cl_ulong)v->wg * per_item * v->element_size;
}

static int fits(const clscan_variant *v, const clscan_device_info *info)
{
    /* element_size first: local_bytes would overflow for absurd element sizes. */
    return v->wg <= info->max_work_group_size && v->element_size <= info->local_mem_size &&
           local_bytes(v) + LOCAL_MEM_RESERVE <= info->local_mem_size && private_bytes(v) <= MAX_PRIVATE_TILE;
}

/* The tiles, before the tuning is known: the user's, else the developer's, else the device's. */
static clscan_tiles choose_tiles(const clscan_variant_request *r, int gpu)
{
    if (CLSCAN_PROGRAM_IS_RUNS(r->what))   /* its store reads the work-items' registers */
        return CLSCAN_TILES_REGISTERS;
    if (r->tiles != CLSCAN_TILES_AUTO)
        return r->tiles;
    if (r->dev->tiles != CLSCAN_TILES_AUTO)
        return r->dev->tiles;
    /* Segmented programs on GPUs read their few elements per work-item straight from global
     * memory: staging (value, head) pairs through local memory cost more (H200, float SUM by
     * heads 2^28, 128 x 4: 1.122 ms in registers against 1.484 staged). */
    if (gpu && !CLSCAN_PROGRAM_IS_PLAIN(r->what))
        return CLSCAN_TILES_REGISTERS;
    return gpu ? CLSCAN_TILES_STAGED : CLSCAN_TILES_STREAMED;
}

/* Plain programs pack a tile's status and value (the kernels' T, a custom operator's type too:
 * the word is written and read as bits through a union) into one word where that is one access:
 * 4-byte values with 64-bit atomics; 8-byte values in 16-byte words on NVIDIA GPUs (vector loads
 * and stores of 16 bytes are single accesses there, as CUB assumes; OpenCL does not promise it
 * elsewhere).  H200, float AFFINE 2^26: 0.356 ms with 16-byte words against 0.417 for
 * reduce-then-scan; float SUM 2^28: 0.648 ms packed against 1.026 apart. */
static clscan_status_layout choose_status(const clscan_variant_request *r)
{
    if (!CLSCAN_PROGRAM_IS_PLAIN(r->what) || r->dev->status == CLSCAN_STATUS_SEPARATE)
        return CLSCAN_STATUS_SEPARATE;
    if (r->kernel_size == 4 && r->info->has_int64_atomics)
        return CLSCAN_STATUS_PACKED;
    if (r->kernel_size == 8 && (r->info->nvidia_ptx || r->dev->status == CLSCAN_STATUS_WIDE))
        return CLSCAN_STATUS_WIDE;
    /* The compensated float AFFINE's 16-byte values leave their fourth lane to the status (the
     * developer's status=wide picks this too). */
    if (r->compensated && r->kernel_size == 16 && (r->info->nvidia_ptx || r->dev->status == CLSCAN_STATUS_WIDE))
        return CLSCAN_STATUS_LANE;
    return CLSCAN_STATUS_SEPARATE;
}

/* The single pass by default where it is both safe and measured faster: CPU devices (one
 * coherent memory; on PoCL it beat reduce-then-scan), and NVIDIA GPUs for plain scans with
 * packed status words (H200, float SUM 2^28: 0.648 ms against 0.779 and CUB's 0.681).  OpenCL
 * 1.2 does not promise that work-groups see each other's writes while they run, so other GPUs
 * get reduce-then-scan unless asked. */
clscan_algorithm clscan_variant_algorithm(const clscan_variant *v, const clscan_device_info *info,
                                          clscan_algorithm requested)
{
    if (requested != CLSCAN_ALGORITHM_AUTO)
        return requested;
    if ((info->type & CL_DEVICE_TYPE_CPU) ||
        (info->nvidia_ptx && CLSCAN_PROGRAM_IS_PLAIN(v->what) && v->status != CLSCAN_STATUS_SEPARATE))
        return CLSCAN_ALGORITHM_SINGLE_PASS;
    return CLSCAN_ALGORITHM_REDUCE_THEN_SCAN;
}

/* The automatic tuning (work-items, elements per work-item) before the device's limits, for the
 * device's own algorithm (a plan keeps its tuning when asked for the other one); e: bytes of an
 * element in memory (the kernels' may be wider: the limits see to that). */
static void automatic_tuning(const clscan_variant *v, size_t e, clscan_algorithm algorithm, size_t *wg,
                             size_t *items)
{
    if (v->tiles == CLSCAN_TILES_STREAMED) {
        /* One work-item, tiles of 16 KiB in four runs (PoCL, 2^24 floats: faster than 8 x 128
         * with private arrays). */
        *wg = 1;
        *items = clamp(16384 / e, 4, 4096);
    } else if (!v->gpu && !CLSCAN_PROGRAM_IS_PLAIN(v->what)) {
        /* Segmented programs on CPUs: long runs in few work-items (PoCL, 2 cores, 2^22, medians
         * of 7 alternating: float SUM by heads 4 x 1024 9.5 ms against 13.3 for 8 x 64, 8.7 for
         * 4 x 2048, 11.1 for 8 x 256; int32 MAX by key 11.5 against 14.1; double SUM 12.8
         * against 16.7; float AFFINE 17.0 against 18.9, but 26.1 for 4 x 2048). */
        *wg = 4;
        *items = clamp(16384 / e, 1, 1024);
    } else if (!v->gpu) {
        /* PoCL, 2^24 floats with the work-items' private arrays: 8 x 128 was fastest. */
        *wg = 8;
        *items = clamp(512 / e, 1, 4096);
    } else if (algorithm == CLSCAN_ALGORITHM_SINGLE_PASS &&
               (v->status == CLSCAN_STATUS_WIDE || v->status == CLSCAN_STATUS_LANE)) {
        /* H200, float AFFINE 2^26: 128 x 32 0.356 ms, 256 x 16 0.420, 256 x 8 0.499. */
        *wg = 128;
        *items = clamp(256 / e, 1, 4096);
    } else if (algorithm == CLSCAN_ALGORITHM_SINGLE_PASS && v->status == CLSCAN_STATUS_PACKED) {
        /* H200, 2^28 floats: 256 x 32 0.648 ms, 256 x 16 0.849 (fewer hops of the look-back). */
        *wg = 256;
        *items = clamp(128 / e, 1, 4096);
    } else if (!CLSCAN_PROGRAM_IS_PLAIN(v->what)) {
        /* Segmented programs in registers, H200, 2^28 by heads, reduce-then-scan: float SUM
         * 128 x 4 1.122 ms, 256 x 4 1.163, 256 x 2 1.824, 256 x 8 2.350, 64 x 8 1.699; double
         * SUM 128 x 4 2.185, 256 x 2 2.346 (short runs: the registers' loads stay coalesced). */
        *wg = 128;
        *items = 4;
    } else {
        /* H200, 2^28 floats, reduce-then-scan: 256 x 16 0.785 ms, 128 x 16 0.777, 256 x 8 0.797. */
        *wg = 256;
        *items = clamp(64 / e, 1, 4096);
    }
}

/* The primitive, once the work-group size is known.  AUTO: two levels with warp shuffles on
 * NVIDIA GPUs (log2(W) barriers become two), Hillis-Steele elsewhere. */
static void choose_primitive(const clscan_variant_request *r, clscan_variant *v)
{
    const int warps = r->info->nvidia_ptx && v->wg >= 32 && v->wg % 32 == 0 && v->wg <= 32 * 32;
    clscan_primitive p = r->primitive != CLSCAN_PRIMITIVE_AUTO ? r->primitive : r->dev->primitive;
    if (p == CLSCAN_PRIMITIVE_AUTO)
        p = v->gpu && warps ? CLSCAN_PRIMITIVE_TWO_LEVEL : CLSCAN_PRIMITIVE_HILLIS_STEELE;
    if (p == CLSCAN_PRIMITIVE_TWO_LEVEL && v->wg < 2)
        p = CLSCAN_PRIMITIVE_HILLIS_STEELE;   /* one work-item: nothing to scan in levels */
    v->primitive = p;
    v->shuffle = p == CLSCAN_PRIMITIVE_TWO_LEVEL && warps;
    v->subgroup = p != CLSCAN_PRIMITIVE_TWO_LEVEL ? 0 : v->shuffle ? 32 : v->wg / 2 < 32 ? v->wg / 2 : 32;
}

/* The rest, once the tuning is known. */
static void finish(const clscan_variant_request *r, clscan_variant *v)
{
    choose_primitive(r, v);
    v->lanes = v->gpu ? 1 : r->cpu_lanes < v->items ? r->cpu_lanes : v->items;
    v->parallel_lookback = v->gpu && v->tiles != CLSCAN_TILES_STREAMED;
    v->tree_fold = r->exact && v->parallel_lookback;
}

/* Shrinks a tuning to the device: elements per work-item first, then work-items. */
static void shrink(clscan_variant *v, const clscan_variant_request *r)
{
    v->items = floor_power_of_two(v->items);
    v->wg = floor_power_of_two(v->wg < r->info->max_work_group_size ? v->wg : r->info->max_work_group_size);
    for (finish(r, v); !fits(v, r->info) && v->items > 1; finish(r, v))
        v->items /= 2;
    for (; !fits(v, r->info) && v->wg > 1; finish(r, v))
        v->wg /= 2;
}

static cl_int check(const char *fn, const clscan_variant *v, const clscan_device_info *info)
{
    if (!power_of_two(v->wg) || !power_of_two(v->items) || v->wg * v->items < 2)
        return clscan_fail(CL_INVALID_VALUE, "%s: %zu work-items x %zu elements: both must be powers of two, and a "
                           "tile at least 2 elements", fn, v->wg, v->items);
    if (v->wg > info->max_work_group_size)
        return clscan_fail(CL_INVALID_WORK_GROUP_SIZE, "%s: %s runs at most %zu work-items per work-group, not %zu",
                           fn, info->name, info->max_work_group_size, v->wg);
    if (v->tiles == CLSCAN_TILES_STREAMED && (v->wg != 1 || v->items < 4))
        return clscan_fail(CL_INVALID_VALUE, "%s: streamed tiles need work-groups of one work-item and at least 4 "
                           "elements per work-item, not %zu x %zu", fn, v->wg, v->items);
    if (v->items > 4096 || !fits(v, info))
        return clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s: %zu work-items x %zu elements of %zu bytes do not fit "
                           "%s (local memory %llu bytes; at most 4096 elements per work-item and %llu bytes of "
                           "elements in a work-group's registers)", fn, v->wg, v->items, v->element_size,
                           info->name, (unsigned long long)info->local_mem_size,
                           (unsigned long long)MAX_PRIVATE_TILE);
    return CL_SUCCESS;
}

cl_int clscan_variant_choose(const char *fn, const clscan_variant_request *r, clscan_variant *v)
{
    if ((unsigned)r->tiles > (unsigned)CLSCAN_TILES_STREAMED ||
        (unsigned)r->primitive > (unsigned)CLSCAN_PRIMITIVE_TWO_LEVEL)
        return clscan_fail(CL_INVALID_VALUE, "%s: tiles %d or primitive %d is not a clscan_tiles or a "
                           "clscan_primitive", fn, (int)r->tiles, (int)r->primitive);
    memset(v, 0, sizeof *v);
    v->what = r->what;
    v->gpu = clscan_policy_gpu(r->info, r->dev);
    v->pair_bound = r->pair_bound;
    v->element_size = CLSCAN_PROGRAM_IS_PLAIN(r->what) ? r->kernel_size : r->pair_bound;
    v->compensated = r->compensated && CLSCAN_PROGRAM_IS_PLAIN(r->what);
    v->transform = r->transform && (r->what == CLSCAN_PROGRAM_PLAIN || r->what == CLSCAN_PROGRAM_REVERSE);
    v->tiles = choose_tiles(r, v->gpu);
    v->status = choose_status(r);
    v->algorithm = clscan_variant_algorithm(v, r->info, r->algorithm);
    v->lookback = 1;
    v->window_polls = r->dev->window_polls >= 0 ? (unsigned)r->dev->window_polls : 65536u;
    v->spin_limit = r->dev->spin_limit >= 0 ? (unsigned)r->dev->spin_limit : 20000u;
    /* Streamed tiles are the CPUs' automatic choice for the work-groups of one work-item they
     * are tuned for; segmented programs, and other tunings, keep the work-items' registers. */
    const int auto_tiles = r->tiles == CLSCAN_TILES_AUTO && r->dev->tiles == CLSCAN_TILES_AUTO;
    const int streamable = CLSCAN_PROGRAM_IS_PLAIN(r->what) && (r->wg == 0 || r->wg == 1) &&
                           (r->items == 0 || r->items >= 4);
    if (v->tiles == CLSCAN_TILES_STREAMED && (!CLSCAN_PROGRAM_IS_PLAIN(r->what) || (auto_tiles && !streamable)))
        v->tiles = CLSCAN_TILES_REGISTERS;
    size_t wg, items;
    automatic_tuning(v, CLSCAN_PROGRAM_IS_PLAIN(r->what) ? r->value_size : r->pair_bound,
                     clscan_variant_algorithm(v, r->info, CLSCAN_ALGORITHM_AUTO), &wg, &items);
    v->wg = r->wg ? r->wg : wg;
    v->items = r->items ? r->items : items;
    if (r->shrink)
        shrink(v, r);
    else
        finish(r, v);
    if (r->shrink && (v->wg * v->items < 2 || !fits(v, r->info)))
        return clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s: %s has %llu bytes of local memory: too little for "
                           "%zu-byte elements", fn, r->info->name, (unsigned long long)r->info->local_mem_size,
                           v->element_size);
    return check(fn, v, r->info);
}

void clscan_variant_files(const clscan_variant *v, const char *files[CLSCAN_VARIANT_MAX_FILES])
{
    static const char *const segments[] = {NULL, NULL, "scan/segments_heads.cl", "scan/segments_keys.cl",
                                           "scan/segments_keys.cl", NULL, NULL, NULL, NULL,
                                           "scan/segments_keys.cl", "scan/segments_keys.cl"};
    static const char *const primitives[] = {NULL, "scan/wg_hillis_steele.cl", "scan/wg_blelloch.cl",
                                             "scan/wg_two_level.cl"};
    static const char *const tiles[] = {NULL, "scan/tile_registers.cl", "scan/tile_staged.cl",
                                        "scan/tile_streamed.cl"};
    static const char *const status[] = {"scan/status_separate.cl", "scan/status_packed.cl",
                                         "scan/status_wide.cl", "scan/status_lane.cl"};
    const int plain = CLSCAN_PROGRAM_IS_PLAIN(v->what), streamed = v->tiles == CLSCAN_TILES_STREAMED;
    size_t n = 0;
    files[n++] = "scan/contract.cl";
    if (!plain) {
        files[n++] = "scan/segmented.cl";
        files[n++] = segments[v->what];
    }
    files[n++] = "scan/combine.cl";
    /* Elements in memory: those of a recurrence, of a transform's types, pairs narrower than a
     * compensated plan's T (not its levels of totals), or the kernels' own. */
    if (plain)
        files[n++] = CLSCAN_PROGRAM_IS_RECURRENCE(v->what) ? "scan/io_recurrence.cl"
                     : v->transform ? "scan/io_transform.cl"
                     : v->compensated && v->what != CLSCAN_PROGRAM_LEVELS ? "scan/io_narrow.cl"
                     : "scan/io_plain.cl";
    if (!streamed) {
        files[n++] = v->shuffle ? "scan/wg_two_level_shuffle.cl" : primitives[v->primitive];
        files[n++] = "scan/wg_tree.cl";
        files[n++] = plain ? "scan/items.cl" : "scan/items_segmented.cl";
    }
    files[n++] = tiles[v->tiles];
    if (!streamed)
        files[n++] = "scan/tile_items.cl";
    files[n++] = "scan/options.cl";
    files[n++] = "scan/tiles.cl";
    files[n++] = "scan/status.cl";
    files[n++] = status[v->status];
    if (v->parallel_lookback) {
        files[n++] = v->tree_fold ? "scan/window_fold_tree.cl" : "scan/window_fold_left.cl";
        files[n++] = "scan/lookback_parallel.cl";
    } else {
        files[n++] = "scan/lookback_serial.cl";
    }
    files[n++] = "scan/lookback_alone.cl";
    files[n++] = "scan/single_pass.cl";
    if (v->what == CLSCAN_PROGRAM_HEADS)   /* segments from offsets: their heads and totals */
        files[n++] = "scan/offsets.cl";
    if (v->what == CLSCAN_PROGRAM_AXIS)   /* the lines of a 2-D array */
        files[n++] = "scan/axis.cl";
    if (CLSCAN_PROGRAM_IS_RUNS(v->what))   /* reduce-by-key in one pass */
        files[n++] = "scan/runs.cl";
    if (CLSCAN_PROGRAM_IS_RUNS(v->what) && !v->gpu) {   /* and its single passes on CPUs */
        files[n++] = "scan/runs_serial.cl";
        files[n++] = "common/compress.cl";
        files[n++] = "scan/runs_lanes.cl";
        files[n++] = "scan/runs_folded.cl";
    }
    files[n] = NULL;
}

void clscan_variant_defines(const clscan_variant *v, char *buf, size_t size)
{
    int n = snprintf(buf, size, "-DCLSCAN_WG=%zu -DCLSCAN_ITEMS=%zu -DCLSCAN_LANES=%zu -DCLSCAN_LOOKBACK=%zu "
                     "-DCLSCAN_WINDOW_POLLS=%uu -DCLSCAN_SPIN_LIMIT=%uu", v->wg, v->items, v->lanes,
                     v->lookback, v->window_polls, v->spin_limit);
    if (v->subgroup && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " -DCLSCAN_SUBGROUP=%zu", v->subgroup);
    if (CLSCAN_PROGRAM_IS_PLAIN(v->what) && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " -DCLSCAN_DIR=%d", CLSCAN_PROGRAM_IS_BACKWARDS(v->what) ? -1 : 1);
    if (v->compensated && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " -DCLSCAN_COMPENSATED=1");
    if (CLSCAN_PROGRAM_IS_RUNS(v->what) && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " -DCLSCAN_RUNS_SLOT_SPARE=%d", CLSCAN_RUNS_SLOT_SPARE);
    if (!CLSCAN_PROGRAM_IS_PLAIN(v->what) && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " -DCLSCAN_PAIR_BOUND=%zu%s", v->pair_bound,
                      v->what == CLSCAN_PROGRAM_KEYS_64 ? " -DCLSCAN_KEY_TYPE=ulong"
                      : v->what == CLSCAN_PROGRAM_KEYS_32 ? " -DCLSCAN_KEY_TYPE=uint"
                      : v->what == CLSCAN_PROGRAM_RUNS_64 ? " -DCLSCAN_KEY_TYPE=ulong -DCLSCAN_KEY_BYTES=8 -DCLSCAN_RUNS=1"
                      : v->what == CLSCAN_PROGRAM_RUNS_32 ? " -DCLSCAN_KEY_TYPE=uint -DCLSCAN_KEY_BYTES=4 -DCLSCAN_RUNS=1" : "");
}
