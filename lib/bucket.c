/* clscan_bucketer: a stable counting sort by small cl_uint keys, as a radix sort of the
 * ceil(log2(nbuckets)) low bits of the keys clamped to nbuckets - 1 (radix_engine.c; 2^16
 * buckets are two passes), then the bucket offsets from the sorted keys. */
#include "algo.h"

#include <stdlib.h>

struct clscan_bucketer {
    radix_engine engine;
    cl_uint nbuckets;
    unsigned bits;
    pthread_mutex_t lock;          /* kernels' arguments, scratch, last_use */
    cl_event last_use;
};

#define MAX_BUCKETS ((cl_uint)1 << 31)
/* Positions per work-item of the bucket offsets' pass (cl/radix/bucket_offsets.cl takes its
 * share from the launch): few work-groups, whose launches made that kernel's time at one
 * position a work-item. */
#define OFFSETS_ITEMS 16

/* The bucket offsets by a search per bucket where its reads, (nbuckets + 1) x the steps of a
 * search x what a step costs on the device (radix_tuning.c), are at most the pass's, count +
 * nbuckets; CLSCAN_DEVELOP's bucket_offsets decides where given.  The same results either way. */
static int offsets_by_search(const radix_engine *e, cl_uint nbuckets, size_t count)
{
    if (e->dev.bucket_offsets >= 0)
        return e->dev.bucket_offsets;
    unsigned steps = 1;
    while (steps < 64 && ((size_t)1 << (steps - 1)) < count)
        ++steps;
    return ((cl_ulong)nbuckets + 1) * steps * e->offsets_search_cost <= (cl_ulong)count + nbuckets;
}

CLSCAN_API clscan_bucketer *clscan_bucketer_create(cl_context context, cl_device_id device, cl_uint nbuckets,
                                                   size_t value_size, cl_int *errcode_ret)
{
    static const char fn[] = "clscan_bucketer_create";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    if (nbuckets == 0 || nbuckets > MAX_BUCKETS) {
        *err = clscan_fail(CLSCAN_INVALID_BUCKET_COUNT, "%s: nbuckets %u is not in 1 ... 2^31", fn, nbuckets);
        return NULL;
    }
    if (value_size > ALGO_MAX_ELEMENT_SIZE) {
        *err = clscan_fail(CLSCAN_INVALID_ELEMENT_SIZE, "%s: value_size %zu is above %d", fn, value_size,
                           ALGO_MAX_ELEMENT_SIZE);
        return NULL;
    }
    clscan_bucketer *b = calloc(1, sizeof *b);
    if (!b) {
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for a bucketer");
        return NULL;
    }
    if ((*err = radix_engine_init(&b->engine, fn, context, device, 4, 0, value_size)) != CL_SUCCESS) {
        free(b);
        return NULL;
    }
    b->nbuckets = nbuckets;
    b->bits = 1;   /* one pass at least, also for one bucket */
    while (b->bits < 32 && ((cl_ulong)1 << b->bits) < nbuckets)
        ++b->bits;
    pthread_mutex_init(&b->lock, NULL);
    return b;
}

CLSCAN_API void clscan_bucketer_release(clscan_bucketer *b)
{
    if (!b)
        return;
    radix_engine_free(&b->engine);
    if (b->last_use)
        clReleaseEvent(b->last_use);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

typedef struct outputs {
    cl_mem offsets;
    size_t offsets_offset;
} outputs;

static cl_int validate(const char *fn, clscan_bucketer *b, cl_command_queue queue, const radix_job *j,
                       const outputs *o, cl_uint nwait, const cl_event *wait)
{
    radix_engine *e = &b->engine;
    cl_int err;
    clscan_range r[6];   /* keys, values, keys_out, values_out, offsets, permutation */
    const char *names[6] = {"keys", "values", "keys_out", "values_out", "offsets", "permutation"};
    int have[6] = {1, e->value_size > 0, j->keys_out != NULL, e->value_size > 0, 1, j->index_out != NULL};
    if ((err = clscan_check_queue(fn, e->context, e->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, e->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (j->count > ALGO_MAX_COUNT)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: count %zu is above the limit 2^32 - 1", fn, j->count);
    if (e->value_size == 0 && (j->values_in || j->values_out))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: values given to a bucketer without values", fn);
    if ((err = clscan_check_buffer(fn, e->context, j->keys_in, names[0], 0, j->keys_in_offset, j->count, 4, &r[0])) ||
        (have[1] && (err = clscan_check_buffer(fn, e->context, j->values_in, names[1], 0, j->values_in_offset,
                                             j->count, e->value_size, &r[1]))) ||
        (have[2] && (err = clscan_check_buffer(fn, e->context, j->keys_out, names[2], 1, j->keys_out_offset,
                                             j->count, 4, &r[2]))) ||
        (have[3] && (err = clscan_check_buffer(fn, e->context, j->values_out, names[3], 1, j->values_out_offset,
                                             j->count, e->value_size, &r[3]))) ||
        (err = clscan_check_buffer(fn, e->context, o->offsets, names[4], 1, o->offsets_offset,
                                 (size_t)b->nbuckets + 1, 4, &r[4])) ||
        (have[5] && (err = clscan_check_buffer(fn, e->context, j->index_out, names[5], 1, j->index_out_offset,
                                             j->count, 4, &r[5]))))
        return err;
    /* Outputs (2 ... 5) must not overlap anything else. */
    for (int a = 2; a < 6; ++a)
        for (int c = 0; c < 6; ++c)
            if (c != a && have[a] && have[c] && (err = clscan_check_disjoint(fn, &r[a], names[a], &r[c], names[c])))
                return err;
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_bucket_enqueue(clscan_bucketer *b, cl_command_queue queue,
                                        cl_mem keys, size_t keys_offset, cl_mem values, size_t values_offset,
                                        size_t count, cl_mem keys_out, size_t keys_out_offset,
                                        cl_mem values_out, size_t values_out_offset,
                                        cl_mem offsets, size_t offsets_offset,
                                        cl_mem permutation, size_t permutation_offset,
                                        cl_uint nwait, const cl_event *wait, cl_event *event)
{
    static const char fn[] = "clscan_bucket_enqueue";
    if (!b)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: bucketer is NULL", fn);
    radix_job j = {keys, keys_out, keys_offset, keys_out_offset, values, values_out, values_offset,
                   values_out_offset, permutation, permutation_offset, count, b->bits, b->nbuckets - 1, 0, 0, 0};
    const outputs o = {offsets, offsets_offset};
    cl_int err = validate(fn, b, queue, &j, &o, nwait, wait);
    if (err != CL_SUCCESS)
        return err;
    radix_engine *e = &b->engine;
    pthread_mutex_lock(&b->lock);
    if (count)
        err = radix_engine_reserve(e, &j);
    clscan_chain c;
    if (err == CL_SUCCESS && (err = clscan_chain_begin(&c, queue, nwait, wait, b->last_use, 1)) == CL_SUCCESS) {
        if (count == 0) {
            const cl_uint zero = 0;
            err = clscan_chain_fill(&c, offsets, &zero, sizeof zero, offsets_offset * sizeof zero,
                                    ((size_t)b->nbuckets + 1) * sizeof zero, 1);
        } else {
            /* The offsets kernel's arguments before the sort: only its launch can fail after the
             * sort's last pass has written the outputs. */
            cl_mem sorted = j.keys_out ? j.keys_out : e->keys_spare;
            const cl_ulong so = j.keys_out ? j.keys_out_offset : 0, cnt = count, oo = offsets_offset;
            const cl_uint clamp = b->nbuckets - 1, nb = b->nbuckets;
            const int search = offsets_by_search(e, nb, count);
            cl_kernel k = search ? e->bucket_search : e->bucket_offsets;
            ALGO_ARG_MEM(k, 0, sorted); ALGO_ARG(k, 1, so); ALGO_ARG(k, 2, cnt); ALGO_ARG(k, 3, clamp);
            ALGO_ARG_MEM(k, 4, offsets); ALGO_ARG(k, 5, oo); ALGO_ARG(k, 6, nb);
            if (err != CL_SUCCESS)
                err = clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
            size_t sorted_offset;
            if (err == CL_SUCCESS)
                err = radix_engine_run(e, &c, &j, &sorted, &sorted_offset);
            /* a work-item per bucket, or OFFSETS_ITEMS positions a work-item */
            const size_t per_group = search ? e->offsets_wg : e->offsets_wg * OFFSETS_ITEMS;
            const size_t work = search ? (size_t)nb + 1 : count;
            if (err == CL_SUCCESS)
                err = clscan_chain_launch(&c, k, (work + per_group - 1) / per_group, e->offsets_wg, 1);
        }
        clscan_chain_end(&c, err, event, &b->last_use);
    }
    pthread_mutex_unlock(&b->lock);
    return err;
}
