/* Concurrency and ordering: one plan scanned from two threads with their own queues, plans and
 * clscan_host used from two threads at once, an out-of-order queue, a user event in the wait list,
 * and the per-thread clscan_last_error(). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- One plan, two threads, two queues ---- */

typedef struct worker {
    clscan_plan *plan;
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    size_t counts[3];
    int iterations;
    unsigned salt;
    cl_command_queue queue;
    tu_tally tally;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int it = 0; it < w->iterations; it++)
        tu_tally_check(&w->tally, w->plan, &(tu_case){.op = w->op, .type = w->type, .kind = w->kind,
                                                      .count = w->counts[it % 3], .queue = w->queue,
                                                      .salt = w->salt * 1000 + (unsigned)it,
                                                      .src_offset = (size_t)it % 5, .dst_offset = (size_t)it % 3});
    return NULL;
}

static void run_two_workers(clscan_plan *plan, clscan_op op, clscan_type type, clscan_kind kind,
                            const size_t counts[3], int iterations)
{
    worker w[2];
    pthread_t th[2];
    cl_int err;
    for (int i = 0; i < 2; i++) {
        w[i] = (worker){plan, op, type, kind, {counts[0], counts[1], counts[2]}, iterations, (unsigned)i + 1,
                        clCreateCommandQueue(tu.context, tu.device, 0, &err), {0}};
        ck_assert_int_eq(err, CL_SUCCESS);
    }
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        clReleaseCommandQueue(w[i].queue);
    }
    for (int i = 0; i < 2; i++)
        ck_assert_msg(w[i].tally.failed == 0, "thread %d: %d of %d scans failed; the first: %s", i,
                      w[i].tally.failed, w[i].tally.run, w[i].tally.first);
}

static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};

/* Automatic tuning, two to five tiles; _i picks the algorithm. */
START_TEST(one_plan_two_threads_own_queues_several_tiles)
{
    clscan_plan *plan = tu_plan_algo(CLSCAN_AFFINE, CLSCAN_INT32, CLSCAN_INCLUSIVE, 0, 0, algos[_i]);
    size_t t = tu_tile(plan);
    size_t counts[3] = {3 * t + 5, 2 * t + 1, 5 * t - 3};
    run_two_workers(plan, CLSCAN_AFFINE, CLSCAN_INT32, CLSCAN_INCLUSIVE, counts, 30);
}
END_TEST

/* Tile 16: several levels, or thousands of tiles. */
START_TEST(one_plan_two_threads_own_queues_several_levels)
{
    clscan_plan *plan = tu_plan_algo(CLSCAN_LAST_NONZERO, CLSCAN_FLOAT, CLSCAN_EXCLUSIVE, 8, 2, algos[_i]);
    size_t counts[3] = {4101, 70000, 257};
    run_two_workers(plan, CLSCAN_LAST_NONZERO, CLSCAN_FLOAT, CLSCAN_EXCLUSIVE, counts, 15);
}
END_TEST

/* ---- Plans and clscan_host created from two threads at once (the program cache, the default
 * context) ---- */

typedef struct creator {
    atomic_int *go;
    int which;
    char error[2048];
} creator;

static void *create_and_scan(void *arg)
{
    creator *c = arg;
    while (!atomic_load(c->go))
        ;
    cl_int err;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_MAX, CLSCAN_UINT32, CLSCAN_EXCLUSIVE, &err);
    if (!p) {
        snprintf(c->error, sizeof c->error, "clscan_plan_create: %s: %s", clscan_error_string(err),
                 clscan_last_error());
        return NULL;
    }
    tu_case k = {.op = CLSCAN_MAX, .type = CLSCAN_UINT32, .kind = CLSCAN_EXCLUSIVE, .count = 3 * tu_tile(p) + 1,
                 .salt = (unsigned)c->which};
    if (!tu_check_scan(p, &k, c->error, sizeof c->error))
        goto out;
    size_t n = 4101;
    int32_t *x = malloc(n * 4), *y = malloc(n * 4), *ref = malloc(n * 4);
    if (x && y && ref) {
        tu_fill(CLSCAN_SUM, CLSCAN_INT32, x, n);
        tu_reference(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, x, ref, n);
        err = clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, x, y, n);
        char diff[512];
        if (err != CL_SUCCESS)
            snprintf(c->error, sizeof c->error, "clscan_host: %s: %s", clscan_error_string(err), clscan_last_error());
        else if (!tu_compare(CLSCAN_SUM, CLSCAN_INT32, ref, y, n, diff, sizeof diff))
            snprintf(c->error, sizeof c->error, "clscan_host SUM int32 inclusive 4101: %s", diff);
    }
    free(x);
    free(y);
    free(ref);
out:
    clscan_plan_release(p);
    return NULL;
}

START_TEST(plans_and_host_scans_created_from_two_threads_at_once)
{
    atomic_int go = 0;
    creator c[2] = {{&go, 1, ""}, {&go, 2, ""}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, create_and_scan, &c[i]), 0);
    atomic_store(&go, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++)
        ck_assert_msg(c[i].error[0] == '\0', "thread %d: %s", i, c[i].error);
}
END_TEST

/* ---- clscan_last_error is per thread ---- */

static void *fail_differently(void *arg)
{
    char *out = arg;
    cl_int err = clscan_plan_create(tu.context, tu.device, (clscan_op)77, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL)
                     ? CL_SUCCESS
                     : CLSCAN_INVALID_OPERATOR;
    snprintf(out, 1024, "%d|%s", (int)err, clscan_last_error() ? clscan_last_error() : "(null)");
    return NULL;
}

START_TEST(last_error_is_per_thread)
{
    cl_int err = clscan_enqueue(NULL, tu.queue, NULL, 0, NULL, 0, 1, 0, NULL, NULL);
    ck_assert_int_eq(err, CLSCAN_INVALID_PLAN);
    char mine[1024], theirs[1024] = "";
    snprintf(mine, sizeof mine, "%s", clscan_last_error());
    ck_assert_msg(mine[0] != '\0', "no message");
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, fail_differently, theirs), 0);
    pthread_join(th, NULL);
    ck_assert_str_eq(clscan_last_error(), mine);
    const char *msg = strchr(theirs, '|') + 1;
    ck_assert_msg(*msg && strcmp(msg, mine) != 0, "the other thread's message \"%s\"", msg);
}
END_TEST

/* ---- Out-of-order queue ---- */

START_TEST(out_of_order_queue_event_completes_after_dst_is_written)
{
    cl_command_queue_properties props = 0;
    ck_assert_int_eq(clGetDeviceInfo(tu.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL), CL_SUCCESS);
    if (!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        printf("the device has no out-of-order queues: nothing to test\n");
        return;
    }
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(tu.context, tu.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    static const struct {
        clscan_op op;
        clscan_type type;
        clscan_kind kind;
        size_t wg, items, count;
        clscan_algorithm algo;
    } cases[] = {
        {CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, 0, 0, 0, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN},
        {CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, 0, 0, 0, CLSCAN_ALGORITHM_SINGLE_PASS},
        {CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_EXCLUSIVE, 0, 0, 0, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN},
        {CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_EXCLUSIVE, 0, 0, 0, CLSCAN_ALGORITHM_SINGLE_PASS},
        {CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE, 8, 2, 70000, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN},
        {CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE, 8, 2, 70000, CLSCAN_ALGORITHM_SINGLE_PASS},
        {CLSCAN_LAST_NONZERO, CLSCAN_INT64, CLSCAN_EXCLUSIVE, 8, 2, 4101, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN},
        {CLSCAN_LAST_NONZERO, CLSCAN_INT64, CLSCAN_EXCLUSIVE, 8, 2, 4101, CLSCAN_ALGORITHM_SINGLE_PASS},
    };
    tu_tally tally = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clscan_plan *plan = tu_plan_algo(cases[i].op, cases[i].type, cases[i].kind, cases[i].wg, cases[i].items,
                                         cases[i].algo);
        size_t n = cases[i].count ? cases[i].count : 3 * tu_tile(plan) + 1;
        for (int rep = 0; rep < 4; rep++)
            tu_tally_check(&tally, plan, &(tu_case){.op = cases[i].op, .type = cases[i].type, .kind = cases[i].kind,
                                                    .count = n, .queue = q, .wait_on_writes = rep % 2 == 1,
                                                    .salt = (unsigned)rep, .layout = rep == 2 ? TU_IN_PLACE : 0});
    }
    clReleaseCommandQueue(q);
    TU_TALLY_ASSERT(&tally);
}
END_TEST

/* ---- Many scans in flight on one queue, and chains of scans through events ---- */

/* Enqueues, without waiting in between, K pairs of scans on one plan and queue: scan 2k reads
 * x_k into y_k, scan 2k+1 reads y_k (waiting on scan 2k's event) into z_k, in place for odd k.
 * Then waits for the last events only and checks every z_k = scan(scan(x_k)) and y_k. */
static void chained_scans(cl_command_queue q, clscan_algorithm algo, tu_tally *tally)
{
    enum { K = 6 };
    const clscan_op op = CLSCAN_AFFINE;
    const clscan_type type = CLSCAN_UINT64;
    const clscan_kind kind = CLSCAN_INCLUSIVE;
    const size_t es = 16, counts[K] = {4101, 70000, 17, 257, 16, 33333};
    clscan_plan *plan = tu_plan_algo(op, type, kind, 8, 2, algo);
    cl_mem y[K], z[K];
    cl_event ev[2 * K];
    unsigned char *x[K];
    cl_int err;
    for (int k = 0; k < K; k++) {
        x[k] = malloc(counts[k] * es);
        ck_assert_ptr_nonnull(x[k]);
        tu_fill(op, type, x[k], counts[k]);
        cl_mem xb = tu_buffer(tu.context, CL_MEM_READ_ONLY, counts[k] * es, x[k]);
        y[k] = tu_buffer(tu.context, CL_MEM_READ_WRITE, counts[k] * es, NULL);
        z[k] = k % 2 ? y[k] : tu_buffer(tu.context, CL_MEM_READ_WRITE, counts[k] * es, NULL);
        if (k % 2)
            clRetainMemObject(y[k]);
        err = clscan_enqueue(plan, q, xb, 0, y[k], 0, counts[k], 0, NULL, &ev[2 * k]);
        ck_assert_msg(err == CL_SUCCESS, "clscan_enqueue: %s: %s", clscan_error_string(err), clscan_last_error());
        clReleaseMemObject(xb); /* the enqueued scan keeps it alive */
        err = clscan_enqueue(plan, q, y[k], 0, z[k], 0, counts[k], 1, &ev[2 * k], &ev[2 * k + 1]);
        ck_assert_msg(err == CL_SUCCESS, "clscan_enqueue: %s: %s", clscan_error_string(err), clscan_last_error());
    }
    for (int k = 0; k < K; k++) {
        ck_assert_int_eq(clWaitForEvents(1, &ev[2 * k + 1]), CL_SUCCESS);
        size_t n = counts[k];
        unsigned char *ref1 = malloc(n * es), *ref2 = malloc(n * es), *got = malloc(n * es);
        ck_assert(ref1 && ref2 && got);
        tu_reference(op, type, kind, x[k], ref1, n);
        tu_reference(op, type, kind, ref1, ref2, n);
        char diff[512];
        tally->run++;
        tu_read(q, z[k], n * es, got); /* on an out-of-order queue: runs at once */
        if (!tu_compare(op, type, ref2, got, n, diff, sizeof diff) && tally->failed++ == 0)
            snprintf(tally->first, sizeof tally->first, "[seed %llu] AFFINE uint64, tile 16, %s, count %zu, "
                     "scan %d of a chain%s: %s", (unsigned long long)tu_seed, tu_algo_name(algo), n, 2 * k + 1,
                     k % 2 ? " (in place)" : "", diff);
        if (k % 2 == 0) {
            tally->run++;
            tu_read(q, y[k], n * es, got);
            if (!tu_compare(op, type, ref1, got, n, diff, sizeof diff) && tally->failed++ == 0)
                snprintf(tally->first, sizeof tally->first, "[seed %llu] AFFINE uint64, tile 16, %s, count %zu, "
                         "scan %d of a chain: %s", (unsigned long long)tu_seed, tu_algo_name(algo), n, 2 * k, diff);
        }
        free(ref1), free(ref2), free(got), free(x[k]);
        clReleaseEvent(ev[2 * k]);
        clReleaseEvent(ev[2 * k + 1]);
        clReleaseMemObject(y[k]);
        clReleaseMemObject(z[k]);
    }
}

START_TEST(many_scans_in_flight_and_chained_by_events)
{
    cl_command_queue_properties props = 0;
    ck_assert_int_eq(clGetDeviceInfo(tu.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL), CL_SUCCESS);
    cl_int err;
    cl_command_queue ooo = NULL;
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        ooo = clCreateCommandQueue(tu.context, tu.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        ck_assert_int_eq(err, CL_SUCCESS);
    }
    tu_tally tally = {0};
    for (int a = 0; a < 2; a++) {
        chained_scans(tu.queue, algos[a], &tally);
        if (ooo)
            chained_scans(ooo, algos[a], &tally);
    }
    if (ooo)
        clReleaseCommandQueue(ooo);
    TU_TALLY_ASSERT(&tally);
}
END_TEST

/* ---- A user event in the wait list ---- */

typedef struct enqueuer {
    clscan_plan *plan;
    cl_mem src, dst;
    size_t n;
    cl_event wait, done;
    cl_int err;
    atomic_int returned;
} enqueuer;

static void *enqueue_behind(void *arg)
{
    enqueuer *e = arg;
    e->err = clscan_enqueue(e->plan, tu.queue, e->src, 0, e->dst, 0, e->n, 1, &e->wait, &e->done);
    atomic_store(&e->returned, 1);
    return NULL;
}

START_TEST(scan_waits_for_a_user_event)
{
    clscan_plan *plan = tu_plan_algo(CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE, 0, 0, algos[_i]);
    size_t n = 3 * tu_tile(plan) + 1;
    cl_int err;
    uint32_t *old_in = malloc(n * 4), *new_in = malloc(n * 4), *pattern = malloc(n * 4), *out = malloc(n * 4),
             *ref = malloc(n * 4);
    ck_assert(old_in && new_in && pattern && out && ref);
    tu_fill(CLSCAN_SUM, CLSCAN_UINT32, old_in, n);
    tu_fill(CLSCAN_SUM, CLSCAN_UINT32, new_in, n);
    tu_fill_bytes(pattern, n * 4);
    tu_reference(CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE, new_in, ref, n);
    cl_command_queue q2 = clCreateCommandQueue(tu.context, tu.device, 0, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    enqueuer e = {.plan = plan, .n = n};
    e.src = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * 4, old_in);
    e.dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * 4, pattern);
    e.wait = clCreateUserEvent(tu.context, &err);
    ck_assert_int_eq(err, CL_SUCCESS);

    /* clscan_enqueue must return while the user event is pending (it must not block on it). */
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, enqueue_behind, &e), 0);
    for (int i = 0; i < 1000 && !atomic_load(&e.returned); i++)
        sleep_ms(10);
    bool returned = atomic_load(&e.returned);
    bool untouched = false, not_complete = false;
    cl_int status = CL_COMPLETE;
    if (returned && e.err == CL_SUCCESS) {
        sleep_ms(100);
        /* Nothing has run yet: dst still holds the pattern.  Then change src: the scan, once let
         * go, must read the new contents. */
        clGetEventInfo(e.done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        not_complete = status != CL_COMPLETE && status >= 0;
        ck_assert_int_eq(clEnqueueReadBuffer(q2, e.dst, CL_TRUE, 0, n * 4, out, 0, NULL, NULL), CL_SUCCESS);
        untouched = memcmp(out, pattern, n * 4) == 0;
        ck_assert_int_eq(clEnqueueWriteBuffer(q2, e.src, CL_TRUE, 0, n * 4, new_in, 0, NULL, NULL), CL_SUCCESS);
    }
    clSetUserEventStatus(e.wait, CL_COMPLETE);
    pthread_join(th, NULL);
    ck_assert_msg(returned, "clscan_enqueue blocked until its wait list completed");
    ck_assert_msg(e.err == CL_SUCCESS, "clscan_enqueue: %s: %s", clscan_error_string(e.err), clscan_last_error());
    ck_assert_msg(e.done != NULL, "no event returned");
    ck_assert_int_eq(clWaitForEvents(1, &e.done), CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(tu.queue, e.dst, CL_TRUE, 0, n * 4, out, 0, NULL, NULL), CL_SUCCESS);
    char diff[512];
    bool right = tu_compare(CLSCAN_SUM, CLSCAN_UINT32, ref, out, n, diff, sizeof diff);
    clReleaseEvent(e.done);
    clReleaseEvent(e.wait);
    clReleaseMemObject(e.src);
    clReleaseMemObject(e.dst);
    clReleaseCommandQueue(q2);
    free(old_in), free(new_in), free(pattern), free(out), free(ref);
    ck_assert_msg(not_complete, "the returned event had status %d before the user event was set", (int)status);
    ck_assert_msg(untouched, "dst was written before the user event was set");
    ck_assert_msg(right, "[seed %llu] SUM uint32 inclusive %zu behind a user event: %s", (unsigned long long)tu_seed,
                  n, diff);
}
END_TEST

int main(void)
{
    tu_open("threads_test");
    tu_watchdog(300);
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_add_loop_test(tc, one_plan_two_threads_own_queues_several_tiles, 0, 2);
    tcase_add_loop_test(tc, one_plan_two_threads_own_queues_several_levels, 0, 2);
    tcase_add_test(tc, plans_and_host_scans_created_from_two_threads_at_once);
    tcase_add_test(tc, last_error_is_per_thread);
    suite_add_tcase(s, tc);
    tc = tcase_create("events");
    tcase_add_test(tc, out_of_order_queue_event_completes_after_dst_is_written);
    tcase_add_test(tc, many_scans_in_flight_and_chained_by_events);
    tcase_add_loop_test(tc, scan_waits_for_a_user_event, 0, 2);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
