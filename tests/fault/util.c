/* Helpers of the fault-injection drivers (util.h). */
#define _GNU_SOURCE
#include "tests/fault/util.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/inputs.h"

fu_env fu;
uint64_t fu_seed;
const cl_event fu_no_event = (cl_event)(uintptr_t)0x5a5a5a50;

/* ---- The shim ------------------------------------------------------------------------------- */

const fault_shim_api *fu_shim(const char *program, char **argv)
{
    const fault_shim_get_fn get = (fault_shim_get_fn)dlsym(RTLD_DEFAULT, FAULT_SHIM_ENTRY);
    if (get) {
        const fault_shim_api *api = get();
        if (api->version != FAULT_SHIM_VERSION) {
            fprintf(stderr, "%s: setup error: the shim has interface version %d, not %d\n", program, api->version,
                    FAULT_SHIM_VERSION);
            exit(99);
        }
        if (!api->attached()) {
            fprintf(stderr, "%s: setup error: the shim did not find libclscan.so in the process (is the "
                    "program linked statically with the library?)\n", program);
            exit(99);
        }
        return api;
    }
    /* Not preloaded: once more with the shim, if we know where it is. */
    const char *shim = getenv("FAULT_SHIM");
#ifdef FAULT_SHIM_PATH
    if (!shim || !*shim)
        shim = FAULT_SHIM_PATH;
#endif
    if (shim && *shim && access(shim, R_OK) == 0 && !getenv("FAULT_SHIM_REEXECUTED")) {
        setenv("LD_PRELOAD", shim, 1);
        setenv("FAULT_SHIM_REEXECUTED", "1", 1);
        fflush(NULL);
        execv("/proc/self/exe", argv);
        perror("execv /proc/self/exe");
    }
    fprintf(stderr, "%s: SKIP: the fault-injection shim is not loaded (run it through tests/fault_test.sh, "
            "or set FAULT_SHIM to tests/fault/.libs/shim.so)\n", program);
    exit(77);
}

/* ---- The device ----------------------------------------------------------------------------- */

static void setup_error(const char *what, cl_int err)
{
    fprintf(stderr, "setup error: %s: %s (%d)\n", what, clscan_error_string(err), (int)err);
    exit(99);
}

void fu_open(const char *program)
{
    cl_int err = clscan_default_device(NULL, &fu.platform, &fu.device);
    if (err != CL_SUCCESS) {
        cl_uint np = 0;
        if (clGetPlatformIDs(0, NULL, &np) == CL_SUCCESS && np > 0) {
            fprintf(stderr, "%s: setup error: clscan_default_device failed although a platform exists: %s: %s\n",
                    program, clscan_error_string(err), clscan_last_error());
            exit(99);
        }
        const char *ci = getenv("CI");
        if (ci && *ci) {
            fprintf(stderr, "%s: FAIL: no OpenCL device found, but CI is set (CI=%s)\n", program, ci);
            exit(1);
        }
        fprintf(stderr, "%s: SKIP: no OpenCL device found\n", program);
        exit(77);
    }
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)fu.platform, 0};
    fu.context = clCreateContext(props, 1, &fu.device, NULL, NULL, &err);
    if (!fu.context)
        setup_error("clCreateContext", err);
    fu.io = clCreateCommandQueue(fu.context, fu.device, 0, &err);
    if (!fu.io)
        setup_error("clCreateCommandQueue", err);
}

void fu_close(void)
{
    if (fu.io)
        clReleaseCommandQueue(fu.io);
    if (fu.context)
        clReleaseContext(fu.context);
    memset(&fu, 0, sizeof fu);
}

cl_command_queue fu_queue(bool out_of_order)
{
    cl_command_queue_properties props = 0;
    cl_int err = clGetDeviceInfo(fu.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS)
        setup_error("clGetDeviceInfo(CL_DEVICE_QUEUE_PROPERTIES)", err);
    if (out_of_order && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        fprintf(stderr, "setup error: the device has no out-of-order queues\n");
        exit(99);
    }
    cl_command_queue q = clCreateCommandQueue(fu.context, fu.device,
                                              out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
    if (!q)
        setup_error("clCreateCommandQueue", err);
    return q;
}

cl_mem fu_buffer(size_t bytes)
{
    cl_int err;
    cl_mem b = clCreateBuffer(fu.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!b)
        setup_error("clCreateBuffer", err);
    return b;
}

void fu_write(cl_mem buffer, size_t bytes, const void *data)
{
    const cl_int err = clEnqueueWriteBuffer(fu.io, buffer, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        setup_error("clEnqueueWriteBuffer", err);
}

void fu_read(cl_mem buffer, size_t bytes, void *data)
{
    const cl_int err = clEnqueueReadBuffer(fu.io, buffer, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        setup_error("clEnqueueReadBuffer", err);
}

/* ---- Gates ---------------------------------------------------------------------------------- */

void fu_gate_begin(fu_gate *g, cl_command_queue queue)
{
    cl_int err;
    memset(g, 0, sizeof *g);
    g->queue = queue;
    g->user = clCreateUserEvent(fu.context, &err);
    if (!g->user)
        setup_error("clCreateUserEvent", err);
}

void fu_gate_write(fu_gate *g, cl_mem buffer, size_t bytes, const void *data)
{
    if (g->n == FU_GATE_WRITES) {
        fprintf(stderr, "setup error: more than %d writes behind a gate\n", FU_GATE_WRITES);
        exit(99);
    }
    const cl_int err = clEnqueueWriteBuffer(g->queue, buffer, CL_FALSE, 0, bytes, data, 1, &g->user,
                                            &g->writes[g->n]);
    if (err != CL_SUCCESS)
        setup_error("clEnqueueWriteBuffer behind a user event", err);
    ++g->n;
}

void fu_gate_open(fu_gate *g)
{
    cl_int err = clSetUserEventStatus(g->user, CL_COMPLETE);
    if (err != CL_SUCCESS)
        setup_error("clSetUserEventStatus", err);
    if ((err = clFinish(g->queue)) != CL_SUCCESS)
        setup_error("clFinish", err);
    clReleaseEvent(g->user);
    for (cl_uint i = 0; i < g->n; ++i)
        clReleaseEvent(g->writes[i]);
    memset(g, 0, sizeof *g);
}

cl_int fu_event_status(cl_event event)
{
    cl_int status = CL_QUEUED;
    const cl_int err = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    return err == CL_SUCCESS ? status : err;
}

/* ---- Time and random numbers ---------------------------------------------------------------- */

void fu_sleep_ms(long ms)
{
    const struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

double fu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static sup_rng rng;

void fu_seed_from_env(const char *program)
{
    const char *s = getenv("CLSCAN_TEST_SEED");
    fu_seed = s && *s ? strtoull(s, NULL, 0) : ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20));
    sup_rng_seed(&rng, fu_seed);
    printf("%s: seed %" PRIu64 " (set CLSCAN_TEST_SEED=%" PRIu64 " to repeat)\n", program, fu_seed, fu_seed);
    fflush(stdout);
}

uint64_t fu_rand(void)
{
    return sup_rng_next(&rng);
}

void fu_random_bytes(void *p, size_t bytes)
{
    unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        b[i] = (unsigned char)fu_rand();
}
