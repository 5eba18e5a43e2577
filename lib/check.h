/* Argument checks shared by every public function that enqueues (check.c).  Each records a
 * message naming fn and what is wrong, and returns a specific status; none enqueues anything. */
#ifndef CLSCAN_CHECK_H
#define CLSCAN_CHECK_H

#include "error.h"

/* The queue is valid and belongs to context and device. */
cl_int clscan_check_queue(const char *fn, cl_context context, cl_device_id device, cl_command_queue queue);
/* n and list agree, and every event is valid and of context. */
cl_int clscan_check_wait_list(const char *fn, cl_context context, cl_uint n, const cl_event *list);

/* Where a checked range lies: the buffer it is carved from (itself unless a sub-buffer), and
 * its first and end byte there. */
typedef struct clscan_range {
    cl_mem root;
    size_t begin, end;
} clscan_range;
/* mem is a buffer of context holding elements [offset, offset + count) of esize bytes, and may be
 * read (written 0) or written (1) by kernels; fills *range. */
cl_int clscan_check_buffer(const char *fn, cl_context context, cl_mem mem, const char *what, int written,
                           size_t offset, size_t count, size_t esize, clscan_range *range);
/* 0: disjoint (or one is empty); 1: the same bytes; 2: a partial overlap. */
int clscan_overlap(const clscan_range *a, const clscan_range *b);
/* CL_MEM_COPY_OVERLAP if the two share any byte. */
cl_int clscan_check_disjoint(const char *fn, const clscan_range *a, const char *what_a, const clscan_range *b,
                             const char *what_b);
/* CL_MEM_COPY_OVERLAP if the two overlap without being the same bytes (the same: in place). */
cl_int clscan_check_same_or_disjoint(const char *fn, const clscan_range *a, const char *what_a,
                                     const clscan_range *b, const char *what_b);

/* Elements of a 2-D array from its first row's start to its last row's end: (rows - 1) * pitch
 * + cols for rows, cols > 0 and pitch >= cols; SIZE_MAX when that overflows. */
size_t clscan_pitched_extent(size_t rows, size_t cols, size_t pitch);

#endif
