/* clscan: scan random or given data with the clscan library on an OpenCL device, check the
 * result against a sequential CPU reference, and report the time.  See clscan(1). */
#define _POSIX_C_SOURCE 200809L

#include <clscan.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/compare.h"
#include "support/inputs.h"
#include "support/names.h"
#include "support/reference.h"
#include "tools/options.h"

/* ---- messages ---------------------------------------------------------------------------- */

/* An error of a clscan function: its status and clscan_last_error(). */
static void clscan_failed(const char *function, cl_int status)
{
    fprintf(stderr, "clscan: %s: %s (%d): %s\n", function, clscan_error_string(status),
            (int)status, clscan_last_error());
}

/* An error of an OpenCL call of the tool itself. */
static void opencl_failed(const char *function, cl_int status)
{
    fprintf(stderr, "clscan: %s failed: %s (%d)\n", function, clscan_error_string(status), (int)status);
}

static void format_bytes(cl_ulong bytes, char *buf, size_t size)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)bytes;
    unsigned u = 0;
    while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(buf, size, "%.4g %s", v, units[u]);
}

/* ---- devices ----------------------------------------------------------------------------- */

/* Malloc'ed string of a platform or device parameter, or NULL. */
static char *platform_string(cl_platform_id platform, cl_platform_info param)
{
    size_t size = 0;
    if (clGetPlatformInfo(platform, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return NULL;
    char *s = malloc(size + 1);
    if (s && clGetPlatformInfo(platform, param, size, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    if (s)
        s[size] = '\0';
    return s;
}

static char *device_string(cl_device_id device, cl_device_info param)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return NULL;
    char *s = malloc(size + 1);
    if (s && clGetDeviceInfo(device, param, size, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    if (s)
        s[size] = '\0';
    return s;
}

static bool device_has_fp64(cl_device_id device)
{
    char *ext = device_string(device, CL_DEVICE_EXTENSIONS);
    bool found = false;
    if (ext) {
        for (char *tok = strtok(ext, " "); tok; tok = strtok(NULL, " "))
            if (strcmp(tok, "cl_khr_fp64") == 0)
                found = true;
        free(ext);
    }
    return found;
}

static const char *device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU) return "GPU";
    if (type & CL_DEVICE_TYPE_CPU) return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    if (type & CL_DEVICE_TYPE_CUSTOM) return "custom";
    return "other";
}

/* Finds the "P:D" index of device; false if it is not among the listed devices. */
static bool device_index(cl_device_id device, cl_uint *p_out, cl_uint *d_out)
{
    cl_uint np = 0;
    bool found = false;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
        return false;
    cl_platform_id *platforms = malloc(np * sizeof *platforms);
    if (!platforms || clGetPlatformIDs(np, platforms, NULL) != CL_SUCCESS) {
        free(platforms);
        return false;
    }
    for (cl_uint p = 0; p < np && !found; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        cl_device_id *devices = malloc(nd * sizeof *devices);
        if (devices && clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, devices, NULL) == CL_SUCCESS) {
            for (cl_uint d = 0; d < nd; d++) {
                if (devices[d] == device) {
                    *p_out = p;
                    *d_out = d;
                    found = true;
                    break;
                }
            }
        }
        free(devices);
    }
    free(platforms);
    return found;
}

static int list_devices(void)
{
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err != CL_SUCCESS || np == 0) {
        if (err != CL_SUCCESS)
            opencl_failed("clGetPlatformIDs", err);
        fprintf(stderr, "clscan: no OpenCL platform found (is an ICD, e.g. pocl-opencl-icd, installed?)\n");
        return EXIT_TROUBLE;
    }
    cl_platform_id *platforms = malloc(np * sizeof *platforms);
    if (!platforms) {
        fprintf(stderr, "clscan: out of memory\n");
        return EXIT_TROUBLE;
    }
    err = clGetPlatformIDs(np, platforms, NULL);
    if (err != CL_SUCCESS) {
        opencl_failed("clGetPlatformIDs", err);
        free(platforms);
        return EXIT_TROUBLE;
    }

    cl_platform_id default_platform = NULL;
    cl_device_id default_device = NULL;
    cl_int default_status = clscan_default_device(NULL, &default_platform, &default_device);
    if (default_status != CL_SUCCESS)
        default_device = NULL;

    for (cl_uint p = 0; p < np; p++) {
        char *pname = platform_string(platforms[p], CL_PLATFORM_NAME);
        char *pversion = platform_string(platforms[p], CL_PLATFORM_VERSION);
        printf("Platform %u: %s (%s)\n", (unsigned)p, pname ? pname : "?", pversion ? pversion : "?");
        free(pname);
        free(pversion);

        cl_uint nd = 0;
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && nd == 0)) {
            printf("  (no devices)\n");
            continue;
        }
        cl_device_id *devices = err == CL_SUCCESS ? malloc(nd * sizeof *devices) : NULL;
        if (err == CL_SUCCESS && devices)
            err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, devices, NULL);
        if (err != CL_SUCCESS || !devices) {
            if (err != CL_SUCCESS)
                opencl_failed("clGetDeviceIDs", err);
            free(devices);
            continue;
        }
        for (cl_uint d = 0; d < nd; d++) {
            cl_device_id dev = devices[d];
            char *name = device_string(dev, CL_DEVICE_NAME);
            cl_device_type type = 0;
            cl_uint units = 0;
            cl_ulong global = 0, local = 0;
            size_t max_wg = 0;
            clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
            clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
            clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
            clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
            clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
            char gbuf[32], lbuf[32];
            format_bytes(global, gbuf, sizeof gbuf);
            format_bytes(local, lbuf, sizeof lbuf);
            printf("%c %u:%u  %s\n", dev == default_device ? '*' : ' ', (unsigned)p, (unsigned)d,
                   name ? name : "?");
            printf("        type %s, %u compute units, global memory %s, local memory %s,\n"
                   "        max work-group size %zu, fp64 %s\n",
                   device_type_name(type), (unsigned)units, gbuf, lbuf, max_wg,
                   device_has_fp64(dev) ? "yes" : "no");
            free(name);
        }
        free(devices);
    }
    free(platforms);

    if (default_device)
        printf("\n* the default device (clscan_default_device: CLSCAN_DEVICE, else the first GPU,\n"
               "  else the first device)\n");
    else
        printf("\nNo default device: clscan_default_device: %s (%d): %s\n",
               clscan_error_string(default_status), (int)default_status, clscan_last_error());
    clscan_cache_clear();
    return EXIT_SUCCESS;
}

/* ---- files ------------------------------------------------------------------------------- */

static bool write_file(const char *path, const void *data, size_t size)
{
    const bool is_stdout = strcmp(path, "-") == 0;
    FILE *f = is_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "clscan: cannot create '%s': %s\n", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, size, f) == size;
    ok = (is_stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
    if (!ok)
        fprintf(stderr, "clscan: cannot write '%s': %s\n", path, strerror(errno));
    return ok;
}

/* ---- the scan ---------------------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the n values (sorts them); NaN if any is NaN. */
static double median(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(v[i]))
            return NAN;
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct job {
    const tool_options *o;
    FILE *report;                /* stdout, or stderr when the result goes to stdout */
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clscan_plan *plan;
    cl_mem src, dst;
    size_t count, element_size, buffer_size;
    unsigned char *input, *result, *first, *expected;
    double *device_times, *host_times;
} job;

/* One scan of src into dst, after filling dst with a pattern.  Stores the device time (NaN if
 * profiling is unavailable) and the host time, in seconds.  Returns an exit status or -1. */
static int scan_once(job *s, double *device_time, double *host_time)
{
    const cl_uchar pattern = 0xa5;
    cl_event marker = NULL, done = NULL;
    cl_int err = clEnqueueFillBuffer(s->queue, s->dst, &pattern, sizeof pattern, 0, s->buffer_size, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(s->queue);
    if (err != CL_SUCCESS) {
        opencl_failed("clEnqueueFillBuffer", err);
        return EXIT_TROUBLE;
    }

    const double t0 = now_seconds();
    err = clEnqueueMarkerWithWaitList(s->queue, 0, NULL, &marker);
    if (err != CL_SUCCESS) {
        opencl_failed("clEnqueueMarkerWithWaitList", err);
        return EXIT_TROUBLE;
    }
    err = clscan_enqueue(s->plan, s->queue, s->src, 0, s->dst, 0, s->count, 0, NULL, &done);
    if (err != CL_SUCCESS) {
        clscan_failed("clscan_enqueue", err);
        clReleaseEvent(marker);
        return EXIT_TROUBLE;
    }
    err = done ? clWaitForEvents(1, &done) : clFinish(s->queue);
    const double t1 = now_seconds();
    if (err != CL_SUCCESS) {
        opencl_failed(done ? "clWaitForEvents" : "clFinish", err);
        clReleaseEvent(marker);
        if (done)
            clReleaseEvent(done);
        return EXIT_TROUBLE;
    }
    err = clFinish(s->queue);
    if (err != CL_SUCCESS) {
        opencl_failed("clFinish", err);
        clReleaseEvent(marker);
        if (done)
            clReleaseEvent(done);
        return EXIT_TROUBLE;
    }

    *host_time = t1 - t0;
    *device_time = NAN;
    if (done) {
        cl_ulong start = 0, scan_start = 0, end = 0;
        if (clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS &&
            clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof scan_start, &scan_start, NULL) == CL_SUCCESS) {
            /* From the marker's start if the implementation times markers, else from the start
             * of the scan's last command. */
            if (clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
                start == 0 || start > scan_start)
                start = scan_start;
            if (end >= start)
                *device_time = (double)(end - start) * 1e-9;
        }
        clReleaseEvent(done);
    }
    clReleaseEvent(marker);
    return -1;
}

static int read_result(job *s, unsigned char *to)
{
    if (s->count == 0)
        return -1;
    cl_int err = clEnqueueReadBuffer(s->queue, s->dst, CL_TRUE, 0, s->count * s->element_size, to, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        opencl_failed("clEnqueueReadBuffer", err);
        return EXIT_TROUBLE;
    }
    return -1;
}

static void print_time(FILE *f, const char *what, double t)
{
    if (isnan(t))
        fprintf(f, "%s n/a", what);
    else if (t < 1e-3)
        fprintf(f, "%s %.1f us", what, t * 1e6);
    else
        fprintf(f, "%s %.3f ms", what, t * 1e3);
}

/* Checks s->result; prints the verdict.  Returns EXIT_MATCHED or EXIT_MISMATCH, or EXIT_TROUBLE. */
static int check_result(job *s)
{
    const tool_options *o = s->o;
    FILE *f = s->report;
    sup_compare_result res;
    char dev[128], ref[128], in[128];
    bool ok;

    if (o->input && sup_needs_tolerance(o->op, o->type)) {
        size_t wg = 0, items = 0;
        clscan_plan_get_tuning(s->plan, &wg, &items);
        const double tol = o->tolerance_set ? o->tolerance
                                            : sup_default_tolerance(o->op, o->type, s->count, wg, items);
        ok = sup_compare_tolerant(o->op, o->type, o->kind, s->input, s->result, s->count, tol, &res);
        fprintf(f, "check:    %s: max relative error %.3g", ok ? "matched" : "MISMATCH", res.max_rel_error);
        if (s->count > 0)
            fprintf(f, " (element %zu)", res.worst_index);
        fprintf(f, ", tolerance %.3g\n"
                   "          (a floating-point %s depends on the order of evaluation: compared\n"
                   "          with the sequential scan in long double, relative to the scan of\n"
                   "          the magnitudes)\n",
                tol, o->op == CLSCAN_SUM ? "sum" : "affine scan");
        if (!ok) {
            const size_t i = res.first_mismatch;
            sup_format_element(o->op, o->type, s->result, i, dev, sizeof dev);
            sup_format_element(o->op, o->type, s->input, i, in, sizeof in);
            fprintf(f, "          %zu of %zu elements outside the tolerance; the first, element %zu:\n"
                       "            input     %s\n            device    %s\n",
                    res.mismatches, s->count, i, in, dev);
            if (o->op == CLSCAN_AFFINE)
                fprintf(f, "            reference (%.21Lg, %.21Lg)\n", res.first_expected[0], res.first_expected[1]);
            else
                fprintf(f, "            reference %.21Lg\n", res.first_expected[0]);
        }
    } else {
        s->expected = malloc(s->count ? s->count * s->element_size : 1);
        if (!s->expected) {
            fprintf(stderr, "clscan: out of memory for the reference\n");
            return EXIT_TROUBLE;
        }
        sup_reference(o->op, o->type, o->kind, s->input, s->expected, s->count);
        ok = sup_compare(o->op, o->type, SUP_MATCH_BITS, s->expected, s->result, s->count, &res);
        if (ok) {
            fprintf(f, "check:    matched: bitwise equal to the sequential CPU reference\n");
        } else {
            const size_t i = res.first_mismatch;
            sup_format_element(o->op, o->type, s->result, i, dev, sizeof dev);
            sup_format_element(o->op, o->type, s->expected, i, ref, sizeof ref);
            sup_format_element(o->op, o->type, s->input, i, in, sizeof in);
            fprintf(f, "check:    MISMATCH: %zu of %zu elements differ from the sequential CPU reference;\n"
                       "          the first, element %zu:\n"
                       "            input     %s\n            device    %s\n            reference %s\n",
                    res.mismatches, s->count, i, in, dev, ref);
        }
    }
    return ok ? EXIT_MATCHED : EXIT_MISMATCH;
}

static int run_scan_job(job *s)
{
    const tool_options *o = s->o;
    FILE *f = s->report;
    cl_int err;
    int status;

    /* The input, first: a bad file should not wait for the device. */
    s->element_size = sup_element_size(o->op, o->type);
    if (o->input) {
        if (!tool_read_input(o->input, o->op, o->type, &s->input, &s->count, stderr))
            return EXIT_TROUBLE;
    } else {
        s->count = o->count;
        if (s->count > SIZE_MAX / s->element_size) {
            fprintf(stderr, "clscan: %zu elements of %zu bytes do not fit in memory\n", s->count, s->element_size);
            return EXIT_TROUBLE;
        }
        s->input = malloc(s->count ? s->count * s->element_size : s->element_size);
        if (!s->input) {
            fprintf(stderr, "clscan: out of memory for %zu elements\n", s->count);
            return EXIT_TROUBLE;
        }
        sup_random_exact(o->op, o->type, o->seed, s->input, s->count);
    }

    /* The device, its context and a profiling queue. */
    err = clscan_default_device(o->device, &s->platform, &s->device);
    if (err != CL_SUCCESS) {
        clscan_failed("clscan_default_device", err);
        return EXIT_TROUBLE;
    }
    char *name = device_string(s->device, CL_DEVICE_NAME);
    cl_uint pi = 0, di = 0;
    if (device_index(s->device, &pi, &di))
        fprintf(f, "device:   %s (%u:%u)\n", name ? name : "?", (unsigned)pi, (unsigned)di);
    else
        fprintf(f, "device:   %s\n", name ? name : "?");
    free(name);

    const cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)s->platform, 0 };
    s->context = clCreateContext(props, 1, &s->device, NULL, NULL, &err);
    if (!s->context) {
        opencl_failed("clCreateContext", err);
        return EXIT_TROUBLE;
    }
    s->queue = clCreateCommandQueue(s->context, s->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!s->queue) {
        opencl_failed("clCreateCommandQueue", err);
        return EXIT_TROUBLE;
    }

    /* The plan. */
    fprintf(f, "scan:     %s, %s, %s\n", sup_op_name(o->op), sup_type_name(o->type), sup_kind_name(o->kind));
    s->plan = clscan_plan_create(s->context, s->device, o->op, o->type, o->kind, &err);
    if (!s->plan) {
        clscan_failed("clscan_plan_create", err);
        return EXIT_TROUBLE;
    }
    if (o->variant_set) {
        err = clscan_plan_set_variant(s->plan, o->tiles, o->primitive);
        if (err != CL_SUCCESS) {
            clscan_failed("clscan_plan_set_variant", err);
            return EXIT_TROUBLE;
        }
    }
    if (o->tuning_set) {
        err = clscan_plan_set_tuning(s->plan, o->work_group_size, o->items_per_work_item);
        if (err != CL_SUCCESS) {
            clscan_failed("clscan_plan_set_tuning", err);
            return EXIT_TROUBLE;
        }
    }
    if (o->algorithm_set) {
        err = clscan_plan_set_algorithm(s->plan, o->algorithm);
        if (err != CL_SUCCESS) {
            clscan_failed("clscan_plan_set_algorithm", err);
            return EXIT_TROUBLE;
        }
    }
    if (o->accuracy_set) {
        err = clscan_plan_set_accuracy(s->plan, o->accuracy);
        if (err != CL_SUCCESS) {
            clscan_failed("clscan_plan_set_accuracy", err);
            return EXIT_TROUBLE;
        }
    }
    if (clscan_element_size(s->plan) != s->element_size) {
        fprintf(stderr, "clscan: clscan_element_size gives %zu bytes, expected %zu\n",
                clscan_element_size(s->plan), s->element_size);
        return EXIT_TROUBLE;
    }

    if (!o->input)
        fprintf(f, "input:    random, seed %" PRIu64 ": %s\n", o->seed, sup_describe_random_exact(o->op, o->type));
    else
        fprintf(f, "input:    %s\n", strcmp(o->input, "-") == 0 ? "standard input" : o->input);
    fprintf(f, "count:    %zu element%s, %zu bytes\n", s->count, s->count == 1 ? "" : "s",
            s->count * s->element_size);
    size_t wg = 0, ipw = 0;
    if (clscan_plan_get_tuning(s->plan, &wg, &ipw) == CL_SUCCESS)
        fprintf(f, "tuning:   work-group size %zu, %zu items per work-item, tiles of %zu\n",
                wg, ipw, wg * ipw);
    fprintf(f, "algorithm: %s%s\n", sup_algorithm_name(clscan_plan_get_algorithm(s->plan)),
            o->algorithm_set && o->algorithm != CLSCAN_ALGORITHM_AUTO ? "" : " (automatic choice)");
    if (o->op == CLSCAN_AFFINE && (o->type == CLSCAN_FLOAT || o->type == CLSCAN_DOUBLE))
        fprintf(f, "accuracy: %s%s\n", sup_accuracy_name(clscan_plan_get_accuracy(s->plan)),
                o->accuracy_set ? "" : " (plans' default: working precision for scans of pairs)");
    clscan_tiles tiles;
    clscan_primitive primitive;
    if (clscan_plan_get_variant(s->plan, &tiles, &primitive) == CL_SUCCESS)
        fprintf(f, "variant:  %s tiles, %s work-group scan%s\n", sup_tiles_name(tiles),
                tiles == CLSCAN_TILES_STREAMED ? "no" : sup_primitive_name(primitive),
                o->variant_set && (o->tiles != CLSCAN_TILES_AUTO || o->primitive != CLSCAN_PRIMITIVE_AUTO)
                    ? "" : " (automatic choice)");

    /* The buffers. */
    s->buffer_size = s->count ? s->count * s->element_size : s->element_size;
    cl_ulong max_alloc = 0;
    if (clGetDeviceInfo(s->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL) == CL_SUCCESS &&
        max_alloc > 0 && s->buffer_size > max_alloc) {
        fprintf(stderr, "clscan: %zu bytes per buffer exceed the device's largest allocation, %llu bytes\n",
                s->buffer_size, (unsigned long long)max_alloc);
        return EXIT_TROUBLE;
    }
    s->src = clCreateBuffer(s->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->buffer_size, s->input, &err);
    if (!s->src) {
        opencl_failed("clCreateBuffer", err);
        return EXIT_TROUBLE;
    }
    s->dst = clCreateBuffer(s->context, CL_MEM_WRITE_ONLY, s->buffer_size, NULL, &err);
    if (!s->dst) {
        opencl_failed("clCreateBuffer", err);
        return EXIT_TROUBLE;
    }
    s->result = malloc(s->buffer_size);
    s->first = malloc(s->buffer_size);
    s->device_times = malloc(o->repeat * sizeof *s->device_times);
    s->host_times = malloc(o->repeat * sizeof *s->host_times);
    if (!s->result || !s->first || !s->device_times || !s->host_times) {
        fprintf(stderr, "clscan: out of memory\n");
        return EXIT_TROUBLE;
    }

    /* One warm-up run (it builds nothing: the plan has its kernels), then the timed runs. */
    double warm_device, warm_host;
    if ((status = scan_once(s, &warm_device, &warm_host)) >= 0 || (status = read_result(s, s->first)) >= 0)
        return status;
    for (unsigned long r = 0; r < o->repeat; r++)
        if ((status = scan_once(s, &s->device_times[r], &s->host_times[r])) >= 0)
            return status;
    if ((status = read_result(s, s->result)) >= 0)
        return status;

    const double device_time = median(s->device_times, o->repeat);
    const double host_time = median(s->host_times, o->repeat);
    fputs("time:     ", f);
    print_time(f, "device", device_time);
    print_time(f, ", host", host_time);
    fprintf(f, " (median of %lu run%s, 1 warm-up)\n", o->repeat, o->repeat == 1 ? "" : "s");
    const double t = isnan(device_time) ? host_time : device_time;
    if (t > 0 && s->count > 0)
        fprintf(f, "rate:     %.4g Melements/s, %.3g GB/s read + written (%s time)\n",
                (double)s->count / t * 1e-6, 2.0 * (double)(s->count * s->element_size) / t * 1e-9,
                isnan(device_time) ? "host" : "device");

    /* The checks. */
    int verdict = check_result(s);
    if (verdict == EXIT_TROUBLE)
        return verdict;
    const bool reproducible = s->count == 0 || memcmp(s->first, s->result, s->count * s->element_size) == 0;
    fprintf(f, "repeat:   %s\n", reproducible ? "bitwise the same result in the warm-up and the last run"
                                              : "NOT REPRODUCIBLE: the warm-up and the last run differ");
    if (!reproducible)
        verdict = EXIT_MISMATCH;

    if (o->output && !write_file(o->output, s->result, s->count * s->element_size))
        return EXIT_TROUBLE;
    return verdict;
}

static int run_scan(const tool_options *o)
{
    job s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.report = o->output && strcmp(o->output, "-") == 0 ? stderr : stdout;

    int status = run_scan_job(&s);

    if (s.src)
        clReleaseMemObject(s.src);
    if (s.dst)
        clReleaseMemObject(s.dst);
    clscan_plan_release(s.plan);
    if (s.queue)
        clReleaseCommandQueue(s.queue);
    if (s.context)
        clReleaseContext(s.context);
    clscan_cache_clear();
    free(s.input);
    free(s.result);
    free(s.first);
    free(s.expected);
    free(s.device_times);
    free(s.host_times);
    if (fflush(s.report) != 0 && status != EXIT_TROUBLE) {
        fprintf(stderr, "clscan: cannot write the report: %s\n", strerror(errno));
        status = EXIT_TROUBLE;
    }
    return status;
}

int main(int argc, char **argv)
{
    tool_options o;
    int status = tool_parse_options(argc, argv, &o, stderr);
    if (status >= 0)
        return status;
    if (o.help) {
        tool_print_help(stdout);
        return EXIT_SUCCESS;
    }
    if (o.version) {
        printf("clscan %s\n", clscan_version_string());
        if (strcmp(clscan_version_string(), CLSCAN_VERSION_STRING) != 0)
            printf("(built with clscan.h %s)\n", CLSCAN_VERSION_STRING);
        return EXIT_SUCCESS;
    }
    if (o.list_devices)
        return list_devices();
    return run_scan(&o);
}
