/* The environment variables the library reads, all in environment.c:
 *   CLSCAN_DEVICE      the default device (clscan_default_device), for users;
 *   CLSCAN_KERNEL_DIR  directories to read the kernels' OpenCL C files from instead of the
 *                      embedded copies, for kernel development;
 *   CLSCAN_DEVELOP     developer switches: overrides of what the library decides from the
 *                      device, for kernel development and the tests (doc/hacking.md);
 *   CLSCAN_CACHE_DIR   the directory of the on-disk program cache (disk_cache.h), with
 *                      XDG_CACHE_HOME and HOME for its default.
 * Each is read once per call that needs it (a plan, a handle, a default device), never in a
 * loop; the cache's directory once per process. */
#ifndef CLSCAN_ENVIRONMENT_H
#define CLSCAN_ENVIRONMENT_H

#include "error.h"

/* The developer switches of CLSCAN_DEVELOP; negative or 0 where not given. */
typedef struct clscan_dev_options {
    int policy;              /* -1 the device's; 0 CPU style; 1 GPU style */
    clscan_tiles tiles;      /* what CLSCAN_TILES_AUTO means (AUTO: the device's choice) */
    clscan_primitive primitive;
    int status;              /* -1 the plan's choice; else a clscan_status_layout (variant.h) */
    long window_polls;       /* -1: the variant's */
    long spin_limit;         /* -1: the variant's */
    int host_copy;           /* 1: clscan_host copies even where the device shares host memory */
    long compact_wg, compact_items;   /* -1: the compactor's blocks of its device policy */
    int compact_offsets;     /* -1 the compactor's choice; 0 a scan of the counts; 1 the count kernel's last block */
    int radix_passes;        /* -1 the device's; 0 histogram, scan and scatter per pass; 1 onesweep */
    long radix_items;        /* -1 the device's; else keys per work-item of the ranking scatter */
    int bucket_offsets;      /* -1 the bucketer's choice; 0 a pass over the sorted keys; 1 a search per bucket */
    int runs_pass;           /* -1 the plan's choice; 0 heads counted first; 1 folded through scratch (CPUs' reduce-by-key) */
    char build[512];         /* extra build options appended to every program's */
    char kernel_dir[4096];   /* CLSCAN_KERNEL_DIR; empty: the embedded kernel files */
} clscan_dev_options;

/* Reads CLSCAN_DEVELOP and CLSCAN_KERNEL_DIR into *dev (once per plan or handle);
 * CL_INVALID_VALUE with a message naming fn for a malformed value. */
cl_int clscan_env_dev_options(const char *fn, clscan_dev_options *dev);
/* CLSCAN_DEVICE, or NULL when unset or empty. */
const char *clscan_env_device(void);
/* The directory of the on-disk program cache, decided at the first call (thread-safe) and kept
 * for the process: CLSCAN_CACHE_DIR if set and not empty; none (NULL) if set but empty;
 * otherwise $XDG_CACHE_HOME/clscan (an absolute XDG_CACHE_HOME, as the XDG specification
 * asks), else $HOME/.cache/clscan; NULL where none of them gives a path. */
const char *clscan_env_cache_dir(void);

#endif
