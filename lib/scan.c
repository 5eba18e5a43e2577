/* clscan_enqueue, clscan_enqueue_with and clscan_enqueue_recurrence: argument checks, then the
 * scan as kernels on the caller's queue (scan_run.c); clscan_enqueue_with_check: the same checks
 * alone.  The segmented scans are in scan_segmented.c. */
#include "check.h"
#include "scan_job.h"

#include <stdint.h>
#include <stdlib.h>

/* clscan_enqueue's checks; fills j's options (none). */
static cl_int plain_checks(const char *fn, clscan_plan *plan, cl_command_queue queue, clscan_scan_job *j,
                           cl_uint nwait, const cl_event *wait, int *done)
{
    clscan_range d;
    cl_int err = clscan_scan_check_common(fn, plan, queue, j->count, nwait, wait, done);
    if (err != CL_SUCCESS || *done || (err = clscan_scan_check_data(fn, plan, j, &d)) != CL_SUCCESS)
        return err;
    clscan_scan_no_options(plan, &j->opt);
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
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    return clscan_scan_locked_run(fn, plan, CLSCAN_PROGRAM_PLAIN, &j, queue, num_events_in_wait_list, event_wait_list,
                                  event);
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
 * at dst_offset + count - 1, backwards at dst_offset): the same bits.  Not through an output
 * transform: dst does not hold the operator's elements then. */
static void total_from_last(const clscan_plan *plan, size_t dst_offset, size_t count, int reverse,
                            clscan_job_options *opt)
{
    if (opt->total_buf && opt->write_dst && count && plan->kind == CLSCAN_INCLUSIVE && !plan->transform_out) {
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
    return clscan_scan_check_common(fn, plan, queue, o->total ? 1 : count, nwait, wait, done);
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
    if ((err = clscan_check_buffer(fn, plan->context, j->src, "src", 0, j->src_offset, count, plan->src_size, &s)) !=
            CL_SUCCESS ||
        (j->dst && (err = clscan_check_buffer(fn, plan->context, j->dst, "dst", 1, j->dst_offset, count, plan->dst_size,
                                              &d)) != CL_SUCCESS) ||
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
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    return clscan_scan_locked_run(fn, plan, options->reverse ? CLSCAN_PROGRAM_REVERSE : CLSCAN_PROGRAM_PLAIN, &j, queue,
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
    if (clscan_scan_check_no_transform(fn, plan) != CL_SUCCESS)
        return CLSCAN_TRANSFORM_NOT_SUPPORTED;
    if (plan && plan->kind != CLSCAN_INCLUSIVE)
        return clscan_fail(CLSCAN_INVALID_KIND, "%s: the plan is not inclusive (a recurrence's y[i] includes b[i])",
                           fn);
    if (plan && !a && !a_const)
        return clscan_fail(CL_INVALID_VALUE, "%s: a and a_const are both NULL", fn);
    int done = 0;
    cl_int err = check_start(fn, plan, queue, y, count, o, num_events_in_wait_list, event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
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
    const clscan_program_kind what = o->reverse ? CLSCAN_PROGRAM_RECURRENCE_REVERSE : CLSCAN_PROGRAM_RECURRENCE;
    return clscan_scan_locked_run(fn, plan, what, &j, queue, num_events_in_wait_list, event_wait_list, event);
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
