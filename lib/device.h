/* What the library needs to know of a device (device.c). */
#ifndef CLSCAN_DEVICE_H
#define CLSCAN_DEVICE_H

#include "error.h"

typedef struct clscan_device_info {
    cl_device_type type;
    size_t max_work_group_size;
    cl_ulong local_mem_size;
    cl_uint compute_units;
    int has_fp64;
    int has_int64_atomics; /* cl_khr_int64_base_atomics */
    int opencl_c_1_2;      /* accepts -cl-std=CL1.2 */
    int nvidia_ptx;        /* NVIDIA's own OpenCL on an NVIDIA GPU: compiles inline PTX */
    char name[256];
} clscan_device_info;

/* The device's limits; CL_INVALID_DEVICE if it is not a device, the query's status if a query
 * fails (nothing is guessed). */
cl_int clscan_query_device(cl_device_id device, clscan_device_info *info);
/* Checks that context is a context, device a device of it (fn names the caller in messages),
 * and fills *info. */
cl_int clscan_check_device(const char *fn, cl_context context, cl_device_id device, clscan_device_info *info);

#endif
