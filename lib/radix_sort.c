/* clscan_sorter: stable radix sort, ascending or descending, of keys of a clscan_type (1, 2, 4
 * or 8 bytes), by all their bits or a range of them, with optional values, of a whole array, of
 * each segment of it (radix_segmented.c), on the radix engine (radix_engine.c); the sorts along
 * an axis are in axis_sort.c. */
#include "sorter.h"

#include <stdlib.h>

/* Indexed by clscan_type: INT32, UINT32, INT64, UINT64, FLOAT, DOUBLE, INT8, UINT8, INT16, UINT16. */
static const size_t key_sizes[] = {4, 4, 8, 8, 4, 8, 1, 1, 2, 2};
/* The order transform of each (cl/radix/keys.cl): 0 unsigned, 1 signed, 2 float. */
static const int key_orders[] = {1, 0, 1, 0, 2, 2, 1, 0, 1, 0};
#define LAST_KEY_TYPE CLSCAN_UINT16

static int unsigned_keys(clscan_type t)
{
    return t == CLSCAN_UINT8 || t == CLSCAN_UINT16 || t == CLSCAN_UINT32 || t == CLSCAN_UINT64;
}

CLSCAN_API clscan_sorter *clscan_sorter_create(cl_context context, cl_device_id device, clscan_type key_type,
                                               size_t value_size, cl_int *errcode_ret)
{
    static const char fn[] = "clscan_sorter_create";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    if ((unsigned)key_type > (unsigned)LAST_KEY_TYPE) {
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
    s->end_bit = (unsigned)(8 * key_sizes[key_type]);
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
    if (s->axis_keys)
        clReleaseMemObject(s->axis_keys);
    if (s->axis_values)
        clReleaseMemObject(s->axis_values);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Checks and sets the range [begin, end) of the bits sorted by. */
static cl_int set_range(const char *fn, clscan_sorter *s, unsigned begin, unsigned end)
{
    const unsigned width = (unsigned)(8 * s->engine.key_size);
    if (begin >= end || end > width)
        return clscan_fail(CLSCAN_INVALID_KEY_BITS, "%s: bits [%u, %u) are not a range of the keys' %u bits", fn,
                           begin, end, width);
    if (!unsigned_keys(s->key_type) && (begin != 0 || end != width))
        return clscan_fail(CLSCAN_INVALID_KEY_BITS, "%s: only unsigned keys can be sorted by some of their bits", fn);
    pthread_mutex_lock(&s->lock);
    s->begin_bit = begin;
    s->end_bit = end;
    pthread_mutex_unlock(&s->lock);
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_sorter_set_key_bits(clscan_sorter *s, unsigned key_bits)
{
    static const char fn[] = "clscan_sorter_set_key_bits";
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: sorter is NULL", fn);
    const unsigned width = (unsigned)(8 * s->engine.key_size);
    if (!unsigned_keys(s->key_type) && key_bits != 0)
        return clscan_fail(CLSCAN_INVALID_KEY_BITS, "%s: only unsigned keys can be sorted by their low bits", fn);
    if (key_bits > width)
        return clscan_fail(CLSCAN_INVALID_KEY_BITS, "%s: %u bits; the keys have %u", fn, key_bits, width);
    return set_range(fn, s, 0, key_bits ? key_bits : width);
}

CLSCAN_API cl_int clscan_sorter_set_key_range(clscan_sorter *s, unsigned begin_bit, unsigned end_bit)
{
    static const char fn[] = "clscan_sorter_set_key_range";
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: sorter is NULL", fn);
    return set_range(fn, s, begin_bit, end_bit);
}

CLSCAN_API cl_int clscan_sorter_set_descending(clscan_sorter *s, int descending)
{
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "clscan_sorter_set_descending: sorter is NULL");
    pthread_mutex_lock(&s->lock);
    s->descending = descending != 0;
    pthread_mutex_unlock(&s->lock);
    return CL_SUCCESS;
}

/* The checks of both enqueues; *outputs (if not NULL) gets the ranges of keys_out and values_out. */
static cl_int validate(const char *fn, clscan_sorter *s, cl_command_queue queue, radix_job *j, cl_uint nwait,
                       const cl_event *wait, clscan_range outputs[2])
{
    radix_engine *e = &s->engine;
    cl_int err;
    clscan_range ki, ko, vi, vo = {0};
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
    if (outputs) {
        outputs[0] = ko;
        outputs[1] = vo;
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
    radix_job j = {.keys_in = keys_in, .keys_out = keys_out, .keys_in_offset = keys_in_offset,
                   .keys_out_offset = keys_out_offset, .values_in = values_in, .values_out = values_out,
                   .values_in_offset = values_in_offset, .values_out_offset = values_out_offset, .count = count,
                   .clamp = ~(cl_ulong)0};
    cl_int err = validate(fn, s, queue, &j, nwait, wait, NULL);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&s->lock);
    j.begin = s->begin_bit;
    j.bits = s->end_bit;
    j.descending = s->descending;
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

CLSCAN_API cl_int clscan_segmented_sort_enqueue(clscan_sorter *s, cl_command_queue queue,
                                                cl_mem keys_in, size_t keys_in_offset,
                                                cl_mem keys_out, size_t keys_out_offset,
                                                cl_mem values_in, size_t values_in_offset,
                                                cl_mem values_out, size_t values_out_offset, size_t count,
                                                clscan_type offsets_type, cl_mem offsets, size_t offsets_offset,
                                                size_t nsegments, cl_uint nwait, const cl_event *wait,
                                                cl_event *event)
{
    static const char fn[] = "clscan_segmented_sort_enqueue";
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: sorter is NULL", fn);
    if (offsets_type != CLSCAN_UINT32 && offsets_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: offsets_type %d is not CLSCAN_UINT32 or CLSCAN_UINT64", fn,
                           (int)offsets_type);
    /* offsets[0] = 0 and offsets[nsegments] = count cannot both hold: no segment would hold the keys. */
    if (nsegments == 0 && count > 0)
        return clscan_fail(CL_INVALID_VALUE, "%s: %zu keys in no segments (nsegments 0 needs count 0)", fn, count);
    radix_job j = {.keys_in = keys_in, .keys_out = keys_out, .keys_in_offset = keys_in_offset,
                   .keys_out_offset = keys_out_offset, .values_in = values_in, .values_out = values_out,
                   .values_in_offset = values_in_offset, .values_out_offset = values_out_offset, .count = count,
                   .clamp = ~(cl_ulong)0};
    clscan_range out[2], o;
    cl_int err = validate(fn, s, queue, &j, nwait, wait, out);
    if (err != CL_SUCCESS)
        return err;
    radix_segments g = {.offsets = offsets, .offsets_offset = offsets_offset, .wide = offsets_type == CLSCAN_UINT64,
                        .nsegments = nsegments};
    if (count) {   /* (without keys no offsets are read) */
        if (nsegments == SIZE_MAX)
            return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: nsegments + 1 offsets overflow", fn);
        if ((err = clscan_check_buffer(fn, s->engine.context, offsets, "offsets", 0, offsets_offset, nsegments + 1,
                                       g.wide ? 8 : 4, &o)) != CL_SUCCESS ||
            (err = clscan_check_disjoint(fn, &o, "offsets", &out[0], "keys_out")) != CL_SUCCESS ||
            (s->engine.value_size &&
             (err = clscan_check_disjoint(fn, &o, "offsets", &out[1], "values_out")) != CL_SUCCESS))
            return err;
    }
    pthread_mutex_lock(&s->lock);
    j.begin = s->begin_bit;
    j.bits = s->end_bit;
    j.descending = s->descending;
    if (count)
        err = radix_engine_reserve(&s->engine, &j);
    if (count && err == CL_SUCCESS)
        err = radix_engine_reserve_segments(&s->engine, &j, &g);
    clscan_chain c;
    if (err == CL_SUCCESS && (err = clscan_chain_begin(&c, queue, nwait, wait, s->last_use, 1)) == CL_SUCCESS) {
        err = count ? radix_engine_run_segmented(&s->engine, &c, &j, &g) : clscan_chain_marker(&c);
        clscan_chain_end(&c, err, event, &s->last_use);
    }
    pthread_mutex_unlock(&s->lock);
    return err;
}
