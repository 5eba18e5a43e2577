/* clscan_enqueue, clscan_enqueue_with, clscan_enqueue_recurrence, clscan_enqueue_segmented,
 * clscan_enqueue_by_key and clscan_enqueue_segmented_offsets: argument checks, then the scan as
 * kernels on the caller's queue (scan_run.c); clscan_enqueue_with_check and
 * clscan_enqueue_segmented_check: the same checks alone. */
#include "check.h"
#include "scan_run.h"

#include <stdint.h>
#include <stdlib.h>

/* The checks every scan starts with; *done when count is 0 (nothing to scan: the caller
 * enqueues at most a marker, empty_marker). */
static cl_int check_common(const char *fn, clscan_plan *plan, cl_command_queue queue, size_t count, cl_uint nwait,
                           const cl_event *wait, int *done)
{
    cl_int err;
    *done = 0;
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if ((err = clscan_check_queue(fn, plan->context, plan->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, plan->context, nwait, wait)) != CL_SUCCESS)
        return err;
    *done = count == 0;
    return CL_SUCCESS;
}

/* A call with nothing to scan: *event, if asked for, is a marker after the wait list (OpenCL
 * has no empty buffers, so there is nothing to scan). */
static cl_int empty_marker(const char *fn, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                           cl_event *event)
{
    if (!event)
        return CL_SUCCESS;
    cl_int err = clEnqueueMarkerWithWaitList(queue, nwait, wait, event);
    return err == CL_SUCCESS ? err : clscan_fail(err, "%s: clEnqueueMarkerWithWaitList failed: %s", fn,
                                                 clscan_error_string(err));
}

/* src and dst of a scan: elements of the plan; the same range (in place) or apart. */
static cl_int check_data(const char *fn, const clscan_plan *plan, clscan_scan_job *j, clscan_range *d)
{
    clscan_range s;
    const size_t e = plan->element_size;
    cl_int err;
    if ((err = clscan_check_buffer(fn, plan->context, j->src, "src", 0, j->src_offset, j->count, e, &s)) ||
        (err = clscan_check_buffer(fn, plan->context, j->dst, "dst", 1, j->dst_offset, j->count, e, d)))
        return err;
    return clscan_check_same_or_disjoint(fn, &s, "src", d, "dst");
}

/* No options: no carry, no total, dst written. */
static void no_options(const clscan_plan *plan, clscan_job_options *o)
{
    const clscan_job_options none = {.carry_value = plan->zeros, .value_size = plan->element_size, .write_dst = 1};
    *o = none;
}

/* The program that scans the levels of tile totals, in element order: the plain or the heads
 * program; a compensated plan's levels program (its plain programs store pairs narrower than
 * the totals), built only when reduce-then-scan needs it (NULL otherwise). */
static cl_int levels_program(const char *fn, clscan_plan *plan, clscan_program_kind what, clscan_scan_job *j)
{
    const clscan_variant *v = &j->data->variant;
    j->levels = NULL;
    if (!CLSCAN_PROGRAM_IS_PLAIN(what))
        return clscan_plan_program(plan, fn, CLSCAN_PROGRAM_HEADS, &j->levels);
    if (!v->compensated)
        return clscan_plan_program(plan, fn, CLSCAN_PROGRAM_PLAIN, &j->levels);
    if (v->algorithm == CLSCAN_ALGORITHM_REDUCE_THEN_SCAN && j->count > v->wg * v->items)
        return clscan_plan_program(plan, fn, CLSCAN_PROGRAM_LEVELS, &j->levels);
    return CL_SUCCESS;
}

/* Runs the job on program `what` (and the levels' program), with the plan's lock. */
static cl_int run(const char *fn, clscan_plan *plan, clscan_program_kind what, clscan_scan_job *j,
                  cl_command_queue queue, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    pthread_mutex_lock(&plan->lock);
    cl_int err = clscan_plan_program(plan, fn, what, &j->data);
    if (err == CL_SUCCESS)
        err = levels_program(fn, plan, what, j);
    if (err == CL_SUCCESS)
        err = clscan_scan_run(plan, j, queue, nwait, wait, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}

/* clscan_enqueue's checks; fills j's options (none). */
static cl_int plain_checks(const char *fn, clscan_plan *plan, cl_command_queue queue, clscan_scan_job *j,
                           cl_uint nwait, const cl_event *wait, int *done)
{
    clscan_range d;
    cl_int err = check_common(fn, plan, queue, j->count, nwait, wait, done);
    if (err != CL_SUCCESS || *done || (err = check_data(fn, plan, j, &d)) != CL_SUCCESS)
        return err;
    no_options(plan, &j->opt);
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_enqueue(clscan_plan *plan, cl_command_queue queue, cl_mem src, size_t src_offset,
                                 cl_mem dst, size_t dst_offset, size_t count, cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue";
    clscan_scan_job j = {.src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    cl_int err = plain_checks(fn, plan, queue, &j, num_events_in_wait_list, event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err == CL_SUCCESS ? empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event) : err;
    return run(fn, plan, CLSCAN_PROGRAM_PLAIN, &j, queue, num_events_in_wait_list, event_wait_list, event);
}

/* A range some option must keep apart from: what it is called, and where it lies. */
typedef struct named_range {
    const char *what;
    const clscan_range *range;
} named_range;

/* The options' buffers, elements of e bytes: carry_in read while the destination dst (NULL: a
 * reduction) is written; total written while the sources (reads, n of them), dst and the carry
 * are in use.  Fills *opt. */
static cl_int check_options(const char *fn, const clscan_plan *plan, const clscan_scan_options *o, size_t e,
                            const clscan_range *dst, const named_range *reads, int n, clscan_job_options *opt)
{
    clscan_range c, t;
    cl_int err = CL_SUCCESS;
    if (o->carry_in &&
        ((err = clscan_check_buffer(fn, plan->context, o->carry_in, "options->carry_in", 0, o->carry_in_offset, 1, e,
                                    &c)) != CL_SUCCESS ||
         (dst && (err = clscan_check_disjoint(fn, &c, "options->carry_in", dst, "dst")) != CL_SUCCESS)))
        return err;
    if (o->total) {
        if ((err = clscan_check_buffer(fn, plan->context, o->total, "options->total", 1, o->total_offset, 1, e, &t)))
            return err;
        for (int i = 0; i < n && err == CL_SUCCESS; ++i)
            err = clscan_check_disjoint(fn, &t, "options->total", reads[i].range, reads[i].what);
        if (err == CL_SUCCESS && dst)
            err = clscan_check_disjoint(fn, &t, "options->total", dst, "dst");
        if (err == CL_SUCCESS && o->carry_in)
            err = clscan_check_disjoint(fn, &t, "options->total", &c, "options->carry_in");
        if (err != CL_SUCCESS)
            return err;
    }
    opt->carry_mode = o->carry_in ? 2 : o->init ? 1 : 0;
    opt->carry_value = !o->carry_in && o->init ? o->init : plan->zeros;
    opt->value_size = e;
    opt->carry_buf = o->carry_in;
    opt->carry_offset = o->carry_in_offset;
    opt->total_buf = o->total;
    opt->total_offset = o->total_offset;
    opt->write_dst = dst != NULL;
    return CL_SUCCESS;
}

/* An inclusive scan that stores count > 0 outputs copies its total from the last one (forwards
 * at dst_offset + count - 1, backwards at dst_offset): the same bits. */
static void total_from_last(const clscan_plan *plan, size_t dst_offset, size_t count, int reverse,
                            clscan_job_options *opt)
{
    if (opt->total_buf && opt->write_dst && count && plan->kind == CLSCAN_INCLUSIVE) {
        opt->total_from_dst = 1;
        opt->last_offset = reverse ? dst_offset : dst_offset + count - 1;
    }
}

/* What clscan_enqueue_with and clscan_enqueue_recurrence check first: the plan, dst or a total,
 * the queue and the wait list.  With a total to write, count 0 still runs (the total is the
 * carry): *done only without one. */
static cl_int check_start(const char *fn, clscan_plan *plan, cl_command_queue queue, cl_mem dst, size_t count,
                          const clscan_scan_options *o, cl_uint nwait, const cl_event *wait, int *done)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if (!dst && !o->total)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: dst is NULL and no total is asked for", fn);
    return check_common(fn, plan, queue, o->total ? 1 : count, nwait, wait, done);
}

/* clscan_enqueue_with's checks on the job j (src, dst, offsets, count), options given; fills j's
 * options and, for a reverse scan, moves its offsets to the last elements. */
static cl_int with_checks(const char *fn, clscan_plan *plan, cl_command_queue queue, clscan_scan_job *j,
                          const clscan_scan_options *options, cl_uint nwait, const cl_event *wait, int *done)
{
    cl_int err = check_start(fn, plan, queue, j->dst, j->count, options, nwait, wait, done);
    if (err != CL_SUCCESS || *done)
        return err;
    const size_t e = plan->element_size, count = j->count;
    clscan_range s, d;
    const named_range reads[] = {{"src", &s}};
    if ((err = clscan_check_buffer(fn, plan->context, j->src, "src", 0, j->src_offset, count, e, &s)) != CL_SUCCESS ||
        (j->dst &&
         (err = clscan_check_buffer(fn, plan->context, j->dst, "dst", 1, j->dst_offset, count, e, &d)) != CL_SUCCESS) ||
        (j->dst && (err = clscan_check_same_or_disjoint(fn, &s, "src", &d, "dst")) != CL_SUCCESS) ||
        (err = check_options(fn, plan, options, e, j->dst ? &d : NULL, reads, 1, &j->opt)) != CL_SUCCESS)
        return err;
    total_from_last(plan, j->dst_offset, count, options->reverse, &j->opt);
    if (options->reverse && count) {   /* the kernels count from the last elements backwards */
        j->src_offset += count - 1;
        j->dst_offset += count - 1;
    }
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_enqueue_with(clscan_plan *plan, cl_command_queue queue, cl_mem src, size_t src_offset,
                                      cl_mem dst, size_t dst_offset, size_t count, const clscan_scan_options *options,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event)
{
    static const char fn[] = "clscan_enqueue_with";
    if (!options)
        return clscan_fail_in(fn, clscan_enqueue(plan, queue, src, src_offset, dst, dst_offset, count,
                                                 num_events_in_wait_list, event_wait_list, event));
    clscan_scan_job j = {.src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    cl_int err = with_checks(fn, plan, queue, &j, options, num_events_in_wait_list, event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err == CL_SUCCESS ? empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event) : err;
    return run(fn, plan, options->reverse ? CLSCAN_PROGRAM_REVERSE : CLSCAN_PROGRAM_PLAIN, &j, queue,
               num_events_in_wait_list, event_wait_list, event);
}

CLSCAN_API cl_int clscan_enqueue_with_check(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                            size_t src_offset, cl_mem dst, size_t dst_offset, size_t count,
                                            const clscan_scan_options *options, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list)
{
    static const char fn[] = "clscan_enqueue_with_check";
    clscan_scan_job j = {.src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    return options ? with_checks(fn, plan, queue, &j, options, num_events_in_wait_list, event_wait_list, &done)
                   : plain_checks(fn, plan, queue, &j, num_events_in_wait_list, event_wait_list, &done);
}

CLSCAN_API cl_int clscan_enqueue_recurrence(clscan_plan *plan, cl_command_queue queue, cl_mem a, size_t a_offset,
                                            const void *a_const, cl_mem b, size_t b_offset, cl_mem y,
                                            size_t y_offset, size_t count, const clscan_scan_options *options,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                            cl_event *event)
{
    static const char fn[] = "clscan_enqueue_recurrence";
    static const clscan_scan_options none;
    const clscan_scan_options *o = options ? options : &none;
    if (plan && (plan->custom || plan->op != CLSCAN_AFFINE))
        return clscan_fail(CLSCAN_INVALID_OPERATOR, "%s: the plan's operator is not the built-in CLSCAN_AFFINE", fn);
    if (plan && plan->kind != CLSCAN_INCLUSIVE)
        return clscan_fail(CLSCAN_INVALID_KIND, "%s: the plan is not inclusive (a recurrence's y[i] includes b[i])",
                           fn);
    if (plan && !a && !a_const)
        return clscan_fail(CL_INVALID_VALUE, "%s: a and a_const are both NULL", fn);
    int done = 0;
    cl_int err = check_start(fn, plan, queue, y, count, o, num_events_in_wait_list, event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err == CL_SUCCESS ? empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event) : err;
    /* b, y, a, the carry and the total: single values of the plan's type. */
    const size_t e = plan->element_size / 2;
    clscan_scan_job j = {.src = b, .dst = y, .src_offset = b_offset, .dst_offset = y_offset, .count = count,
                         .recurrence = 1, .coef = a ? a : b, .coef_offset = a ? a_offset : b_offset,
                         .coef_value = a ? plan->zeros : a_const, .coef_size = e, .coef_const = a == NULL};
    clscan_range rb, ry, ra;
    const named_range reads[] = {{"b", &rb}, {"a", &ra}};
    if ((err = clscan_check_buffer(fn, plan->context, b, "b", 0, b_offset, count, e, &rb)) != CL_SUCCESS ||
        (a && (err = clscan_check_buffer(fn, plan->context, a, "a", 0, a_offset, count, e, &ra)) != CL_SUCCESS) ||
        (y && (err = clscan_check_buffer(fn, plan->context, y, "y", 1, y_offset, count, e, &ry)) != CL_SUCCESS) ||
        (y && (err = clscan_check_same_or_disjoint(fn, &rb, "b", &ry, "y")) != CL_SUCCESS) ||
        (y && a && (err = clscan_check_same_or_disjoint(fn, &ra, "a", &ry, "y")) != CL_SUCCESS) ||
        (err = check_options(fn, plan, o, e, y ? &ry : NULL, reads, a ? 2 : 1, &j.opt)) != CL_SUCCESS)
        return err;
    total_from_last(plan, y_offset, count, o->reverse, &j.opt);
    if (o->reverse && count) {
        j.src_offset += count - 1;
        j.dst_offset += count - 1;
        j.coef_offset += count - 1;
    }
    return run(fn, plan, o->reverse ? CLSCAN_PROGRAM_RECURRENCE_REVERSE : CLSCAN_PROGRAM_RECURRENCE, &j, queue,
               num_events_in_wait_list, event_wait_list, event);
}

/* clscan_enqueue_segmented's checks on the job j; fills j's options (none). */
static cl_int segmented_checks(const char *fn, clscan_plan *plan, cl_command_queue queue, clscan_scan_job *j,
                               cl_uint nwait, const cl_event *wait, int *done)
{
    clscan_range d, h;
    cl_int err = check_common(fn, plan, queue, j->count, nwait, wait, done);
    if (err != CL_SUCCESS || *done || (err = check_data(fn, plan, j, &d)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, j->heads, "heads", 0, j->heads_offset, j->count, 1, &h)) !=
            CL_SUCCESS ||
        (err = clscan_check_disjoint(fn, &h, "heads", &d, "dst")) != CL_SUCCESS)
        return err;
    no_options(plan, &j->opt);
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_enqueue_segmented(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                           size_t src_offset, cl_mem heads, size_t heads_offset, cl_mem dst,
                                           size_t dst_offset, size_t count, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue_segmented";
    /* keys: unused by the heads program, any buffer will do. */
    clscan_scan_job j = {.segmented = 1, .heads = heads, .keys = heads, .heads_offset = heads_offset,
                         .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    cl_int err = segmented_checks(fn, plan, queue, &j, num_events_in_wait_list, event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err == CL_SUCCESS ? empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event) : err;
    return run(fn, plan, CLSCAN_PROGRAM_HEADS, &j, queue, num_events_in_wait_list, event_wait_list, event);
}

CLSCAN_API cl_int clscan_enqueue_segmented_check(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                                 size_t src_offset, cl_mem heads, size_t heads_offset, cl_mem dst,
                                                 size_t dst_offset, size_t count, cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list)
{
    clscan_scan_job j = {.segmented = 1, .heads = heads, .keys = heads, .heads_offset = heads_offset,
                         .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    return segmented_checks("clscan_enqueue_segmented_check", plan, queue, &j, num_events_in_wait_list,
                            event_wait_list, &done);
}

CLSCAN_API cl_int clscan_enqueue_by_key(clscan_plan *plan, cl_command_queue queue, clscan_type key_type,
                                        cl_mem keys, size_t keys_offset, cl_mem src, size_t src_offset,
                                        cl_mem dst, size_t dst_offset, size_t count,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event)
{
    static const char fn[] = "clscan_enqueue_by_key";
    /* heads: unused by the keys programs, any buffer will do. */
    clscan_scan_job j = {.segmented = 1, .heads = keys, .keys = keys, .keys_offset = keys_offset,
                         .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    clscan_range d, k;
    int done = 0;
    if (plan && key_type != CLSCAN_INT32 && key_type != CLSCAN_UINT32 && key_type != CLSCAN_INT64 &&
        key_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: key_type %d is not an integer clscan_type", fn, (int)key_type);
    const int wide = key_type == CLSCAN_INT64 || key_type == CLSCAN_UINT64;
    cl_int err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, &done);
    if (err == CL_SUCCESS && done)
        return empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    if (err != CL_SUCCESS || (err = check_data(fn, plan, &j, &d)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, keys, "keys", 0, keys_offset, count, wide ? 8 : 4, &k)) ||
        (err = clscan_check_disjoint(fn, &k, "keys", &d, "dst")) != CL_SUCCESS)
        return err;
    no_options(plan, &j.opt);
    return run(fn, plan, wide ? CLSCAN_PROGRAM_KEYS_64 : CLSCAN_PROGRAM_KEYS_32, &j, queue,
               num_events_in_wait_list, event_wait_list, event);
}

CLSCAN_API cl_int clscan_enqueue_segmented_offsets(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                                   size_t src_offset, clscan_type offsets_type, cl_mem offsets,
                                                   size_t offsets_offset, size_t nsegments, cl_mem dst,
                                                   size_t dst_offset, size_t count, cl_mem totals,
                                                   size_t totals_offset, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue_segmented_offsets";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if (offsets_type != CLSCAN_UINT32 && offsets_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: offsets_type %d is not CLSCAN_UINT32 or CLSCAN_UINT64", fn,
                           (int)offsets_type);
    if (!dst && !totals)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: dst is NULL and no totals are asked for", fn);
    /* offsets[0] = 0 and offsets[nsegments] = count cannot both hold: no segment would cover
     * the elements. */
    if (nsegments == 0 && count > 0)
        return clscan_fail(CL_INVALID_VALUE, "%s: %zu elements in no segments (nsegments 0 needs count 0)", fn,
                           count);
    /* Nothing to write without elements and without totals of (empty) segments. */
    int done = 0;
    cl_int err = check_common(fn, plan, queue, count || (totals && nsegments), num_events_in_wait_list,
                              event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err == CL_SUCCESS ? empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event) : err;
    if (nsegments == SIZE_MAX)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: nsegments + 1 offsets overflow", fn);
    const size_t e = plan->element_size, oe = offsets_type == CLSCAN_UINT64 ? 8 : 4;
    clscan_range s, d, o, t;
    if ((err = clscan_check_buffer(fn, plan->context, src, "src", 0, src_offset, count, e, &s)) != CL_SUCCESS ||
        (dst && (err = clscan_check_buffer(fn, plan->context, dst, "dst", 1, dst_offset, count, e, &d))) ||
        (dst && (err = clscan_check_same_or_disjoint(fn, &s, "src", &d, "dst")) != CL_SUCCESS) ||
        (err = clscan_check_buffer(fn, plan->context, offsets, "offsets", 0, offsets_offset, nsegments + 1, oe,
                                   &o)) != CL_SUCCESS ||
        (dst && (err = clscan_check_disjoint(fn, &o, "offsets", &d, "dst")) != CL_SUCCESS))
        return err;
    if (totals &&
        ((err = clscan_check_buffer(fn, plan->context, totals, "totals", 1, totals_offset, nsegments, e, &t)) ||
         (err = clscan_check_disjoint(fn, &t, "totals", &s, "src")) != CL_SUCCESS ||
         (dst && (err = clscan_check_disjoint(fn, &t, "totals", &d, "dst")) != CL_SUCCESS) ||
         (err = clscan_check_disjoint(fn, &t, "totals", &o, "offsets")) != CL_SUCCESS))
        return err;
    clscan_offsets_job job = {
        .scan = {.segmented = 1, .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset,
                 .count = count},
        .offsets = offsets, .offsets_offset = offsets_offset, .wide = oe == 8, .nsegments = nsegments,
        .totals = totals, .totals_offset = totals_offset};
    no_options(plan, &job.scan.opt);
    pthread_mutex_lock(&plan->lock);
    err = clscan_plan_program(plan, fn, CLSCAN_PROGRAM_HEADS, &job.scan.data);
    if (err == CL_SUCCESS)
        err = clscan_plan_program(plan, fn, CLSCAN_PROGRAM_HEADS, &job.scan.levels);
    if (err == CL_SUCCESS)
        err = clscan_offsets_run(plan, &job, queue, num_events_in_wait_list, event_wait_list, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}

cl_int clscan_scan_step(clscan_chain *c, clscan_plan *plan, cl_mem buffer, size_t count)
{
    cl_event stack[CLSCAN_CHAIN_STACK], *heap, ev = NULL;
    const cl_event *list;
    cl_uint n;
    cl_int err = clscan_chain_wait_list(c, stack, &heap, &list, &n);
    if (err == CL_SUCCESS)
        err = clscan_enqueue(plan, c->queue, buffer, 0, buffer, 0, count, n, list,
                             clscan_chain_wants_event(c, 0) ? &ev : NULL);
    free(heap);
    if (err == CL_SUCCESS)
        clscan_chain_advance(c, ev);
    return err;
}
