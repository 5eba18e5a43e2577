/* A chain of commands on the caller's queue (chain.c), for the scans and the algorithms alike:
 * the first command waits on the caller's wait list and on the previous use of the handle's
 * scratch; on out-of-order queues each command waits on the one before.  Events are made only
 * where needed: every command's on out-of-order queues or when the handle tracks its last use
 * on any queue, else only the last one's when the caller asks for it. */
#ifndef CLSCAN_CHAIN_H
#define CLSCAN_CHAIN_H

#include "error.h"

typedef struct clscan_chain {
    cl_command_queue queue;
    int out_of_order;
    int events;                /* every command gets an event */
    const cl_event *caller;    /* the caller's wait list, for the first command */
    cl_uint ncaller;
    cl_event previous_use;     /* not owned; for the first command */
    int started;               /* a command was enqueued */
    cl_event last;             /* the last command's event, owned (NULL: none asked for) */
} clscan_chain;

/* Starts a chain; fails (without enqueueing) if the queue's properties cannot be read.
 * previous_use may be NULL; always_events: give every command an event. */
cl_int clscan_chain_begin(clscan_chain *c, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                          cl_event previous_use, int always_events);

/* The next command's wait list: in *list, *n entries (stack holds 16; more go to *heap, to free
 * after the command). */
#define CLSCAN_CHAIN_STACK 16
cl_int clscan_chain_wait_list(clscan_chain *c, cl_event stack[CLSCAN_CHAIN_STACK], cl_event **heap,
                              const cl_event **list, cl_uint *n);
/* Whether the next command must return an event (want: the caller needs it). */
int clscan_chain_wants_event(const clscan_chain *c, int want);
/* After the next command was enqueued with event ev (NULL if none). */
void clscan_chain_advance(clscan_chain *c, cl_event ev);

cl_int clscan_chain_launch(clscan_chain *c, cl_kernel kernel, size_t groups, size_t wg, int want_event);
cl_int clscan_chain_fill(clscan_chain *c, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                         size_t bytes, int want_event);
cl_int clscan_chain_copy(clscan_chain *c, cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset,
                         size_t bytes, int want_event);
/* A non-blocking read into host memory, complete when the chain's last event is. */
cl_int clscan_chain_read(clscan_chain *c, cl_mem buffer, size_t offset, size_t bytes, void *host, int want_event);
/* A marker after the caller's list (nothing else to do); always with an event. */
cl_int clscan_chain_marker(clscan_chain *c);

/* Ends the chain.  The last command enqueued completes after every command of the chain and
 * after the previous use, so it becomes *last_use (if last_use is non-NULL) even when a later
 * command failed: the next call on the handle waits for what this one did enqueue.  On success
 * *event (if non-NULL) receives the last command's event. */
void clscan_chain_end(clscan_chain *c, cl_int err, cl_event *event, cl_event *last_use);

#endif
