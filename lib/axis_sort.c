/* clscan_axis_sort_enqueue: the stable radix sort of every row or every column of a row-major
 * 2-D array, on the sorter's engine: short lines on GPUs a work-item each in the arrays, longer
 * rows as uniform segments (radix_segmented.c), longer columns transposed into the sorter's
 * scratch, sorted there as rows and transposed back. */
#include "sorter.h"

/* clscan_axis_sort_enqueue's checks of the buffers (rows, cols > 0): the extents of the four
 * arrays and their overlaps (in place: an output the same array as its input); *in_place. */
static cl_int axis_sort_buffers(const char *fn, clscan_sorter *s, const radix_job *j, size_t in_ext,
                                size_t out_ext, int *in_place)
{
    radix_engine *e = &s->engine;
    clscan_range ki, ko, vi, vo = {0};
    cl_int err;
    if ((err = clscan_check_buffer(fn, e->context, j->keys_in, "keys_in", 0, j->keys_in_offset, in_ext, e->key_size,
                                   &ki)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, e->context, j->keys_out, "keys_out", 1, j->keys_out_offset, out_ext,
                                   e->key_size, &ko)) != CL_SUCCESS)
        return err;
    if (e->value_size &&
        ((err = clscan_check_buffer(fn, e->context, j->values_in, "values_in", 0, j->values_in_offset, in_ext,
                                    e->value_size, &vi)) != CL_SUCCESS ||
         (err = clscan_check_buffer(fn, e->context, j->values_out, "values_out", 1, j->values_out_offset, out_ext,
                                    e->value_size, &vo)) != CL_SUCCESS))
        return err;
    /* The same first and last bytes of arrays of the same shape: the same pitch too. */
    const int keys_same = clscan_overlap(&ki, &ko);
    if (keys_same == 2)
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: keys_in and keys_out overlap without being the same array (the "
                           "same buffer, offset and row pitch)", fn);
    *in_place = keys_same == 1;
    if (e->value_size) {
        const int values_same = clscan_overlap(&vi, &vo);
        if (values_same == 2)
            return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: values_in and values_out overlap without being the same "
                               "array (the same buffer, offset and row pitch)", fn);
        *in_place |= values_same == 1;
        if ((err = clscan_check_disjoint(fn, &ko, "keys_out", &vo, "values_out")) != CL_SUCCESS ||
            (err = clscan_check_disjoint(fn, &ko, "keys_out", &vi, "values_in")) != CL_SUCCESS ||
            (err = clscan_check_disjoint(fn, &vo, "values_out", &ki, "keys_in")) != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

/* The array sorted along an axis (rows, cols > 0). */
typedef struct axis_shape {
    int columns;
    size_t rows, cols, in_pitch, out_pitch;
} axis_shape;

/* The lines sorted as segments: rows at the caller's pitches, columns as the rows of their
 * transposed copy. */
static radix_segments axis_segments(const axis_shape *a)
{
    if (a->columns)
        return (radix_segments){.nsegments = a->cols, .length = a->rows, .in_pitch = a->rows, .out_pitch = a->rows};
    return (radix_segments){.nsegments = a->rows, .length = a->cols, .in_pitch = a->in_pitch,
                            .out_pitch = a->out_pitch};
}

/* The lines in the caller's arrays, for lines of up to lines_max keys (a work-item each). */
static radix_lines axis_lines(const axis_shape *a)
{
    if (a->columns)
        return (radix_lines){.nlines = a->cols, .length = a->rows, .in_line = 1, .in_step = a->in_pitch,
                             .out_line = 1, .out_step = a->out_pitch};
    return (radix_lines){.nlines = a->rows, .length = a->cols, .in_line = a->in_pitch, .in_step = 1,
                         .out_line = a->out_pitch, .out_step = 1};
}

/* How an axis sort runs, decided once for its scratch and its commands: lines of one key stored
 * contiguously (one row along columns, a column of pitch 1 along rows) are sorted already (a
 * copy); lines of up to lines_max keys take a work-item each; longer rows are uniform segments;
 * longer columns are sorted transposed. */
typedef enum axis_path { AXIS_COPY, AXIS_LINES, AXIS_ROWS, AXIS_COLUMNS } axis_path;

static axis_path axis_path_of(const radix_engine *e, const axis_shape *a)
{
    if (a->columns ? a->rows == 1 : a->cols == 1 && a->in_pitch == 1 && a->out_pitch == 1)
        return AXIS_COPY;
    if ((a->columns ? a->rows : a->cols) <= e->lines_max)
        return AXIS_LINES;
    return a->columns ? AXIS_COLUMNS : AXIS_ROWS;
}

/* The commands of a checked axis sort (the lock held, scratch reserved), by its path.  Lines
 * (GPUs): a work-item each, in the caller's arrays.  Rows: the segmented sort with uniform
 * segments g, read and written at the caller's pitches.  Columns: transposed into the sorter's
 * scratch (columns as rows: coalesced both ways), sorted there in place as rows, transposed back. */
static cl_int axis_sort_commands(clscan_sorter *s, clscan_chain *c, const radix_job *j, const axis_shape *a)
{
    radix_engine *e = &s->engine;
    const radix_segments g = axis_segments(a);
    const radix_lines l = axis_lines(a);
    const size_t rows = a->rows, cols = a->cols, in_pitch = a->in_pitch, out_pitch = a->out_pitch;
    cl_int err = CL_SUCCESS;
    switch (axis_path_of(e, a)) {
    case AXIS_COPY: return radix_engine_copy(e, c, j);
    case AXIS_LINES: return radix_engine_run_lines(e, c, j, &l);
    case AXIS_ROWS: return radix_engine_run_segmented(e, c, j, &g);
    case AXIS_COLUMNS: break;
    }
    radix_job t = *j;
    t.keys_in = t.keys_out = s->axis_keys;
    t.values_in = t.values_out = j->values_in ? s->axis_values : NULL;
    t.keys_in_offset = t.keys_out_offset = t.values_in_offset = t.values_out_offset = 0;
    t.in_place = 1;
    if ((err = radix_engine_transpose(e, c, 0, j->keys_in, j->keys_in_offset, in_pitch, s->axis_keys, 0, rows, rows,
                                      cols)) != CL_SUCCESS ||
        (j->values_in && (err = radix_engine_transpose(e, c, 1, j->values_in, j->values_in_offset, in_pitch,
                                                       s->axis_values, 0, rows, rows, cols)) != CL_SUCCESS) ||
        (err = radix_engine_run_segmented(e, c, &t, &g)) != CL_SUCCESS ||
        (err = radix_engine_transpose(e, c, 0, s->axis_keys, 0, rows, j->keys_out, j->keys_out_offset, out_pitch,
                                      cols, rows)) != CL_SUCCESS)
        return err;
    if (j->values_in)
        err = radix_engine_transpose(e, c, 1, s->axis_values, 0, rows, j->values_out, j->values_out_offset, out_pitch,
                                     cols, rows);
    return err;
}

/* The scratch of a checked axis sort (rows, cols > 0), the lock held. */
static cl_int axis_sort_reserve(clscan_sorter *s, const radix_job *j, const axis_shape *a, size_t in_ext)
{
    radix_engine *e = &s->engine;
    const radix_segments g = axis_segments(a);
    const radix_lines l = axis_lines(a);
    const axis_path path = axis_path_of(e, a);
    const int columns = path == AXIS_COLUMNS;
    if (path == AXIS_COPY)
        return CL_SUCCESS;
    if (path == AXIS_LINES)
        return radix_engine_reserve_lines(e, j, &l);
    /* Rows in place sort from a copy of the whole input, gaps included, when one pass does it
     * (radix_engine_run_segmented); columns sort the transposed copy in place. */
    radix_job r = *j;
    r.in_place = columns || j->in_place;
    if (!columns && j->in_place && r.count < in_ext)
        r.count = in_ext;
    cl_int err = radix_engine_reserve(e, &r);
    if (err == CL_SUCCESS)
        err = radix_engine_reserve_segments(e, j, &g);
    if (err == CL_SUCCESS && columns)
        err = clscan_scratch_grow(e->context, &s->axis_keys, &s->axis_keys_cap, j->count * e->key_size);
    if (err == CL_SUCCESS && columns && e->value_size)
        err = clscan_scratch_grow(e->context, &s->axis_values, &s->axis_values_cap, j->count * e->value_size);
    return err;
}

CLSCAN_API cl_int clscan_axis_sort_enqueue(clscan_sorter *s, cl_command_queue queue, clscan_axis axis,
                                           cl_mem keys_in, size_t keys_in_offset, size_t in_row_pitch,
                                           cl_mem keys_out, size_t keys_out_offset, size_t out_row_pitch,
                                           cl_mem values_in, size_t values_in_offset,
                                           cl_mem values_out, size_t values_out_offset, size_t rows, size_t cols,
                                           cl_uint nwait, const cl_event *wait, cl_event *event)
{
    static const char fn[] = "clscan_axis_sort_enqueue";
    if (!s)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: sorter is NULL", fn);
    if (axis != CLSCAN_ALONG_ROWS && axis != CLSCAN_ALONG_COLUMNS)
        return clscan_fail(CLSCAN_INVALID_AXIS, "%s: axis %d is not CLSCAN_ALONG_ROWS or CLSCAN_ALONG_COLUMNS", fn,
                           (int)axis);
    if (in_row_pitch < cols || out_row_pitch < cols)
        return clscan_fail(CLSCAN_INVALID_PITCH, "%s: a row pitch (in %zu, out %zu) is less than cols (%zu)", fn,
                           in_row_pitch, out_row_pitch, cols);
    radix_engine *e = &s->engine;
    cl_int err;
    if ((err = clscan_check_queue(fn, e->context, e->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, e->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (e->value_size == 0 && (values_in || values_out))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: values given to a sorter of keys only", fn);
    const int empty = rows == 0 || cols == 0;
    if (!empty && cols > ALGO_MAX_COUNT / rows)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: %zu x %zu keys: above the limit 2^32 - 1", fn, rows, cols);
    const size_t in_ext = empty ? 0 : clscan_pitched_extent(rows, cols, in_row_pitch);
    const size_t out_ext = empty ? 0 : clscan_pitched_extent(rows, cols, out_row_pitch);
    if (in_ext == SIZE_MAX || out_ext == SIZE_MAX)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: %zu rows of pitch %zu overflow", fn, rows,
                           in_ext == SIZE_MAX ? in_row_pitch : out_row_pitch);
    radix_job j = {.keys_in = keys_in, .keys_out = keys_out, .keys_in_offset = keys_in_offset,
                   .keys_out_offset = keys_out_offset, .values_in = values_in, .values_out = values_out,
                   .values_in_offset = values_in_offset, .values_out_offset = values_out_offset,
                   .count = rows * cols, .clamp = ~(cl_ulong)0};
    if (!empty && (err = axis_sort_buffers(fn, s, &j, in_ext, out_ext, &j.in_place)) != CL_SUCCESS)
        return err;
    const int columns = axis == CLSCAN_ALONG_COLUMNS;
    pthread_mutex_lock(&s->lock);
    j.begin = s->begin_bit;
    j.bits = s->end_bit;
    j.descending = s->descending;
    const axis_shape a = {columns, rows, cols, in_row_pitch, out_row_pitch};
    if (!empty)
        err = axis_sort_reserve(s, &j, &a, in_ext);
    clscan_chain c;
    if (err == CL_SUCCESS && (err = clscan_chain_begin(&c, queue, nwait, wait, s->last_use, 1)) == CL_SUCCESS) {
        err = empty ? clscan_chain_marker(&c)
                    : axis_sort_commands(s, &c, &j, &a);
        clscan_chain_end(&c, err, event, &s->last_use);
    }
    pthread_mutex_unlock(&s->lock);
    return err;
}
