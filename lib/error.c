/* Status code names and this thread's last failure message. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Large enough for a compiler log of a failed build. */
static _Thread_local char last_error[16384];

static void vrecord(const char *text, const char *fmt, va_list ap)
{
    int n = vsnprintf(last_error, sizeof last_error, fmt, ap);
    if (n < 0)
        n = 0;
    if (text && (size_t)n < sizeof last_error)
        snprintf(last_error + n, sizeof last_error - (size_t)n, "\n%s", text);
}

cl_int clscan_fail(cl_int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(NULL, fmt, ap);
    va_end(ap);
    return code;
}

cl_int clscan_fail_with_text(cl_int code, const char *text, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(text, fmt, ap);
    va_end(ap);
    return code;
}

cl_int clscan_fail_in(const char *fn, cl_int code)
{
    const size_t n = strlen(fn), len = strlen(last_error);
    if (strncmp(last_error, fn, n) == 0 && last_error[n] == ':')
        return code;   /* it names fn already */
    const size_t keep = len + n + 2 < sizeof last_error ? len : sizeof last_error - n - 3;
    memmove(last_error + n + 2, last_error, keep);
    memcpy(last_error, fn, n);
    memcpy(last_error + n, ": ", 2);
    last_error[n + 2 + keep] = '\0';
    return code;
}

CLSCAN_API const char *clscan_last_error(void)
{
    return last_error;
}

#define NAME(c) case c: return #c
CLSCAN_API const char *clscan_error_string(cl_int code)
{
    switch (code) {
    NAME(CL_SUCCESS);
    NAME(CL_DEVICE_NOT_FOUND);
    NAME(CL_DEVICE_NOT_AVAILABLE);
    NAME(CL_COMPILER_NOT_AVAILABLE);
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAME(CL_OUT_OF_RESOURCES);
    NAME(CL_OUT_OF_HOST_MEMORY);
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE);
    NAME(CL_MEM_COPY_OVERLAP);
    NAME(CL_IMAGE_FORMAT_MISMATCH);
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    NAME(CL_BUILD_PROGRAM_FAILURE);
    NAME(CL_MAP_FAILURE);
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAME(CL_COMPILE_PROGRAM_FAILURE);
    NAME(CL_LINKER_NOT_AVAILABLE);
    NAME(CL_LINK_PROGRAM_FAILURE);
    NAME(CL_DEVICE_PARTITION_FAILED);
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    NAME(CL_INVALID_VALUE);
    NAME(CL_INVALID_DEVICE_TYPE);
    NAME(CL_INVALID_PLATFORM);
    NAME(CL_INVALID_DEVICE);
    NAME(CL_INVALID_CONTEXT);
    NAME(CL_INVALID_QUEUE_PROPERTIES);
    NAME(CL_INVALID_COMMAND_QUEUE);
    NAME(CL_INVALID_HOST_PTR);
    NAME(CL_INVALID_MEM_OBJECT);
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    NAME(CL_INVALID_IMAGE_SIZE);
    NAME(CL_INVALID_SAMPLER);
    NAME(CL_INVALID_BINARY);
    NAME(CL_INVALID_BUILD_OPTIONS);
    NAME(CL_INVALID_PROGRAM);
    NAME(CL_INVALID_PROGRAM_EXECUTABLE);
    NAME(CL_INVALID_KERNEL_NAME);
    NAME(CL_INVALID_KERNEL_DEFINITION);
    NAME(CL_INVALID_KERNEL);
    NAME(CL_INVALID_ARG_INDEX);
    NAME(CL_INVALID_ARG_VALUE);
    NAME(CL_INVALID_ARG_SIZE);
    NAME(CL_INVALID_KERNEL_ARGS);
    NAME(CL_INVALID_WORK_DIMENSION);
    NAME(CL_INVALID_WORK_GROUP_SIZE);
    NAME(CL_INVALID_WORK_ITEM_SIZE);
    NAME(CL_INVALID_GLOBAL_OFFSET);
    NAME(CL_INVALID_EVENT_WAIT_LIST);
    NAME(CL_INVALID_EVENT);
    NAME(CL_INVALID_OPERATION);
    NAME(CL_INVALID_GL_OBJECT);
    NAME(CL_INVALID_BUFFER_SIZE);
    NAME(CL_INVALID_MIP_LEVEL);
    NAME(CL_INVALID_GLOBAL_WORK_SIZE);
    NAME(CL_INVALID_PROPERTY);
    NAME(CL_INVALID_IMAGE_DESCRIPTOR);
    NAME(CL_INVALID_COMPILER_OPTIONS);
    NAME(CL_INVALID_LINKER_OPTIONS);
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT);
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    NAME(CLSCAN_INVALID_PLAN);
    NAME(CLSCAN_INVALID_OPERATOR);
    NAME(CLSCAN_INVALID_TYPE);
    NAME(CLSCAN_INVALID_KIND);
    NAME(CLSCAN_FP64_NOT_SUPPORTED);
    NAME(CLSCAN_RANGE_OUT_OF_BOUNDS);
    NAME(CLSCAN_DEVICE_NOT_SUPPORTED);
    NAME(CLSCAN_KERNEL_SOURCE_NOT_FOUND);
    NAME(CLSCAN_INVALID_DEVICE_SPEC);
    NAME(CLSCAN_INVALID_HANDLE);
    NAME(CLSCAN_INVALID_ELEMENT_SIZE);
    NAME(CLSCAN_INVALID_BUCKET_COUNT);
    NAME(CLSCAN_INVALID_KEY_BITS);
    NAME(CLSCAN_INVALID_CUSTOM_OPERATOR);
    NAME(CLSCAN_ELEMENT_SIZE_MISMATCH);
    NAME(CLSCAN_MPI_REMOTE_ERROR);
    NAME(CLSCAN_MPI_FAILED);
    NAME(CLSCAN_INVALID_PREDICATE);
    NAME(CLSCAN_INVALID_AXIS);
    NAME(CLSCAN_INVALID_PITCH);
    NAME(CLSCAN_NO_PREDICATE);
    NAME(CLSCAN_INVALID_TRANSFORM);
    NAME(CLSCAN_TRANSFORM_NOT_SUPPORTED);
    default: return "unknown status code";
    }
}
#undef NAME
