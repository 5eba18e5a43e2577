/* The fault-injection shim (tests/fault/shim.c), as the test drivers see it.
 *
 * The shim is a shared object loaded with LD_PRELOAD.  It wraps the OpenCL entry points that
 * libclscan calls and malloc, calloc, realloc and free, and forwards every call to the real
 * function.  A call counts as the library's when its return address lies in libclscan.so's
 * text; calls from anywhere else (the test, Check, PoCL, the ICD loader, the C library) are
 * never counted and never failed.
 *
 * Failable calls are every wrapped call except clRetain* and clRelease* (a failed release is
 * nothing the library could handle) and free.  Information queries (clGet*Info,
 * clGetPlatformIDs, clGetDeviceIDs) are failable: the library must cope with them failing too.
 * The chosen failable call fails the way the API lets it fail and (but for clBuildProgram) is not
 * forwarded:
 *   clEnqueue*, clFinish                     CL_OUT_OF_RESOURCES
 *   clCreateBuffer                           NULL, *errcode_ret = CL_MEM_OBJECT_ALLOCATION_FAILURE
 *   other clCreate*                          NULL, *errcode_ret = CL_OUT_OF_HOST_MEMORY
 *   clBuildProgram                           CL_BUILD_PROGRAM_FAILURE, after the build (so that
 *                                            the library reads the build log)
 *   clSetKernelArg, clGet*                   CL_OUT_OF_HOST_MEMORY
 *   malloc, calloc, realloc                  NULL, errno = ENOMEM (realloc leaves the block)
 *
 * Books: for every OpenCL object the library creates, retains or releases, the net number of
 * references the library holds (creates and retains minus releases; an event a clEnqueue*
 * returns counts as a create), and every heap block the library allocated and nobody has freed
 * yet.  A run (fault_shim_api.run_begin) marks what changes from then on; run_check reports the
 * objects whose net changed during the run and the blocks allocated during the run that are
 * still live.  The driver hands references over with adopt when the library gives it one (the
 * event of an enqueue), since the driver releases those itself.
 *
 * The driver finds the shim with dlsym(RTLD_DEFAULT, FAULT_SHIM_ENTRY); without the shim the
 * symbol is absent. */
#ifndef CLSCAN_TESTS_FAULT_SHIM_H
#define CLSCAN_TESTS_FAULT_SHIM_H

#include <stddef.h>

#define FAULT_SHIM_ENTRY "fault_shim_get"
#define FAULT_SHIM_VERSION 1

typedef struct fault_shim_api {
    int version;
    /* Whether libclscan.so was found among the loaded objects (nothing is counted otherwise). */
    int (*attached)(void);
    /* Counts the library's failable calls from now on (of function `name` only, when name is
     * not NULL) and fails the nth of them; nth 0 fails none.  Clears the fired flag. */
    void (*arm)(const char *name, long nth);
    /* The failable calls counted since arm. */
    long (*counted)(void);
    /* Whether the armed call was reached and failed, and which function it was (NULL: none). */
    const char *(*fired)(void);
    /* Every call of the library since the process started: failable ones, and all. */
    long (*total_failable)(void);
    long (*total_calls)(void);

    /* Books.  run_begin starts a run; run_check writes one line per problem of the run into buf
     * (reference counts changed or gone negative, heap blocks leaked, with their sizes) and
     * returns the number of problems; it also forgets the objects whose net is zero. */
    void (*run_begin)(void);
    int (*run_check)(char *buf, size_t size);
    /* Every object with a non-zero net and every live heap block of the library, whatever the
     * run: for the end, when the library should hold nothing. */
    int (*all_check)(char *buf, size_t size);
    /* The driver took over one reference the library handed out (e.g. *event of an enqueue). */
    void (*adopt)(const void *object);
} fault_shim_api;

typedef const fault_shim_api *(*fault_shim_get_fn)(void);

#endif
