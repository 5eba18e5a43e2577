/* The on-disk cache of program binaries (disk_cache.c): a program built in one process is kept
 * as the driver's binary in a file, so that the next process that needs it loads the binary
 * instead of compiling the OpenCL C again.  program.c asks it before building from source and
 * fills it after.  It never makes a call fail: whatever goes wrong (no directory, a corrupt,
 * truncated or foreign file, a binary the driver rejects, a full disk) costs a build from
 * source, nothing else.
 *
 * The directory: clscan_env_cache_dir() (CLSCAN_CACHE_DIR; empty turns the cache off).  One
 * file per program, named by a hash of its key; the key (the platform's name and version, the
 * device's name, vendor and version, the driver's version, the build options and the whole
 * source) is also stored in the file and compared when it is read, so a hash collision or
 * another program's file is never taken for this one.  Files are written to a temporary file
 * in the same directory and renamed over the old one, so that readers see a whole file or
 * none, with any number of processes and threads at once. */
#ifndef CLSCAN_DISK_CACHE_H
#define CLSCAN_DISK_CACHE_H

#include "error.h"

/* The largest cache file read, and so the largest binary stored. */
#define CLSCAN_DISK_CACHE_MAX_FILE ((size_t)64 << 20)

typedef struct clscan_disk_key clscan_disk_key;

/* The key of the program of source built with options for device, or NULL where the cache is
 * off or the device cannot be asked (nothing to free then). */
clscan_disk_key *clscan_disk_key_make(cl_device_id device, const char *source, const char *options);
void clscan_disk_key_free(clscan_disk_key *key);

/* The program built from the binary stored under key, or NULL (no file, a file that is not
 * right for key, a binary that the driver rejects).  options are the build's, passed to
 * clBuildProgram as OpenCL requires of a program made from a binary. */
cl_program clscan_disk_cache_load(const clscan_disk_key *key, cl_context context, cl_device_id device,
                                  const char *options);
/* Stores the binary of program (built for device) under key; failures are ignored. */
void clscan_disk_cache_store(const clscan_disk_key *key, cl_program program, cl_device_id device);

#endif
