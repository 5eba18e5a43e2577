/* clscan-bench-startup: what a new process pays before its first result, with the on-disk
 * program cache empty (cold) and holding the programs (warm) (bench/README).
 *
 * Each measurement is a fresh process (this program again, "--child WHAT"), which opens the
 * device and then times
 *   create   the plan's or handle's creation (clscan_plan_create, _create_custom,
 *            clscan_sorter_create): the programs' builds or loads;
 *   first    the first call on 4096 elements, to its end (clFinish): the programs built on first
 *            use (a segmented scan's) and whatever the driver does at a kernel's first launch.
 * Cases: float-sum (a float SUM plan), segmented (a float SUM plan's first segmented scan),
 * sorter (uint32 keys), custom (the float SUM as a custom operator).  Cold: CLSCAN_CACHE_DIR a
 * new empty directory for each run; warm: a directory filled by one run before.  Medians of
 * --reps runs (default 5).
 *
 * The driver may keep a cache of its own (PoCL: its kernel cache, POCL_CACHE_DIR): --fresh-env
 * NAME gives the variable NAME a new empty directory for every run, cold and warm, so that only
 * clscan's cache is warm.  Exit status 0; 1 if a child failed or a result was wrong. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700
#include "clscan.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { COUNT = 4096 };

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- The child ------------------------------------------------------------------------------ */

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "clscan-bench-startup: %s: %s: %s\n", what, clscan_error_string(err), clscan_last_error());
    return 1;
}

static int child(const char *what)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clscan_default_device(NULL, &platform, &device);
    if (err != CL_SUCCESS)
        return fail("clscan_default_device", err);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context context = clCreateContext(props, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = err == CL_SUCCESS ? clCreateCommandQueue(context, device, 0, &err) : NULL;
    if (err != CL_SUCCESS)
        return fail("a context and queue", err);
    float x[COUNT], y[COUNT];
    cl_uint keys[COUNT], sorted[COUNT];
    cl_uchar heads[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        x[i] = (float)(i % 7);
        keys[i] = (cl_uint)(i * 2654435761u);
        heads[i] = i % 100 == 0;
    }
    cl_mem bx = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    cl_mem by = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof y, NULL, &err);
    cl_mem bk = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof keys, keys, &err);
    cl_mem bh = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof heads, heads, &err);
    if (!bx || !by || !bk || !bh)
        return fail("buffers", err);
    clFinish(queue);

    static const clscan_custom custom_sum = {"float", 4, "0.0f", "a + b", NULL};
    const int segmented = strcmp(what, "segmented") == 0, sorter = strcmp(what, "sorter") == 0,
              custom = strcmp(what, "custom") == 0;
    const double t0 = now_ms();
    clscan_plan *plan = NULL;
    clscan_sorter *s = NULL;
    if (sorter)
        s = clscan_sorter_create(context, device, CLSCAN_UINT32, 0, &err);
    else if (custom)
        plan = clscan_plan_create_custom(context, device, &custom_sum, CLSCAN_INCLUSIVE, &err);
    else
        plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    if (!plan && !s)
        return fail("create", err);
    const double t1 = now_ms();
    if (sorter)
        err = clscan_sort_enqueue(s, queue, bk, 0, bk, 0, NULL, 0, NULL, 0, COUNT, 0, NULL, NULL);
    else if (segmented)
        err = clscan_enqueue_segmented(plan, queue, bx, 0, bh, 0, by, 0, COUNT, 0, NULL, NULL);
    else
        err = clscan_enqueue(plan, queue, bx, 0, by, 0, COUNT, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    if (err != CL_SUCCESS)
        return fail("the first call", err);
    const double t2 = now_ms();

    /* The result, exactly (small integers in float). */
    int wrong = 0;
    if (sorter) {
        clEnqueueReadBuffer(queue, bk, CL_TRUE, 0, sizeof sorted, sorted, 0, NULL, NULL);
        for (int i = 1; i < COUNT; ++i)
            wrong |= sorted[i - 1] > sorted[i];
    } else {
        clEnqueueReadBuffer(queue, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL);
        float acc = 0;
        for (int i = 0; i < COUNT; ++i) {
            acc = (segmented && heads[i] ? 0 : acc) + x[i];
            wrong |= y[i] != acc;
        }
    }
    printf("%.3f %.3f\n", t1 - t0, t2 - t1);
    clscan_plan_release(plan);
    clscan_sorter_release(s);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bk);
    clReleaseMemObject(bh);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    if (wrong)
        fprintf(stderr, "clscan-bench-startup: %s: WRONG result\n", what);
    return wrong;
}

/* ---- The parent ----------------------------------------------------------------------------- */

static char root[1024];
static const char *fresh_env;
static unsigned dirs;

/* A new empty directory below root. */
static const char *new_dir(char *buf, size_t size)
{
    snprintf(buf, size, "%s/%u", root, dirs++);
    if (mkdir(buf, 0700) != 0) {
        perror(buf);
        exit(1);
    }
    return buf;
}

/* Runs one child with the cache in cache_dir; its two times, or 1 on failure. */
static int run(const char *what, const char *cache_dir, double *create, double *first)
{
    char fresh[1100];
    if (fresh_env)
        setenv(fresh_env, new_dir(fresh, sizeof fresh), 1);
    setenv("CLSCAN_CACHE_DIR", cache_dir, 1);
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execl("/proc/self/exe", "clscan-bench-startup", "--child", what, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char out[128] = "";
    FILE *f = fdopen(fds[0], "r");
    const int got = f && fgets(out, sizeof out, f) && sscanf(out, "%lf %lf", create, first) == 2;
    if (f)
        fclose(f);
    int ws = 0;
    while (pid > 0 && waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    return pid > 0 && got && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 ? 0 : 1;
}

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child(argv[2]);
    int reps = 5;
    const char *only = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--fresh-env") == 0 && i + 1 < argc)
            fresh_env = argv[++i];
        else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            printf("Usage: clscan-bench-startup [--reps N] [--case float-sum|segmented|sorter|custom]\n"
                   "                            [--fresh-env NAME]\n"
                   "A new process's plan creation and first call (4096 elements) with the on-disk program\n"
                   "cache empty (cold) and full (warm); medians of N runs (default 5).  --fresh-env NAME:\n"
                   "a new empty directory in the variable NAME for every run (the driver's own cache,\n"
                   "e.g. POCL_CACHE_DIR), so that only clscan's cache is warm.\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (reps < 1 || reps > 100)
        reps = 5;
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/clscan-bench-startup-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    static const char *const cases[] = {"float-sum", "segmented", "sorter", "custom"};
    static const char *const child_names[] = {"sum", "segmented", "sorter", "custom"};
    printf("# clscan-bench-startup: a new process's creation and first call of %d elements; medians of %d runs;"
           " ms\n# the driver's own cache: %s%s%s\n", COUNT, reps, fresh_env ? "empty for every run (" : "as it is",
           fresh_env ? fresh_env : "", fresh_env ? ")" : "");
    printf("%-10s %12s %12s %12s %12s %12s %12s\n", "case", "cold_create", "cold_first", "cold_total", "warm_create",
           "warm_first", "warm_total");
    int status = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        if (only && strcmp(only, cases[c]) != 0)
            continue;
        double v[4][100];
        char dir[1100], warm[1100];
        int ok = run(child_names[c], new_dir(warm, sizeof warm), &v[0][0], &v[0][0]) == 0;   /* fills warm */
        for (int r = 0; ok && r < reps; ++r) {
            ok = run(child_names[c], new_dir(dir, sizeof dir), &v[0][r], &v[1][r]) == 0 &&
                 run(child_names[c], warm, &v[2][r], &v[3][r]) == 0;
        }
        if (!ok) {
            printf("%-10s FAILED\n", cases[c]);
            status = 1;
            continue;
        }
        double total[2][100];
        for (int r = 0; r < reps; ++r) {
            total[0][r] = v[0][r] + v[1][r];
            total[1][r] = v[2][r] + v[3][r];
        }
        const double m0 = median(v[0], reps), m1 = median(v[1], reps), t0 = median(total[0], reps);
        const double m2 = median(v[2], reps), m3 = median(v[3], reps), t1 = median(total[1], reps);
        printf("%-10s %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f\n", cases[c], m0, m1, t0, m2, m3, t1);
        fflush(stdout);
    }
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return status;
}
