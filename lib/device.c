/* Devices: the limits a plan needs, and the default device. */
#include "device.h"
#include "environment.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

cl_int clscan_query_device(cl_device_id device, clscan_device_info *info)
{
    memset(info, 0, sizeof *info);
    char version[256] = "";
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(clscan_query_status(err, CL_INVALID_DEVICE), "the device's query failed (%s): not a valid "
                           "OpenCL device?", clscan_error_string(err));
    err = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_work_group_size,
                              &info->max_work_group_size, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof info->local_mem_size,
                              &info->local_mem_size, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof info->compute_units, &info->compute_units,
                              NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof info->name - 1, info->name, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_VERSION, sizeof version - 1, version, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clGetDeviceInfo failed: %s", clscan_error_string(err));
    /* The extension string has no length limit: ask for its size first. */
    size_t n = 0;
    char *ext = NULL;
    err = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &n);
    if (err == CL_SUCCESS && !(ext = malloc(n + 1)))
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for the device's extensions");
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, n, ext, NULL);
    if (err != CL_SUCCESS) {
        free(ext);
        return clscan_fail(err, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS) failed: %s", clscan_error_string(err));
    }
    ext[n] = '\0';
    info->has_fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    info->has_int64_atomics = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
    free(ext);
    /* NVIDIA's own OpenCL platform compiles inline PTX (not other implementations on NVIDIA
     * hardware, such as PoCL's CUDA device). */
    cl_platform_id platform = NULL;
    char vendor[256] = "", platform_name[256] = "";
    err = clGetDeviceInfo(device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name - 1, platform_name, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "the device's vendor and platform queries failed: %s", clscan_error_string(err));
    info->nvidia_ptx = strstr(vendor, "NVIDIA") && strstr(platform_name, "NVIDIA CUDA") &&
                       (info->type & CL_DEVICE_TYPE_GPU);
    /* "OpenCL C major.minor ..." */
    int major = 0, minor = 0;
    const char *v = strstr(version, "OpenCL C ");
    if (v) {
        v += strlen("OpenCL C ");
        major = atoi(v);
        const char *dot = strchr(v, '.');
        minor = dot ? atoi(dot + 1) : 0;
    }
    info->opencl_c_1_2 = major > 1 || (major == 1 && minor >= 2);
    return CL_SUCCESS;
}

cl_int clscan_check_device(const char *fn, cl_context context, cl_device_id device, clscan_device_info *info)
{
    if (!context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: context is NULL", fn);
    if (!device)
        return clscan_fail(CL_INVALID_DEVICE, "%s: device is NULL", fn);
    size_t bytes = 0;
    cl_int err = clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, NULL, &bytes);
    if (err != CL_SUCCESS)
        return clscan_fail(clscan_query_status(err, CL_INVALID_CONTEXT), "%s: the context's query failed (%s): not a "
                           "valid OpenCL context?", fn, clscan_error_string(err));
    cl_device_id *devices = malloc(bytes ? bytes : 1);
    if (!devices)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    err = clGetContextInfo(context, CL_CONTEXT_DEVICES, bytes, devices, NULL);
    int found = 0;
    for (size_t i = 0; err == CL_SUCCESS && i < bytes / sizeof *devices; ++i)
        found |= devices[i] == device;
    free(devices);
    if (err != CL_SUCCESS)
        return clscan_fail(clscan_query_status(err, CL_INVALID_CONTEXT), "%s: clGetContextInfo failed: %s", fn,
                           clscan_error_string(err));
    if (!found)
        return clscan_fail(CL_INVALID_DEVICE, "%s: the device is not in the context", fn);
    err = clscan_query_device(device, info);
    return err == CL_SUCCESS ? err : clscan_fail_in(fn, err);
}

/* "P:D" with decimal indices? */
static int parse_index_spec(const char *spec, unsigned long *p, unsigned long *d)
{
    char *end;
    if (!isdigit((unsigned char)spec[0]))
        return 0;
    *p = strtoul(spec, &end, 10);
    if (*end != ':' || !isdigit((unsigned char)end[1]))
        return 0;
    *d = strtoul(end + 1, &end, 10);
    return *end == '\0';
}

static int contains_ignoring_case(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

CLSCAN_API cl_int clscan_default_device(const char *spec, cl_platform_id *platform_ret,
                                        cl_device_id *device_ret)
{
    if (!device_ret)
        return clscan_fail(CL_INVALID_VALUE, "clscan_default_device: device_ret is NULL");
    if (!spec || !*spec)
        spec = clscan_env_device();

    cl_uint nplat = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &nplat);
    if (err != CL_SUCCESS || nplat == 0)
        return clscan_fail(CL_DEVICE_NOT_FOUND, "clscan_default_device: no OpenCL platform found (is an ICD installed? "
                           "Debian: pocl-opencl-icd)");
    cl_platform_id *plats = malloc(nplat * sizeof *plats);
    if (!plats)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "clscan_default_device: out of host memory");
    err = clGetPlatformIDs(nplat, plats, NULL);
    if (err != CL_SUCCESS) {
        free(plats);
        return clscan_fail(CL_DEVICE_NOT_FOUND, "clscan_default_device: clGetPlatformIDs failed: %s",
                           clscan_error_string(err));
    }

    unsigned long want_p = 0, want_d = 0;
    const int by_index = spec && parse_index_spec(spec, &want_p, &want_d);
    cl_platform_id first_p = NULL, gpu_p = NULL, found_p = NULL;
    cl_device_id first_d = NULL, gpu_d = NULL, found_d = NULL;
    cl_int failure = CL_SUCCESS;   /* a query that failed: nothing is guessed */
    for (cl_uint p = 0; p < nplat && !found_d && failure == CL_SUCCESS; ++p) {
        cl_uint ndev = 0;
        err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
        if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && ndev == 0))
            continue;   /* a platform without devices */
        cl_device_id *devs = err == CL_SUCCESS ? malloc(ndev * sizeof *devs) : NULL;
        if (err == CL_SUCCESS && !devs)
            err = CL_OUT_OF_HOST_MEMORY;
        if (err == CL_SUCCESS)
            err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, ndev, devs, NULL);
        for (cl_uint d = 0; err == CL_SUCCESS && d < ndev && !found_d; ++d) {
            cl_device_type type = 0;
            char name[256] = "";
            err = clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            if (err == CL_SUCCESS)
                err = clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
            if (err != CL_SUCCESS)
                break;
            if (!first_d) {
                first_p = plats[p];
                first_d = devs[d];
            }
            if (!gpu_d && (type & CL_DEVICE_TYPE_GPU)) {
                gpu_p = plats[p];
                gpu_d = devs[d];
            }
            if (spec && (by_index ? (p == want_p && d == want_d) : contains_ignoring_case(name, spec))) {
                found_p = plats[p];
                found_d = devs[d];
            }
        }
        free(devs);
        failure = err;
    }
    free(plats);
    if (failure != CL_SUCCESS)
        return clscan_fail(failure, "clscan_default_device: listing the devices failed: %s",
                           clscan_error_string(failure));

    if (spec && !found_d)
        return clscan_fail(CLSCAN_INVALID_DEVICE_SPEC, "clscan_default_device: no OpenCL device matches \"%s\" (give "
                           "\"platform:device\" indices or part of a device name; see clscan --list-devices)",
                           spec);
    if (!spec) {
        found_p = gpu_d ? gpu_p : first_p;
        found_d = gpu_d ? gpu_d : first_d;
    }
    if (!found_d)
        return clscan_fail(CL_DEVICE_NOT_FOUND, "clscan_default_device: no OpenCL device found");
    if (platform_ret)
        *platform_ret = found_p;
    *device_ret = found_d;
    return CL_SUCCESS;
}
