/* clscan_sorter: stable ascending radix sort of keys of a clscan_type, with optional values,
 * on the radix engine (radix_engine.c). */
#include "algo.h"

#include <stdlib.h>

struct clscan_sorter {
    radix_engine engine;
    clscan_type key_type;
    unsigned key_bits;             /* bits sorted by: the key's width, or fewer (unsigned keys) */
    pthread_mutex_t lock;          /* kernels' arguments, scratch, last_use */
    cl_event last_use;
};

static const size_t key_sizes[] = {4, 4, 8, 8, 4, 8};
/* The order transform of each clscan_type (cl/clscan_radix.cl): unsigned, signed, float. */
static const int key_orders[] = {1, 0, 1, 0, 2, 2};

CLSCAN_API clscan_sorter *clscan_sorter_create(cl_context context, cl_device_id device, clscan_type key_type,
                                               size_t value_size, cl_int *errcode_ret)
{
    static const char fn[] = "clscan_sorter_create";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    if ((unsigned)key_type > (unsigned)CLSCAN_DOUBLE) {
        *err = clscan_fail(CLSCAN_INVALID_TYPE, "%s: key type %d is not a clscan_type", fn, (int)key_type);
        return NULL;
    }
    if (value_size > ALGO_MAX_ELEMENT_SIZE) {
        *err = clscan_fail(CLSCAN_INVALID_ELEMENT_SIZE, "%s: value_size %zu is above %d", fn, value_size,
                           ALGO_MAX_ELEMENT_SIZE);
        return NULL;
    }
    clscan_sorter *s = calloc(1, sizeof *s);
    if (!s) {
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for a sorter");
        return NULL;
    }
    *err = radix_engine_init(&s->engine, fn, context, device, key_sizes[key_type], key_orders[key_type], value_size);
    if (*err != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    s->key_type = key_type;
    s->key_bits = (unsigned)(8 * key_sizes[key_type]);
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

CLSCAN_API void clscan_sorter_release(clscan_sorter *s)
{
    if (!s)
        return;
    radix_engine_free(&s->engine);
    if (s->last_use)
        clReleaseEvent(s->last_use);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

CLSCAN_API cl_int clscan_sorter_set_key_bits(clscan_sorter *s, unsigned key_bits)
{
    static const char fn[] = "clscan_sorter_set_key_bits";
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: sorter is NULL", fn);
    const unsigned width = (unsigned)(8 * s->engine.key_size);
    if (s->key_type != CLSCAN_UINT32 && s->key_type != CLSCAN_UINT64 && key_bits != 0)
        return clscan_fail(CLSCAN_INVALID_KEY_BITS, "%s: only unsigned keys can be sorted by their low bits", fn);
    if (key_bits > width)
        return clscan_fail(CLSCAN_INVALID_KEY_BITS, "%s: %u bits; the keys have %u", fn, key_bits, width);
    pthread_mutex_lock(&s->lock);
    s->key_bits = key_bits ? key_bits : width;
    pthread_mutex_unlock(&s->lock);
    return CL_SUCCESS;
}

static cl_int validate(const char *fn, clscan_sorter *s, cl_command_queue queue, radix_job *j, cl_uint nwait,
                       const cl_event *wait)
{
    radix_engine *e = &s->engine;
    cl_int err;
    clscan_range ki, ko, vi, vo;
    if ((err = clscan_check_queue(fn, e->context, e->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, e->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (j->count > ALGO_MAX_COUNT)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: count %zu is above the limit 2^32 - 1", fn, j->count);
    if (e->value_size == 0 && (j->values_in || j->values_out))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: values given to a sorter of keys only", fn);
    if ((err = clscan_check_buffer(fn, e->context, j->keys_in, "keys_in", 0, j->keys_in_offset, j->count,
                                 e->key_size, &ki)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, e->context, j->keys_out, "keys_out", 1, j->keys_out_offset, j->count,
                                 e->key_size, &ko)) != CL_SUCCESS)
        return err;
    if (e->value_size &&
        ((err = clscan_check_buffer(fn, e->context, j->values_in, "values_in", 0, j->values_in_offset, j->count,
                                  e->value_size, &vi)) != CL_SUCCESS ||
         (err = clscan_check_buffer(fn, e->context, j->values_out, "values_out", 1, j->values_out_offset, j->count,
                                  e->value_size, &vo)) != CL_SUCCESS))
        return err;
    /* In place: each output the same bytes as its input; no other overlap. */
    const int keys_same = clscan_overlap(&ki, &ko);
    if (keys_same == 2)
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: keys_in and keys_out overlap without being the same", fn);
    j->in_place = keys_same == 1;
    if (e->value_size) {
        const int values_same = clscan_overlap(&vi, &vo);
        if (values_same == 2)
            return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: values_in and values_out overlap without being the same", fn);
        j->in_place |= values_same == 1;
        if ((err = clscan_check_disjoint(fn, &ko, "keys_out", &vo, "values_out")) != CL_SUCCESS ||
            (err = clscan_check_disjoint(fn, &ko, "keys_out", &vi, "values_in")) != CL_SUCCESS ||
            (err = clscan_check_disjoint(fn, &vo, "values_out", &ki, "keys_in")) != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_sort_enqueue(clscan_sorter *s, cl_command_queue queue,
                                      cl_mem keys_in, size_t keys_in_offset, cl_mem keys_out, size_t keys_out_offset,
                                      cl_mem values_in, size_t values_in_offset,
                                      cl_mem values_out, size_t values_out_offset, size_t count,
                                      cl_uint nwait, const cl_event *wait, cl_event *event)
{
    static const char fn[] = "clscan_sort_enqueue";
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: sorter is NULL", fn);
    radix_job j = {keys_in, keys_out, keys_in_offset, keys_out_offset, values_in, values_out, values_in_offset,
                   values_out_offset, NULL, 0, count, 0, ~(cl_ulong)0, 0};
    cl_int err = validate(fn, s, queue, &j, nwait, wait);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&s->lock);
    j.bits = s->key_bits;
    if (count)
        err = radix_engine_reserve(&s->engine, &j);
    clscan_chain c;
    if (err == CL_SUCCESS && (err = clscan_chain_begin(&c, queue, nwait, wait, s->last_use, 1)) == CL_SUCCESS) {
        cl_mem keys;
        size_t keys_offset;
        err = count ? radix_engine_run(&s->engine, &c, &j, &keys, &keys_offset) : clscan_chain_marker(&c);
        clscan_chain_end(&c, err, event, &s->last_use);
    }
    pthread_mutex_unlock(&s->lock);
    return err;
}
