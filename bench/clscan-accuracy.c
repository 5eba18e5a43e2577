/* clscan-accuracy: the rounding error of clscan's AFFINE scans (clscan_enqueue on pairs,
 * clscan_enqueue_recurrence) and float SUM scans against the sequential loop in the same
 * precision, both measured against a reference computed in long double with compensated
 * arithmetic.  See bench/README ("Accuracy") for the method and the columns. */
#define _POSIX_C_SOURCE 200809L
#include "clscan.h"
#include "support/inputs.h"
#include "support/names.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LIST 16
#define MAX_CHECKPOINTS 16

/* The slopes a: two constants, and an array of random values around the first. */
enum { A_99999, A_999999, A_RANDOM, NA, A_TIMING = NA };
static const char *const a_names[NA] = {"0.99999", "0.999999", "random"};
enum { PATH_PAIRS, PATH_RECURRENCE, NPATHS };
static const char *const path_names[NPATHS] = {"pairs", "recurrence"};

typedef struct tuning {
    size_t wg, items;   /* 0, 0: automatic */
} tuning;

typedef struct options {
    const char *device;
    int types[2];                     /* float, double */
    int as[NA];
    int paths[NPATHS];
    int sum, affine, explain;
    size_t n;
    tuning tunings[MAX_LIST];
    int ntunings;
    clscan_algorithm algos[MAX_LIST];
    int nalgos;
    double bound;                     /* > 0: exit 1 when a scan's error exceeds bound x the loop's */
    clscan_accuracy accuracies[3];
    int naccuracies;
    int time, reps;                   /* --time: the cost of each accuracy instead */
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clscan-accuracy [options]\n"
            "  --device=D        OpenCL device: \"P:D\" indices or part of a name (default: CLSCAN_DEVICE,\n"
            "                    else the first GPU, else the first device)\n"
            "  --type=T[,T]      float, double (default both; double only with cl_khr_fp64)\n"
            "  --a=A[,A]         the slopes: 0.99999, 0.999999 (constants), random (an array uniform\n"
            "                    in [1 - 2e-5, 1)); default all three\n"
            "  --n=N             elements (default 10000000); the table reports the prefixes of\n"
            "                    10^4, 10^5, ... elements up to N, and N\n"
            "  --tuning=W:I[,..] tunings (clscan_plan_set_tuning), auto for the automatic one\n"
            "                    (default auto,8:2,32:8,256:4,1:64)\n"
            "  --algorithm=A[,A] auto, reduce-then-scan, single-pass (default the last two)\n"
            "  --path=P[,P]      pairs (clscan_enqueue: errors of the products and of y),\n"
            "                    recurrence (clscan_enqueue_recurrence: y only); default pairs\n"
            "  --sum             also float SUM of random values in [0, 1)\n"
            "  --sum-only        float SUM only\n"
            "  --explain         per AFFINE row: the first tile's product error and the drift it\n"
            "                    predicts, and a host simulation of the carries' chain\n"
            "  --accuracy=A[,A]  auto, working, compensated (clscan_plan_set_accuracy; default auto)\n"
            "  --bound=X         exit status 1 when a scan's error exceeds X times the loop's\n"
            "  --time            instead of errors: the device time (median of --reps runs after a\n"
            "                    warm-up, the accuracies' runs interleaved) of AFFINE pairs and of\n"
            "                    recurrences with a constant a and with an array of a, for each type,\n"
            "                    tuning, algorithm and accuracy (default working,compensated), at\n"
            "                    --n elements (default 2^24 here)\n"
            "  --reps=N          timed runs per measurement (default 10)\n"
            "  --help            this text\n"
            "Exit status: 0 done (and within --bound), 1 a bound exceeded or a scan failed, 2 usage or\n"
            "setup errors.\n");
}

static int split(const char *list, char items[][32], int max)
{
    int n = 0;
    const char *s = list;
    while (*s && n < max) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len >= 32)
            return -1;
        memcpy(items[n], s, len);
        items[n++][len] = '\0';
        s += len + (e != NULL);
    }
    return *s ? -1 : n;
}

static int parse_tuning(const char *s, tuning *t)
{
    if (!strcmp(s, "auto")) {
        t->wg = t->items = 0;
        return 0;
    }
    char *end;
    errno = 0;
    const unsigned long long w = strtoull(s, &end, 10);
    if (errno || end == s || *end != ':')
        return -1;
    const char *s2 = end + 1;
    const unsigned long long it = strtoull(s2, &end, 10);
    if (errno || end == s2 || *end)
        return -1;
    t->wg = (size_t)w;
    t->items = (size_t)it;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->n = 0;
    o->affine = 1;
    o->reps = 10;
    int types_set = 0, as_set = 0, paths_set = 0, tunings_set = 0, algos_set = 0;
    for (int i = 1; i < argc; ++i) {
        char name[32];
        const char *a = argv[i], *value = NULL, *eq = strchr(a, '=');
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            value = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        static const char *const with_value[] = {"--device", "--type", "--a", "--n", "--tuning",
                                                 "--algorithm", "--path", "--bound", "--accuracy", "--reps"};
        int wants = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; ++k)
            wants |= !strcmp(name, with_value[k]);
        if (wants && !value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "clscan-accuracy: %s needs a value\n", name);
                return -1;
            }
            value = argv[++i];
        } else if (!wants && value) {
            fprintf(stderr, "clscan-accuracy: %s takes no value\n", name);
            return -1;
        }
        char items[MAX_LIST][32];
        int n = wants && strcmp(name, "--device") && strcmp(name, "--n") && strcmp(name, "--bound") &&
                        strcmp(name, "--reps")
                    ? split(value, items, MAX_LIST) : 0;
        if (n < 0) {
            fprintf(stderr, "clscan-accuracy: %s: a bad list \"%s\"\n", name, value);
            return -1;
        }
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(name, "--device")) {
            o->device = value;
        } else if (!strcmp(name, "--type")) {
            types_set = 1;
            for (int k = 0; k < n; ++k) {
                if (!strcmp(items[k], "float")) o->types[0] = 1;
                else if (!strcmp(items[k], "double")) o->types[1] = 1;
                else { fprintf(stderr, "clscan-accuracy: unknown type \"%s\"\n", items[k]); return -1; }
            }
        } else if (!strcmp(name, "--a")) {
            as_set = 1;
            for (int k = 0; k < n; ++k) {
                int found = 0;
                for (int c = 0; c < NA; ++c)
                    if (!strcmp(items[k], a_names[c]))
                        o->as[c] = found = 1;
                if (!found) { fprintf(stderr, "clscan-accuracy: unknown slope \"%s\"\n", items[k]); return -1; }
            }
        } else if (!strcmp(name, "--path")) {
            paths_set = 1;
            for (int k = 0; k < n; ++k) {
                int found = 0;
                for (int c = 0; c < NPATHS; ++c)
                    if (!strcmp(items[k], path_names[c]))
                        o->paths[c] = found = 1;
                if (!found) { fprintf(stderr, "clscan-accuracy: unknown path \"%s\"\n", items[k]); return -1; }
            }
        } else if (!strcmp(name, "--n")) {
            char *end;
            errno = 0;
            const unsigned long long v = strtoull(value, &end, 10);
            if (errno || end == value || *end || v < 2 || v > ((size_t)1 << 31)) {
                fprintf(stderr, "clscan-accuracy: --n wants 2 ... 2^31, not \"%s\"\n", value);
                return -1;
            }
            o->n = (size_t)v;
        } else if (!strcmp(name, "--bound")) {
            char *end;
            o->bound = strtod(value, &end);
            if (end == value || *end || !(o->bound > 0)) {
                fprintf(stderr, "clscan-accuracy: --bound wants a positive number, not \"%s\"\n", value);
                return -1;
            }
        } else if (!strcmp(name, "--tuning")) {
            tunings_set = 1;
            o->ntunings = n;
            for (int k = 0; k < n; ++k)
                if (parse_tuning(items[k], &o->tunings[k])) {
                    fprintf(stderr, "clscan-accuracy: a bad tuning \"%s\" (W:I or auto)\n", items[k]);
                    return -1;
                }
        } else if (!strcmp(name, "--algorithm")) {
            algos_set = 1;
            o->nalgos = n;
            for (int k = 0; k < n; ++k)
                if (!sup_parse_algorithm(items[k], &o->algos[k])) {
                    fprintf(stderr, "clscan-accuracy: unknown algorithm \"%s\"\n", items[k]);
                    return -1;
                }
        } else if (!strcmp(name, "--accuracy")) {
            if (n > 3) {
                fprintf(stderr, "clscan-accuracy: at most 3 accuracies\n");
                return -1;
            }
            o->naccuracies = n;
            for (int k = 0; k < n; ++k) {
                if (!strcmp(items[k], "auto")) o->accuracies[k] = CLSCAN_ACCURACY_AUTO;
                else if (!strcmp(items[k], "working")) o->accuracies[k] = CLSCAN_ACCURACY_WORKING;
                else if (!strcmp(items[k], "compensated")) o->accuracies[k] = CLSCAN_ACCURACY_COMPENSATED;
                else { fprintf(stderr, "clscan-accuracy: unknown accuracy \"%s\"\n", items[k]); return -1; }
            }
        } else if (!strcmp(name, "--time")) {
            o->time = 1;
        } else if (!strcmp(name, "--reps")) {
            char *end;
            const long v = strtol(value, &end, 10);
            if (end == value || *end || v < 1 || v > 1000) {
                fprintf(stderr, "clscan-accuracy: --reps wants 1 ... 1000, not \"%s\"\n", value);
                return -1;
            }
            o->reps = (int)v;
        } else if (!strcmp(name, "--sum")) {
            o->sum = 1;
        } else if (!strcmp(name, "--sum-only")) {
            o->sum = 1;
            o->affine = 0;
        } else if (!strcmp(name, "--explain")) {
            o->explain = 1;
        } else {
            fprintf(stderr, "clscan-accuracy: unknown option \"%s\" (try --help)\n", a);
            return -1;
        }
    }
    if (!types_set)
        o->types[0] = o->types[1] = 1;
    if (!as_set)
        for (int c = 0; c < NA; ++c)
            o->as[c] = 1;
    if (!paths_set)
        o->paths[PATH_PAIRS] = 1;
    if (!tunings_set) {
        static const tuning defaults[] = {{0, 0}, {8, 2}, {32, 8}, {256, 4}, {1, 64}};
        o->ntunings = (int)(sizeof defaults / sizeof *defaults);
        memcpy(o->tunings, defaults, sizeof defaults);
    }
    if (!algos_set) {
        o->nalgos = 2;
        o->algos[0] = CLSCAN_ALGORITHM_REDUCE_THEN_SCAN;
        o->algos[1] = CLSCAN_ALGORITHM_SINGLE_PASS;
    }
    if (!o->naccuracies) {
        o->naccuracies = o->time ? 2 : 1;
        o->accuracies[0] = o->time ? CLSCAN_ACCURACY_WORKING : CLSCAN_ACCURACY_AUTO;
        o->accuracies[1] = CLSCAN_ACCURACY_COMPENSATED;
    }
    if (!o->n)
        o->n = o->time ? (size_t)1 << 24 : 10000000;
    if (o->time && !tunings_set)
        o->ntunings = 1;   /* the automatic tuning */
    return 0;
}

/* ---- The device ----------------------------------------------------------------------------- */

typedef struct dev {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[256], driver[256];
    int fp64;
} dev;

static int dev_open(dev *d, const char *spec)
{
    memset(d, 0, sizeof *d);
    cl_platform_id platform;
    cl_int err = clscan_default_device(spec, &platform, &d->device);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan-accuracy: %s\n", clscan_last_error());
        return -1;
    }
    clGetDeviceInfo(d->device, CL_DEVICE_NAME, sizeof d->name - 1, d->name, NULL);
    clGetDeviceInfo(d->device, CL_DRIVER_VERSION, sizeof d->driver - 1, d->driver, NULL);
    cl_device_fp_config fp64 = 0;
    d->fp64 = clGetDeviceInfo(d->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) == CL_SUCCESS &&
              fp64 != 0;
    d->context = clCreateContext(NULL, 1, &d->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        d->queue = clCreateCommandQueue(d->context, d->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan-accuracy: creating a context and a queue failed: %s\n", clscan_error_string(err));
        return -1;
    }
    return 0;
}

static void dev_close(dev *d)
{
    if (d->queue) clReleaseCommandQueue(d->queue);
    if (d->context) clReleaseContext(d->context);
    clscan_cache_clear();
}

/* ---- Inputs and the reference ------------------------------------------------------------------ */

/* Uniform in [0, 1) with 53 random bits. */
static double uniform(uint64_t *s)
{
    return (double)(sup_splitmix64(s) >> 11) / 9007199254740992.0;
}

/* The inputs of one case in the element type (s bytes per scalar): a (n values; a constant is
 * still stored n times, for the loop and the pairs) and b uniform in [0, 1).  The timings' a is
 * uniform in [1 - 1e-6, 1 + 1e-6): every product inexact, none subnormal (which CPUs compute
 * far more slowly). */
static void make_inputs(int type_double, int acase, size_t n, void *a, void *b)
{
    uint64_t s = 0xACC0FEEDull ^ ((uint64_t)acase << 40) ^ ((uint64_t)type_double << 48);
    for (size_t i = 0; i < n; ++i) {
        const double av = acase == A_99999    ? 0.99999
                          : acase == A_999999 ? 0.999999
                          : acase == A_RANDOM ? 1.0 - 2e-5 * uniform(&s)
                                              : 1.0 + 1e-6 * (2 * uniform(&s) - 1);
        const double bv = uniform(&s);
        if (type_double) {
            ((double *)a)[i] = av;
            ((double *)b)[i] = bv;
        } else {
            ((float *)a)[i] = (float)av;
            ((float *)b)[i] = (float)bv;
        }
    }
}

static long double get(int type_double, const void *p, size_t i)
{
    return type_double ? (long double)((const double *)p)[i] : (long double)((const float *)p)[i];
}

/* The exact products A[i] = a[0] ... a[i] and y[i] = a[i] y[i-1] + b[i] (y[-1] = 0), to about
 * the unit roundoff of long double: the compensated product (S. Graillat, "Accurate floating-
 * point product and exponentiation", IEEE Trans. Computers 58(7), 2009) and the compensated
 * Horner scheme (S. Graillat, Ph. Langlois, N. Louvet, "Compensated Horner scheme", 2005) with
 * the error-free transformations TwoProduct (by fmal) and TwoSum (D. E. Knuth). */
static void reference(int type_double, const void *a, const void *b, size_t n, long double *ra, long double *ry)
{
    long double p = 1, pc = 0, y = 0, yc = 0;
    for (size_t i = 0; i < n; ++i) {
        const long double ai = get(type_double, a, i), bi = get(type_double, b, i);
        const long double q = p * ai, qe = fmal(p, ai, -q);
        pc = pc * ai + qe;
        p = q;
        ra[i] = p + pc;
        const long double t = y * ai, te = fmal(y, ai, -t);
        const long double s = t + bi, z = s - t, se = (t - (s - z)) + (bi - z);
        yc = yc * ai + (te + se);
        y = s;
        ry[i] = y + yc;
    }
}

/* Relative errors below this reference are not counted: subnormal products have no relative
 * accuracy (nor would the low part of a double-word product). */
static long double floor_of(int type_double)
{
    return type_double ? (long double)DBL_MIN / DBL_EPSILON : (long double)FLT_MIN / FLT_EPSILON;
}

static long double rel(long double got, long double want)
{
    const long double e = fabsl(got - want) / fabsl(want);
    return isnan(e) ? INFINITY : e;
}

/* The checkpoints: 10^4, 10^5, ... below n, and n. */
static int checkpoints(size_t n, size_t *cp)
{
    int k = 0;
    for (size_t c = 10000; c < n && k < MAX_CHECKPOINTS - 1; c *= 10)
        cp[k++] = c;
    cp[k++] = n;
    return k;
}

/* Max relative errors over each prefix: of the products (NULL got_a: none) and of y. */
typedef struct errors {
    long double a[MAX_CHECKPOINTS], y[MAX_CHECKPOINTS];
} errors;

static void measure(int type_double, const void *got_a, const void *got_y, size_t stride, const long double *ra,
                    const long double *ry, const size_t *cp, int ncp, errors *e)
{
    const long double lo = floor_of(type_double);
    long double ma = 0, my = 0;
    size_t i = 0;
    for (int k = 0; k < ncp; ++k) {
        for (; i < cp[k]; ++i) {
            if (got_a && fabsl(ra[i]) >= lo) {
                const long double x = rel(get(type_double, got_a, i * stride), ra[i]);
                ma = x > ma ? x : ma;
            }
            if (fabsl(ry[i]) >= lo) {
                const long double x = rel(get(type_double, got_y, i * stride), ry[i]);
                my = x > my ? x : my;
            }
        }
        e->a[k] = got_a ? ma : NAN;
        e->y[k] = my;
    }
}

/* The sequential loop in the element type, each product and sum rounded on its own (volatile:
 * never contracted into an fma), as clscan(3) defines the operator: out holds pairs (A, y). */
static void loop(int type_double, const void *a, const void *b, size_t n, void *out)
{
    if (type_double) {
        double p = 1, y = 0;
        for (size_t i = 0; i < n; ++i) {
            const double ai = ((const double *)a)[i];
            volatile double t = ai * y;
            p = ai * p;
            y = t + ((const double *)b)[i];
            ((double *)out)[2 * i] = p;
            ((double *)out)[2 * i + 1] = y;
        }
    } else {
        float p = 1, y = 0;
        for (size_t i = 0; i < n; ++i) {
            const float ai = ((const float *)a)[i];
            volatile float t = ai * y;
            p = ai * p;
            y = t + ((const float *)b)[i];
            ((float *)out)[2 * i] = p;
            ((float *)out)[2 * i + 1] = y;
        }
    }
}

/* ---- Plans and scans ----------------------------------------------------------------------------- */

static clscan_plan *make_plan(dev *d, clscan_op op, clscan_type type, const tuning *t, clscan_algorithm algo,
                              clscan_accuracy accuracy)
{
    cl_int err;
    clscan_plan *plan = clscan_plan_create(d->context, d->device, op, type, CLSCAN_INCLUSIVE, &err);
    if (plan && (t->wg || t->items))
        err = clscan_plan_set_tuning(plan, t->wg, t->items);
    if (plan && err == CL_SUCCESS)
        err = clscan_plan_set_algorithm(plan, algo);
    if (plan && err == CL_SUCCESS && accuracy != CLSCAN_ACCURACY_AUTO)
        err = clscan_plan_set_accuracy(plan, accuracy);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan-accuracy: a plan of %s %s, tuning %zu:%zu: %s\n", sup_op_name(op),
                sup_type_name(type), t->wg, t->items, clscan_last_error());
        clscan_plan_release(plan);
        return NULL;
    }
    return plan;
}

static cl_mem buffer(dev *d, size_t bytes, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(d->context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              (void *)host, &err);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-accuracy: clCreateBuffer of %zu bytes: %s\n", bytes, clscan_error_string(err));
    return m;
}

/* Scans the case on plan: pairs (src holds them) into out (pairs), or the recurrence (abuf the
 * array of a, or a_const; bbuf b) into out (y only). */
static cl_int run_scan(dev *d, clscan_plan *plan, int path, cl_mem src, cl_mem abuf, const void *a_const,
                       cl_mem bbuf, cl_mem dst, size_t n, size_t bytes, void *out)
{
    cl_int err = path == PATH_PAIRS
                     ? clscan_enqueue(plan, d->queue, src, 0, dst, 0, n, 0, NULL, NULL)
                     : clscan_enqueue_recurrence(plan, d->queue, a_const ? NULL : abuf, 0, a_const, bbuf, 0, dst, 0,
                                                 n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, dst, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-accuracy: the scan failed: %s\n", clscan_last_error());
    return err;
}

/* ---- Explaining the drift -------------------------------------------------------------------- */

/* The first full tile's product (the scan's output at its last element, whose carry is the
 * neutral element) against the reference: its relative error d, signed.  With a constant, every
 * full tile has these bits, and the carry after k tiles composes k of them: a drift of about
 * k d.  The host then chains k copies of the tile's product, C = C * P rounded each time, for
 * three P: the scan's tile product, the correctly rounded a^T, and a^T as a double-word
 * hi + lo with C = fma(C, hi, C * lo) (one rounding of C (hi + lo)): the first two drift
 * linearly (the second by less: half an ulp at most per tile), the last does not. */
static void explain(int type_double, const void *out, const long double *ra, size_t n, size_t tile, double a)
{
    if (tile >= n)
        return;
    const long double pt = get(type_double, out, 2 * (tile - 1)), exact = ra[tile - 1];
    const long double d = (pt - exact) / exact;
    const size_t k = n / tile;
    const long double last = get(type_double, out, 2 * (k * tile - 1)), want = ra[k * tile - 1];
    printf("#   tile %zu: the first tile's product has relative error %+.3Le (%.2Lf ulp); %zu tiles predict "
           "%+.3Le at element %zu, the scan has %+.3Le\n", tile, d, d / (type_double ? DBL_EPSILON / 2 : FLT_EPSILON / 2),
           k, (long double)k * d, k * tile - 1, (last - want) / want);
    if (a == 0)
        return;   /* the chain below needs every tile alike: a constant */
    const long double exact_t = powl((long double)a, (long double)tile);
    const double hi = type_double ? (double)exact_t : (double)(float)exact_t;
    const double lo = type_double ? (double)(exact_t - hi) : (double)(float)(exact_t - hi);
    const long double chain_exact = ra[k * tile - 1];
    double c_scan = 1, c_round = 1, c_dw = 1;
    const double p_scan = (double)pt;
    for (size_t j = 0; j < k; ++j) {
        if (type_double) {
            c_scan = c_scan * p_scan;
            c_round = c_round * hi;
            c_dw = fma(c_dw, hi, c_dw * lo);
        } else {
            c_scan = (float)((float)c_scan * (float)p_scan);
            c_round = (float)((float)c_round * (float)hi);
            c_dw = fmaf((float)c_dw, (float)hi, (float)c_dw * (float)lo);
        }
    }
    printf("#   host chain C = C * P of %zu tiles: P the scan's %+.3Le, a^T rounded %+.3Le, a^T double-word "
           "(fma(C, hi, C * lo)) %+.3Le\n", k,
           (c_scan - chain_exact) / chain_exact, (c_round - chain_exact) / chain_exact,
           (c_dw - chain_exact) / chain_exact);
}

/* ---- The tables --------------------------------------------------------------------------------- */

static int exceeded;   /* a ratio above --bound */

static void ratio_field(char *s, size_t size, long double scan, long double loop, double bound)
{
    if (isnan(scan)) {
        snprintf(s, size, "-");
        return;
    }
    const long double r = loop > 0 ? scan / loop : scan > 0 ? INFINITY : 1;
    snprintf(s, size, "%.2Lf%s", r, bound > 0 && r > bound ? "!" : "");
    if (bound > 0 && r > bound)
        exceeded = 1;
}

/* The summary: per type, slope, path and accuracy, the rows with the largest ratio to the loop
 * (products and y) over the tunings, algorithms and counts. */
typedef struct worst {
    char key[64];
    long double ratio[2], scan[2], loop[2];
    char where[2][64];
} worst;
static worst worsts[64];
static int nworsts;

static void note_worst(const char *key, int which, long double scan, long double loop, size_t n, const char *tune,
                       const char *algo)
{
    if (isnan(scan))
        return;
    int w = 0;
    while (w < nworsts && strcmp(worsts[w].key, key))
        ++w;
    if (w == nworsts) {
        if (nworsts == (int)(sizeof worsts / sizeof *worsts))
            return;
        memset(&worsts[w], 0, sizeof worsts[w]);
        snprintf(worsts[w].key, sizeof worsts[w].key, "%s", key);
        worsts[w].ratio[0] = worsts[w].ratio[1] = -1;
        ++nworsts;
    }
    const long double r = loop > 0 ? scan / loop : scan > 0 ? INFINITY : 1;
    if (r > worsts[w].ratio[which]) {
        worsts[w].ratio[which] = r;
        worsts[w].scan[which] = scan;
        worsts[w].loop[which] = loop;
        snprintf(worsts[w].where[which], sizeof worsts[w].where[which], "%zu %s %s", n, tune, algo);
    }
}

static void print_worsts(void)
{
    printf("# worst ratio to the loop over the tunings, algorithms and counts above (scan and loop errors, where)\n");
    printf("%-33s  %7s %9s %9s %-30s  %7s %9s %9s %s\n", "type a path accuracy", "xA", "A_scan", "A_loop", "at",
           "xy", "y_scan", "y_loop", "at");
    for (int w = 0; w < nworsts; ++w) {
        char a[96] = "-";
        if (worsts[w].ratio[0] >= 0)
            snprintf(a, sizeof a, "%7.2Lf %9.2Le %9.2Le %-30s", worsts[w].ratio[0], worsts[w].scan[0],
                     worsts[w].loop[0], worsts[w].where[0]);
        else
            snprintf(a, sizeof a, "%7s %9s %9s %-30s", "-", "-", "-", "");
        printf("%-33s  %s  %7.2Lf %9.2Le %9.2Le %s\n", worsts[w].key, a, worsts[w].ratio[1], worsts[w].scan[1],
               worsts[w].loop[1], worsts[w].where[1]);
    }
}

static void print_rows(const char *type, const char *a, const char *tune, const char *algo, const char *path,
                       const char *acc, size_t tile, const size_t *cp, int ncp, const errors *scan, const errors *lp,
                       double bound)
{
    char key[64];
    snprintf(key, sizeof key, "%s %s %s %s", type, a, path, acc);
    for (int k = 0; k < ncp; ++k) {
        note_worst(key, 0, scan->a[k], lp->a[k], cp[k], tune, algo);
        note_worst(key, 1, scan->y[k], lp->y[k], cp[k], tune, algo);
        char ra[32], ry[32], ea[32];
        ratio_field(ra, sizeof ra, scan->a[k], lp->a[k], bound);
        ratio_field(ry, sizeof ry, scan->y[k], lp->y[k], bound);
        if (isnan(scan->a[k]))
            snprintf(ea, sizeof ea, "-");
        else
            snprintf(ea, sizeof ea, "%.2Le", scan->a[k]);
        char la[32];
        if (isnan(lp->a[k]))
            snprintf(la, sizeof la, "-");
        else
            snprintf(la, sizeof la, "%.2Le", lp->a[k]);
        printf("%-6s %-8s %9zu %-8s %-16s %-10s %-5s %8zu  %9s %9s %7s  %9.2Le %9.2Le %7s\n", type, a, cp[k], tune,
               algo, path, acc, (cp[k] + tile - 1) / tile, ea, la, ra, scan->y[k], lp->y[k], ry);
    }
}

static void table_head(void)
{
    printf("%-6s %-8s %9s %-8s %-16s %-10s %-5s %8s  %9s %9s %7s  %9s %9s %7s\n", "type", "a", "n", "tuning",
           "algorithm", "path", "acc", "tiles", "A_scan", "A_loop", "xA", "y_scan", "y_loop", "xy");
}

static void tune_name(char *s, size_t size, clscan_plan *plan, const tuning *t)
{
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    if (t->wg || t->items)
        snprintf(s, size, "%zu:%zu", wg, items);
    else
        snprintf(s, size, "a%zu:%zu", wg, items);
}

static const char *accuracy_name(clscan_accuracy a)
{
    return a == CLSCAN_ACCURACY_COMPENSATED ? "comp" : a == CLSCAN_ACCURACY_WORKING ? "work" : "auto";
}

/* The rows of one plan: each path's scan, its errors, and the explanation if asked for. */
static int affine_rows(dev *d, const options *o, clscan_plan *plan, int type_double, int ac, cl_mem src, cl_mem abuf,
                       cl_mem bbuf, cl_mem dst, void *out, const long double *ra, const long double *ry,
                       const size_t *cp, int ncp, const errors *lp, const tuning *t)
{
    const size_t n = o->n, s = type_double ? 8 : 4;
    char tune[32];
    tune_name(tune, sizeof tune, plan, t);
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    const char *algo = sup_algorithm_name(clscan_plan_get_algorithm(plan));
    const void *a_const = NULL;
    double a = 0;
    if (ac != A_RANDOM) {
        a = ac == A_99999 ? 0.99999 : 0.999999;
        a = type_double ? a : (double)(float)a;
        a_const = &a;
        if (!type_double) {
            static float af;
            af = (float)a;
            a_const = &af;
        }
    }
    for (int p = 0; p < NPATHS; ++p) {
        if (!o->paths[p])
            continue;
        errors e;
        if (run_scan(d, plan, p, src, abuf, a_const, bbuf, dst, n, (p == PATH_PAIRS ? 2 : 1) * n * s, out) !=
            CL_SUCCESS)
            return 0;
        if (p == PATH_PAIRS)
            measure(type_double, out, (char *)out + s, 2, ra, ry, cp, ncp, &e);
        else
            measure(type_double, NULL, out, 1, ra, ry, cp, ncp, &e);
        print_rows(type_double ? "double" : "float", a_names[ac], tune, algo, path_names[p],
                   accuracy_name(clscan_plan_get_accuracy(plan)), wg * items, cp, ncp, &e, lp, o->bound);
        if (o->explain && p == PATH_PAIRS)
            explain(type_double, out, ra, n, wg * items, a);
        fflush(stdout);
    }
    return 1;
}

static int run_affine(dev *d, const options *o, int type_double)
{
    const clscan_type type = type_double ? CLSCAN_DOUBLE : CLSCAN_FLOAT;
    const size_t n = o->n, s = type_double ? 8 : 4;
    size_t cp[MAX_CHECKPOINTS];
    const int ncp = checkpoints(n, cp);
    void *a = malloc(n * s), *b = malloc(n * s), *pairs = malloc(2 * n * s), *out = malloc(2 * n * s);
    long double *ra = malloc(n * sizeof *ra), *ry = malloc(n * sizeof *ry);
    if (!a || !b || !pairs || !out || !ra || !ry) {
        fprintf(stderr, "clscan-accuracy: out of host memory for %zu elements\n", n);
        free(a), free(b), free(pairs), free(out), free(ra), free(ry);
        return 0;
    }
    int ok = 1;
    for (int ac = 0; ac < NA && ok; ++ac) {
        if (!o->as[ac])
            continue;
        make_inputs(type_double, ac, n, a, b);
        for (size_t i = 0; i < n; ++i) {
            memcpy((char *)pairs + 2 * i * s, (char *)a + i * s, s);
            memcpy((char *)pairs + (2 * i + 1) * s, (char *)b + i * s, s);
        }
        reference(type_double, a, b, n, ra, ry);
        errors lp;
        loop(type_double, a, b, n, out);
        measure(type_double, out, (char *)out + s, 2, ra, ry, cp, ncp, &lp);
        cl_mem src = buffer(d, 2 * n * s, pairs), abuf = buffer(d, n * s, a), bbuf = buffer(d, n * s, b);
        cl_mem dst = buffer(d, 2 * n * s, NULL);
        if (!src || !abuf || !bbuf || !dst)
            ok = 0;
        for (int ti = 0; ti < o->ntunings && ok; ++ti) {
            for (int al = 0; al < o->nalgos && ok; ++al) {
                for (int ax = 0; ax < o->naccuracies && ok; ++ax) {
                    clscan_plan *plan = make_plan(d, CLSCAN_AFFINE, type, &o->tunings[ti], o->algos[al],
                                                  o->accuracies[ax]);
                    if (!plan) {
                        ok = 0;
                        break;
                    }
                    ok = affine_rows(d, o, plan, type_double, ac, src, abuf, bbuf, dst, out, ra, ry, cp, ncp, &lp,
                                     &o->tunings[ti]);
                    clscan_plan_release(plan);
                }
            }
        }
        if (src) clReleaseMemObject(src);
        if (abuf) clReleaseMemObject(abuf);
        if (bbuf) clReleaseMemObject(bbuf);
        if (dst) clReleaseMemObject(dst);
    }
    free(a), free(b), free(pairs), free(out), free(ra), free(ry);
    return ok;
}

/* Float SUM of values uniform in [0, 1): the prefix sums against the long double loop (exact to
 * far below float's rounding: n u of long double), the float loop alike. */
static int run_sum(dev *d, const options *o)
{
    const size_t n = o->n;
    size_t cp[MAX_CHECKPOINTS];
    const int ncp = checkpoints(n, cp);
    float *x = malloc(n * sizeof *x), *out = malloc(n * sizeof *out);
    long double *ref = malloc(n * sizeof *ref), *zero = calloc(n, sizeof *zero);
    int ok = x && out && ref && zero;
    if (ok) {
        uint64_t s = 0x5CA115ull;
        long double acc = 0;
        float f = 0;
        for (size_t i = 0; i < n; ++i) {
            x[i] = (float)uniform(&s);
            acc += x[i];
            ref[i] = acc;
            f += x[i];
            out[i] = f;
        }
    }
    errors lp, e;
    /* measure() reads pairs (A, y): give it the sums as y, with stride 1 and no products. */
    if (ok)
        measure(0, NULL, out, 1, zero, ref, cp, ncp, &lp);
    cl_mem src = ok ? buffer(d, n * sizeof *x, x) : NULL, dst = ok ? buffer(d, n * sizeof *x, NULL) : NULL;
    ok = ok && src && dst;
    for (int ti = 0; ti < o->ntunings && ok; ++ti) {
        for (int al = 0; al < o->nalgos && ok; ++al) {
            clscan_plan *plan = make_plan(d, CLSCAN_SUM, CLSCAN_FLOAT, &o->tunings[ti], o->algos[al],
                                          CLSCAN_ACCURACY_AUTO);
            if (!plan) {
                ok = 0;
                break;
            }
            char tune[32];
            tune_name(tune, sizeof tune, plan, &o->tunings[ti]);
            size_t wg = 0, items = 0;
            clscan_plan_get_tuning(plan, &wg, &items);
            cl_int err = clscan_enqueue(plan, d->queue, src, 0, dst, 0, n, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = clEnqueueReadBuffer(d->queue, dst, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL);
            if (err != CL_SUCCESS) {
                fprintf(stderr, "clscan-accuracy: the float SUM scan failed: %s\n", clscan_last_error());
                ok = 0;
            } else {
                measure(0, NULL, out, 1, zero, ref, cp, ncp, &e);
                for (int k = 0; k < ncp; ++k) {
                    e.a[k] = NAN;
                    lp.a[k] = NAN;
                }
                print_rows("float", "sum", tune, sup_algorithm_name(clscan_plan_get_algorithm(plan)), "sum", "-",
                           wg * items, cp, ncp, &e, &lp, o->bound);
                fflush(stdout);
            }
            clscan_plan_release(plan);
        }
    }
    if (src) clReleaseMemObject(src);
    if (dst) clReleaseMemObject(dst);
    free(x), free(out), free(ref), free(zero);
    return ok;
}

/* ---- The cost ------------------------------------------------------------------------------------ */

static int compare_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The device time of one scan: a marker's end to the end of the scan's last kernel (in order;
 * bench/README: an upper bound of the kernels' span). */
static cl_int timed(dev *d, clscan_plan *plan, int path, cl_mem src, cl_mem abuf, const void *a_const, cl_mem bbuf,
                    cl_mem dst, size_t n, double *ms)
{
    cl_event marker = NULL, ev = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(d->queue, 0, NULL, &marker);
    if (err == CL_SUCCESS)
        err = path == PATH_PAIRS ? clscan_enqueue(plan, d->queue, src, 0, dst, 0, n, 0, NULL, &ev)
                                 : clscan_enqueue_recurrence(plan, d->queue, a_const ? NULL : abuf, 0, a_const, bbuf,
                                                             0, dst, 0, n, NULL, 0, NULL, &ev);
    if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &ev);
    cl_ulong t0 = 0, t1 = 0;
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    *ms = (double)(t1 - t0) / 1e6;
    if (marker) clReleaseEvent(marker);
    if (ev) clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        fprintf(stderr, "clscan-accuracy: a timed scan failed: %s (%s)\n", clscan_error_string(err), clscan_last_error());
    return err;
}

/* --time: AFFINE pairs, and recurrences with a constant and with an array of a, at n elements,
 * each accuracy's median of reps runs; the runs of the accuracies alternate, so that a shared
 * machine's load falls on all of them alike. */
static int run_time(dev *d, const options *o)
{
    const size_t n = o->n;
    int ok = 1;
    printf("%-6s %-14s %-9s %-16s", "type", "path", "tuning", "algorithm");
    for (int ax = 0; ax < o->naccuracies; ++ax)
        printf(" %9s_ms", accuracy_name(o->accuracies[ax]));
    printf(" %8s\n", o->naccuracies > 1 ? "ratio" : "");
    for (int td = 0; td < 2 && ok; ++td) {
        if (!o->types[td] || (td && !d->fp64))
            continue;
        const clscan_type type = td ? CLSCAN_DOUBLE : CLSCAN_FLOAT;
        const size_t s = td ? 8 : 4;
        void *a = malloc(n * s), *b = malloc(n * s), *pairs = malloc(2 * n * s);
        if (!a || !b || !pairs) {
            fprintf(stderr, "clscan-accuracy: out of host memory for %zu elements\n", n);
            free(a), free(b), free(pairs);
            return 0;
        }
        make_inputs(td, A_TIMING, n, a, b);
        for (size_t i = 0; i < n; ++i) {
            memcpy((char *)pairs + 2 * i * s, (char *)a + i * s, s);
            memcpy((char *)pairs + (2 * i + 1) * s, (char *)b + i * s, s);
        }
        cl_mem src = buffer(d, 2 * n * s, pairs), abuf = buffer(d, n * s, a), bbuf = buffer(d, n * s, b);
        cl_mem dst = buffer(d, 2 * n * s, NULL);
        ok = src && abuf && bbuf && dst;
        for (int ti = 0; ti < o->ntunings && ok; ++ti) {
            for (int al = 0; al < o->nalgos && ok; ++al) {
                clscan_plan *plans[3] = {NULL, NULL, NULL};
                for (int ax = 0; ax < o->naccuracies && ok; ++ax)
                    ok = (plans[ax] = make_plan(d, CLSCAN_AFFINE, type, &o->tunings[ti], o->algos[al],
                                                o->accuracies[ax])) != NULL;
                static const char *const what[3] = {"pairs", "rec-array-a", "rec-const-a"};
                for (int w = 0; w < 3 && ok; ++w) {
                    const int path = w == 0 ? PATH_PAIRS : PATH_RECURRENCE;
                    const void *a_const = w == 2 ? a : NULL;
                    double ms[3][1000], med[3];
                    for (int ax = 0; ax < o->naccuracies && ok; ++ax)   /* warm-up: builds, scratch */
                        ok = timed(d, plans[ax], path, src, abuf, a_const, bbuf, dst, n, &ms[ax][0]) == CL_SUCCESS;
                    for (int r = 0; r < o->reps && ok; ++r)
                        for (int ax = 0; ax < o->naccuracies && ok; ++ax)
                            ok = timed(d, plans[ax], path, src, abuf, a_const, bbuf, dst, n, &ms[ax][r]) ==
                                 CL_SUCCESS;
                    if (!ok)
                        break;
                    char tune[32];
                    tune_name(tune, sizeof tune, plans[0], &o->tunings[ti]);
                    printf("%-6s %-14s %-9s %-16s", td ? "double" : "float", what[w], tune,
                           sup_algorithm_name(clscan_plan_get_algorithm(plans[0])));
                    for (int ax = 0; ax < o->naccuracies; ++ax) {
                        qsort(ms[ax], (size_t)o->reps, sizeof ms[ax][0], compare_double);
                        med[ax] = o->reps % 2 ? ms[ax][o->reps / 2]
                                              : (ms[ax][o->reps / 2 - 1] + ms[ax][o->reps / 2]) / 2;
                        printf(" %12.3f", med[ax]);
                    }
                    if (o->naccuracies > 1)
                        printf(" %8.2f", med[o->naccuracies - 1] / med[0]);
                    printf("\n");
                    fflush(stdout);
                }
                for (int ax = 0; ax < 3; ++ax)
                    clscan_plan_release(plans[ax]);
            }
        }
        if (src) clReleaseMemObject(src);
        if (abuf) clReleaseMemObject(abuf);
        if (bbuf) clReleaseMemObject(bbuf);
        if (dst) clReleaseMemObject(dst);
        free(a), free(b), free(pairs);
    }
    return ok;
}

int main(int argc, char **argv)
{
    options o;
    const int pr = parse_options(argc, argv, &o);
    if (pr)
        return pr > 0 ? 0 : 2;
    dev d;
    if (dev_open(&d, o.device)) {
        dev_close(&d);
        return 2;
    }
    char date[64];
    const time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", &tm);
    printf("# clscan-accuracy, clscan %s\n# device: %s; driver %s\n# date: %s\n# command:", clscan_version_string(),
           d.name, d.driver, date);
    for (int i = 0; i < argc; ++i)
        printf(" %s", argv[i]);
    if (o.time) {
        printf("\n# device time in ms (a marker's end to the scan's last kernel's end), median of %d runs after a "
               "warm-up; %zu elements; a random in [1 - 1e-6, 1 + 1e-6), b in [0, 1); ratio: last accuracy / first\n",
               o.reps, o.n);
        const int ok = run_time(&d, &o);
        dev_close(&d);
        return ok ? 0 : 1;
    }
    printf("\n# max relative error over the first n elements against a compensated long double reference\n"
           "# (all terms positive: relative = normalised by the sum of the magnitudes); A: the products\n"
           "# (where the reference is above %g (float) / %g (double)), y: the recurrence; _scan: clscan,\n"
           "# _loop: the sequential loop in the same precision; x: scan / loop; tuning aW:I is automatic\n",
           (double)floor_of(0), (double)floor_of(1));
    table_head();
    int ok = 1;
    if (o.affine && o.types[0])
        ok &= run_affine(&d, &o, 0);
    if (o.affine && o.types[1]) {
        if (d.fp64)
            ok &= run_affine(&d, &o, 1);
        else
            printf("# double: the device has no cl_khr_fp64\n");
    }
    if (o.sum)
        ok &= run_sum(&d, &o);
    print_worsts();
    dev_close(&d);
    if (exceeded)
        printf("# some scan's error exceeds %g times the loop's (marked !)\n", o.bound);
    return ok && !exceeded ? 0 : 1;
}
