/* Programs and kernels (program.c): a program is joined from kernel files (source.h) and built
 * with its defines, once per (context, device, build options, source): a second plan or handle
 * that needs the same program takes the one built for the first.  One builder for the scans and
 * the algorithms. */
#ifndef CLSCAN_PROGRAM_H
#define CLSCAN_PROGRAM_H

#include "device.h"
#include "environment.h"

/* The program of text (may be NULL) and the NULL-terminated kernel files, built for device with
 * defines (and -cl-std=CL1.2 where the device takes it, and the developer's extra options): a
 * new reference, from the cache or a new build.  A failed build's compiler log goes into the
 * error message; messages name fn, the public function that needs the program. */
cl_int clscan_program_get(const char *fn, cl_context context, cl_device_id device, const clscan_device_info *info,
                          const clscan_dev_options *dev, const char *text, const char *const *files,
                          const char *defines, cl_program *program);
/* Drops the cache's references (clscan_cache_clear). */
void clscan_program_cache_clear(void);

/* Creates kernel `name` of program and checks that the device runs it with wg work-items per
 * work-group (CL_INVALID_WORK_GROUP_SIZE if not: the caller may try fewer) within its local
 * memory (CLSCAN_DEVICE_NOT_SUPPORTED if not).  *kernel is NULL on failure. */
cl_int clscan_kernel_create(const char *fn, cl_program program, cl_device_id device, const clscan_device_info *info,
                            const char *name, size_t wg, cl_kernel *kernel);

#endif
