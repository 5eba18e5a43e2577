/* Runs of equal keys: unique_by_key (the flags of the runs' first keys, then the compaction of the
 * keys and of the values by them) and reduce_by_key: with 4- or 8-byte keys one kernel of the
 * plan (scan_runs.c), with other keys the plan's segmented scan of the values with
 * the runs' first keys as heads, then the compaction of the keys and of the scan by the runs' last
 * keys, the same flags one further: each run's reduction is its scan's last output, combined in
 * order as comb(earlier, later)).  Both compactions have the same flags: the values' reuses the
 * keys' scanned block counts.  (The flags are made once, as bytes: the segmented scan takes them
 * as its heads, and the two compactions read them four times, where evaluating them from the
 * keys would read the keys as often.)
 * The handle owns two compactors (keys, values) that only it uses, under its own lock. */
#include "compact.h"
#include "scan_job.h"

#include <stdlib.h>

struct clscan_runs {
    cl_context context;              /* the compactors hold it */
    cl_device_id device;
    size_t key_size, value_size;
    clscan_compactor *keys, *values;
    pthread_mutex_t lock;            /* the compactors, the scratch, last_use */
    cl_mem heads, scan;              /* scratch: the runs' flags (count + 1), the values' scan */
    size_t heads_cap, scan_cap;
    cl_event last_use;
};

CLSCAN_API clscan_runs *clscan_runs_create(cl_context context, cl_device_id device, size_t key_size,
                                           size_t value_size, cl_int *errcode_ret)
{
    static const char fn[] = "clscan_runs_create";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    if (value_size == 0 || value_size > ALGO_MAX_ELEMENT_SIZE) {
        *err = clscan_fail(CLSCAN_INVALID_ELEMENT_SIZE, "%s: value_size %zu is not in 1 ... %d", fn, value_size,
                           ALGO_MAX_ELEMENT_SIZE);
        return NULL;
    }
    clscan_runs *r = calloc(1, sizeof *r);
    if (!r) {
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for a clscan_runs", fn);
        return NULL;
    }
    if (!(r->keys = compact_create(fn, context, device, key_size, NULL, 0, err)) ||
        !(r->values = compact_create(fn, context, device, value_size, NULL, 0, err))) {
        clscan_compactor_release(r->keys);
        free(r);
        return NULL;
    }
    r->context = context;
    r->device = device;
    r->key_size = key_size;
    r->value_size = value_size;
    pthread_mutex_init(&r->lock, NULL);
    return r;
}

CLSCAN_API void clscan_runs_release(clscan_runs *r)
{
    if (!r)
        return;
    cl_mem scratch[] = {r->heads, r->scan};
    for (int i = 0; i < 2; ++i)
        if (scratch[i])
            clReleaseMemObject(scratch[i]);
    if (r->last_use)
        clReleaseEvent(r->last_use);
    clscan_compactor_release(r->keys);
    clscan_compactor_release(r->values);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

/* The buffers of one call. */
typedef struct runs_call {
    cl_mem keys, values, keys_out, values_out, nruns;
    size_t keys_offset, values_offset, keys_out_offset, values_out_offset, nruns_offset, count;
} runs_call;

static cl_int validate(const char *fn, clscan_runs *r, clscan_plan *plan, int reduce, cl_command_queue queue,
                       const runs_call *k, cl_uint nwait, const cl_event *wait)
{
    if (!r)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: runs is NULL", fn);
    if (reduce) {
        if (!plan)
            return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
        if (plan->transform_source)
            return clscan_scan_check_no_transform(fn, plan);
        if (plan->context != r->context)
            return clscan_fail(CL_INVALID_CONTEXT, "%s: the plan belongs to another context", fn);
        if (plan->device != r->device)
            return clscan_fail(CL_INVALID_DEVICE, "%s: the plan belongs to another device", fn);
        if (plan->kind != CLSCAN_INCLUSIVE)
            return clscan_fail(CLSCAN_INVALID_KIND, "%s: the plan is exclusive; reduce_by_key needs an inclusive one",
                               fn);
        if (plan->element_size != r->value_size)
            return clscan_fail(CLSCAN_ELEMENT_SIZE_MISMATCH, "%s: the plan's elements are %zu bytes, the values %zu",
                               fn, plan->element_size, r->value_size);
    }
    cl_int err;
    if ((err = clscan_check_queue(fn, r->context, r->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, r->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (k->count > ALGO_MAX_COUNT)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: count %zu is above the limit 2^32 - 1", fn, k->count);
    clscan_range g[5];
    const char *const names[] = {"keys", "values", "keys_out", "values_out", "nruns"};
    const cl_mem mem[] = {k->keys, k->values, k->keys_out, k->values_out, k->nruns};
    const size_t offsets[] = {k->keys_offset, k->values_offset, k->keys_out_offset, k->values_out_offset,
                              k->nruns_offset};
    const size_t sizes[] = {r->key_size, r->value_size, r->key_size, r->value_size, sizeof(cl_ulong)};
    for (int i = 0; i < 5; ++i)
        if ((err = clscan_check_buffer(fn, r->context, mem[i], names[i], i >= 2, offsets[i], i == 4 ? 1 : k->count,
                                       sizes[i], &g[i])) != CL_SUCCESS)
            return err;
    /* Each output apart from the inputs and from the outputs before it. */
    for (int out = 2; out < 5; ++out)
        for (int other = 0; other < out; ++other)
            if ((err = clscan_check_disjoint(fn, &g[out], names[out], &g[other], names[other])) != CL_SUCCESS)
                return err;
    return CL_SUCCESS;
}

static cl_int reserve(clscan_runs *r, size_t count, int reduce)
{
    cl_int err = compact_reserve(r->keys, COMPACT_FROM_FLAGS, count);
    if (err == CL_SUCCESS)
        err = compact_reserve(r->values, COMPACT_FROM_FLAGS, count);
    if (err == CL_SUCCESS)   /* the values' compaction writes its count there */
        err = clscan_scratch_grow(r->context, &r->values->kept, &r->values->kept_cap, sizeof(cl_ulong));
    if (err == CL_SUCCESS && count)
        err = clscan_scratch_grow(r->context, &r->heads, &r->heads_cap, count + 1);
    if (err == CL_SUCCESS && count && reduce)
        err = clscan_scratch_grow(r->context, &r->scan, &r->scan_cap, count * r->value_size);
    return err;
}

/* The plan's segmented scan of the values by the heads into the scratch, as the next step of ch. */
static cl_int scan_step(clscan_runs *r, clscan_chain *ch, clscan_plan *plan, const runs_call *k)
{
    cl_event stack[CLSCAN_CHAIN_STACK], *heap, ev = NULL;
    const cl_event *list;
    cl_uint n;
    cl_int err = clscan_chain_wait_list(ch, stack, &heap, &list, &n);
    if (err == CL_SUCCESS)
        err = clscan_enqueue_segmented(plan, ch->queue, k->values, k->values_offset, r->heads, 0, r->scan, 0,
                                       k->count, n, list, clscan_chain_wants_event(ch, 0) ? &ev : NULL);
    free(heap);
    if (err == CL_SUCCESS)
        clscan_chain_advance(ch, ev);
    return err;
}

static cl_int run_locked(clscan_runs *r, clscan_plan *plan, cl_command_queue queue, const runs_call *k,
                         cl_uint nwait, const cl_event *wait, cl_event *event)
{
    const int reduce = plan != NULL;
    cl_int err = reserve(r, k->count, reduce);
    if (err != CL_SUCCESS)
        return err;
    clscan_chain ch;
    if ((err = clscan_chain_begin(&ch, queue, nwait, wait, r->last_use, 1)) != CL_SUCCESS)
        return err;
    if (k->count == 0) {
        const cl_ulong zero = 0;
        err = clscan_chain_fill(&ch, k->nruns, &zero, sizeof zero, k->nruns_offset * sizeof zero, sizeof zero, 1);
    } else {
        clscan_compactor *kc = r->keys, *vc = r->values;
        err = compact_flags_step(kc, &ch, k->keys, k->keys_offset, k->count, r->heads);
        if (err == CL_SUCCESS && reduce)
            err = scan_step(r, &ch, plan, k);
        /* unique_by_key keeps the runs' first keys and values (heads[0 ... count)); reduce_by_key
         * the last (equal) keys and the scan's last outputs (heads[1 ... count]). */
        const size_t fo = reduce ? 1 : 0;
        const compact_call ck = {COMPACT_ELEMENTS, COMPACT_FROM_FLAGS, k->keys, r->heads, k->keys_out, k->nruns,
                                 k->keys_offset, fo, k->keys_out_offset, k->nruns_offset, k->count};
        const compact_call cv = {COMPACT_ELEMENTS, COMPACT_FROM_FLAGS, reduce ? r->scan : k->values, r->heads,
                                 k->values_out, vc->kept, reduce ? 0 : k->values_offset, fo, k->values_out_offset, 0,
                                 k->count};
        /* The values' flags are the keys': where the blocks are the same too, so are the keys'
         * scanned counts, and the values' compaction is its scatter alone. */
        const int shared = compact_same_blocks(kc, vc, COMPACT_FROM_FLAGS);
        /* Every command that can fail for a reason other than the device (the kernels'
         * arguments, the scans' checks and scratch) before the first that writes the caller's
         * buffers: the two scatters come last, so that only a failure to enqueue the values'
         * scatter leaves keys_out and nruns written (by the keys' scatter) behind. */
        if (err == CL_SUCCESS)
            err = compact_args(kc, &ck, NULL);
        if (err == CL_SUCCESS)
            err = compact_args(vc, &cv, shared ? kc->counts : NULL);
        if (err == CL_SUCCESS)
            err = compact_count_steps(kc, &ch, &ck, NULL);
        if (err == CL_SUCCESS && !shared)
            err = compact_count_steps(vc, &ch, &cv, NULL);
        if (err == CL_SUCCESS)
            err = compact_scatter_step(kc, &ch, &ck);
        if (err == CL_SUCCESS)
            err = compact_scatter_step(vc, &ch, &cv);
    }
    clscan_chain_end(&ch, err, event, &r->last_use);
    return err;
}

/* reduce_by_key with 4- or 8-byte keys: one kernel of the plan's runs program
 * (cl/scan/runs.cl), which needs none of the handle's scratch. */
static cl_int reduce_in_one_pass(const char *fn, clscan_runs *r, clscan_plan *plan, cl_command_queue queue,
                                 const runs_call *k, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    clscan_runs_job job = {.keys = k->keys, .values = k->values, .keys_out = k->keys_out,
                           .values_out = k->values_out, .nruns = k->nruns, .keys_offset = k->keys_offset,
                           .values_offset = k->values_offset, .keys_out_offset = k->keys_out_offset,
                           .values_out_offset = k->values_out_offset, .nruns_offset = k->nruns_offset,
                           .count = k->count};
    pthread_mutex_lock(&plan->lock);
    cl_int err = clscan_plan_program(plan, fn, r->key_size == 8 ? CLSCAN_PROGRAM_RUNS_64 : CLSCAN_PROGRAM_RUNS_32,
                                     &job.data);
    if (err == CL_SUCCESS)
        err = clscan_runs_run(plan, &job, queue, nwait, wait, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}

static cl_int runs(const char *fn, clscan_runs *r, clscan_plan *plan, int reduce, cl_command_queue queue,
                   const runs_call *k, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    cl_int err = validate(fn, r, plan, reduce, queue, k, nwait, wait);
    if (err != CL_SUCCESS)
        return err;
    if (reduce && k->count > 0 && (r->key_size == 4 || r->key_size == 8)) {
        err = reduce_in_one_pass(fn, r, plan, queue, k, nwait, wait, event);
        return err == CL_SUCCESS ? err : clscan_fail_in(fn, err);
    }
    pthread_mutex_lock(&r->lock);
    err = run_locked(r, reduce ? plan : NULL, queue, k, nwait, wait, event);
    pthread_mutex_unlock(&r->lock);
    /* The plan's segmented scan reports as clscan_enqueue_segmented (its build, for one). */
    return err == CL_SUCCESS ? err : clscan_fail_in(fn, err);
}

CLSCAN_API cl_int clscan_unique_by_key_enqueue(clscan_runs *r, cl_command_queue queue, cl_mem keys,
                                               size_t keys_offset, cl_mem values, size_t values_offset, size_t count,
                                               cl_mem keys_out, size_t keys_out_offset, cl_mem values_out,
                                               size_t values_out_offset, cl_mem nruns, size_t nruns_offset,
                                               cl_uint nwait, const cl_event *wait, cl_event *event)
{
    const runs_call k = {keys, values, keys_out, values_out, nruns, keys_offset, values_offset, keys_out_offset,
                         values_out_offset, nruns_offset, count};
    return runs("clscan_unique_by_key_enqueue", r, NULL, 0, queue, &k, nwait, wait, event);
}

CLSCAN_API cl_int clscan_reduce_by_key_enqueue(clscan_runs *r, clscan_plan *plan, cl_command_queue queue,
                                               cl_mem keys, size_t keys_offset, cl_mem values, size_t values_offset,
                                               size_t count, cl_mem keys_out, size_t keys_out_offset,
                                               cl_mem values_out, size_t values_out_offset, cl_mem nruns,
                                               size_t nruns_offset, cl_uint nwait, const cl_event *wait,
                                               cl_event *event)
{
    const runs_call k = {keys, values, keys_out, values_out, nruns, keys_offset, values_offset, keys_out_offset,
                         values_out_offset, nruns_offset, count};
    return runs("clscan_reduce_by_key_enqueue", r, plan, 1, queue, &k, nwait, wait, event);
}
