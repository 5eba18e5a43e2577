/* fault_order_test: a call that fails after a previous call on the same plan or handle, on an
 * out-of-order queue, must not let the next call overtake either of them.
 *
 * The library chains each call's commands after the previous use of the handle's scratch
 * (doc/design.md, "Programs, scratch and commands").  A failure once broke that chain: the scan
 * moved the queue's last use into the failed command chain and dropped it, so the next scan
 * neither waited for the scan before the failed one nor had its own scratch; with the single
 * pass its ticket base no longer matched the ticket counter and it crashed inside the kernel.
 * Compaction, sorting and bucketing kept the previous call as the last use although the failed
 * call had already enqueued commands on the same scratch, so the next call ran beside them.
 * reduce_by_key with 4-byte keys runs on its plan's scratch, after the plan's previous use.
 *
 * Each case, in a child process of its own (a crash is a failure of that case), on an
 * out-of-order queue, through the shim (tests/fault/shim.h) that fails one chosen
 * clEnqueueNDRangeKernel of the library:
 *   A  a call that waits on user event U1;
 *   B  a call on the same handle that waits on user event U2 and fails at its nth kernel launch
 *      (the first: nothing enqueued; or a later one: some commands already enqueued);
 *   C  a call on the same handle with no wait list.
 * C must not complete while U1 is pending (it comes after A), nor, when B enqueued commands,
 * while U2 is (it comes after them); once both are complete, A's and C's results must be right.
 * Only the public API of the library as it was before clscan_plan_set_variant is used, so this
 * program also runs against older builds of the library.  Exit status: 0 pass, 1 fail, 77 skip,
 * 99 setup error. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clscan.h"
#include "support/reference.h"
#include "tests/fault/util.h"

static const char program[] = "fault_order_test";
static const fault_shim_api *shim;
static cl_command_queue q;

#define N 5000          /* elements of each call (several tiles and blocks) */
#define N_GROW 8000     /* B's count where B must grow the scratch */
#define WAIT_MS 150     /* how long C is given to overtake what it must wait for */

static int failures;

static void fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    ++failures;
}

/* ---- The handles and their calls ------------------------------------------------------------ */

typedef enum kind { SCAN_SINGLE_PASS, SCAN_REDUCE_THEN_SCAN, COMPACT, SORT, BUCKET, REDUCE_BY_KEY } kind;

typedef struct handle {
    kind kind;
    clscan_plan *plan;
    clscan_compactor *compactor;
    clscan_sorter *sorter;
    clscan_bucketer *bucketer;
    clscan_runs *runs;
} handle;

#define NBUCKETS 7

/* One call's buffers (inputs written before the calls; outputs checked after). */
typedef struct call {
    size_t count;
    cl_uint in[N_GROW], in2[N_GROW];
    cl_uchar flags[N_GROW];
    cl_uint keys[N_GROW];   /* the flags as 4-byte keys: runs of equal ones */
    cl_mem src, src2, flags_b, keys_b, dst, dst2, small;
} call;

static call calls[3];   /* A, B, C */

static void setup_error(const char *what, cl_int err)
{
    fprintf(stderr, "setup error: %s: %s: %s\n", what, clscan_error_string(err), clscan_last_error());
    exit(99);
}

static handle make_handle(kind k)
{
    handle h = {.kind = k};
    cl_int err = CL_SUCCESS;
    switch (k) {
    case SCAN_SINGLE_PASS:
    case SCAN_REDUCE_THEN_SCAN:
    case REDUCE_BY_KEY:
        h.plan = clscan_plan_create(fu.context, fu.device, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE, &err);
        if (h.plan)
            err = clscan_plan_set_tuning(h.plan, 4, 4);   /* tiles of 16: hundreds of them */
        if (h.plan && err == CL_SUCCESS)
            err = clscan_plan_set_algorithm(h.plan, k == SCAN_SINGLE_PASS ? CLSCAN_ALGORITHM_SINGLE_PASS
                                                                          : CLSCAN_ALGORITHM_REDUCE_THEN_SCAN);
        if (err == CL_SUCCESS && k == REDUCE_BY_KEY)
            h.runs = clscan_runs_create(fu.context, fu.device, 4, 4, &err);
        break;
    case COMPACT:
        h.compactor = clscan_compactor_create(fu.context, fu.device, 4, &err);
        break;
    case SORT:
        h.sorter = clscan_sorter_create(fu.context, fu.device, CLSCAN_UINT32, 4, &err);
        break;
    case BUCKET:
        h.bucketer = clscan_bucketer_create(fu.context, fu.device, NBUCKETS, 4, &err);
        break;
    }
    if (err != CL_SUCCESS)
        setup_error("creating the handle", err);
    return h;
}

static void release_handle(handle *h)
{
    clscan_plan_release(h->plan);
    clscan_compactor_release(h->compactor);
    clscan_sorter_release(h->sorter);
    clscan_bucketer_release(h->bucketer);
    clscan_runs_release(h->runs);
    memset(h, 0, sizeof *h);
}

static cl_int enqueue(handle *h, call *c, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    switch (h->kind) {
    case SCAN_SINGLE_PASS:
    case SCAN_REDUCE_THEN_SCAN:
        return clscan_enqueue(h->plan, q, c->src, 0, c->dst, 0, c->count, nwait, wait, event);
    case COMPACT:
        return clscan_compact_enqueue(h->compactor, q, c->src, 0, c->flags_b, 0, c->count, c->dst, 0, c->small, 0,
                                      nwait, wait, event);
    case SORT:
        return clscan_sort_enqueue(h->sorter, q, c->src, 0, c->dst, 0, c->src2, 0, c->dst2, 0, c->count, nwait, wait,
                                   event);
    case BUCKET:
        return clscan_bucket_enqueue(h->bucketer, q, c->src, 0, c->src2, 0, c->count, c->dst, 0, c->dst2, 0, c->small,
                                     0, NULL, 0, nwait, wait, event);
    case REDUCE_BY_KEY:
        return clscan_reduce_by_key_enqueue(h->runs, h->plan, q, c->keys_b, 0, c->src, 0, c->count, c->dst2, 0,
                                            c->dst, 0, c->small, 0, nwait, wait, event);
    }
    return CL_INVALID_VALUE;
}

static void make_call(call *c, size_t count)
{
    c->count = count;
    for (size_t i = 0; i < count; ++i) {
        c->in[i] = (cl_uint)fu_rand();
        c->in2[i] = (cl_uint)fu_rand();
        c->flags[i] = fu_rand() % 3 == 0;
        c->keys[i] = c->flags[i];
    }
    c->src = fu_buffer(N_GROW * 4);
    c->src2 = fu_buffer(N_GROW * 4);
    c->flags_b = fu_buffer(N_GROW);
    c->keys_b = fu_buffer(N_GROW * 4);
    c->dst = fu_buffer(N_GROW * 4);
    c->dst2 = fu_buffer(N_GROW * 4);
    c->small = fu_buffer(64);
    fu_write(c->src, N_GROW * 4, c->in);
    fu_write(c->src2, N_GROW * 4, c->in2);
    fu_write(c->flags_b, N_GROW, c->flags);
    fu_write(c->keys_b, N_GROW * 4, c->keys);
}

/* ---- The references ------------------------------------------------------------------------- */

static const call *sorting;
static int by_key(const void *a, const void *b)
{
    const cl_uint i = *(const cl_uint *)a, j = *(const cl_uint *)b;
    const cl_uint ki = sorting->in[i], kj = sorting->in[j];
    return ki < kj ? -1 : ki > kj ? 1 : i < j ? -1 : i > j;
}

/* Whether the call's outputs hold its right result. */
static bool right(const handle *h, const call *c, char *why, size_t size)
{
    static cl_uint got[N_GROW], got2[N_GROW], want[N_GROW], want2[N_GROW], order[N_GROW];
    cl_ulong small[8];
    size_t n = c->count, n2 = 0, nsmall = 0;
    switch (h->kind) {
    case SCAN_SINGLE_PASS:
    case SCAN_REDUCE_THEN_SCAN:
        sup_reference(CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE, c->in, want, n);
        break;
    case COMPACT: {
        size_t kept = 0;
        for (size_t i = 0; i < c->count; ++i)
            if (c->flags[i])
                want[kept++] = c->in[i];
        n = kept;
        nsmall = 1;
        small[0] = kept;
        break;
    }
    case SORT:
        for (size_t i = 0; i < n; ++i)
            order[i] = (cl_uint)i;
        sorting = c;
        qsort(order, n, sizeof *order, by_key);
        for (size_t i = 0; i < n; ++i) {
            want[i] = c->in[order[i]];
            want2[i] = c->in2[order[i]];
        }
        n2 = n;
        break;
    case REDUCE_BY_KEY: {
        size_t runs = 0;
        for (size_t i = 0; i < c->count; ++i) {
            if (i == 0 || c->keys[i] != c->keys[i - 1]) {
                want2[runs] = c->keys[i];
                want[runs++] = 0;
            }
            want[runs - 1] += c->in[i];
        }
        n = n2 = runs;
        nsmall = 1;
        small[0] = runs;
        break;
    }
    case BUCKET: {
        cl_uint start[NBUCKETS + 1] = {0};
        for (size_t i = 0; i < n; ++i)
            ++start[(c->in[i] < NBUCKETS ? c->in[i] : NBUCKETS - 1) + 1];
        for (int b = 0; b < NBUCKETS; ++b)
            start[b + 1] += start[b];
        cl_uint *offsets = (cl_uint *)small;
        memcpy(offsets, start, sizeof start);
        nsmall = (sizeof start + 7) / 8;
        for (size_t i = 0; i < n; ++i) {
            const cl_uint p = start[c->in[i] < NBUCKETS ? c->in[i] : NBUCKETS - 1]++;
            want[p] = c->in[i];
            want2[p] = c->in2[i];
        }
        n2 = n;
        break;
    }
    }
    fu_read(c->dst, n * 4, got);
    if (memcmp(got, want, n * 4) != 0) {
        snprintf(why, size, "its output is wrong");
        return false;
    }
    if (n2) {
        fu_read(c->dst2, n2 * 4, got2);
        if (memcmp(got2, want2, n2 * 4) != 0) {
            snprintf(why, size, "its second output (%s) is wrong", h->kind == REDUCE_BY_KEY ? "keys" : "values");
            return false;
        }
    }
    if (nsmall) {
        cl_ulong g[8];
        const size_t bytes = h->kind == BUCKET ? (NBUCKETS + 1) * 4 : 8;
        fu_read(c->small, bytes, g);
        if (memcmp(g, small, bytes) != 0) {
            snprintf(why, size, "its %s is wrong", h->kind == BUCKET ? "offsets output"
                                                   : h->kind == REDUCE_BY_KEY ? "number of runs" : "kept count");
            return false;
        }
    }
    return true;
}

/* ---- The cases ------------------------------------------------------------------------------ */

typedef struct test_case {
    const char *name;
    kind kind;
    size_t b_count;     /* B's count (A's and C's: N) */
    int launch;         /* B fails at this kernel launch; 0: its last one; -1: the one before its last */
} test_case;

static const test_case cases[] = {
    {"scan, single pass, B's launch fails", SCAN_SINGLE_PASS, N, 1},
    {"scan, single pass, B grows the status words and its launch fails", SCAN_SINGLE_PASS, N_GROW, 1},
    {"scan, reduce-then-scan, B's first launch fails", SCAN_REDUCE_THEN_SCAN, N, 1},
    {"scan, reduce-then-scan, B's last launch fails", SCAN_REDUCE_THEN_SCAN, N, 0},
    {"compaction, B's scan of the block counts fails", COMPACT, N, 2},
    {"compaction, B's scatter fails", COMPACT, N, 0},
    {"sorting, B's second pass fails", SORT, N, 4},
    {"sorting, B's last scatter fails", SORT, N, 0},
    {"bucketing, B's scatter fails", BUCKET, N, -1},
    {"bucketing, B's offsets fail", BUCKET, N, 0},
    {"reduce_by_key, B's tile totals fail", REDUCE_BY_KEY, N, 1},
    {"reduce_by_key, B's last launch fails", REDUCE_BY_KEY, N, 0},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* B's kernel launches on a fresh handle after one call like A (nothing failed). */
static long launches_of_b(const test_case *t)
{
    handle h = make_handle(t->kind);
    cl_event ev;
    if (enqueue(&h, &calls[0], 0, NULL, &ev) != CL_SUCCESS)
        setup_error("a call like A", CL_SUCCESS);
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    shim->arm("clEnqueueNDRangeKernel", 0);
    const cl_int err = enqueue(&h, &calls[1], 0, NULL, &ev);
    const long n = shim->counted();
    shim->arm(NULL, 0);
    if (err != CL_SUCCESS)
        setup_error("a call like B", err);
    clFinish(q);
    clReleaseEvent(ev);
    release_handle(&h);
    return n;
}

static int run_case(const test_case *t)
{
    fu_open(program);
    q = fu_queue(true);
    for (int i = 0; i < 3; ++i)
        make_call(&calls[i], i == 1 ? t->b_count : N);
    const long total = launches_of_b(t);
    const long nth = t->launch > 0 ? t->launch : total + t->launch;
    const bool b_enqueues = nth > 1 || t->b_count > N;   /* a larger B fills new status words first */
    if (t->kind == COMPACT && total == 1 && t->launch > 1) {
        /* The one-pass compaction (GPUs): no scan of block counts; its one launch is the
         * scatter's case. */
        printf("ok   %s: not made (the compaction is one kernel here)\n", t->name);
        return 0;
    }
    if (nth < 1 || nth > total) {
        fprintf(stderr, "setup error: B makes %ld launches; the case wants launch %ld\n", total, nth);
        return 99;
    }

    handle h = make_handle(t->kind);
    cl_int err;
    cl_event u1 = clCreateUserEvent(fu.context, &err), u2 = clCreateUserEvent(fu.context, &err);
    cl_event ev_a = NULL, ev_b = NULL, ev_c = NULL;
    if ((err = enqueue(&h, &calls[0], 1, &u1, &ev_a)) != CL_SUCCESS)
        fail(t->name, "A failed: %s: %s", clscan_error_string(err), clscan_last_error());
    shim->arm("clEnqueueNDRangeKernel", nth);
    err = enqueue(&h, &calls[1], 1, &u2, &ev_b);
    const char *fired = shim->fired();
    shim->arm(NULL, 0);
    if (!fired || err == CL_SUCCESS)
        fail(t->name, "B did not fail at launch %ld of %ld (%s)", nth, total, clscan_error_string(err));
    if ((err = enqueue(&h, &calls[2], 0, NULL, &ev_c)) != CL_SUCCESS)
        fail(t->name, "C failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (failures) {   /* nothing to wait for */
        clSetUserEventStatus(u1, CL_COMPLETE);
        clSetUserEventStatus(u2, CL_COMPLETE);
        clFinish(q);
        return 1;
    }

    fu_sleep_ms(WAIT_MS);
    if (fu_event_status(ev_c) == CL_COMPLETE)
        fail(t->name, "C completed before A could start (A waits on a user event)");
    clSetUserEventStatus(u1, CL_COMPLETE);
    clWaitForEvents(1, &ev_a);
    if (b_enqueues) {
        fu_sleep_ms(WAIT_MS);
        if (fu_event_status(ev_c) == CL_COMPLETE)
            fail(t->name, "C completed before the commands the failed B had enqueued could start (B waits on a "
                 "user event)");
    }
    clSetUserEventStatus(u2, CL_COMPLETE);
    clFinish(q);
    if (fu_event_status(ev_a) != CL_COMPLETE || fu_event_status(ev_c) != CL_COMPLETE)
        fail(t->name, "A or C ended with an error (%d, %d)", (int)fu_event_status(ev_a), (int)fu_event_status(ev_c));
    char why[128];
    if (!right(&h, &calls[0], why, sizeof why))
        fail(t->name, "A's result: %s", why);
    if (!right(&h, &calls[2], why, sizeof why))
        fail(t->name, "C's result: %s", why);
    clReleaseEvent(ev_a);
    clReleaseEvent(ev_c);
    clReleaseEvent(u1);
    clReleaseEvent(u2);
    release_handle(&h);
    if (!failures)
        printf("ok   %s (B failed at launch %ld of %ld)\n", t->name, nth, total);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    (void)argc;
    shim = fu_shim(program, argv);
    fu_seed_from_env(program);
    const char *env = getenv("CLSCAN_TEST_TIMEOUT");
    const unsigned timeout = env && *env ? (unsigned)strtoul(env, NULL, 10) : 60;
    int status = 0;
    for (size_t i = 0; i < NCASES; ++i) {
        fflush(NULL);
        const pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 99;
        }
        if (pid == 0) {
            alarm(timeout);   /* a hang is a failure too */
            const int rc = run_case(&cases[i]);
            fflush(NULL);
            _exit(rc);
        }
        int ws;
        while (waitpid(pid, &ws, 0) < 0)
            ;
        if (WIFEXITED(ws) && (WEXITSTATUS(ws) == 77 || WEXITSTATUS(ws) == 99))
            return WEXITSTATUS(ws);
        if (WIFSIGNALED(ws)) {
            printf("FAIL %s: the process died of signal %d (%s)\n", cases[i].name, WTERMSIG(ws),
                   strsignal(WTERMSIG(ws)));
            status = 1;
        } else if (WEXITSTATUS(ws) != 0) {
            status = 1;
        }
    }
    printf("%s: %zu cases%s\n", program, NCASES, status ? "; failures (lines starting FAIL)" : ", all right");
    return status;
}
