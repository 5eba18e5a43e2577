/* The sorter handle, shared by radix_sort.c (creation, settings, the sorts of arrays and
 * segments) and axis_sort.c (the sorts along an axis). */
#ifndef CLSCAN_SORTER_H
#define CLSCAN_SORTER_H

#include "algo.h"

struct clscan_sorter {
    radix_engine engine;
    clscan_type key_type;
    unsigned begin_bit, end_bit;   /* bits sorted by: [0, the key's width), or fewer (unsigned keys) */
    int descending;
    pthread_mutex_t lock;          /* kernels' arguments, scratch, last_use, the settings */
    cl_event last_use;
    /* clscan_axis_sort_enqueue's columns: the keys and values transposed (columns as rows) */
    cl_mem axis_keys, axis_values;
    size_t axis_keys_cap, axis_values_cap;
};

#endif
