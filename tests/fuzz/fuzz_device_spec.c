/* Fuzz target: the device specification of clscan_default_device (lib/device.c), through the
 * public function: "P:D" indices or a case-insensitive substring of a device name.  The input's
 * first byte says whether the rest (up to its first NUL) is the spec argument or the value of
 * CLSCAN_DEVICE (with a NULL spec).  The result is checked against an independent reading of
 * the same rules over the platforms and devices listed once at start: the same device for a
 * spec that matches one, CLSCAN_INVALID_DEVICE_SPEC with a message otherwise, and the first GPU
 * (else the first device) for an empty spec.  Without any OpenCL device only the absence of
 * crashes is checked. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <ctype.h>
#include <string.h>

#include <clscan.h>

enum { MAX_DEVICES = 64 };

static struct {
    int ready, count;
    cl_platform_id platform[MAX_DEVICES];
    cl_device_id device[MAX_DEVICES];
    unsigned long p[MAX_DEVICES], d[MAX_DEVICES];
    int gpu[MAX_DEVICES];
    char name[MAX_DEVICES][256];
} devs;

static void list_devices(void)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    devs.ready = 1;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_device_id ds[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 16 && devs.count < MAX_DEVICES; d++) {
            const int i = devs.count++;
            cl_device_type t = 0;
            clGetDeviceInfo(ds[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof devs.name[i] - 1, devs.name[i], NULL);
            devs.platform[i] = plats[p];
            devs.device[i] = ds[d];
            devs.p[i] = p;
            devs.d[i] = d;
            devs.gpu[i] = (t & CL_DEVICE_TYPE_GPU) != 0;
        }
    }
}

/* "P:D": digits, a colon, digits, nothing else; the indices as strtoul reads them (saturated). */
static int index_spec(const char *s, unsigned long *p, unsigned long *d)
{
    const char *colon = strchr(s, ':');
    if (!colon || colon == s || !colon[1])
        return 0;
    for (const char *c = s; *c; c++)
        if (c != colon && !isdigit((unsigned char)*c))
            return 0;
    *p = strtoul(s, NULL, 10);
    *d = strtoul(colon + 1, NULL, 10);
    return 1;
}

static int contains(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (size_t i = 0; hay[i]; i++) {
        size_t k = 0;
        while (k < n && hay[i + k] && tolower((unsigned char)hay[i + k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return 1;
    }
    return n == 0;
}

/* The index of the device spec names (-1: none), by the rules of clscan_default_device. */
static int expected(const char *spec)
{
    if (!spec || !*spec) {
        for (int i = 0; i < devs.count; i++)
            if (devs.gpu[i])
                return i;
        return devs.count ? 0 : -1;
    }
    unsigned long p, d;
    const int by_index = index_spec(spec, &p, &d);
    for (int i = 0; i < devs.count; i++)
        if (by_index ? devs.p[i] == p && devs.d[i] == d : contains(devs.name[i], spec))
            return i;
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devs.ready)
        list_devices();
    if (size < 1)
        return 0;
    char *spec = malloc(size);
    if (!spec)
        return 0;
    memcpy(spec, data + 1, size - 1);
    spec[size - 1] = '\0';
    const int via_env = data[0] & 1;
    if (via_env)
        setenv("CLSCAN_DEVICE", spec, 1);
    else
        unsetenv("CLSCAN_DEVICE");

    cl_platform_id platform = NULL;
    cl_device_id device = NULL;
    const cl_int err = clscan_default_device(via_env ? NULL : spec, &platform, &device);
    if (devs.count > 0) {
        const int want = expected(spec);
        if (want < 0) {
            fuzz_assert(err == CLSCAN_INVALID_DEVICE_SPEC, "spec \"%s\": %s, expected CLSCAN_INVALID_DEVICE_SPEC",
                        spec, clscan_error_string(err));
            fuzz_assert(clscan_last_error()[0] != '\0', "no message");
        } else {
            fuzz_assert(err == CL_SUCCESS, "spec \"%s\": %s: %s", spec, clscan_error_string(err), clscan_last_error());
            fuzz_assert(device == devs.device[want] && platform == devs.platform[want],
                        "spec \"%s\": not device %lu:%lu", spec, devs.p[want], devs.d[want]);
        }
    } else {
        fuzz_assert(err != CL_SUCCESS, "a device without any device");
    }
    unsetenv("CLSCAN_DEVICE");
    free(spec);
    return 0;
}
