/* clscan-bench: times clscan's scans against a device copy of the same bytes, the sequential loop
 * on the host, and the peers (Boost.Compute, CUB) run as subprocesses on the same device.
 * See bench/README for the method and the columns. */
#define _POSIX_C_SOURCE 200809L
#include "clscan.h"
#include "bench_common.h"
#include "bench_seq.h"
#include "peer_launcher.h"
#include "support/compare.h"
#include "support/reference.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef CL_DEVICE_PCI_BUS_ID_NV
#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#endif
#ifndef CL_DEVICE_PCI_SLOT_ID_NV
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009
#endif

#define MAX_REPS 1000
#define MAX_LOG2 40

/* ---- Options ------------------------------------------------------------------------- */

typedef struct options {
    int min_log2, max_log2, reps;
    int cases[BENCH_NCASES];      /* selected? */
    const char *device, *csv, *boost, *cub;
    int sweep_primitive, sweep_items, at_log2, no_hold;
    clscan_algorithm algorithm;   /* --algorithm: every plan's (AUTO: the library's choice) */
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clscan-bench [options]\n"
            "  --device=D          OpenCL device: \"P:D\" indices or part of a name (default: CLSCAN_DEVICE,\n"
            "                      else the first GPU, else the first device)\n"
            "  --min=LOG2          smallest count 2^LOG2 (default 10)\n"
            "  --max=LOG2          largest count 2^LOG2 (default 28; capped by device and host memory)\n"
            "                      counts go from min to max in steps of x4\n"
            "  --case=NAME[,NAME]  cases to run (default all; repeatable):\n"
            "                      float-sum-excl int-max-incl int-lastnz-incl float-affine-incl\n"
            "                      double-sum-excl (only on devices with cl_khr_fp64)\n"
            "                      custom-float-sum-excl custom-float-affine-incl (custom operators)\n"
            "                      seg-float-sum-excl key-int-max-incl (segmented, by key; segments\n"
            "                      of 1 ... 2048 elements)\n"
            "  --reps=N            timed runs per measurement after one warm-up (default 10)\n"
            "  --algorithm=A       auto (default), reduce-then-scan or single-pass: every plan's\n"
            "                      multi-tile algorithm (clscan_plan_set_algorithm)\n"
            "  --csv=FILE          also write the results as CSV\n"
            "  --boost=PROGRAM     run the Boost.Compute peer (bench/boost-bench) on the same device\n"
            "  --cub=PROGRAM       run the CUB peer (bench/cub-bench; NVIDIA devices only)\n"
            "  --sweep-primitive   float-sum-excl at one count: work-group sizes 64 ... 1024,\n"
            "                      Hillis-Steele against Blelloch work-group scans\n"
            "  --sweep-items       float-sum-excl at one count: 1 ... 64 items per work-item at the\n"
            "                      default work-group size, both work-group scans\n"
            "  --at=LOG2           the count of the sweeps (default 24)\n"
            "  --no-hold           time with a plain marker just before the scan (the default: the\n"
            "                      device time may include gaps while the host enqueues)\n"
            "  --hold              hold the queue with a user event while the marker and the scan\n"
            "                      are enqueued (no enqueue gaps; on NVIDIA's driver the held\n"
            "                      marker's timestamp is early, so the times come out far too long)\n"
            "  --help              this text\n"
            "Exit status: 0 if every clscan result was right, 1 if one was wrong or could not be\n"
            "measured, 2 on usage or setup errors.  Peers' wrong results do not change it.\n");
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "clscan-bench: %s wants an integer in %d ... %d, not \"%s\"\n", opt, lo, hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_cases(const char *list, options *o)
{
    char buf[256];
    if (strlen(list) >= sizeof buf) {
        fprintf(stderr, "clscan-bench: --case list too long\n");
        return -1;
    }
    strcpy(buf, list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const int c = bench_case_find(t);
        if (c < 0) {
            fprintf(stderr, "clscan-bench: unknown case \"%s\"\n", t);
            return -1;
        }
        o->cases[c] = 1;
    }
    return 0;
}

/* 0 to run, 1 to exit 0 (help), -1 on a usage error. */
static int parse_options(int argc, char **argv, options *o)
{
    int any_case = 0;
    memset(o, 0, sizeof *o);
    o->min_log2 = 10;
    o->max_log2 = 28;
    o->reps = 10;
    o->no_hold = 1;   /* a held marker gets early timestamps on NVIDIA (doc/performance.md) */
    o->at_log2 = 24;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        static const char *const with_value[] = {"--device", "--min", "--max", "--case", "--reps",
                                                 "--csv", "--boost", "--cub", "--at", "--algorithm"};
        const char *value = NULL, *name = a;
        char namebuf[32];
        const char *eq = strchr(a, '=');
        if (eq && (size_t)(eq - a) < sizeof namebuf) {
            memcpy(namebuf, a, (size_t)(eq - a));
            namebuf[eq - a] = '\0';
            name = namebuf;
            value = eq + 1;
        }
        int wants = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; ++k)
            wants |= strcmp(name, with_value[k]) == 0;
        if (wants && !value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "clscan-bench: %s needs a value\n", name);
                return -1;
            }
            value = argv[++i];
        } else if (!wants && value) {
            fprintf(stderr, "clscan-bench: %s takes no value\n", name);
            return -1;
        }
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(name, "--device")) {
            o->device = value;
        } else if (!strcmp(name, "--min")) {
            if (parse_int(name, value, 0, MAX_LOG2, &o->min_log2)) return -1;
        } else if (!strcmp(name, "--max")) {
            if (parse_int(name, value, 0, MAX_LOG2, &o->max_log2)) return -1;
        } else if (!strcmp(name, "--at")) {
            if (parse_int(name, value, 0, MAX_LOG2, &o->at_log2)) return -1;
        } else if (!strcmp(name, "--reps")) {
            if (parse_int(name, value, 1, MAX_REPS, &o->reps)) return -1;
        } else if (!strcmp(name, "--case")) {
            if (parse_cases(value, o)) return -1;
            any_case = 1;
        } else if (!strcmp(name, "--algorithm")) {
            if (!strcmp(value, "auto"))
                o->algorithm = CLSCAN_ALGORITHM_AUTO;
            else if (!strcmp(value, "reduce-then-scan"))
                o->algorithm = CLSCAN_ALGORITHM_REDUCE_THEN_SCAN;
            else if (!strcmp(value, "single-pass"))
                o->algorithm = CLSCAN_ALGORITHM_SINGLE_PASS;
            else {
                fprintf(stderr, "clscan-bench: --algorithm: \"%s\" is not auto, reduce-then-scan or single-pass\n", value);
                return -1;
            }
        } else if (!strcmp(name, "--csv")) {
            o->csv = value;
        } else if (!strcmp(name, "--boost")) {
            o->boost = value;
        } else if (!strcmp(name, "--cub")) {
            o->cub = value;
        } else if (!strcmp(name, "--sweep-primitive")) {
            o->sweep_primitive = 1;
        } else if (!strcmp(name, "--sweep-items")) {
            o->sweep_items = 1;
        } else if (!strcmp(name, "--no-hold")) {
            o->no_hold = 1;
        } else if (!strcmp(name, "--hold")) {
            o->no_hold = 0;
        } else {
            fprintf(stderr, "clscan-bench: unknown option \"%s\" (try --help)\n", a);
            return -1;
        }
    }
    if (o->min_log2 > o->max_log2) {
        fprintf(stderr, "clscan-bench: --min %d is above --max %d\n", o->min_log2, o->max_log2);
        return -1;
    }
    if (!any_case)
        for (int c = 0; c < BENCH_NCASES; ++c)
            o->cases[c] = 1;
    return 0;
}

/* ---- The device ------------------------------------------------------------------------- */

typedef struct bench {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;     /* in order, profiling */
    cl_mem tiny;                /* 4 bytes: the fence when markers have no timestamps */
    cl_program kcopy_program;   /* the kernel copy (kcopy) */
    cl_kernel kcopy16, kcopy4;
    int fence_is_fill;
    int no_hold;                /* --no-hold: no user event before the fence */
    clscan_algorithm algorithm; /* --algorithm */
    unsigned platform_index, device_index;
    char name[256], vendor[256], driver[256], version[256];
    cl_ulong max_alloc, global_mem;
    size_t max_wg;
    int fp64;
    int pci_known;
    cl_uint pci_bus, pci_slot;
    size_t host_mem;            /* bytes of physical memory, 0 if unknown */
} bench;

static cl_int cl_check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-bench: %s failed: %s\n", what, clscan_error_string(err));
    return err;
}

static void find_indices(bench *b)
{
    cl_uint np = 0;
    b->platform_index = b->device_index = 0;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || !np)
        return;
    cl_platform_id *ps = malloc(np * sizeof *ps);
    if (!ps || clGetPlatformIDs(np, ps, NULL) != CL_SUCCESS) {
        free(ps);
        return;
    }
    for (cl_uint p = 0; p < np; ++p) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || !nd)
            continue;
        cl_device_id *ds = malloc(nd * sizeof *ds);
        if (ds && clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, nd, ds, NULL) == CL_SUCCESS)
            for (cl_uint d = 0; d < nd; ++d)
                if (ds[d] == b->device) {
                    b->platform_index = p;
                    b->device_index = d;
                }
        free(ds);
    }
    free(ps);
}

/* The kernel copy: one work-item per 16 bytes (a uint4; per 4 bytes when the size is not a
 * multiple of 16), the work-group size left to the driver, so that every compute unit copies.
 * On CPUs clEnqueueCopyBuffer may be one thread's memcpy (PoCL's is): this is the copy a
 * data-parallel kernel can reach, the fairer floor for a scan there. */
static const char kcopy_source[] =
    "__kernel void kcopy16(__global const uint4 *src, __global uint4 *dst)\n"
    "{ dst[get_global_id(0)] = src[get_global_id(0)]; }\n"
    "__kernel void kcopy4(__global const uint *src, __global uint *dst)\n"
    "{ dst[get_global_id(0)] = src[get_global_id(0)]; }\n";

static int kcopy_build(bench *b)
{
    const char *src = kcopy_source;
    cl_int err;
    b->kcopy_program = clCreateProgramWithSource(b->context, 1, &src, NULL, &err);
    if (cl_check(err, "clCreateProgramWithSource"))
        return -1;
    if (cl_check(clBuildProgram(b->kcopy_program, 1, &b->device, "", NULL, NULL), "clBuildProgram (kcopy)"))
        return -1;
    b->kcopy16 = clCreateKernel(b->kcopy_program, "kcopy16", &err);
    if (cl_check(err, "clCreateKernel"))
        return -1;
    b->kcopy4 = clCreateKernel(b->kcopy_program, "kcopy4", &err);
    return cl_check(err, "clCreateKernel") ? -1 : 0;
}

static int bench_open(bench *b, const char *spec)
{
    memset(b, 0, sizeof *b);
    cl_int err = clscan_default_device(spec, &b->platform, &b->device);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan-bench: %s\n", clscan_last_error());
        return -1;
    }
    find_indices(b);
    clGetDeviceInfo(b->device, CL_DEVICE_NAME, sizeof b->name - 1, b->name, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_VENDOR, sizeof b->vendor - 1, b->vendor, NULL);
    clGetDeviceInfo(b->device, CL_DRIVER_VERSION, sizeof b->driver - 1, b->driver, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_VERSION, sizeof b->version - 1, b->version, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof b->max_alloc, &b->max_alloc, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof b->global_mem, &b->global_mem, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof b->max_wg, &b->max_wg, NULL);
    cl_device_fp_config fp64 = 0;
    if (clGetDeviceInfo(b->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) == CL_SUCCESS)
        b->fp64 = fp64 != 0;
    b->pci_known = clGetDeviceInfo(b->device, CL_DEVICE_PCI_BUS_ID_NV, sizeof b->pci_bus, &b->pci_bus, NULL) == CL_SUCCESS &&
                   clGetDeviceInfo(b->device, CL_DEVICE_PCI_SLOT_ID_NV, sizeof b->pci_slot, &b->pci_slot, NULL) == CL_SUCCESS;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    b->host_mem = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;

    b->context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (cl_check(err, "clCreateContext"))
        return -1;
    b->queue = clCreateCommandQueue(b->context, b->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (cl_check(err, "clCreateCommandQueue"))
        return -1;
    b->tiny = clCreateBuffer(b->context, CL_MEM_READ_WRITE, 4, NULL, &err);
    if (cl_check(err, "clCreateBuffer"))
        return -1;
    return kcopy_build(b);
}

static void bench_close(bench *b)
{
    if (b->kcopy16) clReleaseKernel(b->kcopy16);
    if (b->kcopy4) clReleaseKernel(b->kcopy4);
    if (b->kcopy_program) clReleaseProgram(b->kcopy_program);
    if (b->tiny) clReleaseMemObject(b->tiny);
    if (b->queue) clReleaseCommandQueue(b->queue);
    if (b->context) clReleaseContext(b->context);
    clscan_cache_clear();
}

/* ---- Timing ----------------------------------------------------------------------------- */

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* What is timed: a scan of plan (segmented by heads or keys when segs is non-NULL), or (plan
 * NULL) a copy of bytes from src to dst: clEnqueueCopyBuffer, or the kernel copy with kernel. */
typedef struct work {
    clscan_plan *plan;
    cl_mem src, dst;
    size_t count, bytes;
    cl_mem segs;
    int by_key;
    int kernel;
} work;

static cl_int enqueue_work(bench *b, const work *w, cl_event *ev)
{
    if (w->plan) {
        cl_int err;
        if (!w->segs)
            err = clscan_enqueue(w->plan, b->queue, w->src, 0, w->dst, 0, w->count, 0, NULL, ev);
        else if (w->by_key)
            err = clscan_enqueue_by_key(w->plan, b->queue, CLSCAN_UINT32, w->segs, 0, w->src, 0, w->dst, 0,
                                        w->count, 0, NULL, ev);
        else
            err = clscan_enqueue_segmented(w->plan, b->queue, w->src, 0, w->segs, 0, w->dst, 0, w->count,
                                           0, NULL, ev);
        if (err != CL_SUCCESS)
            fprintf(stderr, "clscan-bench: clscan_enqueue: %s\n", clscan_last_error());
        return err;
    }
    if (w->kernel) {
        cl_kernel k = w->bytes % 16 ? b->kcopy4 : b->kcopy16;
        const size_t global = w->bytes % 16 ? w->bytes / 4 : w->bytes / 16;
        cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &w->src);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 1, sizeof(cl_mem), &w->dst);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, NULL, 0, NULL, ev);
        return cl_check(err, "the kernel copy");
    }
    return cl_check(clEnqueueCopyBuffer(b->queue, w->src, w->dst, 0, 0, w->bytes, 0, NULL, ev),
                    "clEnqueueCopyBuffer");
}

static cl_int enqueue_fence(bench *b, cl_event gate, cl_event *fence)
{
    if (b->fence_is_fill) {
        const cl_uint zero = 0;
        return cl_check(clEnqueueFillBuffer(b->queue, b->tiny, &zero, sizeof zero, 0, sizeof zero, !b->no_hold,
                                            b->no_hold ? NULL : &gate, fence), "clEnqueueFillBuffer");
    }
    return cl_check(clEnqueueMarkerWithWaitList(b->queue, !b->no_hold, b->no_hold ? NULL : &gate, fence),
                    "clEnqueueMarkerWithWaitList");
}

/* One run with device timing.  The queue is held by a user event (the gate) while the fence (a
 * marker) and the work are enqueued; then the gate opens and everything runs back to back.  On an
 * in-order queue the first kernel cannot start before the fence ends, so
 *   span = end of the work's last command - end of the fence
 * is an upper bound of the first kernel's start to the last kernel's end, without the host's
 * enqueue time.  own = the last command's own start..end (a lower bound for multi-kernel scans).
 * Returns 1 if the fence's timestamps are unusable (then the caller switches fences). */
static int device_run(bench *b, const work *w, double *span_ms, double *own_ms, cl_int *errp)
{
    cl_int err;
    cl_event gate = clCreateUserEvent(b->context, &err), fence = NULL, ev = NULL;
    if (cl_check(err, "clCreateUserEvent")) {
        *errp = err;
        return 0;
    }
    err = enqueue_fence(b, gate, &fence);
    if (err == CL_SUCCESS)
        err = enqueue_work(b, w, &ev);
    clFlush(b->queue);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clFinish(b->queue);
    int bad_fence = 0;
    if (err == CL_SUCCESS) {
        cl_ulong f_end = 0, start = 0, end = 0;
        const cl_int e1 = clGetEventProfilingInfo(fence, CL_PROFILING_COMMAND_END, sizeof f_end, &f_end, NULL);
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
        cl_check(err, "clGetEventProfilingInfo");
        if (e1 != CL_SUCCESS || f_end == 0 || f_end > start)
            bad_fence = 1;
        *span_ms = (double)(end - f_end) / 1e6;
        *own_ms = (double)(end - start) / 1e6;
    }
    if (fence) clReleaseEvent(fence);
    if (ev) clReleaseEvent(ev);
    clReleaseEvent(gate);
    *errp = err;
    return bad_fence;
}

static cl_int device_time(bench *b, const work *w, double *span_ms, double *own_ms)
{
    cl_int err;
    if (device_run(b, w, span_ms, own_ms, &err) && err == CL_SUCCESS) {
        if (!b->fence_is_fill) {
            b->fence_is_fill = 1;
            fprintf(stderr, "clscan-bench: the marker's timestamps are unusable; fencing with a 4-byte fill\n");
            if (!device_run(b, w, span_ms, own_ms, &err) || err != CL_SUCCESS)
                return err;
        }
        *span_ms = *own_ms;   /* no usable fence: the last command only */
    }
    return err;
}

/* ---- One case at one count ---------------------------------------------------------------- */

typedef struct peer_result {
    int have, ok;
    double dev_ms, host_ms, copy_ms;
} peer_result;

enum { PEER_BOOST, PEER_CUB, NPEERS };
static const char *const peer_names[NPEERS] = {"boost", "cub"};

typedef struct row {
    int c, log2;
    size_t count, bytes;
    int status;              /* 0 measured, 1 skipped (memory), 2 error */
    const char *why;         /* for skipped/error */
    int ok;                  /* all clscan results right */
    size_t bad, first_bad;
    double dev_ms, own_ms, host_ms, copy_ms, copy_own_ms, kcopy_ms, kcopy_own_ms, seq_ms;
    size_t wg, items;
    peer_result peer[NPEERS];
} row;

typedef struct buffers {
    void *in, *ref, *out, *seq;
    void *segs_host;         /* heads (cl_uchar) or keys (cl_uint) of the segmented cases */
    cl_mem src, dst, segs;
} buffers;

/* ---- The custom-operator and segmented cases -------------------------------------------- */

/* The sequential loop of case c (the reference): segmented cases run the base case's loop on
 * each segment. */
static void sequential(int c, size_t n, const buffers *u, void *out)
{
    if (bench_segmented_case(c))
        sup_reference_segmented(bench_case_op[c], bench_case_type[c], bench_case_kind[c],
                                c == BENCH_KIMAX ? SUP_KEYS32 : SUP_HEADS, u->segs_host, u->in, out, n);
    else
        sup_reference(bench_case_op[c], bench_case_type[c], bench_case_kind[c], u->in, out, n);
}

static void buffers_free(buffers *u)
{
    free(u->segs_host);
    if (u->segs) clReleaseMemObject(u->segs);
    free(u->in);
    free(u->ref);
    free(u->out);
    free(u->seq);
    if (u->src) clReleaseMemObject(u->src);
    if (u->dst) clReleaseMemObject(u->dst);
    memset(u, 0, sizeof *u);
}

/* Why count elements of esize bytes cannot be measured, or NULL. */
static const char *too_big(const bench *b, size_t count, size_t esize)
{
    if (count > SIZE_MAX / esize / 8)
        return "too large";
    const size_t bytes = count * esize;
    if ((cl_ulong)bytes > b->max_alloc)
        return "above CL_DEVICE_MAX_MEM_ALLOC_SIZE";
    /* src + dst + scratch (at most bytes / 2 for tiles of >= 2 elements) within 3/4 of the memory */
    if ((cl_ulong)bytes / 2 * 5 > b->global_mem / 4 * 3)
        return "too much of CL_DEVICE_GLOBAL_MEM_SIZE";
    /* host: input, reference, read-back, sequential output (+ the device's on CPU devices) */
    if (b->host_mem && bytes > b->host_mem / 8)
        return "too much of the host's memory";
    return NULL;
}

static int buffers_alloc(bench *b, int c, size_t count, buffers *u)
{
    const size_t bytes = count * bench_case_esize[c];
    cl_int err;
    memset(u, 0, sizeof *u);
    u->in = malloc(bytes);
    u->ref = malloc(bytes);
    u->out = malloc(bytes);
    u->seq = malloc(bytes);
    if (!u->in || !u->ref || !u->out || !u->seq) {
        fprintf(stderr, "clscan-bench: out of host memory for %zu bytes\n", bytes);
        return -1;
    }
    bench_generate(bench_base_case(c), count, u->in);
    if (bench_segmented_case(c)) {
        if (!(u->segs_host = malloc(count * bench_segs_esize(c)))) {
            fprintf(stderr, "clscan-bench: out of host memory for the segments\n");
            return -1;
        }
        bench_generate_segments(c, count, u->segs_host, NULL);
        u->segs = clCreateBuffer(b->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * bench_segs_esize(c),
                                 u->segs_host, &err);
        if (cl_check(err, "clCreateBuffer"))
            return -1;
    }
    u->src = clCreateBuffer(b->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (cl_check(err, "clCreateBuffer"))
        return -1;
    u->dst = clCreateBuffer(b->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (cl_check(err, "clCreateBuffer"))
        return -1;
    return cl_check(clEnqueueWriteBuffer(b->queue, u->src, CL_TRUE, 0, bytes, u->in, 0, NULL, NULL),
                    "clEnqueueWriteBuffer") ? -1 : 0;
}

/* Fills dst with 0xff bytes (NaN, -1) so that a run that writes nothing cannot pass. */
static cl_int poison(bench *b, cl_mem dst, size_t bytes)
{
    /* A 4-byte pattern where the size allows: NVIDIA's driver did not finish a 1-byte fill of
     * exactly 2^31 bytes within 30 s (float AFFINE at 2^28; doc/performance.md). */
    const cl_uint ff = 0xffffffffu;
    const size_t pattern = bytes % 4 ? 1 : 4;
    cl_int err = cl_check(clEnqueueFillBuffer(b->queue, dst, &ff, pattern, 0, bytes, 0, NULL, NULL),
                          "clEnqueueFillBuffer");
    clFinish(b->queue);
    return err;
}

/* Reads dst back and compares it with the reference; counts into r. */
static cl_int verify(bench *b, int c, size_t count, buffers *u, row *r)
{
    const size_t bytes = count * bench_case_esize[c];
    cl_int err = cl_check(clEnqueueReadBuffer(b->queue, u->dst, CL_TRUE, 0, bytes, u->out, 0, NULL, NULL),
                          "clEnqueueReadBuffer");
    if (err != CL_SUCCESS)
        return err;
    sup_compare_result res;
    if (!sup_compare(bench_case_op[c], bench_case_type[c], SUP_MATCH_VALUES, u->ref, u->out, count, &res)) {
        if (r->ok) {
            r->bad = res.mismatches;
            r->first_bad = res.first_mismatch;
        }
        r->ok = 0;
    }
    return CL_SUCCESS;
}

/* Times plan on u (device time, host time, both checked run by run).  Fills r->dev_ms, own_ms,
 * host_ms, ok.  Returns an OpenCL error or CL_SUCCESS. */
static cl_int measure_scan(bench *b, clscan_plan *plan, int c, size_t count, int reps, buffers *u, row *r)
{
    const size_t bytes = count * bench_case_esize[c];
    work w = {plan, u->src, u->dst, count, bytes, u->segs, c == BENCH_KIMAX, 0};
    double span[MAX_REPS], own[MAX_REPS], host[MAX_REPS];
    cl_event ev = NULL;
    cl_int err;
    r->ok = 1;
    /* warm-up (and the first check) */
    if ((err = poison(b, u->dst, bytes)) || (err = enqueue_work(b, &w, &ev)))
        return err;
    err = cl_check(clWaitForEvents(1, &ev), "clWaitForEvents");
    clReleaseEvent(ev);
    if (err || (err = verify(b, c, count, u, r)))
        return err;
    if (!r->ok)
        return CL_SUCCESS;   /* wrong: not timed */
    for (int i = 0; i < reps; ++i) {
        if ((err = poison(b, u->dst, bytes)) || (err = device_time(b, &w, &span[i], &own[i])) ||
            (err = verify(b, c, count, u, r)))
            return err;
    }
    for (int i = 0; i < reps; ++i) {
        if ((err = poison(b, u->dst, bytes)))
            return err;
        const double t0 = wall_ms();
        if ((err = enqueue_work(b, &w, &ev)))
            return err;
        err = cl_check(clWaitForEvents(1, &ev), "clWaitForEvents");
        host[i] = wall_ms() - t0;
        clReleaseEvent(ev);
        if (err || (err = verify(b, c, count, u, r)))
            return err;
    }
    r->dev_ms = bench_median(span, reps);
    r->own_ms = bench_median(own, reps);
    r->host_ms = bench_median(host, reps);
    return CL_SUCCESS;
}

/* The copies of the scan's bytes: clEnqueueCopyBuffer (copy_ms) and the kernel copy (kcopy_ms),
 * interleaved run by run, so that both see the same machine (others' builds on a shared CPU).
 * The kernel copy's first result is checked (read back and compared with the input). */
/* One timed copy under the scan's conditions: its destination filled before, read back and
 * checked after (so a copy of bytes that fit the device's caches is not timed hotter than the
 * scan, whose timed runs each follow a fill and a read-back). */
static cl_int timed_copy(bench *b, const work *w, buffers *u, double *span, double *own)
{
    cl_int err;
    if ((err = poison(b, u->dst, w->bytes)) || (err = device_time(b, w, span, own)) ||
        (err = cl_check(clEnqueueReadBuffer(b->queue, u->dst, CL_TRUE, 0, w->bytes, u->out, 0, NULL, NULL),
                        "clEnqueueReadBuffer")))
        return err;
    if (memcmp(u->out, u->in, w->bytes) != 0) {
        fprintf(stderr, "clscan-bench: the %s copy of %zu bytes is wrong\n", w->kernel ? "kernel" : "buffer",
                w->bytes);
        return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

static cl_int measure_copy(bench *b, size_t bytes, int reps, buffers *u, row *r)
{
    work w = {NULL, u->src, u->dst, 0, bytes, NULL, 0, 0}, k = w;
    k.kernel = 1;
    double span[MAX_REPS], own[MAX_REPS], kspan[MAX_REPS], kown[MAX_REPS];
    cl_int err;
    if ((err = timed_copy(b, &k, u, &kspan[0], &kown[0])) || (err = timed_copy(b, &w, u, &span[0], &own[0])))
        return err;   /* warm-up */
    for (int i = 0; i < reps; ++i)
        if ((err = timed_copy(b, &w, u, &span[i], &own[i])) || (err = timed_copy(b, &k, u, &kspan[i], &kown[i])))
            return err;
    r->copy_ms = bench_median(span, reps);
    r->copy_own_ms = bench_median(own, reps);
    r->kcopy_ms = bench_median(kspan, reps);
    r->kcopy_own_ms = bench_median(kown, reps);
    return CL_SUCCESS;
}

/* The reference (the support library's loop), then the timed loop: the same code built with the
 * seq flags (bench_seq.c), its first result checked against the reference (-1 if it differs). */
static int measure_sequential(int c, size_t count, int reps, buffers *u, row *r)
{
    double t[MAX_REPS];
    const sup_segments how = c == BENCH_KIMAX ? SUP_KEYS32 : SUP_HEADS;
    const void *segs = bench_segmented_case(c) ? u->segs_host : NULL;
    sequential(c, count, u, u->ref);
    bench_seq_scan(bench_case_op[c], bench_case_type[c], bench_case_kind[c], how, segs, u->in, u->seq, count);
    if (memcmp(u->seq, u->ref, count * bench_case_esize[c]) != 0) {
        fprintf(stderr, "clscan-bench: %s: the timed sequential loop differs from the reference\n",
                bench_case_names[c]);
        return -1;
    }
    for (int i = 0; i < reps; ++i) {
        const double t0 = wall_ms();
        bench_seq_scan(bench_case_op[c], bench_case_type[c], bench_case_kind[c], how, segs, u->in, u->seq, count);
        t[i] = wall_ms() - t0;
    }
    r->seq_ms = bench_median(t, reps);
    return 0;
}

/* The custom operators: the built-in float SUM and AFFINE written as clscan_custom. */
static const clscan_custom custom_sum = {"float", 4, "0.0f", "a + b", NULL};
static const clscan_custom custom_affine = {"float2", 8, "(float2)(1.0f, 0.0f)",
                                            "(float2)(b.x * a.x, b.x * a.y + b.y)", NULL};

static clscan_plan *make_plan(bench *b, int c)
{
    cl_int err;
    clscan_plan *p;
    if (c == BENCH_CFSUM || c == BENCH_CFAFF)
        p = clscan_plan_create_custom(b->context, b->device, c == BENCH_CFSUM ? &custom_sum : &custom_affine,
                                      bench_case_kind[c], &err);
    else
        p = clscan_plan_create(b->context, b->device, bench_case_op[c], bench_case_type[c], bench_case_kind[c], &err);
    if (!p)
        fprintf(stderr, "clscan-bench: clscan_plan_create(%s): %s\n", bench_case_names[c], clscan_last_error());
    else if ((err = clscan_plan_set_algorithm(p, b->algorithm)) != CL_SUCCESS) {
        fprintf(stderr, "clscan-bench: clscan_plan_set_algorithm(%s): %s\n", bench_case_names[c], clscan_last_error());
        clscan_plan_release(p);
        p = NULL;
    }
    return p;
}

/* ---- Output ----------------------------------------------------------------------------- */

static double gbs(size_t bytes, double ms) { return ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : 0.0; }

static time_t start_time;   /* when the run began */

static void print_header(FILE *f, const char *prefix, const bench *b, int argc, char **argv, int reps)
{
    char date[64];
    struct tm tm;
    localtime_r(&start_time, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", &tm);
    fprintf(f, "%sclscan-bench, clscan %s\n", prefix, clscan_version_string());
    fprintf(f, "%sdevice: %s (%s), platform:device %u:%u\n", prefix, b->name, b->vendor, b->platform_index,
            b->device_index);
    fprintf(f, "%sdriver: %s; %s; fp64 %s; max alloc %llu MiB; global memory %llu MiB\n", prefix, b->driver,
            b->version, b->fp64 ? "yes" : "no", (unsigned long long)(b->max_alloc >> 20),
            (unsigned long long)(b->global_mem >> 20));
    fprintf(f, "%sdate: %s\n", prefix, date);
    fprintf(f, "%sseq: the sequential loop built with %s\n", prefix, bench_seq_build);
    fprintf(f, "%scommand:", prefix);
    for (int i = 0; i < argc; ++i)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n%smedians of %d runs after a warm-up; device time: fence (%s) end to the last kernel's "
            "end, in-order queue, %s\n", prefix, reps, b->fence_is_fill ? "4-byte fill" : "marker",
            b->no_hold ? "not held (--no-hold)" : "held while enqueuing");
}

static void fmt_ms(char *s, size_t n, double ms) { snprintf(s, n, "%.4f", ms); }

static void print_row(FILE *f, const row *r, const int use_peer[NPEERS])
{
    char n[16];
    snprintf(n, sizeof n, "2^%d", r->log2);
    fprintf(f, "%-24s %5s", bench_case_names[r->c], n);
    if (r->status) {
        fprintf(f, "  %s: %s\n", r->status == 1 ? "skipped" : "error", r->why ? r->why : "");
        return;
    }
    if (!r->ok) {
        fprintf(f, "  WRONG: %zu of %zu elements differ, the first at %zu\n", r->bad, r->count, r->first_bad);
        return;
    }
    fprintf(f, " %10.4f %10.4f %8.2f %10.4f %8.2f %10.4f %8.2f %10.4f %8.2f %7.2f %7.2f %7.3f", r->dev_ms,
            r->host_ms, gbs(r->bytes, r->dev_ms), r->copy_ms, gbs(r->bytes, r->copy_ms), r->kcopy_ms,
            gbs(r->bytes, r->kcopy_ms), r->seq_ms, gbs(r->bytes, r->seq_ms), r->dev_ms / r->copy_ms,
            r->dev_ms / r->kcopy_ms, r->dev_ms / r->seq_ms);
    for (int p = 0; p < NPEERS; ++p) {
        if (!use_peer[p])
            continue;
        const peer_result *q = &r->peer[p];
        char ms[32] = "-", ratio[32] = "-";
        if (q->have && !q->ok)
            strcpy(ms, "WRONG");
        else if (q->have) {
            fmt_ms(ms, sizeof ms, q->dev_ms);
            snprintf(ratio, sizeof ratio, "%.3f", r->dev_ms / q->dev_ms);
        }
        fprintf(f, " %10s %7s", ms, ratio);
    }
    fprintf(f, "  ok\n");
}

static void print_table_head(FILE *f, const int use_peer[NPEERS])
{
    fprintf(f, "%-24s %5s %10s %10s %8s %10s %8s %10s %8s %10s %8s %7s %7s %7s", "case", "n", "scan_ms", "host_ms",
            "GB/s", "copy_ms", "GB/s", "kcopy_ms", "GB/s", "seq_ms", "GB/s", "x_copy", "x_kcopy", "x_seq");
    for (int p = 0; p < NPEERS; ++p)
        if (use_peer[p]) {
            char a[32], b2[32];
            snprintf(a, sizeof a, "%s_ms", peer_names[p]);
            snprintf(b2, sizeof b2, "x_%s", peer_names[p]);
            fprintf(f, " %10s %7s", a, b2);
        }
    fprintf(f, "  check\n");
}

static void csv_head(FILE *f)
{
    fprintf(f, "case,count,bytes,status,clscan_ok,scan_ms,scan_last_kernel_ms,scan_host_ms,scan_gbs,"
               "copy_ms,copy_own_ms,copy_gbs,seq_ms,seq_gbs,scan_per_copy,scan_per_seq,kcopy_ms,kcopy_own_ms,"
               "kcopy_gbs,scan_per_kcopy,wg,items");
    for (int p = 0; p < NPEERS; ++p)
        fprintf(f, ",%s_ok,%s_ms,%s_host_ms,%s_gbs,%s_copy_ms,scan_per_%s", peer_names[p], peer_names[p],
                peer_names[p], peer_names[p], peer_names[p], peer_names[p]);
    fprintf(f, "\n");
}

static void csv_row(FILE *f, const row *r)
{
    const char *status = r->status == 1 ? "skipped" : r->status == 2 ? "error" : r->ok ? "ok" : "WRONG";
    fprintf(f, "%s,%zu,%zu,%s,%s", bench_case_names[r->c], r->count, r->bytes, status,
            r->status ? "" : r->ok ? "yes" : "no");
    if (r->status || !r->ok) {
        fprintf(f, ",,,,,,,,,,,,,,,,,");
    } else {
        fprintf(f, ",%.6f,%.6f,%.6f,%.3f,%.6f,%.6f,%.3f,%.6f,%.3f,%.4f,%.4f,%.6f,%.6f,%.3f,%.4f,%zu,%zu", r->dev_ms,
                r->own_ms, r->host_ms, gbs(r->bytes, r->dev_ms), r->copy_ms, r->copy_own_ms, gbs(r->bytes, r->copy_ms),
                r->seq_ms, gbs(r->bytes, r->seq_ms), r->dev_ms / r->copy_ms, r->dev_ms / r->seq_ms, r->kcopy_ms,
                r->kcopy_own_ms, gbs(r->bytes, r->kcopy_ms), r->dev_ms / r->kcopy_ms, r->wg, r->items);
    }
    for (int p = 0; p < NPEERS; ++p) {
        const peer_result *q = &r->peer[p];
        if (!q->have)
            fprintf(f, ",,,,,,");
        else if (!q->ok)
            fprintf(f, ",no,,,,,");
        else {
            fprintf(f, ",yes,%.6f,%.6f,%.3f,", q->dev_ms, q->host_ms, gbs(r->bytes, q->dev_ms));
            if (q->copy_ms > 0)
                fprintf(f, "%.6f", q->copy_ms);
            fprintf(f, ",");
            if (!r->status && r->ok)
                fprintf(f, "%.4f", r->dev_ms / q->dev_ms);
        }
    }
    fprintf(f, "\n");
}

/* ---- Peers ------------------------------------------------------------------------------ */

static peer_launcher launcher;   /* started in main when a peer is asked for */

/* Runs a peer for the cases and counts of rows and merges its "result" lines. */
static void run_peer(bench *b, int p, const char *program, const options *o, row *rows, int nrows)
{
    char cmd[4096] = "";
    bench_shell_quote(cmd, sizeof cmd, program);
    size_t k = strlen(cmd);
    k += (size_t)snprintf(cmd + k, sizeof cmd - k, " --reps %d --min %d --max %d --cases ", o->reps,
                          o->min_log2, o->max_log2);
    int first = 1;
    for (int c = 0; c < BENCH_NCASES; ++c) {
        if (!bench_peer_runs(c, p == PEER_CUB))
            continue;
        int used = 0;
        for (int i = 0; i < nrows; ++i)
            used |= rows[i].c == c && rows[i].status == 0;
        if (used && k + 40 < sizeof cmd)
            k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s%s", first ? "" : ",", bench_case_names[c]);
        first &= !used;
    }
    if (first) return;   /* nothing to compare */
    if (p == PEER_BOOST) {   /* the index, and the name in case the peer sees other platforms */
        snprintf(cmd + k, sizeof cmd - k, " --device %u:%u --device-name ", b->platform_index, b->device_index);
        bench_shell_quote(cmd, sizeof cmd, b->name);
    }
    else if (b->pci_known)
        snprintf(cmd + k, sizeof cmd - k, " --pci %u:%u", b->pci_bus, b->pci_slot);
    fprintf(stderr, "clscan-bench: running %s\n", cmd);
    fflush(NULL);
    peer_run f;
    if (peer_open(&launcher, cmd, &f)) {
        fprintf(stderr, "clscan-bench: cannot run %s: %s\n", program, strerror(errno));
        return;
    }
    char line[1024];
    while (peer_gets(&f, line, (int)sizeof line)) {
        char name[64], ok[16];
        size_t count;
        double dev, host, copy;
        if (sscanf(line, "result %63s %zu %lf %lf %lf %15s", name, &count, &dev, &host, &copy, ok) == 6) {
            const int c = bench_case_find(name);
            for (int i = 0; i < nrows; ++i)
                if (rows[i].c == c && rows[i].count == count) {
                    rows[i].peer[p].have = 1;
                    rows[i].peer[p].ok = strcmp(ok, "yes") == 0;
                    rows[i].peer[p].dev_ms = dev;
                    rows[i].peer[p].host_ms = host;
                    rows[i].peer[p].copy_ms = copy;
                }
        } else {
            fprintf(stderr, "%s: %s", peer_names[p], line);   /* notes, device lines, errors */
        }
    }
    const int st = peer_close(&f);
    if (st != 0)
        fprintf(stderr, "clscan-bench: %s exited with status %d\n", program, st);
}

/* ---- The main benchmark ----------------------------------------------------------------- */

static int run_main(bench *b, const options *o, int argc, char **argv, FILE *csv)
{
    row rows[BENCH_NCASES * (MAX_LOG2 + 1)];
    int nrows = 0, all_ok = 1, use_peer[NPEERS] = {o->boost != NULL, 0};
    if (o->cub) {
        if (strstr(b->vendor, "NVIDIA") || strstr(b->name, "NVIDIA"))
            use_peer[PEER_CUB] = 1;
        else
            fprintf(stderr, "clscan-bench: --cub ignored: %s is not an NVIDIA device\n", b->name);
    }
    for (int c = 0; c < BENCH_NCASES; ++c) {
        if (!o->cases[c])
            continue;
        if (c == BENCH_DSUM && !b->fp64) {
            fprintf(stderr, "clscan-bench: %s skipped: %s has no fp64\n", bench_case_names[c], b->name);
            continue;
        }
        clscan_plan *plan = make_plan(b, c);
        if (!plan) {
            all_ok = 0;
            continue;
        }
        for (int lg = o->min_log2; lg <= o->max_log2; lg += 2) {
            row *r = &rows[nrows++];
            memset(r, 0, sizeof *r);
            r->c = c;
            r->log2 = lg;
            r->count = (size_t)1 << lg;
            r->bytes = r->count * bench_case_esize[c];
            clscan_plan_get_tuning(plan, &r->wg, &r->items);
            if ((r->why = too_big(b, r->count, bench_case_esize[c]))) {
                r->status = 1;
                continue;
            }
            fprintf(stderr, "clscan-bench: %s 2^%d\n", bench_case_names[c], lg);
            buffers u;
            cl_int err = CL_SUCCESS;
            /* Wall time of each phase on stderr: where a long run spends its time (the host's
             * generation, checks and read-backs weigh more than the scans at large counts). */
            double phase[4] = {wall_ms(), 0, 0, 0};
            if (buffers_alloc(b, c, r->count, &u)) {
                r->status = 2;
                r->why = "cannot allocate the buffers";
            } else {
                phase[1] = wall_ms();
                if (measure_sequential(c, r->count, o->reps, &u, r))
                    err = CL_INVALID_VALUE;   /* shown as an error row */
                phase[2] = wall_ms();
                if (err == CL_SUCCESS && (err = measure_scan(b, plan, c, r->count, o->reps, &u, r)) == CL_SUCCESS &&
                    r->ok)
                    err = measure_copy(b, r->bytes, o->reps, &u, r);
                phase[3] = wall_ms();
                fprintf(stderr, "clscan-bench: %s 2^%d: %.1f s generating, %.1f s sequential, %.1f s scans "
                        "with read-backs and checks, and copies\n", bench_case_names[c], lg,
                        (phase[1] - phase[0]) / 1e3, (phase[2] - phase[1]) / 1e3, (phase[3] - phase[2]) / 1e3);
                if (err != CL_SUCCESS) {
                    r->status = 2;
                    r->why = clscan_error_string(err);
                }
            }
            buffers_free(&u);
            clFinish(b->queue);
            if (r->status == 2 || !r->ok)
                all_ok = 0;
            /* At once, without the peers' columns: a run cut short (a time limit) keeps what it
             * measured. */
            fputs("clscan-bench: ", stderr);
            print_row(stderr, r, (const int[NPEERS]){0});
        }
        clscan_plan_release(plan);
    }
    if (use_peer[PEER_BOOST])
        run_peer(b, PEER_BOOST, o->boost, o, rows, nrows);
    if (use_peer[PEER_CUB])
        run_peer(b, PEER_CUB, o->cub, o, rows, nrows);

    print_header(stdout, "# ", b, argc, argv, o->reps);
    print_table_head(stdout, use_peer);
    for (int i = 0; i < nrows; ++i)
        print_row(stdout, &rows[i], use_peer);
    printf("# scan_ms: clscan device time; host_ms: clscan_enqueue to clWaitForEvents; GB/s: 2 x bytes / time;\n"
           "# copy: clEnqueueCopyBuffer of the same bytes; kcopy: a kernel copying them, one work-item per\n"
           "# 16 bytes on every compute unit (each timed run of a copy, as of a scan, after a fill of its\n"
           "# destination and before its read-back); seq: the sequential loop on the host;\n"
           "# x_copy, x_kcopy, x_seq, x_PEER: scan_ms / their time (below 1: clscan is faster)\n");
    if (use_peer[PEER_CUB])
        for (int c = 0; c < BENCH_NCASES; ++c)
            if (o->cases[c] && c == BENCH_SFSUM)
                printf("# cub on %s: DeviceScan::ExclusiveSumByKey on keys made from the heads on the host "
                       "(CUB has no scan by head flags)\n", bench_case_names[c]);
    if (csv) {
        print_header(csv, "# ", b, argc, argv, o->reps);
        csv_head(csv);
        for (int i = 0; i < nrows; ++i)
            csv_row(csv, &rows[i]);
    }
    return all_ok;
}

/* ---- Sweeps ----------------------------------------------------------------------------- */

/* One sweep cell: float-sum-excl with the given tuning (0: automatic) and primitive. */
static void sweep_cell(bench *b, clscan_primitive primitive, size_t wg, size_t items, size_t count, int reps,
                       buffers *u, row *r)
{
    memset(r, 0, sizeof *r);
    r->c = BENCH_FSUM;
    r->count = count;
    r->bytes = count * bench_case_esize[BENCH_FSUM];
    clscan_plan *plan = make_plan(b, BENCH_FSUM);
    cl_int err = plan ? clscan_plan_set_variant(plan, CLSCAN_TILES_AUTO, primitive) : CLSCAN_INVALID_PLAN;
    if (err == CL_SUCCESS)
        err = clscan_plan_set_tuning(plan, wg, items);
    if (plan && err != CL_SUCCESS)
        fprintf(stderr, "clscan-bench: primitive %d, tuning %zu x %zu: %s\n", (int)primitive, wg, items,
                clscan_last_error());
    if (err == CL_SUCCESS) {
        clscan_plan_get_tuning(plan, &r->wg, &r->items);
        err = measure_scan(b, plan, BENCH_FSUM, count, reps, u, r);
    }
    if (err != CL_SUCCESS) {
        r->status = 2;
        r->why = clscan_error_string(err);
    }
    clscan_plan_release(plan);
}

static void sweep_print_cell(FILE *f, const row *r)
{
    if (r->status)
        fprintf(f, " %12s", "error");
    else if (!r->ok)
        fprintf(f, " %12s", "WRONG");
    else
        fprintf(f, " %12.4f", r->dev_ms);
}

static int run_sweep(bench *b, const options *o, int items_sweep, int argc, char **argv, FILE *csv)
{
    const size_t count = (size_t)1 << o->at_log2;
    const char *why = too_big(b, count, 4);
    if (why) {
        fprintf(stderr, "clscan-bench: 2^%d floats: %s\n", o->at_log2, why);
        return 0;
    }
    buffers u;
    int all_ok = 1;
    if (buffers_alloc(b, BENCH_FSUM, count, &u)) {
        buffers_free(&u);
        return 0;
    }
    sequential(BENCH_FSUM, count, &u, u.ref);

    if (!items_sweep || !o->sweep_primitive)
        print_header(stdout, "# ", b, argc, argv, o->reps);
    printf("# float-sum-excl, n = 2^%d; HS: the Hillis-Steele work-group scan, Blelloch: Blelloch's "
           "(clscan_plan_set_variant)\n", o->at_log2);
    printf("%6s %6s %12s %12s %9s %9s  %s\n", "wg", "items", "HS_ms", "Blelloch_ms", "HS_GB/s", "Bl_GB/s", "winner");
    if (csv) {
        if (!items_sweep || !o->sweep_primitive) {
            print_header(csv, "# ", b, argc, argv, o->reps);
            fprintf(csv, "sweep,count,wg,items,hs_ms,hs_ok,blelloch_ms,blelloch_ok\n");
        }
    }
    for (size_t v = items_sweep ? 1 : 64; v <= (items_sweep ? 64u : 1024u); v *= 2) {
        if (!items_sweep && v > b->max_wg)
            break;
        row hs, bl;
        const size_t wg = items_sweep ? 0 : v, items = items_sweep ? v : 0;
        fprintf(stderr, "clscan-bench: sweep wg %zu items %zu\n", wg, items);
        sweep_cell(b, CLSCAN_PRIMITIVE_HILLIS_STEELE, wg, items, count, o->reps, &u, &hs);
        sweep_cell(b, CLSCAN_PRIMITIVE_BLELLOCH, wg, items, count, o->reps, &u, &bl);
        const int hs_good = !hs.status && hs.ok, bl_good = !bl.status && bl.ok;
        all_ok &= hs_good && bl_good;
        const row *shown = hs.status ? &bl : &hs;
        printf("%6zu %6zu", shown->wg ? shown->wg : wg, shown->items ? shown->items : items);
        sweep_print_cell(stdout, &hs);
        sweep_print_cell(stdout, &bl);
        printf(" %9.2f %9.2f  %s\n", hs_good ? gbs(hs.bytes, hs.dev_ms) : 0.0, bl_good ? gbs(bl.bytes, bl.dev_ms) : 0.0,
               hs_good && bl_good ? (hs.dev_ms <= bl.dev_ms ? "HS" : "Blelloch") : hs_good ? "HS" : bl_good ? "Blelloch" : "-");
        if (csv)
            fprintf(csv, "%s,%zu,%zu,%zu,%.6f,%s,%.6f,%s\n", items_sweep ? "items" : "wg", count,
                    shown->wg ? shown->wg : wg, shown->items ? shown->items : items, hs_good ? hs.dev_ms : 0.0,
                    hs_good ? "yes" : "no", bl_good ? bl.dev_ms : 0.0, bl_good ? "yes" : "no");
        clscan_cache_clear();   /* the programs of this cell are not needed again */
    }
    buffers_free(&u);
    return all_ok;
}

int main(int argc, char **argv)
{
    options o;
    start_time = time(NULL);
    const int pr = parse_options(argc, argv, &o);
    if (pr)
        return pr > 0 ? 0 : 2;
    if (o.boost || o.cub)
        peer_launcher_start(&launcher);   /* before any OpenCL call: see peer_launcher.h */
    bench b;
    if (bench_open(&b, o.device)) {
        bench_close(&b);
        return 2;
    }
    b.no_hold = o.no_hold;
    b.algorithm = o.algorithm;
    FILE *csv = NULL;
    if (o.csv && !(csv = fopen(o.csv, "w"))) {
        fprintf(stderr, "clscan-bench: cannot write %s: %s\n", o.csv, strerror(errno));
        bench_close(&b);
        return 2;
    }
    int ok = 1;
    if (o.sweep_primitive)
        ok &= run_sweep(&b, &o, 0, argc, argv, csv);
    if (o.sweep_items)
        ok &= run_sweep(&b, &o, 1, argc, argv, csv);
    if (!o.sweep_primitive && !o.sweep_items)
        ok = run_main(&b, &o, argc, argv, csv);
    if (csv && fclose(csv) != 0) {
        fprintf(stderr, "clscan-bench: writing %s failed\n", o.csv);
        ok = 0;
    }
    bench_close(&b);
    peer_launcher_stop(&launcher);
    return ok ? 0 : 1;
}
