/* This thread's message of the last failure of a clscan_mpi function. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char message[4096];

cl_int clscan_mpi_fail(cl_int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return code;
}

cl_int clscan_mpi_fail_core(const char *fn, cl_int code)
{
    return clscan_mpi_fail(code, "%s: %s", fn, clscan_last_error());
}

cl_int clscan_mpi_fail_mpi(const char *fn, const char *call, int rc)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    return clscan_mpi_fail(CLSCAN_MPI_FAILED, "%s: %s failed: %s", fn, call, text);
}

CLSCAN_MPI_API const char *clscan_mpi_last_error(void)
{
    return message;
}
