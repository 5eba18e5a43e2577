/* segab: interleaved A/B timing of segmented scans against the plain scan, in one process
 * (doc/perf/segmented-notes.md).  Not part of the build.
 *
 * usage: segab LOG2N ROUNDS DIR_A [DIR_B ...]
 * Each DIR is a kernel directory (CLSCAN_KERNEL_DIR, read when a program is built): the plans
 * of each variant are built with it set, so several kernel versions run side by side.  Cases:
 * float SUM exclusive and int32 MAX inclusive (plain, built from DIR_A), segmented float SUM by
 * cl_uchar heads (exclusive, inclusive) and int32 MAX by cl_uint keys (inclusive, exclusive),
 * segments of 1 ... 2048 elements as in clscan-bench.  One warm-up round checks that every
 * DIR gives DIR_A's bits (SEGAB_NOCHECK=1: not, for ablations); then each round runs every
 * variant once, in a rotating order, timed by the wall clock around enqueue and clFinish.
 * Reports per variant the median time, the median over rounds of its time / the plain scan's
 * time in the same round ("x plain"), and / DIR_A's time of the same case ("x A").
 * SEGAB_CASES=0123 picks cases (x: none), SEGAB_PLAIN_AB=1 also times the plain scans of the
 * other DIRs.
 *
 * Build (from a build directory of clscan):
 *   cc -O2 -std=c11 -I$SRC/include -Iinclude -o segab $SRC/doc/perf/segab.c \
 *      -Llib/.libs -lclscan -lOpenCL -Wl,-rpath,$PWD/lib/.libs */
#define _POSIX_C_SOURCE 200809L
#include <clscan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double median(double *v, int n) { double *c = malloc(n * sizeof *c); memcpy(c, v, n * sizeof *c); qsort(c, n, sizeof *c, cmpd); double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2; free(c); return m; }
#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, clscan_last_error()); exit(2); } } while (0)

/* base cases: 0 float SUM, 1 int MAX */
typedef struct { const char *name; int base; clscan_kind kind; int seg; /* 0 plain, 1 heads, 2 keys */ int dir; clscan_plan *plan; double *t; } variant;

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: segab LOG2N ROUNDS DIR_A [DIR_B ...]\n"); return 2; }
    const size_t n = (size_t)1 << atoi(argv[1]);
    const int rounds = atoi(argv[2]), ndirs = argc - 3;
    const char *only = getenv("SEGAB_CASES");   /* e.g. "0123" */
    cl_platform_id pf; cl_device_id dev; cl_int err;
    CHECK(clscan_default_device(NULL, &pf, &dev));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CHECK(err);
    float *xf = malloc(n * 4); int *xi = malloc(n * 4); unsigned char *heads = malloc(n); unsigned *keys = malloc(n * 4);
    unsigned long long s = 0x5E6A4E47ull ^ n; size_t left = 0; unsigned key = 0;
    for (size_t i = 0; i < n; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (!left) { left = 1 + (s >> 33) % 2048; ++key; heads[i] = 1; } else heads[i] = 0;
        --left; keys[i] = key; xf[i] = (float)((s >> 40) % 17) - 8; xi[i] = (int)(s >> 35) - (1 << 28);
    }
    cl_mem bf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, xf, &err); CHECK(err);
    cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, xi, &err); CHECK(err);
    cl_mem bh = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, heads, &err); CHECK(err);
    cl_mem bk = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, keys, &err); CHECK(err);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err); CHECK(err);
    /* cases: name, base, kind, seg */
    struct { const char *name; int base; clscan_kind kind; int seg; } cases[] = {
        {"seg-float-sum-excl", 0, CLSCAN_EXCLUSIVE, 1}, {"key-int-max-incl", 1, CLSCAN_INCLUSIVE, 2},
        {"seg-float-sum-incl", 0, CLSCAN_INCLUSIVE, 1}, {"key-int-max-excl", 1, CLSCAN_EXCLUSIVE, 2},
    };
    variant v[64]; int nv = 0;
    for (int b = 0; b < 2; ++b) {
        v[nv] = (variant){b ? "int-max-incl" : "float-sum-excl", b, b ? CLSCAN_INCLUSIVE : CLSCAN_EXCLUSIVE, 0, 0, NULL, NULL}; ++nv;
    }
    if (getenv("SEGAB_PLAIN_AB"))
        for (int b = 0; b < 2; ++b)
            for (int d = 1; d < ndirs; ++d) {
                v[nv] = (variant){b ? "int-max-incl" : "float-sum-excl", b, b ? CLSCAN_INCLUSIVE : CLSCAN_EXCLUSIVE, 0, d, NULL, NULL}; ++nv;
            }
    for (int c = 0; c < 4; ++c) {
        if (only && !strchr(only, '0' + c)) continue;
        for (int d = 0; d < ndirs; ++d) { v[nv] = (variant){cases[c].name, cases[c].base, cases[c].kind, cases[c].seg, d, NULL, NULL}; ++nv; }
    }
    for (int i = 0; i < nv; ++i) {
        setenv("CLSCAN_KERNEL_DIR", argv[3 + v[i].dir], 1);
        v[i].plan = clscan_plan_create(ctx, dev, v[i].base ? CLSCAN_MAX : CLSCAN_SUM, v[i].base ? CLSCAN_INT32 : CLSCAN_FLOAT, v[i].kind, &err); CHECK(err);
        v[i].t = calloc(rounds, sizeof(double));
    }
    unsigned char *outs[64];
    for (int r = -1; r < rounds; ++r)
        for (int k = 0; k < nv; ++k) {
            const int i = (k + (r < 0 ? 0 : r)) % nv;
            variant *w = &v[i];
            setenv("CLSCAN_KERNEL_DIR", argv[3 + w->dir], 1);
            cl_mem src = w->base ? bi : bf;
            const double t0 = now_ms();
            if (w->seg == 0) CHECK(clscan_enqueue(w->plan, q, src, 0, bo, 0, n, 0, NULL, NULL));
            else if (w->seg == 1) CHECK(clscan_enqueue_segmented(w->plan, q, src, 0, bh, 0, bo, 0, n, 0, NULL, NULL));
            else CHECK(clscan_enqueue_by_key(w->plan, q, CLSCAN_UINT32, bk, 0, src, 0, bo, 0, n, 0, NULL, NULL));
            CHECK(clFinish(q));
            const double t1 = now_ms();
            if (r < 0) {   /* warm-up: check A against the other dirs */
                outs[i] = malloc(n * 4);
                CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * 4, outs[i], 0, NULL, NULL));
                for (int j = 0; j < i; ++j)
                    if (v[j].dir == 0 && w->dir > 0 && v[j].seg == w->seg && !strcmp(v[j].name, w->name) &&
                        !getenv("SEGAB_NOCHECK") && memcmp(outs[j], outs[i], n * 4)) { fprintf(stderr, "MISMATCH %s dir %d\n", w->name, w->dir); return 1; }
            } else
                w->t[r] = t1 - t0;
        }
    printf("n=2^%s rounds=%d\n", argv[1], rounds);
    double *ratio = malloc(rounds * sizeof(double)), *rel = malloc(rounds * sizeof(double));
    for (int i = 0; i < nv; ++i) {
        const variant *p = &v[v[i].base], *a = NULL;
        for (int j = 0; j < nv; ++j)
            if (v[j].dir == 0 && v[j].seg == v[i].seg && !strcmp(v[j].name, v[i].name)) a = &v[j];
        for (int r = 0; r < rounds; ++r) {
            ratio[r] = v[i].t[r] / p->t[r];
            rel[r] = a ? v[i].t[r] / a->t[r] : 1;
        }
        printf("%-20s %-22s median %8.3f ms  x plain %5.2f", v[i].name, argv[3 + v[i].dir], median(v[i].t, rounds),
               median(ratio, rounds));
        if (v[i].dir > 0) printf("  x A %5.2f", median(rel, rounds));
        printf("\n");
    }
    return 0;
}
