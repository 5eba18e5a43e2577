/* clscan-bench-algos: times clscan's compaction, selections, bucketing and radix sort against a device copy
 * of the input (the floor), the sequential loop on the host, and the peers (Boost.Compute,
 * CUB) run as subprocesses on the same device.  See bench/README. */
#define _POSIX_C_SOURCE 200809L
#include "clscan.h"
#include "bench_algos.h"
#include "bench_seq.h"
#include "peer_launcher.h"

#include <errno.h>
#include <math.h>
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
#define MAX_LOG2 32

typedef struct options {
    int min_log2, max_log2, reps, seq_reps;
    int hold;                 /* --hold: 1 yes, 0 no, -1 on GPUs only */
    int cases[ALG_NCASES];
    const char *device, *csv, *boost, *cub;
} options;

static void usage(FILE *f)
{
    fprintf(f, "usage: clscan-bench-algos [options]\n"
               "  --device=D          OpenCL device: \"P:D\" indices or part of a name (default: CLSCAN_DEVICE,\n"
               "                      else the first GPU, else the first device)\n"
               "  --min=LOG2          smallest count 2^LOG2 (default 16)\n"
               "  --max=LOG2          largest count 2^LOG2 (default 26); counts go in steps of x4\n"
               "  --case=NAME[,NAME]  compact-50 compact-1 bucket-65536 sort-u32 sort-u32-pairs sort-f32\n"
               "                      sort-u32-pairs-desc select-if partition unique reduce-by-key\n"
               "                      segsort-u32 sort-u8 sort-u16 segsort-u32-long (default all)\n"
               "  --reps=N            timed runs per measurement after one warm-up (default 10)\n"
               "  --seq-reps=N        timed runs of the sequential loop (default: --reps; 0: none, its\n"
               "                      column shows -; the reference it is checked against still runs)\n"
               "  --csv=FILE          also write the results as CSV\n"
               "  --boost=PROGRAM     run the Boost.Compute peer (bench/boost-bench-algos)\n"
               "  --cub=PROGRAM       run the CUB peer (bench/cub-bench-algos; NVIDIA devices only)\n"
               "  --hold=yes|no       time each call behind a busy kernel of 0.5 ms, enqueued and flushed\n"
               "                      first, so that the call's commands wait on the device, not on the\n"
               "                      host's enqueueing (as the CUB peer times its stream); no: from a\n"
               "                      plain marker (default: yes on GPUs, no on other devices)\n"
               "Exit status: 0 if every clscan result was right, 1 if one was wrong or failed, 2 on\n"
               "usage or setup errors.\n");
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "clscan-bench-algos: %s wants an integer in %d ... %d, not \"%s\"\n", opt, lo, hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    int any = 0;
    memset(o, 0, sizeof *o);
    o->min_log2 = 16;
    o->max_log2 = 26;
    o->reps = 10;
    o->seq_reps = -1;
    o->hold = -1;
    for (int i = 1; i < argc; ++i) {
        char name[32] = "";
        const char *a = argv[i], *eq = strchr(a, '='), *value = NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            value = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "clscan-bench-algos: %s needs a value (try --help)\n", name);
                return -1;
            }
            value = argv[++i];
        }
        if (!strcmp(name, "--device")) o->device = value;
        else if (!strcmp(name, "--csv")) o->csv = value;
        else if (!strcmp(name, "--boost")) o->boost = value;
        else if (!strcmp(name, "--cub")) o->cub = value;
        else if (!strcmp(name, "--hold")) {
            if (strcmp(value, "yes") && strcmp(value, "no")) {
                fprintf(stderr, "clscan-bench-algos: --hold wants yes or no, not \"%s\"\n", value);
                return -1;
            }
            o->hold = !strcmp(value, "yes");
        }
        else if (!strcmp(name, "--min")) { if (parse_int(name, value, 0, MAX_LOG2, &o->min_log2)) return -1; }
        else if (!strcmp(name, "--max")) { if (parse_int(name, value, 0, MAX_LOG2, &o->max_log2)) return -1; }
        else if (!strcmp(name, "--reps")) { if (parse_int(name, value, 1, MAX_REPS, &o->reps)) return -1; }
        else if (!strcmp(name, "--seq-reps")) { if (parse_int(name, value, 0, MAX_REPS, &o->seq_reps)) return -1; }
        else if (!strcmp(name, "--case")) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", value);
            for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                const int c = alg_case_find(t);
                if (c < 0) {
                    fprintf(stderr, "clscan-bench-algos: unknown case \"%s\"\n", t);
                    return -1;
                }
                o->cases[c] = any = 1;
            }
        } else {
            fprintf(stderr, "clscan-bench-algos: unknown option \"%s\" (try --help)\n", a);
            return -1;
        }
    }
    if (o->min_log2 > o->max_log2) {
        fprintf(stderr, "clscan-bench-algos: --min is above --max\n");
        return -1;
    }
    for (int c = 0; c < ALG_NCASES && !any; ++c)
        o->cases[c] = 1;
    return 0;
}

/* ---- The device ------------------------------------------------------------------------- */

typedef struct bench {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;   /* in order, profiling */
    cl_program kcopy_program; /* the kernel copy (kcopy_ms) */
    cl_kernel kcopy16, kcopy4;
    cl_kernel hold, empty;    /* the busy kernel before each timed call; a kernel doing nothing */
    cl_mem tiny;              /* their argument */
    cl_uint hold_steps;       /* the busy kernel's steps (0: no hold), about HOLD_MS */
    unsigned platform_index, device_index;
    char name[256], vendor[256], driver[256];
    cl_ulong max_alloc, global_mem;
    int pci_known;
    cl_uint pci_bus, pci_slot;
} bench;

static int cl_check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-bench-algos: %s failed: %s\n", what, clscan_error_string(err));
    return err != CL_SUCCESS;
}

static void find_indices(bench *b)
{
    cl_platform_id ps[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < np && p < 16; ++p) {
        cl_device_id ds[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 64, ds, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 64; ++d)
            if (ds[d] == b->device) {
                b->platform_index = p;
                b->device_index = d;
            }
    }
}

/* The kernel copy, as clscan-bench's: one work-item per 16 bytes (per 4 when the size is not a
 * multiple of 16), the work-group size left to the driver, so that every compute unit copies
 * (PoCL's clEnqueueCopyBuffer is one thread's memcpy). */
static const char kcopy_source[] =
    "__kernel void kcopy16(__global const uint4 *src, __global uint4 *dst)\n"
    "{ dst[get_global_id(0)] = src[get_global_id(0)]; }\n"
    "__kernel void kcopy4(__global const uint *src, __global uint *dst)\n"
    "{ dst[get_global_id(0)] = src[get_global_id(0)]; }\n"
    /* one work-item's chain of dependent steps (a quadratic recurrence: no closed form) */
    "__kernel void hold(__global uint *x, uint steps)\n"
    "{ uint v = x[0]; for (uint i = 0; i < steps; ++i) v = v * v + i; x[1] = v; }\n"
    "__kernel void empty(__global uint *x) { }\n";

static int kcopy_build(bench *b)
{
    const char *src = kcopy_source;
    cl_int err;
    b->kcopy_program = clCreateProgramWithSource(b->context, 1, &src, NULL, &err);
    if (cl_check(err, "clCreateProgramWithSource") ||
        cl_check(clBuildProgram(b->kcopy_program, 1, &b->device, "", NULL, NULL), "clBuildProgram (kcopy)"))
        return -1;
    cl_kernel *const kernels[] = {&b->kcopy16, &b->kcopy4, &b->hold, &b->empty};
    const char *const names[] = {"kcopy16", "kcopy4", "hold", "empty"};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
        *kernels[i] = clCreateKernel(b->kcopy_program, names[i], &err);
        if (cl_check(err, "clCreateKernel"))
            return -1;
    }
    const cl_uint zero[2] = {0, 0};
    b->tiny = clCreateBuffer(b->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, (void *)zero, &err);
    if (cl_check(err, "clCreateBuffer") ||
        cl_check(clSetKernelArg(b->hold, 0, sizeof(cl_mem), &b->tiny), "clSetKernelArg") ||
        cl_check(clSetKernelArg(b->empty, 0, sizeof(cl_mem), &b->tiny), "clSetKernelArg"))
        return -1;
    return 0;
}

/* The busy kernel of steps steps, enqueued and flushed (so that it runs while the host enqueues
 * what follows); ev: NULL or its event. */
static int enqueue_hold(bench *b, cl_uint steps, cl_event *ev)
{
    const size_t one = 1;
    return cl_check(clSetKernelArg(b->hold, 1, sizeof steps, &steps), "clSetKernelArg") ||
           cl_check(clEnqueueNDRangeKernel(b->queue, b->hold, 1, NULL, &one, &one, 0, NULL, ev), "the busy kernel") ||
           cl_check(clFlush(b->queue), "clFlush");
}

/* Steps for a busy kernel of about HOLD_MS, from its own profiled times; 0 where it cannot be
 * timed. */
#define HOLD_MS 0.5
static cl_uint hold_calibrate(bench *b)
{
    cl_uint steps = 1u << 12;
    for (int tries = 0; tries < 24; ++tries) {
        cl_event ev = NULL;
        if (enqueue_hold(b, steps, &ev) || cl_check(clFinish(b->queue), "clFinish"))
            return 0;
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
        clReleaseEvent(ev);
        const double t = (double)(end - start) / 1e6;
        if (t >= HOLD_MS / 4) {
            const double want = (double)steps * HOLD_MS / t;
            return want > 1e9 ? 1000000000u : (cl_uint)want;
        }
        if (steps > (1u << 30))
            return 0;
        steps *= 2;
    }
    return 0;
}

static int bench_open(bench *b, const char *spec)
{
    memset(b, 0, sizeof *b);
    cl_platform_id platform;
    cl_int err = clscan_default_device(spec, &platform, &b->device);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan-bench-algos: %s\n", clscan_last_error());
        return -1;
    }
    find_indices(b);
    clGetDeviceInfo(b->device, CL_DEVICE_NAME, sizeof b->name - 1, b->name, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_VENDOR, sizeof b->vendor - 1, b->vendor, NULL);
    clGetDeviceInfo(b->device, CL_DRIVER_VERSION, sizeof b->driver - 1, b->driver, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof b->max_alloc, &b->max_alloc, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof b->global_mem, &b->global_mem, NULL);
    b->pci_known = clGetDeviceInfo(b->device, CL_DEVICE_PCI_BUS_ID_NV, sizeof b->pci_bus, &b->pci_bus, NULL) == CL_SUCCESS &&
                   clGetDeviceInfo(b->device, CL_DEVICE_PCI_SLOT_ID_NV, sizeof b->pci_slot, &b->pci_slot, NULL) == CL_SUCCESS;
    b->context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (cl_check(err, "clCreateContext"))
        return -1;
    b->queue = clCreateCommandQueue(b->context, b->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (cl_check(err, "clCreateCommandQueue"))
        return -1;
    return kcopy_build(b);
}

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- One case ----------------------------------------------------------------------------- */

/* The handles of a case: made once, used for every count. */
typedef struct handles {
    clscan_compactor *compactor;
    clscan_bucketer *bucketer;
    clscan_sorter *sorter;
    clscan_runs *runs;
    clscan_plan *plan;
} handles;

typedef struct bufs {
    size_t n, nsegments;
    uint32_t *keys, *values, *ref_keys, *ref_values, *seq_keys, *seq_values, *got, *tmp, *offsets;
    unsigned char *flags;
    void *narrow;             /* keys at their device width (sort-u8, sort-u16) */
    size_t ref_count;
    cl_mem in_keys, in_values, in_flags, in_offsets, out_keys, out_values, out_small, copy_src, copy_dst;
} bufs;

static void bufs_free(bufs *u)
{
    free(u->keys), free(u->values), free(u->ref_keys), free(u->ref_values), free(u->got), free(u->tmp), free(u->flags);
    free(u->seq_keys), free(u->seq_values), free(u->offsets), free(u->narrow);
    cl_mem m[] = {u->in_keys, u->in_values, u->in_flags, u->in_offsets, u->out_keys, u->out_values, u->out_small,
                  u->copy_src, u->copy_dst};
    for (size_t i = 0; i < sizeof m / sizeof *m; ++i)
        if (m[i])
            clReleaseMemObject(m[i]);
    memset(u, 0, sizeof *u);
}

static cl_mem device_buffer(bench *b, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(b->context, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
    if (cl_check(err, "clCreateBuffer"))
        return NULL;
    if (init && cl_check(clEnqueueWriteBuffer(b->queue, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL), "clEnqueueWriteBuffer")) {
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

static int bufs_alloc(bench *b, int c, size_t n, bufs *u)
{
    memset(u, 0, sizeof *u);
    u->n = n;
    u->keys = malloc(n * 4);
    u->values = malloc(n * 4);
    u->ref_keys = malloc(n * 4);
    u->ref_values = malloc(n * 4);
    u->got = malloc((n + ALG_NBUCKETS + 1) * 4);
    u->tmp = malloc(2 * n * 4);
    u->flags = malloc(n);
    u->seq_keys = malloc(n * 4);
    u->seq_values = malloc(n * 4);
    u->offsets = malloc((n + 1) * 4);
    u->narrow = malloc(n * 4);
    if (!u->keys || !u->values || !u->ref_keys || !u->ref_values || !u->got || !u->tmp || !u->flags ||
        !u->seq_keys || !u->seq_values || !u->offsets || !u->narrow)
        return -1;
    alg_generate(c, n, u->keys, alg_has_values(c) ? u->values : NULL, u->flags);
    u->nsegments = alg_generate_segments(c, n, u->offsets);
    const size_t in_bytes = alg_input_bytes(c, n), key_bytes = n * alg_key_size(c);
    alg_pack(c, n, u->keys, u->narrow);
    u->in_keys = device_buffer(b, key_bytes, u->narrow);
    u->in_offsets = alg_is_segmented(c) ? device_buffer(b, (u->nsegments + 1) * 4, u->offsets) : NULL;
    u->in_values = alg_has_values(c) ? device_buffer(b, n * 4, u->values) : NULL;
    u->in_flags = alg_is_compaction(c) ? device_buffer(b, n, u->flags) : NULL;
    u->out_keys = device_buffer(b, key_bytes, NULL);
    u->out_values = alg_has_values(c) ? device_buffer(b, n * 4, NULL) : NULL;
    u->out_small = device_buffer(b, (ALG_NBUCKETS + 1) * 4, NULL);
    u->copy_src = device_buffer(b, in_bytes, NULL);
    u->copy_dst = device_buffer(b, in_bytes, NULL);
    if (!u->in_keys || (alg_has_values(c) && (!u->in_values || !u->out_values)) ||
        (alg_is_compaction(c) && !u->in_flags) || (alg_is_segmented(c) && !u->in_offsets) || !u->out_keys ||
        !u->out_small || !u->copy_src || !u->copy_dst)
        return -1;
    return 0;
}

/* Enqueues clscan's call for case c; *ev: its event. */
static cl_int enqueue_case(bench *b, const handles *h, int c, bufs *u, cl_event *ev)
{
    cl_int err;
    if (alg_is_compaction(c))
        err = clscan_compact_enqueue(h->compactor, b->queue, u->in_keys, 0, u->in_flags, 0, u->n, u->out_keys, 0,
                                     u->out_small, 0, 0, NULL, ev);
    else if (c == ALG_SELECT_IF)
        err = clscan_compact_if_enqueue(h->compactor, b->queue, u->in_keys, 0, u->n, u->out_keys, 0, u->out_small, 0,
                                        0, NULL, ev);
    else if (c == ALG_PARTITION)
        err = clscan_partition_if_enqueue(h->compactor, b->queue, u->in_keys, 0, u->n, u->out_keys, 0, u->out_small,
                                          0, 0, NULL, ev);
    else if (c == ALG_UNIQUE)
        err = clscan_unique_enqueue(h->compactor, b->queue, u->in_keys, 0, u->n, u->out_keys, 0, u->out_small, 0, 0,
                                    NULL, ev);
    else if (c == ALG_REDUCE_BY_KEY)
        err = clscan_reduce_by_key_enqueue(h->runs, h->plan, b->queue, u->in_keys, 0, u->in_values, 0, u->n,
                                           u->out_keys, 0, u->out_values, 0, u->out_small, 0, 0, NULL, ev);
    else if (c == ALG_BUCKET)
        err = clscan_bucket_enqueue(h->bucketer, b->queue, u->in_keys, 0, u->in_values, 0, u->n, u->out_keys, 0,
                                    u->out_values, 0, u->out_small, 0, NULL, 0, 0, NULL, ev);
    else if (alg_is_segmented(c))
        err = clscan_segmented_sort_enqueue(h->sorter, b->queue, u->in_keys, 0, u->out_keys, 0, NULL, 0, NULL, 0, u->n,
                                            CLSCAN_UINT32, u->in_offsets, 0, u->nsegments, 0, NULL, ev);
    else
        err = clscan_sort_enqueue(h->sorter, b->queue, u->in_keys, 0, u->out_keys, 0, u->in_values, 0, u->out_values,
                                  0, u->n, 0, NULL, ev);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-bench-algos: %s: %s\n", alg_case_names[c], clscan_last_error());
    return err;
}

/* Fills the outputs with 0xff so that a run that writes nothing cannot pass. */
static void poison(bench *b, int c, bufs *u)
{
    const cl_uchar ff = 0xff;
    clEnqueueFillBuffer(b->queue, u->out_keys, &ff, 1, 0, u->n ? u->n * alg_key_size(c) : 4, 0, NULL, NULL);
    if (u->out_values)
        clEnqueueFillBuffer(b->queue, u->out_values, &ff, 1, 0, u->n * 4, 0, NULL, NULL);
    clEnqueueFillBuffer(b->queue, u->out_small, &ff, 1, 0, (ALG_NBUCKETS + 1) * 4, 0, NULL, NULL);
    clFinish(b->queue);
}

/* Reads the outputs back and compares them with the reference; 0 if right. */
static int verify(bench *b, int c, bufs *u, size_t *first)
{
    const size_t m = u->ref_count;
    *first = 0;
    if (cl_check(clEnqueueReadBuffer(b->queue, u->out_keys, CL_TRUE, 0, m ? m * alg_key_size(c) : 4, u->narrow, 0,
                                     NULL, NULL), "clEnqueueReadBuffer"))
        return 1;
    alg_unpack(c, m, u->narrow, u->got);
    if (alg_check(m, u->got, u->ref_keys, first))
        return 1;
    if (u->out_values) {
        clEnqueueReadBuffer(b->queue, u->out_values, CL_TRUE, 0, m * 4, u->got, 0, NULL, NULL);
        if (alg_check(m, u->got, u->ref_values, first))
            return 1;
    }
    if (alg_writes_count(c)) {   /* the count: of all output, or the kept first */
        cl_ulong kept = 0;
        size_t want = m;
        for (size_t i = 0; i < u->n && c == ALG_PARTITION; ++i)
            want -= !alg_kept(u->keys[i]);
        clEnqueueReadBuffer(b->queue, u->out_small, CL_TRUE, 0, 8, &kept, 0, NULL, NULL);
        return kept != want;
    }
    if (c == ALG_BUCKET) {   /* offsets[k] = first position with key >= k */
        clEnqueueReadBuffer(b->queue, u->out_small, CL_TRUE, 0, (ALG_NBUCKETS + 1) * 4, u->got, 0, NULL, NULL);
        size_t p = 0;
        for (uint32_t k = 0; k <= ALG_NBUCKETS; ++k) {
            while (p < m && u->ref_keys[p] < k)
                ++p;
            if (u->got[k] != p) {
                *first = k;
                return 1;
            }
        }
    }
    return 0;
}

/* The kernel copy of bytes from copy_src to copy_dst (the whole words of 4 bytes: a last 1 ... 3
 * bytes are left out; below 4 bytes, clEnqueueCopyBuffer). */
static cl_int enqueue_kcopy(bench *b, bufs *u, size_t bytes, cl_event *ev)
{
    cl_kernel k = bytes % 16 ? b->kcopy4 : b->kcopy16;
    const size_t global = bytes % 16 ? bytes / 4 : bytes / 16;
    if (global == 0)
        return clEnqueueCopyBuffer(b->queue, u->copy_src, u->copy_dst, 0, 0, bytes, 0, NULL, ev);
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &u->copy_src);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof(cl_mem), &u->copy_dst);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, NULL, 0, NULL, ev);
    cl_check(err, "the kernel copy");
    return err;
}

enum { TIME_CASE, TIME_COPY, TIME_KCOPY, TIME_EMPTY };

/* Device time of one command chain (what: case c's call, a copy of its input's bytes by
 * clEnqueueCopyBuffer or the kernel copy, or a kernel doing nothing): end of its last command
 * minus the end of a marker enqueued just before (in-order queue: an upper bound of first start
 * to last end).  Held (b->hold_steps): the busy kernel runs while the marker and the chain are
 * enqueued, so the span does not carry the host's enqueueing of the chain's first command. */
static int device_time(bench *b, const handles *h, int c, bufs *u, int what, double *ms)
{
    cl_event marker = NULL, ev = NULL;
    if (b->hold_steps && enqueue_hold(b, b->hold_steps, NULL))
        return -1;
    if (cl_check(clEnqueueMarkerWithWaitList(b->queue, 0, NULL, &marker), "clEnqueueMarkerWithWaitList"))
        return -1;
    const size_t bytes = u ? alg_input_bytes(c, u->n) : 0, one = 1;
    cl_int err = what == TIME_COPY ? clEnqueueCopyBuffer(b->queue, u->copy_src, u->copy_dst, 0, 0, bytes, 0, NULL, &ev)
                 : what == TIME_KCOPY ? enqueue_kcopy(b, u, bytes, &ev)
                 : what == TIME_EMPTY ? clEnqueueNDRangeKernel(b->queue, b->empty, 1, NULL, &one, &one, 0, NULL, &ev)
                 : enqueue_case(b, h, c, u, &ev);
    clFinish(b->queue);
    cl_ulong m_end = 0, end = 0;
    if (err == CL_SUCCESS) {
        clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof m_end, &m_end, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
        *ms = (double)(end - m_end) / 1e6;
    }
    clReleaseEvent(marker);
    if (ev)
        clReleaseEvent(ev);
    return err == CL_SUCCESS ? 0 : -1;
}

/* The span of a kernel doing nothing, medians of reps: spans[0] as the cases are timed, spans[1]
 * from a plain marker (held runs only). */
static void empty_spans(bench *b, int reps, double spans[2])
{
    double t[MAX_REPS];
    const cl_uint held = b->hold_steps;
    for (int pass = 0; pass < (held ? 2 : 1); ++pass) {
        b->hold_steps = pass ? 0 : held;
        int got = 0;
        for (int i = 0; i <= reps; ++i)   /* the first: a warm-up */
            if (!device_time(b, NULL, 0, NULL, TIME_EMPTY, &t[got]) && i > 0)
                ++got;
        spans[pass] = got ? bench_median(t, got) : 0;
    }
    b->hold_steps = held;
}

typedef struct peer { int have, ok; double ms; } peer;
enum { PEER_BOOST, PEER_CUB, NPEERS };
static const char *const peer_names[NPEERS] = {"boost", "cub"};
/* Whether a peer implements case c: Boost.Compute has no segmented sort. */
static int peer_runs(int p, int c) { return p == PEER_CUB || !alg_is_segmented(c); }

typedef struct row {
    int c, log2;
    size_t n;
    int status;       /* 0 measured, 1 skipped, 2 error, 3 wrong */
    size_t first_bad;
    double ms, host_ms, copy_ms, kcopy_ms, seq_ms;
    peer peers[NPEERS];
} row;

static void measure(bench *b, const handles *h, int c, size_t n, int reps, int seq_reps, row *r)
{
    bufs u;
    double t[MAX_REPS], host[MAX_REPS], copy[MAX_REPS], kcopy[MAX_REPS], seq[MAX_REPS];
    if (bufs_alloc(b, c, n, &u)) {
        r->status = 2;
        bufs_free(&u);
        return;
    }
    /* The reference (bench_algos.h, built like the rest), then the timed loop: the same code built
     * with the seq flags (bench_seq.c), its result checked against the reference. */
    const uint32_t *values = alg_has_values(c) ? u.values : NULL;
    u.ref_count = alg_sequential(c, n, u.keys, values, u.flags, u.offsets, u.nsegments, u.ref_keys, u.ref_values,
                                 u.tmp);
    for (int i = 0; i < seq_reps; ++i) {
        const double t0 = wall_ms();
        const size_t m = bench_seq_algos(c, n, u.keys, values, u.flags, u.offsets, u.nsegments, u.seq_keys,
                                         u.seq_values, u.tmp);
        seq[i] = wall_ms() - t0;
        size_t first;
        if (m != u.ref_count || alg_check(m, u.seq_keys, u.ref_keys, &first) ||
            (values && alg_check(m, u.seq_values, u.ref_values, &first))) {
            fprintf(stderr, "clscan-bench-algos: %s: the timed sequential loop differs from the reference\n",
                    alg_case_names[c]);
            r->status = 2;
        }
    }
    cl_event ev = NULL;
    poison(b, c, &u);
    if (enqueue_case(b, h, c, &u, &ev) || cl_check(clWaitForEvents(1, &ev), "clWaitForEvents")) {   /* warm-up */
        r->status = 2;
    } else if (verify(b, c, &u, &r->first_bad)) {
        r->status = 3;
    }
    if (ev)
        clReleaseEvent(ev);
    for (int i = 0; i < reps && !r->status; ++i) {
        poison(b, c, &u);
        if (device_time(b, h, c, &u, TIME_CASE, &t[i]))
            r->status = 2;
        else if (verify(b, c, &u, &r->first_bad))
            r->status = 3;
    }
    for (int i = 0; i < reps && !r->status; ++i) {
        poison(b, c, &u);
        const double t0 = wall_ms();
        ev = NULL;
        if (enqueue_case(b, h, c, &u, &ev) || clWaitForEvents(1, &ev) != CL_SUCCESS)
            r->status = 2;
        host[i] = wall_ms() - t0;
        if (ev)
            clReleaseEvent(ev);
        if (!r->status && verify(b, c, &u, &r->first_bad))
            r->status = 3;
    }
    for (int i = 0; i <= reps && !r->status; ++i)   /* the floors, interleaved: one warm-up, then reps */
        if (device_time(b, h, c, &u, TIME_COPY, &copy[i ? i - 1 : 0]) ||
            device_time(b, h, c, &u, TIME_KCOPY, &kcopy[i ? i - 1 : 0]))
            r->status = 2;
    if (!r->status) {
        r->ms = bench_median(t, reps);
        r->host_ms = bench_median(host, reps);
        r->copy_ms = bench_median(copy, reps);
        r->kcopy_ms = bench_median(kcopy, reps);
        r->seq_ms = seq_reps ? bench_median(seq, seq_reps) : NAN;
    }
    bufs_free(&u);
}

static int make_handles(bench *b, int c, handles *h)
{
    cl_int err = CL_SUCCESS;
    memset(h, 0, sizeof *h);
    static const clscan_predicate even = {"uint", "(x & 1u) == 0", NULL};   /* alg_kept */
    if (alg_is_compaction(c) || c == ALG_UNIQUE)
        h->compactor = clscan_compactor_create(b->context, b->device, 4, &err);
    else if (c == ALG_SELECT_IF || c == ALG_PARTITION)
        h->compactor = clscan_compactor_create_if(b->context, b->device, 4, &even, &err);
    else if (c == ALG_REDUCE_BY_KEY) {
        h->runs = clscan_runs_create(b->context, b->device, 4, 4, &err);
        if (err == CL_SUCCESS)
            h->plan = clscan_plan_create(b->context, b->device, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE, &err);
    } else if (c == ALG_BUCKET)
        h->bucketer = clscan_bucketer_create(b->context, b->device, ALG_NBUCKETS, 4, &err);
    else if ((h->sorter = clscan_sorter_create(b->context, b->device,
                                               c == ALG_SORT_F32 ? CLSCAN_FLOAT : c == ALG_SORT_U8 ? CLSCAN_UINT8
                                               : c == ALG_SORT_U16 ? CLSCAN_UINT16 : CLSCAN_UINT32,
                                               alg_has_values(c) ? 4 : 0, &err)) && c == ALG_SORT_PAIRS_DESC)
        err = clscan_sorter_set_descending(h->sorter, 1);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-bench-algos: creating the handle of %s: %s\n", alg_case_names[c], clscan_last_error());
    return err != CL_SUCCESS;
}

static void release_handles(handles *h)
{
    clscan_compactor_release(h->compactor);
    clscan_bucketer_release(h->bucketer);
    clscan_sorter_release(h->sorter);
    clscan_runs_release(h->runs);
    clscan_plan_release(h->plan);
}

/* ---- Peers -------------------------------------------------------------------------------- */

static peer_launcher launcher;   /* started in main when a peer is asked for */

static void run_peer(bench *b, int p, const char *program, const options *o, row *rows, int nrows)
{
    char cmd[4096];
    int k = snprintf(cmd, sizeof cmd, "'%s' --reps %d --min %d --max %d --cases ", program, o->reps, o->min_log2,
                     o->max_log2);
    int first = 1;
    for (int c = 0; c < ALG_NCASES; ++c)
        if (o->cases[c] && peer_runs(p, c)) {
            k += snprintf(cmd + k, sizeof cmd - (size_t)k, "%s%s", first ? "" : ",", alg_case_names[c]);
            first = 0;
        }
    if (first)
        return;   /* none of the cases is the peer's */
    if (p == PEER_BOOST) {   /* the index, and the name in case the peer sees other platforms */
        snprintf(cmd + k, sizeof cmd - (size_t)k, " --device %u:%u --device-name ", b->platform_index,
                 b->device_index);
        bench_shell_quote(cmd, sizeof cmd, b->name);
    } else if (b->pci_known)
        snprintf(cmd + k, sizeof cmd - (size_t)k, " --pci %u:%u", b->pci_bus, b->pci_slot);
    fprintf(stderr, "clscan-bench-algos: running %s\n", cmd);
    fflush(NULL);
    peer_run f;
    if (peer_open(&launcher, cmd, &f)) {
        fprintf(stderr, "clscan-bench-algos: cannot run %s\n", program);
        return;
    }
    char line[1024];
    while (peer_gets(&f, line, (int)sizeof line)) {
        char name[64], ok[16];
        size_t n;
        double dev, host, copy;
        if (sscanf(line, "result %63s %zu %lf %lf %lf %15s", name, &n, &dev, &host, &copy, ok) == 6) {
            const int c = alg_case_find(name);
            for (int i = 0; i < nrows; ++i)
                if (rows[i].c == c && rows[i].n == n)
                    rows[i].peers[p] = (peer){1, strcmp(ok, "yes") == 0, dev};
        } else {
            fprintf(stderr, "%s: %s", peer_names[p], line);
        }
    }
    const int st = peer_close(&f);
    if (st)
        fprintf(stderr, "clscan-bench-algos: %s exited with status %d\n", program, st);
}

/* ---- Output ------------------------------------------------------------------------------- */

static void print_row(FILE *f, const row *r, const int use[NPEERS], int csv)
{
    static const char *const why[] = {"", "skipped: too large for the device", "error", "WRONG"};
    if (csv) {
        fprintf(f, "%s,%zu,%s", alg_case_names[r->c], r->n, r->status ? why[r->status] : "ok");
        if (r->status)
            fprintf(f, ",,,,,");
        else
        {
            fprintf(f, ",%.6f,%.6f,%.6f,", r->ms, r->host_ms, r->copy_ms);
            if (!isnan(r->seq_ms))
                fprintf(f, "%.6f", r->seq_ms);
            fprintf(f, ",%.3f", (double)r->n / (r->ms * 1e3));
        }
        for (int p = 0; p < NPEERS; ++p)
            if (r->peers[p].have && r->peers[p].ok)
                fprintf(f, ",%.6f", r->peers[p].ms);
            else
                fprintf(f, ",%s", r->peers[p].have ? "WRONG" : "");
        if (r->status)
            fprintf(f, ",\n");
        else
            fprintf(f, ",%.6f\n", r->kcopy_ms);
        return;
    }
    char n[16];
    snprintf(n, sizeof n, "2^%d", r->log2);
    fprintf(f, "%-15s %5s", alg_case_names[r->c], n);
    if (r->status) {
        fprintf(f, "  %s%s\n", why[r->status], r->status == 3 ? " (see stderr)" : "");
        return;
    }
    fprintf(f, " %10.4f %10.4f %9.1f %10.4f %10.4f", r->ms, r->host_ms, (double)r->n / (r->ms * 1e3), r->copy_ms,
            r->kcopy_ms);
    if (isnan(r->seq_ms))
        fprintf(f, " %10s %7.2f %7.2f %7s", "-", r->ms / r->copy_ms, r->ms / r->kcopy_ms, "-");
    else
        fprintf(f, " %10.4f %7.2f %7.2f %7.3f", r->seq_ms, r->ms / r->copy_ms, r->ms / r->kcopy_ms, r->ms / r->seq_ms);
    for (int p = 0; p < NPEERS; ++p) {
        if (!use[p])
            continue;
        const peer *q = &r->peers[p];
        if (q->have && q->ok)
            fprintf(f, " %10.4f %7.3f", q->ms, r->ms / q->ms);
        else
            fprintf(f, " %10s %7s", q->have ? "WRONG" : "-", "-");
    }
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    options o;
    const int pr = parse_options(argc, argv, &o);
    if (pr)
        return pr > 0 ? 0 : 2;
    if (o.boost || o.cub)
        peer_launcher_start(&launcher);   /* before any OpenCL call: see peer_launcher.h */
    bench b;
    if (bench_open(&b, o.device))
        return 2;
    cl_device_type type = 0;
    clGetDeviceInfo(b.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (o.hold == 1 || (o.hold < 0 && (type & CL_DEVICE_TYPE_GPU))) {
        b.hold_steps = hold_calibrate(&b);
        if (!b.hold_steps)
            fprintf(stderr, "clscan-bench-algos: the busy kernel could not be timed; timing from a plain marker\n");
    }
    double empty_ms[2] = {0, 0};   /* a kernel doing nothing, timed as the cases are, then not held */
    empty_spans(&b, o.reps, empty_ms);
    int use[NPEERS] = {o.boost != NULL, 0};
    if (o.cub) {
        if (strstr(b.vendor, "NVIDIA") || strstr(b.name, "NVIDIA"))
            use[PEER_CUB] = 1;
        else
            fprintf(stderr, "clscan-bench-algos: --cub ignored: %s is not an NVIDIA device\n", b.name);
    }
    row rows[ALG_NCASES * (MAX_LOG2 + 1)];
    int nrows = 0, all_ok = 1;
    for (int c = 0; c < ALG_NCASES; ++c) {
        if (!o.cases[c])
            continue;
        handles h;
        if (make_handles(&b, c, &h)) {
            all_ok = 0;
            release_handles(&h);
            continue;
        }
        for (int lg = o.min_log2; lg <= o.max_log2; lg += 2) {
            row *r = &rows[nrows++];
            memset(r, 0, sizeof *r);
            r->c = c;
            r->log2 = lg;
            r->n = (size_t)1 << lg;
            /* inputs, outputs, the copy's two buffers and the scratch: about 5 x the input */
            const cl_ulong in_bytes = alg_input_bytes(c, r->n);
            if (in_bytes > b.max_alloc || in_bytes * 5 > b.global_mem / 4 * 3 || r->n > UINT32_MAX) {
                r->status = 1;
                continue;
            }
            fprintf(stderr, "clscan-bench-algos: %s 2^%d\n", alg_case_names[c], lg);
            measure(&b, &h, c, r->n, o.reps, o.seq_reps < 0 ? o.reps : o.seq_reps, r);
            if (r->status == 3)
                fprintf(stderr, "clscan-bench-algos: %s 2^%d: WRONG, first difference at %zu\n", alg_case_names[c], lg,
                        r->first_bad);
            all_ok &= r->status == 0 || r->status == 1;
            /* At once, without the peers' columns: a run cut short (a time limit) keeps what it
             * measured. */
            fputs("clscan-bench-algos: ", stderr);
            print_row(stderr, r, (const int[NPEERS]){0}, 0);
        }
        release_handles(&h);
    }
    if (use[PEER_BOOST])
        run_peer(&b, PEER_BOOST, o.boost, &o, rows, nrows);
    if (use[PEER_CUB])
        run_peer(&b, PEER_CUB, o.cub, &o, rows, nrows);

    char date[64];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", localtime(&now));
    printf("# clscan-bench-algos, clscan %s; device: %s (%s), platform:device %u:%u; driver %s; %s\n",
           clscan_version_string(), b.name, b.vendor, b.platform_index, b.device_index, b.driver, date);
    printf("# medians of %d runs after a warm-up; device time: a marker's end to the last command's end\n", o.reps);
    if (b.hold_steps)
        printf("# held: a busy kernel of %.2f ms enqueued and flushed before the marker (--hold=no: not)\n"
               "# a kernel doing nothing: %.4f ms held, %.4f ms from a plain marker\n",
               HOLD_MS, empty_ms[0], empty_ms[1]);
    else
        printf("# not held (--hold=yes: behind a busy kernel); a kernel doing nothing: %.4f ms\n", empty_ms[0]);
    printf("# seq: the sequential loop built with %s\n", bench_seq_build);
    printf("%-15s %5s %10s %10s %9s %10s %10s %10s %7s %7s %7s", "case", "n", "ms", "host_ms", "Mkeys/s", "copy_ms",
           "kcopy_ms", "seq_ms", "x_copy", "x_kcopy", "x_seq");
    for (int p = 0; p < NPEERS; ++p)
        if (use[p])
            printf(" %7s_ms %7s", peer_names[p], p == PEER_BOOST ? "x_boost" : "x_cub");
    printf("\n");
    for (int i = 0; i < nrows; ++i)
        print_row(stdout, &rows[i], use, 0);
    printf("# ms: clscan's device time; copy: clEnqueueCopyBuffer of the input's bytes (the floor); kcopy: a\n"
           "# kernel copying them on every compute unit; seq: the sequential loop on the host;\n"
           "# x_copy, x_kcopy, x_seq, x_PEER: ms / their time (below 1: clscan is faster)\n");
    if (o.csv) {
        FILE *f = fopen(o.csv, "w");
        if (!f) {
            fprintf(stderr, "clscan-bench-algos: cannot write %s\n", o.csv);
            all_ok = 0;
        } else {
            fprintf(f, "# device: %s; %s\ncase,count,status,ms,host_ms,copy_ms,seq_ms,mkeys_per_s,boost_ms,cub_ms,"
                    "kcopy_ms\n",
                    b.name, date);
            for (int i = 0; i < nrows; ++i)
                print_row(f, &rows[i], use, 1);
            fclose(f);
        }
    }
    clReleaseKernel(b.kcopy16);
    clReleaseKernel(b.kcopy4);
    clReleaseKernel(b.hold);
    clReleaseKernel(b.empty);
    clReleaseMemObject(b.tiny);
    clReleaseProgram(b.kcopy_program);
    clReleaseCommandQueue(b.queue);
    clReleaseContext(b.context);
    clscan_cache_clear();
    peer_launcher_stop(&launcher);
    return all_ok ? 0 : 1;
}
