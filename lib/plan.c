/* Plans: operator, type and kind for one device, with the kernels built for a tuning
 * (work-group size, elements per work-item) chosen from the device's limits. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {"CLSCAN_SUM", "CLSCAN_MAX", "CLSCAN_MIN",
                                       "CLSCAN_LAST_NONZERO", "CLSCAN_AFFINE"};
static const char *const type_names[] = {"CLSCAN_INT32", "CLSCAN_UINT32", "CLSCAN_INT64",
                                         "CLSCAN_UINT64", "CLSCAN_FLOAT", "CLSCAN_DOUBLE"};
static const size_t type_sizes[] = {4, 4, 8, 8, 4, 8};

static int valid_op(clscan_op op) { return (unsigned)op <= (unsigned)CLSCAN_AFFINE; }
static int valid_type(clscan_type t) { return (unsigned)t <= (unsigned)CLSCAN_DOUBLE; }
static int valid_kind(clscan_kind k) { return (unsigned)k <= (unsigned)CLSCAN_EXCLUSIVE; }
static int power_of_two(size_t n) { return n && !(n & (n - 1)); }

static size_t floor_power_of_two(size_t n)
{
    size_t p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

CLSCAN_API size_t clscan_op_element_size(clscan_op op, clscan_type type)
{
    if (!valid_op(op) || !valid_type(type))
        return 0;
    return type_sizes[type] * (op == CLSCAN_AFFINE ? 2 : 1);
}

CLSCAN_API size_t clscan_element_size(const clscan_plan *plan)
{
    return plan ? plan->element_size : 0;
}

/* GPUs: loads and stores staged through local memory so that they coalesce.  CPUs: each
 * work-item streams through its own run of elements. */
static int use_stage(const clscan_device_info *info)
{
    /* CLSCAN_FORCE_STAGE=0|1 overrides, for kernel development: it lets a CPU run the GPUs'
     * code path (the test suite does). */
    const char *force = getenv("CLSCAN_FORCE_STAGE");
    if (force && (*force == '0' || *force == '1'))
        return *force == '1';
    return !(info->type & CL_DEVICE_TYPE_CPU);
}

/* CPUs, work-groups of one work-item: the tile is scanned as four runs side by side, through
 * local memory (cl/clscan_scan.cl, CLSCAN_STREAM). */
static int stream_tiles(const clscan_plan *plan, size_t wg, size_t items)
{
    return !use_stage(&plan->info) && wg == 1 && items >= 4;
}

/* CPUs run a work-group's work-items one after another: split each work-item's elements into
 * independent runs so that their dependency chains overlap.  Measured on PoCL (2^22, 2^24;
 * doc/performance.md, items 3 and 18): 2 runs were fastest for SUM, MAX, MIN and (with its
 * select()) LAST_NONZERO, 8 for AFFINE.  GPUs hide latency with threads: one run. */
static size_t lanes(const clscan_plan *plan, size_t items)
{
    size_t want = 1;
    if (!use_stage(&plan->info))
        want = plan->op == CLSCAN_AFFINE ? 8 : 2;
    return items < want ? items : want;
}

/* The work-group scan in two levels (cl/clscan_scan.cl, CLSCAN_SUBGROUP): on NVIDIA's OpenCL,
 * warps of 32 scan with PTX shuffles (of T as 32-bit words).  Returns the first
 * level's size, or 0 for the one-level scan.  CLSCAN_FORCE_SUBGROUP=0|1 overrides, for kernel
 * development: with 1, other devices run the same two levels in local memory (the tests do). */
static size_t subgroup_size(const clscan_plan *plan, size_t wg, int *shuffle)
{
    const char *force = getenv("CLSCAN_FORCE_SUBGROUP");
    *shuffle = plan->info.nvidia_ptx && wg >= 32 && wg % 32 == 0 && wg <= 32 * 32;
    if (force && *force == '0')
        *shuffle = 0;
    if (*shuffle)
        return 32;
    if (force && *force == '1' && wg >= 2)
        return wg / 2 < 32 ? wg / 2 : 32;
    return 0;
}

/* Exactly associative operators give the same bits however their combinations are grouped, so
 * the single pass may fold its look-back window in a tree: integers, and MAX, MIN, LAST_NONZERO
 * of any type.  Only on GPUs (the staged code path, which CLSCAN_FORCE_STAGE=1 lets a CPU run):
 * a CPU's work-group of 8 folds its window faster alone than with the barriers of the
 * work-group primitive (as CLSCAN_PARALLEL_LOOKBACK, below, the same code path). */
static int tree_fold(const clscan_plan *plan)
{
    if (plan->custom)
        return 0;   /* nothing is known of a user's operator */
    const int floating = plan->type == CLSCAN_FLOAT || plan->type == CLSCAN_DOUBLE;
    const int exact = !floating || plan->op == CLSCAN_MAX || plan->op == CLSCAN_MIN ||
                      plan->op == CLSCAN_LAST_NONZERO;
    return exact && use_stage(&plan->info);
}

/* Local memory the kernels need for elements of e bytes: the Hillis-Steele double buffer, and
 * the staged tile (with a slot of padding after every 32 elements) or the streamed runs. */
static cl_ulong local_bytes(const clscan_plan *plan, size_t e, size_t wg, size_t items)
{
    const cl_ulong tile = (cl_ulong)wg * items;
    const cl_ulong elements = 2 * (cl_ulong)wg + (use_stage(&plan->info) ? tile + tile / 32 : 0) +
                              (stream_tiles(plan, wg, items) ? tile : 0);
    /* The single pass's look-back window: CLSCAN_LOOKBACK (1) tile per work-item, a value and
     * a status word each. */
    const cl_ulong window = wg;
    return (elements + window) * e + window * sizeof(cl_uint);
}

/* Room left for the compiler's own use of local memory. */
#define LOCAL_MEM_RESERVE 256

static int fits_local_memory_with(const clscan_plan *plan, size_t e, size_t wg, size_t items)
{
    return local_bytes(plan, e, wg, items) + LOCAL_MEM_RESERVE <= plan->info.local_mem_size;
}

static int fits_local_memory(const clscan_plan *plan, size_t wg, size_t items)
{
    return fits_local_memory_with(plan, plan->element_size, wg, items);
}

/* Bytes of a (head flag, value) pair, struct { value; uchar; }, at most: the flag is padded up
 * to the value's alignment, a power of two that divides its size.  (The bound leaves room for
 * two bytes of flags, as when exclusive pairs carried a second flag.) */
static size_t pair_bound(size_t e)
{
    const size_t align = e & (~e + 1);   /* the largest power of two dividing e */
    return e + (align > 2 ? align : 2);
}

/* Decided once, at plan creation (see internal.h). */
static int packed_status_of(const clscan_plan *plan)
{
    if (plan->custom)
        return 0;   /* a user's type need not be plain bits */
    if (plan->element_size == 4 && plan->info.has_int64_atomics)
        return 8;
    if (plan->element_size != 8)
        return 0;
    /* 8-byte values in 16-byte words, written with one vector store and read with one vector
     * load: single accesses on NVIDIA GPUs (CUB makes the same assumption), not promised by
     * OpenCL elsewhere.  H200, float AFFINE 2^26: 0.356 ms in the single pass (128 x 32)
     * against 0.417 for reduce-then-scan (doc/performance.md).  CLSCAN_PACKED_WIDE=1 forces
     * them on (the tests use it on PoCL), 0 off. */
    const char *wide = getenv("CLSCAN_PACKED_WIDE");
    if (wide && (*wide == '0' || *wide == '1'))
        return *wide == '1' ? 16 : 0;
    return plan->info.nvidia_ptx ? 16 : 0;
}

int clscan_plan_packed_status(const clscan_plan *plan)
{
    return plan->packed_status;
}

/* GPUs where the single pass is the default for plain scans: NVIDIA's (where work-groups of one
 * launch are known to see each other's writes), with packed status words (built-in operators on
 * 4- and 8-byte values).  There it beat reduce-then-scan and CUB (H200, float SUM 2^28: 0.648 ms
 * against 0.779 and CUB's 0.681); with separate status and value words it was slower (1.03 ms). */
static int single_pass_on_gpu(const clscan_plan *plan)
{
    return plan->info.nvidia_ptx && clscan_plan_packed_status(plan);
}

/* The automatic tuning: a starting point per device type, shrunk to the device's limits. */
static void automatic_tuning(const clscan_plan *plan, size_t *wg, size_t *items)
{
    const size_t e = plan->element_size;
    if (plan->info.type & CL_DEVICE_TYPE_CPU) {
        /* Work-groups of one work-item, tiles of 16 KiB in four streamed runs (PoCL, 2^24
         * floats: faster than 8 x 128 with private arrays, the best of the earlier kernels;
         * doc/performance.md, item 20). */
        *wg = 1;
        *items = 16384 / e > 4 ? 16384 / e : 4;
        if (*items > 4096)
            *items = 4096;
    } else if (single_pass_on_gpu(plan) && clscan_plan_packed_status(plan) == 16) {
        /* H200, float AFFINE 2^26, 16-byte status words: 128 x 32 0.356 ms, 256 x 16 0.420,
         * 256 x 8 0.499 (tiles of 32 KiB, as below, but fewer, longer runs per work-item). */
        *wg = 128;
        *items = 256 / e > 1 ? 256 / e : 1;
    } else if (single_pass_on_gpu(plan)) {
        /* H200, 2^28 floats, single pass with packed status words: 256 x 32 0.648 ms, 256 x 16
         * 0.849 (larger tiles, fewer hops of the look-back; doc/performance.md). */
        *wg = 256;
        *items = 128 / e > 1 ? 128 / e : 1;
    } else {
        /* H200, 2^28 floats, reduce-then-scan: 256 x 16 0.785 ms, 128 x 16 0.777, 256 x 8
         * 0.797 (doc/performance.md). */
        *wg = 256;
        *items = 64 / e > 1 ? 64 / e : 1;
    }
    *items = floor_power_of_two(*items);   /* elements of 24 bytes: 21 -> 16 */
    *wg = floor_power_of_two(*wg < plan->info.max_work_group_size ? *wg : plan->info.max_work_group_size);
    while (!fits_local_memory(plan, *wg, *items) && *items > 1)
        *items /= 2;
    while (!fits_local_memory(plan, *wg, *items) && *wg > 1)
        *wg /= 2;
}

static void release_kernels(clscan_kernels *k);

/* Drops the segmented programs (rebuilt on first use, e.g. after a new tuning). */
static void release_segmented(clscan_plan *plan)
{
    for (int i = 0; i < 3; ++i) {
        release_kernels(&plan->segmented[i].kernels);
        plan->segmented[i].wg = 0;
        plan->segmented[i].items = 0;
    }
}

static void release_kernels(clscan_kernels *k)
{
    if (k->scan_tiles) clReleaseKernel(k->scan_tiles);
    if (k->scan_tiles_inclusive) clReleaseKernel(k->scan_tiles_inclusive);
    if (k->reduce) clReleaseKernel(k->reduce);
    if (k->single_pass) clReleaseKernel(k->single_pass);
    if (k->program) clReleaseProgram(k->program);
    memset(k, 0, sizeof *k);
}

static cl_int create_kernel(const clscan_plan *plan, cl_program program, const char *name,
                            size_t wg, cl_kernel *kernel)
{
    cl_int err;
    *kernel = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clCreateKernel(%s) failed: %s", name, clscan_error_string(err));
    size_t kernel_wg = 0;
    cl_ulong kernel_local = 0;
    err = clGetKernelWorkGroupInfo(*kernel, plan->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg,
                                   &kernel_wg, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(*kernel, plan->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                       sizeof kernel_local, &kernel_local, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clGetKernelWorkGroupInfo(%s) failed: %s", name, clscan_error_string(err));
    if (kernel_wg < wg)
        return clscan_fail(CL_INVALID_WORK_GROUP_SIZE, "kernel %s runs at most %zu work-items per "
                           "work-group on %s, not %zu", name, kernel_wg, plan->info.name, wg);
    if (kernel_local > plan->info.local_mem_size)
        return clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "kernel %s needs %llu bytes of local memory; "
                           "%s has %llu", name, (unsigned long long)kernel_local, plan->info.name,
                           (unsigned long long)plan->info.local_mem_size);
    return CL_SUCCESS;
}

/* Builds (or takes from the cache) a program for a tuning and creates its kernels: source with
 * the plan's defines and `defines` (segmented programs: the key type and the pair's size). */
static cl_int build_program(const clscan_plan *plan, const char *source, const char *defines,
                            size_t wg, size_t items, clscan_kernels *b)
{
    memset(b, 0, sizeof *b);
    const char *extra = getenv("CLSCAN_BUILD_OPTIONS");
    char subgroup[128] = "";
    int shuffle;
    const size_t sg = subgroup_size(plan, wg, &shuffle);
    if (sg)
        snprintf(subgroup, sizeof subgroup, " -DCLSCAN_SUBGROUP=%zu -DCLSCAN_NV_SHUFFLE=%d", sg, shuffle);
    char op_defines[128] = "";
    if (!plan->custom)
        snprintf(op_defines, sizeof op_defines, "-DCLSCAN_OP=%s -DCLSCAN_TYPE=%s ",
                 op_names[plan->op], type_names[plan->type]);
    char options[1024];
    const int n = snprintf(options, sizeof options,
                           "%s%s-DCLSCAN_EXCLUSIVE=%d -DCLSCAN_WG=%zu "
                           "-DCLSCAN_ITEMS=%zu -DCLSCAN_LANES=%zu -DCLSCAN_STAGE=%d -DCLSCAN_EXACT=%d "
                           "-DCLSCAN_PARALLEL_LOOKBACK=%d -DCLSCAN_PACKED_STATUS=%d -DCLSCAN_STREAM=%d%s%s%s%s",
                           plan->info.opencl_c_1_2 ? "-cl-std=CL1.2 " : "", op_defines,
                           plan->kind == CLSCAN_EXCLUSIVE, wg, items, lanes(plan, items),
                           use_stage(&plan->info), tree_fold(plan), use_stage(&plan->info),
                           clscan_plan_packed_status(plan) / 8, stream_tiles(plan, wg, items), subgroup,
                           defines, extra ? " " : "", extra ? extra : "");
    if (n < 0 || (size_t)n >= sizeof options)
        return clscan_fail(CL_INVALID_BUILD_OPTIONS, "CLSCAN_BUILD_OPTIONS is too long");
    cl_int err = clscan_program_get(plan->context, plan->device, source, options, &b->program);
    if (err == CL_SUCCESS)
        err = create_kernel(plan, b->program, "clscan_scan_tiles", wg, &b->scan_tiles);
    if (err == CL_SUCCESS)
        err = create_kernel(plan, b->program, "clscan_scan_tiles_inclusive", wg, &b->scan_tiles_inclusive);
    if (err == CL_SUCCESS)
        err = create_kernel(plan, b->program, "clscan_reduce", wg, &b->reduce);
    if (err == CL_SUCCESS)
        err = create_kernel(plan, b->program, "clscan_scan_single_pass", wg, &b->single_pass);
    if (err != CL_SUCCESS)
        release_kernels(b);
    return err;
}

static cl_int build_tuning(const clscan_plan *plan, size_t wg, size_t items, clscan_kernels *b)
{
    return build_program(plan, plan->source, "", wg, items, b);
}

cl_int clscan_segmented_get(clscan_plan *plan, int which, const clscan_segmented_kernels **kernels)
{
    clscan_segmented_kernels *s = &plan->segmented[which];
    if (!s->kernels.program) {
        size_t wg = plan->work_group_size;
        size_t items = plan->items;
        if (stream_tiles(plan, wg, items)) {
            /* Segmented programs have no streamed runs: the CPUs' earlier tuning (PoCL, 2^24:
             * 8 x 128 floats; doc/performance.md). */
            wg = 8;
            items = 512 / plan->element_size > 1 ? floor_power_of_two(512 / plan->element_size) : 1;
        }
        while (items > 1 && (!fits_local_memory_with(plan, plan->pair_bound, wg, items) || wg * items < 2))
            items /= 2;
        if (!fits_local_memory_with(plan, plan->pair_bound, wg, items) || wg * items < 2)
            return clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s has too little local memory for "
                               "segmented scans of %zu-byte elements with %zu work-items per "
                               "work-group", plan->info.name, plan->element_size, wg);
        char *source = NULL;
        cl_int err = clscan_program_source(plan->op_source, 1, &source);
        if (err != CL_SUCCESS)
            return err;
        char defines[128];
        snprintf(defines, sizeof defines, " -DCLSCAN_PAIR_BOUND=%zu%s", plan->pair_bound,
                 which == CLSCAN_SEG_KEYS_64 ? " -DCLSCAN_KEY_TYPE=ulong"
                 : which == CLSCAN_SEG_KEYS_32 ? " -DCLSCAN_KEY_TYPE=uint" : "");
        err = build_program(plan, source, defines, wg, items, &s->kernels);
        free(source);
        if (err != CL_SUCCESS)
            return err;
        s->wg = wg;
        s->items = items;
    }
    *kernels = s;
    return CL_SUCCESS;
}

static void install(clscan_plan *plan, clscan_kernels *b, size_t wg, size_t items)
{
    release_segmented(plan);
    clscan_kernels old = plan->kernels;
    plan->kernels = *b;
    plan->work_group_size = wg;
    plan->items = items;
    release_kernels(&old);
}

static cl_int check_device_in_context(cl_context context, cl_device_id device)
{
    size_t bytes = 0;
    cl_int err = clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, NULL, &bytes);
    if (err != CL_SUCCESS)
        return clscan_fail(CL_INVALID_CONTEXT, "not a valid OpenCL context (%s)", clscan_error_string(err));
    cl_device_id *devices = malloc(bytes ? bytes : 1);
    if (!devices)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
    err = clGetContextInfo(context, CL_CONTEXT_DEVICES, bytes, devices, NULL);
    int found = 0;
    for (size_t i = 0; err == CL_SUCCESS && i < bytes / sizeof *devices; ++i)
        found |= devices[i] == device;
    free(devices);
    if (err != CL_SUCCESS)
        return clscan_fail(CL_INVALID_CONTEXT, "clGetContextInfo failed: %s", clscan_error_string(err));
    return found ? CL_SUCCESS : clscan_fail(CL_INVALID_DEVICE, "the device is not in the plan's context");
}

static cl_int validate_create(cl_context context, cl_device_id device, clscan_op op,
                              clscan_type type, clscan_kind kind)
{
    if (!valid_op(op))
        return clscan_fail(CLSCAN_INVALID_OPERATOR, "clscan_plan_create: operator %d is not a clscan_op", (int)op);
    if (!valid_type(type))
        return clscan_fail(CLSCAN_INVALID_TYPE, "clscan_plan_create: type %d is not a clscan_type", (int)type);
    if (!valid_kind(kind))
        return clscan_fail(CLSCAN_INVALID_KIND, "clscan_plan_create: kind %d is not a clscan_kind", (int)kind);
    if (!context)
        return clscan_fail(CL_INVALID_CONTEXT, "clscan_plan_create: context is NULL");
    if (!device)
        return clscan_fail(CL_INVALID_DEVICE, "clscan_plan_create: device is NULL");
    return check_device_in_context(context, device);
}

static void free_plan(clscan_plan *plan)
{
    free(plan->op_source);
    free(plan->source);
    free(plan);
}

/* The rest of plan creation, common to built-in and custom operators: plan has its operator
 * (op_source, element_size) and kind; on failure it is freed. */
static clscan_plan *finish_create(clscan_plan *plan, cl_int *err)
{
    plan->pair_bound = pair_bound(plan->element_size);
    plan->packed_status = packed_status_of(plan);
    if ((*err = clscan_program_source(plan->op_source, 0, &plan->source)) != CL_SUCCESS) {
        free_plan(plan);
        return NULL;
    }
    size_t wg, items;
    automatic_tuning(plan, &wg, &items);
    if (!fits_local_memory(plan, wg, items) || wg * items < 2) {
        *err = clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s has %llu bytes of local memory: too little "
                           "for %zu-byte elements", plan->info.name,
                           (unsigned long long)plan->info.local_mem_size, plan->element_size);
        free_plan(plan);
        return NULL;
    }
    /* The kernel may run fewer work-items than the device (registers): halve until it fits. */
    clscan_kernels b;
    while ((*err = build_tuning(plan, wg, items, &b)) == CL_INVALID_WORK_GROUP_SIZE && wg > 1)
        wg /= 2;
    if (*err != CL_SUCCESS) {
        free_plan(plan);
        return NULL;
    }
    pthread_mutex_init(&plan->lock, NULL);
    clRetainContext(plan->context);
    install(plan, &b, wg, items);
    return plan;
}

/* A new plan with the fields every operator has; NULL (and *err set) on failure. */
static clscan_plan *new_plan(cl_context context, cl_device_id device, clscan_kind kind, cl_int *err)
{
    clscan_plan *plan = calloc(1, sizeof *plan);
    if (!plan) {
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for a plan");
        return NULL;
    }
    plan->context = context;
    plan->device = device;
    plan->kind = kind;
    if ((*err = clscan_query_device(device, &plan->info)) != CL_SUCCESS) {
        free(plan);
        return NULL;
    }
    return plan;
}

CLSCAN_API clscan_plan *clscan_plan_create(cl_context context, cl_device_id device, clscan_op op,
                                           clscan_type type, clscan_kind kind, cl_int *errcode_ret)
{
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    if ((*err = validate_create(context, device, op, type, kind)) != CL_SUCCESS)
        return NULL;
    clscan_plan *plan = new_plan(context, device, kind, err);
    if (!plan)
        return NULL;
    plan->op = op;
    plan->type = type;
    plan->element_size = clscan_op_element_size(op, type);
    if (type == CLSCAN_DOUBLE && !plan->info.has_fp64) {
        *err = clscan_fail(CLSCAN_FP64_NOT_SUPPORTED, "CLSCAN_DOUBLE needs cl_khr_fp64, which %s "
                           "does not offer", plan->info.name);
        free_plan(plan);
        return NULL;
    }
    if ((*err = clscan_builtin_ops_source(&plan->op_source)) != CL_SUCCESS) {
        free_plan(plan);
        return NULL;
    }
    return finish_create(plan, err);
}

CLSCAN_API clscan_plan *clscan_plan_create_custom(cl_context context, cl_device_id device,
                                                  const clscan_custom *op, clscan_kind kind,
                                                  cl_int *errcode_ret)
{
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    char *op_source = NULL;
    /* CLSCAN_SUM and CLSCAN_INT32 only stand in for validate_create's checks of op and type. */
    if ((*err = clscan_custom_source(op, &op_source)) != CL_SUCCESS)
        return NULL;
    if ((*err = validate_create(context, device, CLSCAN_SUM, CLSCAN_INT32, kind)) != CL_SUCCESS) {
        free(op_source);
        return NULL;
    }
    clscan_plan *plan = new_plan(context, device, kind, err);
    if (!plan) {
        free(op_source);
        return NULL;
    }
    plan->custom = 1;
    plan->op = CLSCAN_SUM;   /* the automatic tuning of a simple operator */
    plan->type = CLSCAN_INT32;
    plan->op_source = op_source;
    plan->element_size = op->size;
    plan = finish_create(plan, err);
    if (!plan && *err == CL_BUILD_PROGRAM_FAILURE &&
        strstr(clscan_last_error(), CLSCAN_CUSTOM_SIZE_CHECK)) {
        *err = clscan_fail(CLSCAN_ELEMENT_SIZE_MISMATCH, "clscan_plan_create_custom: op->size is %zu, "
                           "but the device's sizeof(%s) is not %zu (the compile-time check %s failed)",
                           op->size, op->type, op->size, CLSCAN_CUSTOM_SIZE_CHECK);
    }
    return plan;
}

CLSCAN_API cl_int clscan_plan_set_tuning(clscan_plan *plan, size_t work_group_size,
                                         size_t items_per_work_item)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_plan_set_tuning: plan is NULL");
    size_t wg, items;
    automatic_tuning(plan, &wg, &items);
    if (work_group_size)
        wg = work_group_size;
    if (items_per_work_item)
        items = items_per_work_item;
    if (!power_of_two(wg) || !power_of_two(items) || wg * items < 2)
        return clscan_fail(CL_INVALID_VALUE, "clscan_plan_set_tuning: %zu work-items x %zu elements: "
                           "both must be powers of two, and a tile at least 2 elements", wg, items);
    if (wg > plan->info.max_work_group_size)
        return clscan_fail(CL_INVALID_WORK_GROUP_SIZE, "clscan_plan_set_tuning: %s runs at most %zu "
                           "work-items per work-group, not %zu", plan->info.name,
                           plan->info.max_work_group_size, wg);
    if (items > 4096 || !fits_local_memory(plan, wg, items))
        return clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "clscan_plan_set_tuning: %zu work-items x %zu "
                           "elements of %zu bytes do not fit %s (local memory %llu bytes, at most "
                           "4096 elements per work-item)", wg, items, plan->element_size,
                           plan->info.name, (unsigned long long)plan->info.local_mem_size);
    clscan_kernels b;
    cl_int err = build_tuning(plan, wg, items, &b);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&plan->lock);
    install(plan, &b, wg, items);
    pthread_mutex_unlock(&plan->lock);
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_plan_set_algorithm(clscan_plan *plan, clscan_algorithm algorithm)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_plan_set_algorithm: plan is NULL");
    if ((unsigned)algorithm > (unsigned)CLSCAN_ALGORITHM_SINGLE_PASS)
        return clscan_fail(CL_INVALID_VALUE, "clscan_plan_set_algorithm: %d is not a clscan_algorithm",
                           (int)algorithm);
    pthread_mutex_lock(&plan->lock);
    plan->algorithm = algorithm;
    pthread_mutex_unlock(&plan->lock);
    return CL_SUCCESS;
}

/* The single pass by default only where it is both safe and measured faster: CPUs (one
 * coherent memory; on PoCL it beat reduce-then-scan), and plain scans on the GPUs of
 * single_pass_on_gpu.  Elsewhere (segmented scans on GPUs: pairs, no packed status) the
 * look-back was slower than reduce-then-scan on the H200 (doc/performance.md). */
clscan_algorithm clscan_plan_algorithm_for(const clscan_plan *plan, int segmented)
{
    if (plan->algorithm != CLSCAN_ALGORITHM_AUTO)
        return plan->algorithm;
    const int single = (plan->info.type & CL_DEVICE_TYPE_CPU) || (!segmented && single_pass_on_gpu(plan));
    return single ? CLSCAN_ALGORITHM_SINGLE_PASS : CLSCAN_ALGORITHM_REDUCE_THEN_SCAN;
}

CLSCAN_API clscan_algorithm clscan_plan_get_algorithm(const clscan_plan *plan)
{
    return plan ? clscan_plan_algorithm_for(plan, 0) : CLSCAN_ALGORITHM_AUTO;
}

CLSCAN_API cl_int clscan_plan_get_tuning(const clscan_plan *plan, size_t *work_group_size,
                                         size_t *items_per_work_item)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_plan_get_tuning: plan is NULL");
    if (work_group_size)
        *work_group_size = plan->work_group_size;
    if (items_per_work_item)
        *items_per_work_item = plan->items;
    return CL_SUCCESS;
}

CLSCAN_API void clscan_plan_release(clscan_plan *plan)
{
    if (!plan)
        return;
    clscan_release_scratch(plan);
    release_segmented(plan);
    release_kernels(&plan->kernels);
    clReleaseContext(plan->context);
    pthread_mutex_destroy(&plan->lock);
    free_plan(plan);
}
