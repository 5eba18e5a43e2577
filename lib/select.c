/* Selections on a compactor (compact.h): by a predicate given as OpenCL C (the flag source
 * cl/select/from_predicate.cl), the stable partition (cl/select/partition*.cl) and unique (the
 * runs' first elements, cl/select/from_runs.cl), each the compaction's count, scan and scatter in
 * one chain of commands, with the flags evaluated in the count and the scatter kernels. */
#include "compact.h"
#include "custom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As custom.c's operators: the snippet goes into a function, so that x and i are the only names
 * it sees besides the preamble's; the array of negative size is the compile-time size check
 * (its name in the build log means element_size is not sizeof(type)). */
static const char predicate_template[] =
    "/* clscan predicate */\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "%s\n"
    "typedef %s clscan_pred_type;\n"
    "typedef char " CLSCAN_CUSTOM_SIZE_CHECK "[(sizeof(clscan_pred_type) == %zu) ? 1 : -1];\n"
    "inline uchar clscan_pred_flag(clscan_pred_type x, ulong i)\n"
    "{\n"
    "    return (%s) ? 1 : 0;\n"
    "}\n";

static int blank(const char *s)
{
    return !s || !*s;
}

static cl_int predicate_source(const char *fn, const clscan_predicate *p, size_t size, char **source)
{
    if (!p)
        return clscan_fail(CLSCAN_INVALID_PREDICATE, "%s: predicate is NULL", fn);
    const char *const strings[] = {p->type, p->flag, p->preamble};
    const char *const names[] = {"type", "flag", "preamble"};
    const size_t limits[] = {CLSCAN_CUSTOM_MAX_TYPE, CLSCAN_CUSTOM_MAX_EXPRESSION, CLSCAN_CUSTOM_MAX_PREAMBLE};
    for (int i = 0; i < 3; ++i) {
        if (i < 2 && blank(strings[i]))
            return clscan_fail(CLSCAN_INVALID_PREDICATE, "%s: predicate->%s is %s", fn, names[i],
                               strings[i] ? "an empty string" : "NULL");
        if (strings[i] && strnlen(strings[i], limits[i] + 1) > limits[i])
            return clscan_fail(CLSCAN_INVALID_PREDICATE, "%s: predicate->%s is longer than %zu characters", fn,
                               names[i], limits[i]);
    }
    const char *preamble = p->preamble ? p->preamble : "";
    const int n = snprintf(NULL, 0, predicate_template, preamble, p->type, size, p->flag);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for the predicate's source", fn);
    snprintf(s, (size_t)n + 1, predicate_template, preamble, p->type, size, p->flag);
    *source = s;
    return CL_SUCCESS;
}

CLSCAN_API clscan_compactor *clscan_compactor_create_if(cl_context context, cl_device_id device, size_t element_size,
                                                        const clscan_predicate *predicate, cl_int *errcode_ret)
{
    static const char fn[] = "clscan_compactor_create_if";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    char *source = NULL;
    if ((*err = predicate_source(fn, predicate, element_size, &source)) != CL_SUCCESS)
        return NULL;
    clscan_compactor *c = compact_create(fn, context, device, element_size, source, 1, err);
    if (!c && *err == CL_BUILD_PROGRAM_FAILURE && strstr(clscan_last_error(), CLSCAN_CUSTOM_SIZE_CHECK))
        *err = clscan_fail(CLSCAN_ELEMENT_SIZE_MISMATCH, "%s: element_size is %zu, but the device's sizeof(%s) is "
                           "not %zu (the compile-time check %s failed)", fn, element_size, predicate->type,
                           element_size, CLSCAN_CUSTOM_SIZE_CHECK);
    return c;
}

/* The checks of every selection on a compactor; kept unchecked when blocking. */
static cl_int validate(const char *fn, clscan_compactor *c, cl_command_queue queue, const compact_call *k,
                       compact_source from, cl_uint nwait, const cl_event *wait, int blocking)
{
    cl_int err;
    clscan_range s, f, d, n;
    if (!c)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: compactor is NULL", fn);
    if (from == COMPACT_FROM_PREDICATE && !c->predicate)
        return clscan_fail(CLSCAN_NO_PREDICATE, "%s: the compactor has no predicate (clscan_compactor_create_if "
                           "makes one with)", fn);
    if ((err = clscan_check_queue(fn, c->context, c->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, c->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (k->count > ALGO_MAX_COUNT)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: count %zu is above the limit 2^32 - 1", fn, k->count);
    if ((err = clscan_check_buffer(fn, c->context, k->src, "src", 0, k->src_offset, k->count, c->element_size,
                                   &s)) != CL_SUCCESS ||
        (from == COMPACT_FROM_FLAGS && (err = clscan_check_buffer(fn, c->context, k->flags, "flags", 0,
                                                                  k->flags_offset, k->count, 1, &f)) != CL_SUCCESS) ||
        (err = clscan_check_buffer(fn, c->context, k->dst, "dst", 1, k->dst_offset, k->count, c->element_size,
                                   &d)) != CL_SUCCESS ||
        (!blocking && (err = clscan_check_buffer(fn, c->context, k->kept, "kept", 1, k->kept_offset, 1,
                                                 sizeof(cl_ulong), &n)) != CL_SUCCESS))
        return err;
    if ((err = clscan_check_disjoint(fn, &d, "dst", &s, "src")) != CL_SUCCESS ||
        (from == COMPACT_FROM_FLAGS && (err = clscan_check_disjoint(fn, &d, "dst", &f, "flags")) != CL_SUCCESS))
        return err;
    if (!blocking && ((err = clscan_check_disjoint(fn, &n, "kept", &s, "src")) != CL_SUCCESS ||
                      (from == COMPACT_FROM_FLAGS &&
                       (err = clscan_check_disjoint(fn, &n, "kept", &f, "flags")) != CL_SUCCESS) ||
                      (err = clscan_check_disjoint(fn, &n, "kept", &d, "dst")) != CL_SUCCESS))
        return err;
    return CL_SUCCESS;
}

static cl_int selection(const char *fn, clscan_compactor *c, cl_command_queue queue, const compact_call *k,
                        cl_uint nwait, const cl_event *wait, cl_event *event)
{
    cl_int err = validate(fn, c, queue, k, k->from, nwait, wait, 0);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&c->lock);
    err = compact_enqueue_locked(c, queue, k, nwait, wait, event, NULL);
    pthread_mutex_unlock(&c->lock);
    return err;
}

CLSCAN_API cl_int clscan_compact_if_enqueue(clscan_compactor *c, cl_command_queue queue, cl_mem src,
                                            size_t src_offset, size_t count, cl_mem dst, size_t dst_offset,
                                            cl_mem kept, size_t kept_offset, cl_uint nwait, const cl_event *wait,
                                            cl_event *event)
{
    compact_call k = {COMPACT_ELEMENTS, COMPACT_FROM_PREDICATE, src, NULL, dst, kept, src_offset, 0, dst_offset,
                      kept_offset, count};
    return selection("clscan_compact_if_enqueue", c, queue, &k, nwait, wait, event);
}

CLSCAN_API cl_int clscan_compact_if(clscan_compactor *c, cl_command_queue queue, cl_mem src, size_t src_offset,
                                    size_t count, cl_mem dst, size_t dst_offset, size_t *kept, cl_uint nwait,
                                    const cl_event *wait)
{
    static const char fn[] = "clscan_compact_if";
    compact_call k = {COMPACT_ELEMENTS, COMPACT_FROM_PREDICATE, src, NULL, dst, NULL, src_offset, 0, dst_offset, 0,
                      count};
    cl_int err = validate(fn, c, queue, &k, COMPACT_FROM_PREDICATE, nwait, wait, 1);
    if (err != CL_SUCCESS)
        return err;
    if (!kept)
        return clscan_fail(CL_INVALID_VALUE, "%s: kept is NULL", fn);
    return compact_blocking(fn, c, queue, &k, nwait, wait, kept);
}

CLSCAN_API cl_int clscan_partition_enqueue(clscan_compactor *c, cl_command_queue queue, cl_mem src,
                                           size_t src_offset, cl_mem flags, size_t flags_offset, size_t count,
                                           cl_mem dst, size_t dst_offset, cl_mem kept, size_t kept_offset,
                                           cl_uint nwait, const cl_event *wait, cl_event *event)
{
    compact_call k = {COMPACT_PARTITION, COMPACT_FROM_FLAGS, src, flags, dst, kept, src_offset, flags_offset,
                      dst_offset, kept_offset, count};
    return selection("clscan_partition_enqueue", c, queue, &k, nwait, wait, event);
}

CLSCAN_API cl_int clscan_partition_if_enqueue(clscan_compactor *c, cl_command_queue queue, cl_mem src,
                                              size_t src_offset, size_t count, cl_mem dst, size_t dst_offset,
                                              cl_mem kept, size_t kept_offset, cl_uint nwait, const cl_event *wait,
                                              cl_event *event)
{
    compact_call k = {COMPACT_PARTITION, COMPACT_FROM_PREDICATE, src, NULL, dst, kept, src_offset, 0, dst_offset,
                      kept_offset, count};
    return selection("clscan_partition_if_enqueue", c, queue, &k, nwait, wait, event);
}

CLSCAN_API cl_int clscan_unique_enqueue(clscan_compactor *c, cl_command_queue queue, cl_mem src, size_t src_offset,
                                        size_t count, cl_mem dst, size_t dst_offset, cl_mem kept, size_t kept_offset,
                                        cl_uint nwait, const cl_event *wait, cl_event *event)
{
    compact_call k = {COMPACT_ELEMENTS, COMPACT_FROM_RUNS, src, NULL, dst, kept, src_offset, 0, dst_offset,
                      kept_offset, count};
    return selection("clscan_unique_enqueue", c, queue, &k, nwait, wait, event);
}
