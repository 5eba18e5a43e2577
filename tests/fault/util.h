/* What the fault-injection drivers (tests/fault_test.c, tests/fault_order_test.c) share: finding
 * the shim, the device, user-event gates and small helpers.  Exit statuses as in the rest of the
 * suite: 0 pass, 1 fail, 77 skip, 99 setup error. */
#ifndef CLSCAN_TESTS_FAULT_UTIL_H
#define CLSCAN_TESTS_FAULT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clscan.h"
#include "tests/fault/shim.h"

/* The shim's interface.  Without the shim in the process, the program executes itself again
 * with LD_PRELOAD set to $FAULT_SHIM (or the shim of the build tree it was built in), once;
 * if that is not possible it exits 77 (skip). */
const fault_shim_api *fu_shim(const char *program, char **argv);

/* The default device, a context and an in-order queue for the driver's own reads and writes.
 * Without any OpenCL device the program exits 77 (1 when CI is set); other failures exit 99. */
typedef struct fu_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue io;
} fu_env;
extern fu_env fu;
void fu_open(const char *program);
void fu_close(void);

/* A queue of the context: in-order or out-of-order (exits 99 when the device has no
 * out-of-order queues: the tests need one). */
cl_command_queue fu_queue(bool out_of_order);

/* A buffer of the context, or exit 99. */
cl_mem fu_buffer(size_t bytes);
/* Blocking transfers through fu.io (exit 99 on failure). */
void fu_write(cl_mem buffer, size_t bytes, const void *data);
void fu_read(cl_mem buffer, size_t bytes, void *data);

/* A gate: a user event, and writes of inputs on the queue that wait on it.  The call under test
 * gets the writes' events as its wait list, so that none of its commands can start before the
 * driver opens the gate (after the call returned). */
#define FU_GATE_WRITES 4
typedef struct fu_gate {
    cl_command_queue queue;
    cl_event user;
    cl_event writes[FU_GATE_WRITES];
    cl_uint n;
} fu_gate;
void fu_gate_begin(fu_gate *g, cl_command_queue queue);
/* A non-blocking write of data (which must stay valid until fu_gate_open) behind the gate. */
void fu_gate_write(fu_gate *g, cl_mem buffer, size_t bytes, const void *data);
/* Completes the user event, finishes the queue and releases the events. */
void fu_gate_open(fu_gate *g);

/* An event value no OpenCL call returns: what *event holds before a call, so that a failed call
 * can be seen to have left it alone. */
extern const cl_event fu_no_event;

/* The event's execution status (CL_COMPLETE, ... or a negative error). */
cl_int fu_event_status(cl_event event);

void fu_sleep_ms(long ms);
double fu_now(void);

/* Per-thread random numbers from the seed (CLSCAN_TEST_SEED or the time), printed once. */
extern uint64_t fu_seed;
void fu_seed_from_env(const char *program);
uint64_t fu_rand(void);
void fu_random_bytes(void *p, size_t bytes);

#endif
