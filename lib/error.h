/* Status codes and this thread's last failure message (error.c).  Every internal function that
 * fails records a message naming what failed and returns the status; the public function
 * returns it as it is. */
#ifndef CLSCAN_ERROR_H
#define CLSCAN_ERROR_H

#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "clscan.h"

#if defined(__GNUC__)
#define CLSCAN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLSCAN_PRINTF(f, a)
#endif

/* Records the message for clscan_last_error() and returns code. */
cl_int clscan_fail(cl_int code, const char *fmt, ...) CLSCAN_PRINTF(2, 3);
/* Prefixes this thread's last message with "fn: " (a public function reporting the failure of
 * another it called) and returns code. */
cl_int clscan_fail_in(const char *fn, cl_int code);
/* The status to report when a query about an argument failed with err: err itself when the
 * implementation ran out of memory or resources (the argument may be fine), else `invalid`. */
static inline cl_int clscan_query_status(cl_int err, cl_int invalid)
{
    return err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES ? err : invalid;
}
/* The same, with text (e.g. a compiler log) appended after the message. */
cl_int clscan_fail_with_text(cl_int code, const char *text, const char *fmt, ...) CLSCAN_PRINTF(3, 4);

#endif
