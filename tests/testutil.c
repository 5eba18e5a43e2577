#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

tu_env tu;
uint64_t tu_seed;

const clscan_op tu_ops[TU_NOPS] = {CLSCAN_SUM, CLSCAN_MAX, CLSCAN_MIN, CLSCAN_LAST_NONZERO, CLSCAN_AFFINE};
const clscan_type tu_types[TU_NTYPES] = {CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64,
                                         CLSCAN_UINT64, CLSCAN_FLOAT, CLSCAN_DOUBLE};

/* ---- Random numbers: xoshiro256**, one state per thread ---------------------------------- */

static _Thread_local uint64_t rng[4];
static _Thread_local bool rng_seeded;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_seed(uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng[i] = splitmix(&seed);
    rng_seeded = true;
}

uint64_t tu_rand(void)
{
    if (!rng_seeded) {
        static _Atomic unsigned threads;
        rng_seed(tu_seed ^ (0x51ed2701u * ++threads));
    }
    uint64_t r = rng[1] * 5;
    r = ((r << 7) | (r >> 57)) * 9;
    uint64_t t = rng[1] << 17;
    rng[2] ^= rng[0];
    rng[3] ^= rng[1];
    rng[1] ^= rng[2];
    rng[0] ^= rng[3];
    rng[2] ^= t;
    rng[3] = (rng[3] << 45) | (rng[3] >> 19);
    return r;
}

uint64_t tu_rand_below(uint64_t n)
{
    return tu_rand() % n;
}

void tu_fill_bytes(void *p, size_t bytes)
{
    unsigned char *b = p;
    for (size_t i = 0; i < bytes; i++)
        b[i] = (unsigned char)tu_rand();
}

/* ---- Setup ---------------------------------------------------------------------------------- */

static bool any_device(void)
{
    cl_uint np = 0;
    cl_platform_id plats[16];
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0)
        return false;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS && nd > 0)
            return true;
    }
    return false;
}

void tu_open(const char *program)
{
    const char *s = getenv("CLSCAN_TEST_SEED");
    tu_seed = s && *s ? strtoull(s, NULL, 0) : ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20));
    rng_seed(tu_seed);
    printf("%s: seed %" PRIu64 " (set CLSCAN_TEST_SEED=%" PRIu64 " to repeat)\n", program, tu_seed, tu_seed);
    fflush(stdout);

    cl_int err = clscan_default_device(NULL, &tu.platform, &tu.device);
    if (err != CL_SUCCESS) {
        if (!any_device()) {
            const char *ci = getenv("CI");
            if (ci && *ci) {
                fprintf(stderr, "%s: FAIL: no OpenCL device found, but CI is set (CI=%s) and CI "
                        "machines must have one (clscan_default_device: %s)\n",
                        program, ci, clscan_error_string(err));
                exit(1);
            }
            fprintf(stderr, "%s: SKIP: no OpenCL device found (clscan_default_device: %s)\n",
                    program, clscan_error_string(err));
            exit(77);
        }
        fprintf(stderr, "%s: clscan_default_device(NULL) failed although a device exists: %s: %s\n",
                program, clscan_error_string(err), clscan_last_error());
        exit(1);
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tu.platform, 0};
    tu.context = clCreateContext(props, 1, &tu.device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        tu.queue = clCreateCommandQueue(tu.context, tu.device, 0, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: setup error: cannot create a context and queue: %d\n", program, (int)err);
        exit(99);
    }
    char name[256] = "";
    clGetDeviceInfo(tu.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    printf("%s: device: %s\n", program, name);
    fflush(stdout);
}

typedef struct plan_entry {
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    size_t wg, items;
    clscan_algorithm algo;
    clscan_plan *plan;
} plan_entry;

static plan_entry plans[512];
static size_t nplans;

void tu_close(void)
{
    for (size_t i = 0; i < nplans; i++)
        clscan_plan_release(plans[i].plan);
    nplans = 0;
    if (tu.queue)
        clReleaseCommandQueue(tu.queue);
    if (tu.context)
        clReleaseContext(tu.context);
    tu.queue = NULL;
    tu.context = NULL;
    clscan_cache_clear();
}

int tu_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    /* No fork: the tests share the device, the plans and the library's program cache. */
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        printf("%d test(s) failed; seed %" PRIu64 " (CLSCAN_TEST_SEED=%" PRIu64 " repeats them)\n",
               failed, tu_seed, tu_seed);
    return failed ? 1 : 0;
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "\nwatchdog: the test program hung; aborting\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to do */
    }
    _exit(1);
}

void tu_watchdog(unsigned seconds)
{
    const char *env = getenv("CLSCAN_TEST_TIMEOUT"); /* seconds; 0 turns the watchdog off */
    if (env && *env)
        seconds = (unsigned)strtoul(env, NULL, 10);
    if (seconds) {
        signal(SIGALRM, on_alarm);
        alarm(seconds);
    }
}

/* ---- Names and sizes ------------------------------------------------------------------------ */

const char *tu_op_name(clscan_op op)
{
    static const char *n[] = {"SUM", "MAX", "MIN", "LAST_NONZERO", "AFFINE"};
    return (unsigned)op < 5 ? n[op] : "?op";
}

const char *tu_type_name(clscan_type type)
{
    static const char *n[] = {"int32", "uint32", "int64", "uint64", "float", "double"};
    return (unsigned)type < 6 ? n[type] : "?type";
}

const char *tu_kind_name(clscan_kind kind)
{
    return kind == CLSCAN_INCLUSIVE ? "inclusive" : kind == CLSCAN_EXCLUSIVE ? "exclusive" : "?kind";
}

size_t tu_scalar_size(clscan_type type)
{
    switch (type) {
    case CLSCAN_INT32: case CLSCAN_UINT32: case CLSCAN_FLOAT: return 4;
    case CLSCAN_INT64: case CLSCAN_UINT64: case CLSCAN_DOUBLE: return 8;
    }
    return 0;
}

size_t tu_elem_size(clscan_op op, clscan_type type)
{
    return tu_scalar_size(type) * (op == CLSCAN_AFFINE ? 2 : 1);
}

static bool is_float(clscan_type type)
{
    return type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE;
}

/* ---- The reference scan ----------------------------------------------------------------------- */

#define IADD(T, UT, a, b) ((T)((UT)(a) + (UT)(b)))
#define IMUL(T, UT, a, b) ((T)((UT)(a) * (UT)(b)))
#define FADD(T, UT, a, b) ((a) + (b))
#define FMUL(T, UT, a, b) ((a) * (b))
#define IMAX(a, b) ((b) > (a) ? (b) : (a))
#define IMIN(a, b) ((b) < (a) ? (b) : (a))
/* IEEE 754-2019 maximum / minimum: the first NaN wins, -0.0 < +0.0. */
#define FMAX(a, b) (isnan(a) ? (a) : isnan(b) ? (b) \
                    : ((b) > (a) || ((b) == (a) && signbit(a) && !signbit(b))) ? (b) : (a))
#define FMIN(a, b) (isnan(a) ? (a) : isnan(b) ? (b) \
                    : ((b) < (a) || ((b) == (a) && signbit(b) && !signbit(a))) ? (b) : (a))

#define DEFINE_REFERENCE(NAME, T, UT, ADD, MUL, MAXF, MINF, LOWEST, HIGHEST)                  \
    static T NAME##_comb(clscan_op op, T a, T b)                                            \
    {                                                                                       \
        switch (op) {                                                                       \
        case CLSCAN_SUM: return ADD(T, UT, a, b);                                           \
        case CLSCAN_MAX: return MAXF(a, b);                                                 \
        case CLSCAN_MIN: return MINF(a, b);                                                 \
        default: return b != 0 ? b : a; /* LAST_NONZERO */                                  \
        }                                                                                   \
    }                                                                                       \
    static void NAME##_reference(clscan_op op, bool incl, const void *xv, void *yv, size_t n) \
    {                                                                                       \
        const T *x = xv;                                                                    \
        T *y = yv;                                                                          \
        if (op == CLSCAN_AFFINE) {                                                          \
            T pa = 1, pb = 0; /* comb(p, c) = (c.a*p.a, c.a*p.b + c.b) */                   \
            for (size_t i = 0; i < n; i++) {                                                \
                T ca = x[2 * i], cb = x[2 * i + 1];                                         \
                if (!incl) {                                                                \
                    y[2 * i] = pa;                                                          \
                    y[2 * i + 1] = pb;                                                      \
                }                                                                           \
                T na = MUL(T, UT, ca, pa), nb = ADD(T, UT, MUL(T, UT, ca, pb), cb);         \
                pa = na;                                                                    \
                pb = nb;                                                                    \
                if (incl) {                                                                 \
                    y[2 * i] = pa;                                                          \
                    y[2 * i + 1] = pb;                                                      \
                }                                                                           \
            }                                                                               \
            return;                                                                         \
        }                                                                                   \
        T acc = op == CLSCAN_MAX ? LOWEST : op == CLSCAN_MIN ? HIGHEST : 0;                 \
        for (size_t i = 0; i < n; i++) {                                                    \
            T v = x[i];                                                                     \
            if (incl) {                                                                     \
                acc = NAME##_comb(op, acc, v);                                              \
                y[i] = acc;                                                                 \
            } else {                                                                        \
                y[i] = acc;                                                                 \
                acc = NAME##_comb(op, acc, v);                                              \
            }                                                                               \
        }                                                                                   \
    }

DEFINE_REFERENCE(i32, int32_t, uint32_t, IADD, IMUL, IMAX, IMIN, INT32_MIN, INT32_MAX)
DEFINE_REFERENCE(u32, uint32_t, uint32_t, IADD, IMUL, IMAX, IMIN, 0, UINT32_MAX)
DEFINE_REFERENCE(i64, int64_t, uint64_t, IADD, IMUL, IMAX, IMIN, INT64_MIN, INT64_MAX)
DEFINE_REFERENCE(u64, uint64_t, uint64_t, IADD, IMUL, IMAX, IMIN, 0, UINT64_MAX)
DEFINE_REFERENCE(f32, float, float, FADD, FMUL, FMAX, FMIN, -INFINITY, INFINITY)
DEFINE_REFERENCE(f64, double, double, FADD, FMUL, FMAX, FMIN, -INFINITY, INFINITY)

void tu_reference(clscan_op op, clscan_type type, clscan_kind kind, const void *x, void *y, size_t n)
{
    bool incl = kind == CLSCAN_INCLUSIVE;
    switch (type) {
    case CLSCAN_INT32: i32_reference(op, incl, x, y, n); break;
    case CLSCAN_UINT32: u32_reference(op, incl, x, y, n); break;
    case CLSCAN_INT64: i64_reference(op, incl, x, y, n); break;
    case CLSCAN_UINT64: u64_reference(op, incl, x, y, n); break;
    case CLSCAN_FLOAT: f32_reference(op, incl, x, y, n); break;
    case CLSCAN_DOUBLE: f64_reference(op, incl, x, y, n); break;
    }
}

/* ---- Inputs --------------------------------------------------------------------------------- */

/* Stores scalar number i of x from 64 random-ish bits u; ascending u gives ascending values,
 * signed ones too (the sign bit is flipped). */
static void store_int(clscan_type type, void *x, size_t i, uint64_t u)
{
    switch (type) {
    case CLSCAN_INT32: ((int32_t *)x)[i] = (int32_t)((uint32_t)(u >> 32) ^ 0x80000000u); break;
    case CLSCAN_UINT32: ((uint32_t *)x)[i] = (uint32_t)(u >> 32); break;
    case CLSCAN_INT64: ((int64_t *)x)[i] = (int64_t)(u ^ (UINT64_C(1) << 63)); break;
    case CLSCAN_UINT64: ((uint64_t *)x)[i] = u; break;
    default: break;
    }
}

static void store_real(clscan_type type, void *x, size_t i, double v)
{
    if (type == CLSCAN_FLOAT)
        ((float *)x)[i] = (float)v;
    else
        ((double *)x)[i] = v;
}

/* A quiet NaN with a random payload and sign. */
static void store_nan(clscan_type type, void *x, size_t i)
{
    uint64_t r = tu_rand();
    if (type == CLSCAN_FLOAT) {
        uint32_t bits = 0x7fc00000u | (uint32_t)(r & 0x003fffffu) | ((uint32_t)(r >> 40) & 0x80000000u);
        memcpy((float *)x + i, &bits, 4);
    } else {
        uint64_t bits = UINT64_C(0x7ff8000000000000) | (r & UINT64_C(0x0007ffffffffffff));
        bits |= (tu_rand() & 1) << 63;
        memcpy((double *)x + i, &bits, 8);
    }
}

static void negate_real(clscan_type type, void *x, size_t i)
{
    if (type == CLSCAN_FLOAT) {
        uint32_t b;
        memcpy(&b, (float *)x + i, 4);
        b ^= 0x80000000u;
        memcpy((float *)x + i, &b, 4);
    } else {
        uint64_t b;
        memcpy(&b, (double *)x + i, 8);
        b ^= UINT64_C(1) << 63;
        memcpy((double *)x + i, &b, 8);
    }
}

/* A random real number: a random sign, magnitude between 2^-20 and 2^20. */
static double random_real(void)
{
    double m = (double)(tu_rand() >> 11) / 9007199254740992.0 + 0.5;
    double v = ldexp(m, (int)tu_rand_below(41) - 20);
    return tu_rand() & 1 ? -v : v;
}

static void fill_max_min(clscan_op op, clscan_type type, void *x, size_t n)
{
    if (!is_float(type)) {
        /* A rising trend over the full range with jitter, so the running maximum keeps
         * changing across tiles; now and then the lowest value or a value near zero. */
        uint64_t step = UINT64_MAX / (n ? n : 1);
        for (size_t i = 0; i < n; i++) {
            uint64_t u, r = tu_rand_below(16);
            if (r == 0)
                u = 0;
            else if (r == 1)
                u = UINT64_C(1) << 63;
            else {
                u = step * i;
                uint64_t jitter = step < UINT64_MAX / 64 ? tu_rand_below(step * 64) : tu_rand();
                u = u > UINT64_MAX - jitter ? UINT64_MAX : u + jitter;
            }
            store_int(type, x, i, op == CLSCAN_MAX ? u : ~u);
        }
        return;
    }
    /* Floats: a rising trend of integers and halves from -150 to +50 (many equal values),
     * mixed with +0.0, -0.0 and -inf (so the running maximum sits on signed zeros for a long
     * time), +inf only in the last tenth, and 0 to 3 NaNs with different payloads in the second
     * half.  MIN gets the same values negated. */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tu_rand_below(100);
        double v;
        if (r < 15)
            v = 0.0;
        else if (r < 30)
            v = -0.0;
        else if (r < 38)
            v = -INFINITY;
        else if (r < 40 && i >= n - n / 10)
            v = INFINITY;
        else
            v = floor((double)i / (double)n * 400.0 - 300.0) / 2.0;
        store_real(type, x, i, v);
    }
    if (n > 0) {
        size_t nans = (size_t)tu_rand_below(4);
        for (size_t k = 0; k < nans; k++)
            store_nan(type, x, n / 2 + (size_t)tu_rand_below(n - n / 2));
    }
    if (op == CLSCAN_MIN)
        for (size_t i = 0; i < n; i++)
            negate_real(type, x, i);
}

static void fill_last_nonzero(clscan_type type, void *x, size_t n)
{
    /* Sparse: a run of leading zeros, then mostly zeros (-0.0 as well as +0.0 for floats). */
    size_t lead = (size_t)tu_rand_below(n / 2 + 1);
    for (size_t i = 0; i < n; i++) {
        bool zero = i < lead || tu_rand_below(8) != 0;
        if (is_float(type)) {
            if (zero)
                store_real(type, x, i, tu_rand() & 1 ? -0.0 : 0.0);
            else {
                uint64_t r = tu_rand_below(16);
                if (r == 0)
                    store_nan(type, x, i);
                else if (r == 1)
                    store_real(type, x, i, tu_rand() & 1 ? -INFINITY : INFINITY);
                else
                    store_real(type, x, i, random_real());
            }
        } else {
            uint64_t u = zero ? 0 : tu_rand();
            if (!zero && tu_rand_below(8) == 0)
                u = tu_rand() & 1 ? 0 : UINT64_MAX; /* the extremes */
            switch (type) {
            case CLSCAN_INT32: ((int32_t *)x)[i] = (int32_t)(uint32_t)u; break;
            case CLSCAN_UINT32: ((uint32_t *)x)[i] = (uint32_t)u; break;
            case CLSCAN_INT64: ((int64_t *)x)[i] = (int64_t)u; break;
            case CLSCAN_UINT64: ((uint64_t *)x)[i] = u; break;
            default: break;
            }
        }
    }
}

void tu_fill(clscan_op op, clscan_type type, void *x, size_t n)
{
    switch (op) {
    case CLSCAN_SUM:
        for (size_t i = 0; i < n; i++) {
            if (is_float(type)) /* small integers: exact sums in any order */
                store_real(type, x, i, (double)tu_rand_below(17) - 8.0);
            else
                store_int(type, x, i, tu_rand());
        }
        break;
    case CLSCAN_MAX:
    case CLSCAN_MIN:
        fill_max_min(op, type, x, n);
        break;
    case CLSCAN_LAST_NONZERO:
        fill_last_nonzero(type, x, n);
        break;
    case CLSCAN_AFFINE:
        for (size_t i = 0; i < n; i++) {
            if (is_float(type)) { /* a = +-1, b small: exact in any order */
                store_real(type, x, 2 * i, tu_rand() & 1 ? -1.0 : 1.0);
                store_real(type, x, 2 * i + 1, (double)tu_rand_below(9) - 4.0);
            } else {
                /* Full range; a odd so that products never become 0 mod 2^k, which would
                 * make the result blind to everything but the last few dozen elements. */
                store_int(type, x, 2 * i, tu_rand() | 1);
                store_int(type, x, 2 * i + 1, tu_rand());
            }
        }
        break;
    }
}

void tu_fill_float_fractions(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((double)((int64_t)tu_rand_below(1u << 24) - (1 << 23)) / 8388608.0);
}

/* ---- Comparison and formatting ---------------------------------------------------------------- */

static void format_scalar(clscan_type type, const void *x, size_t i, char *buf, size_t size)
{
    switch (type) {
    case CLSCAN_INT32: snprintf(buf, size, "%" PRId32, ((const int32_t *)x)[i]); break;
    case CLSCAN_UINT32: snprintf(buf, size, "%" PRIu32, ((const uint32_t *)x)[i]); break;
    case CLSCAN_INT64: snprintf(buf, size, "%" PRId64, ((const int64_t *)x)[i]); break;
    case CLSCAN_UINT64: snprintf(buf, size, "%" PRIu64, ((const uint64_t *)x)[i]); break;
    case CLSCAN_FLOAT: {
        uint32_t b;
        memcpy(&b, (const float *)x + i, 4);
        snprintf(buf, size, "%.9g [0x%08" PRIx32 "]", (double)((const float *)x)[i], b);
        break;
    }
    case CLSCAN_DOUBLE: {
        uint64_t b;
        memcpy(&b, (const double *)x + i, 8);
        snprintf(buf, size, "%.17g [0x%016" PRIx64 "]", ((const double *)x)[i], b);
        break;
    }
    }
}

void tu_format(clscan_op op, clscan_type type, const void *x, size_t i, char *buf, size_t size)
{
    if (op == CLSCAN_AFFINE) {
        char a[64], b[64];
        format_scalar(type, x, 2 * i, a, sizeof a);
        format_scalar(type, x, 2 * i + 1, b, sizeof b);
        snprintf(buf, size, "(%s, %s)", a, b);
    } else
        format_scalar(type, x, i, buf, size);
}

static bool scalar_equal(clscan_op op, clscan_type type, const void *e, const void *g, size_t i)
{
    if (op == CLSCAN_SUM || op == CLSCAN_AFFINE) {
        /* Exact values; the sign of a zero may differ with the order of a float sum. */
        if (type == CLSCAN_FLOAT)
            return ((const float *)e)[i] == ((const float *)g)[i];
        if (type == CLSCAN_DOUBLE)
            return ((const double *)e)[i] == ((const double *)g)[i];
    }
    size_t s = tu_scalar_size(type);
    return memcmp((const char *)e + i * s, (const char *)g + i * s, s) == 0;
}

bool tu_compare(clscan_op op, clscan_type type, const void *expected, const void *got, size_t n,
                char *msg, size_t msgsize)
{
    size_t per = op == CLSCAN_AFFINE ? 2 : 1;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < per; k++) {
            if (!scalar_equal(op, type, expected, got, i * per + k)) {
                char e[128], g[128];
                size_t bad = 0;
                for (size_t j = i; j < n; j++)
                    for (size_t m = 0; m < per; m++)
                        if (!scalar_equal(op, type, expected, got, j * per + m)) {
                            bad++;
                            break;
                        }
                tu_format(op, type, expected, i, e, sizeof e);
                tu_format(op, type, got, i, g, sizeof g);
                snprintf(msg, msgsize, "first difference at index %zu of %zu: expected %s, got %s "
                         "(%zu elements differ)", i, n, e, g, bad);
                return false;
            }
        }
    }
    return true;
}

/* ---- Plans ---------------------------------------------------------------------------------- */

const char *tu_algo_name(clscan_algorithm algo)
{
    switch (algo) {
    case CLSCAN_ALGORITHM_AUTO: return "auto";
    case CLSCAN_ALGORITHM_REDUCE_THEN_SCAN: return "reduce-then-scan";
    case CLSCAN_ALGORITHM_SINGLE_PASS: return "single-pass";
    }
    return "?algorithm";
}

clscan_plan *tu_plan_algo(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items,
                          clscan_algorithm algo)
{
    for (size_t i = 0; i < nplans; i++)
        if (plans[i].op == op && plans[i].type == type && plans[i].kind == kind &&
            plans[i].wg == wg && plans[i].items == items && plans[i].algo == algo)
            return plans[i].plan;
    ck_assert_msg(nplans < sizeof plans / sizeof plans[0], "too many plans");
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, op, type, kind, &err);
    ck_assert_msg(p != NULL && err == CL_SUCCESS, "clscan_plan_create(%s, %s, %s) failed: %s: %s",
                  tu_op_name(op), tu_type_name(type), tu_kind_name(kind), clscan_error_string(err),
                  clscan_last_error());
    if (wg || items) {
        err = clscan_plan_set_tuning(p, wg, items);
        if (err != CL_SUCCESS) {
            clscan_plan_release(p);
            ck_abort_msg("clscan_plan_set_tuning(%s %s %s, %zu, %zu) failed: %s: %s", tu_op_name(op),
                         tu_type_name(type), tu_kind_name(kind), wg, items, clscan_error_string(err),
                         clscan_last_error());
        }
    }
    if (algo != CLSCAN_ALGORITHM_AUTO) {
        err = clscan_plan_set_algorithm(p, algo);
        if (err != CL_SUCCESS) {
            clscan_plan_release(p);
            ck_abort_msg("clscan_plan_set_algorithm(%s): %s: %s", tu_algo_name(algo), clscan_error_string(err),
                         clscan_last_error());
        }
    }
    plans[nplans++] = (plan_entry){op, type, kind, wg, items, algo, p};
    return p;
}

clscan_plan *tu_plan_tuned(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items)
{
    return tu_plan_algo(op, type, kind, wg, items, CLSCAN_ALGORITHM_AUTO);
}

void tu_prepare_plan(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items,
                     clscan_algorithm algo)
{
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, op, type, kind, &err);
    if (p && (wg || items))
        err = clscan_plan_set_tuning(p, wg, items);
    if (p && err == CL_SUCCESS && algo != CLSCAN_ALGORITHM_AUTO)
        err = clscan_plan_set_algorithm(p, algo);
    if (!p || err != CL_SUCCESS || nplans == sizeof plans / sizeof plans[0]) {
        fprintf(stderr, "setup error: cannot prepare the plan %s %s %s (tuning %zu x %zu, %s): %s: %s\n",
                tu_op_name(op), tu_type_name(type), tu_kind_name(kind), wg, items, tu_algo_name(algo),
                clscan_error_string(err), clscan_last_error());
        exit(99);
    }
    plans[nplans++] = (plan_entry){op, type, kind, wg, items, algo, p};
}

clscan_plan *tu_plan(clscan_op op, clscan_type type, clscan_kind kind)
{
    return tu_plan_tuned(op, type, kind, 0, 0);
}

size_t tu_tile(clscan_plan *plan)
{
    size_t wg = 0, items = 0;
    cl_int err = clscan_plan_get_tuning(plan, &wg, &items);
    ck_assert_msg(err == CL_SUCCESS, "clscan_plan_get_tuning: %s", clscan_error_string(err));
    ck_assert_msg(wg > 0 && items > 0, "clscan_plan_get_tuning gave %zu x %zu", wg, items);
    return wg * items;
}

/* ---- The checked scan --------------------------------------------------------------------------- */

void tu_describe(clscan_plan *plan, const tu_case *c, char *buf, size_t size)
{
    static const char *layouts[] = {"separate buffers", "in place", "same buffer, disjoint ranges"};
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    snprintf(buf, size, "[seed %" PRIu64 "] %s %s %s, count %zu, src_offset %zu, dst_offset %zu, %s, "
             "tuning %zu x %zu (tile %zu), %s%s%s", tu_seed, tu_op_name(c->op), tu_type_name(c->type),
             tu_kind_name(c->kind), c->count, c->src_offset,
             c->layout == TU_IN_PLACE ? c->src_offset : c->dst_offset, layouts[c->layout], wg, items,
             wg * items, tu_algo_name(clscan_plan_get_algorithm(plan)), c->queue ? ", own queue" : "",
             c->wait_on_writes ? ", waits on the writes" : "");
}

static uint64_t case_seed(const tu_case *c)
{
    uint64_t h = tu_seed;
    uint64_t parts[] = {(uint64_t)c->op, (uint64_t)c->type, (uint64_t)c->kind, c->count,
                        c->src_offset, c->dst_offset, (uint64_t)c->layout, c->salt};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        h ^= parts[i] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
        h = splitmix(&h);
    }
    return h;
}

#define FAIL(...)                                                                   \
    do {                                                                            \
        char what_[1024];                                                            \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                 \
        snprintf(msg, msgsize, "%s: %s", desc, what_);                              \
        ok = false;                                                                 \
        goto out;                                                                   \
    } while (0)

bool tu_check_scan(clscan_plan *plan, const tu_case *c, char *msg, size_t msgsize)
{
    static int trace = -1; /* CLSCAN_TEST_TRACE=1: print every case before it runs */
    if (trace < 0)
        trace = getenv("CLSCAN_TEST_TRACE") != NULL;
    enum { GUARD = 5 };
    char desc[512];
    tu_describe(plan, c, desc, sizeof desc);
    bool ok = true;
    cl_int err;
    cl_command_queue q = c->queue ? c->queue : tu.queue;
    size_t es = tu_elem_size(c->op, c->type);
    size_t n = c->count;
    bool two = c->layout == TU_SEPARATE;
    size_t src_off = c->src_offset;
    size_t dst_off = c->layout == TU_IN_PLACE ? src_off : c->dst_offset;
    size_t src_len = (two ? src_off : (src_off > dst_off ? src_off : dst_off)) + n + GUARD;
    size_t dst_len = two ? dst_off + n + GUARD : src_len;
    cl_mem sbuf = NULL, dbuf = NULL;
    cl_event ev = NULL, writes[2] = {NULL, NULL};
    unsigned char *src0 = malloc(src_len * es), *dst0 = malloc(dst_len * es);
    unsigned char *src1 = malloc(src_len * es), *dst1 = malloc(dst_len * es);
    unsigned char *ref = malloc(n * es + 1);
    if (!src0 || !dst0 || !src1 || !dst1 || !ref)
        FAIL("out of host memory");
    if (clscan_element_size(plan) != es)
        FAIL("clscan_element_size is %zu, expected %zu", clscan_element_size(plan), es);

    /* Random guards around everything, then the input at src_off. */
    tu_fill_bytes(src0, src_len * es);
    tu_fill_bytes(dst0, dst_len * es);
    if (c->input)
        memcpy(src0 + src_off * es, c->input, n * es);
    else {
        uint64_t saved[4];
        memcpy(saved, rng, sizeof saved);
        rng_seed(case_seed(c)); /* the same case gives the same input for a given seed */
        tu_fill(c->op, c->type, src0 + src_off * es, n);
        memcpy(rng, saved, sizeof saved);
        tu_rand();
    }
    if (!two) /* one buffer: the source range lies in it too */
        memcpy(dst0 + src_off * es, src0 + src_off * es, n * es);
    tu_reference(c->op, c->type, c->kind, src0 + src_off * es, ref, n);

    sbuf = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, (two ? src_len : dst_len) * es, NULL, &err);
    if (err != CL_SUCCESS)
        FAIL("clCreateBuffer: %d", (int)err);
    if (two) {
        dbuf = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, dst_len * es, NULL, &err);
        if (err != CL_SUCCESS)
            FAIL("clCreateBuffer: %d", (int)err);
    } else {
        dbuf = sbuf;
        clRetainMemObject(dbuf);
    }
    cl_bool blocking = c->wait_on_writes ? CL_FALSE : CL_TRUE;
    cl_uint nwrites = 0;
    if (two) {
        err = clEnqueueWriteBuffer(q, sbuf, blocking, 0, src_len * es, src0, 0, NULL,
                                   blocking ? NULL : &writes[nwrites++]);
        if (err != CL_SUCCESS)
            FAIL("clEnqueueWriteBuffer: %d", (int)err);
    }
    err = clEnqueueWriteBuffer(q, dbuf, blocking, 0, dst_len * es, dst0, 0, NULL,
                               blocking ? NULL : &writes[nwrites++]);
    if (err != CL_SUCCESS)
        FAIL("clEnqueueWriteBuffer: %d", (int)err);

    if (trace)
        fprintf(stderr, "trace: %s\n", desc);
    err = clscan_enqueue(plan, q, sbuf, src_off, dbuf, dst_off, n, nwrites, nwrites ? writes : NULL, &ev);
    if (err != CL_SUCCESS)
        FAIL("clscan_enqueue failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (ev == NULL)
        FAIL("clscan_enqueue returned no event");
    err = clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS)
        FAIL("clWaitForEvents on the returned event: %d", (int)err);
    /* The event completed: dst must be written.  The reads do not wait on anything else (on an
     * out-of-order queue they may run at once). */
    if (two) {
        err = clEnqueueReadBuffer(q, sbuf, CL_TRUE, 0, src_len * es, src1, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            FAIL("clEnqueueReadBuffer: %d", (int)err);
    }
    err = clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, dst_len * es, dst1, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        FAIL("clEnqueueReadBuffer: %d", (int)err);

    if (c->output)
        memcpy(c->output, dst1 + dst_off * es, n * es);
    char diff[512];
    if (!c->no_reference && !tu_compare(c->op, c->type, ref, dst1 + dst_off * es, n, diff, sizeof diff))
        FAIL("wrong result: %s", diff);
    if (two && memcmp(src0, src1, src_len * es) != 0)
        FAIL("the source buffer changed");
    for (size_t i = 0; i < dst_len; i++) {
        if (i >= dst_off && i < dst_off + n)
            continue;
        if (memcmp(dst0 + i * es, dst1 + i * es, es) != 0) {
            if (!two && i >= src_off && i < src_off + n)
                FAIL("the source range changed at element %zu", i);
            FAIL("guard element %zu of the destination buffer (outside [%zu, %zu)) was overwritten",
                 i, dst_off, dst_off + n);
        }
    }
out:
    if (!ok) /* leave nothing running on the buffers we free */
        clFinish(q);
    for (int i = 0; i < 2; i++)
        if (writes[i])
            clReleaseEvent(writes[i]);
    if (ev)
        clReleaseEvent(ev);
    if (sbuf)
        clReleaseMemObject(sbuf);
    if (dbuf)
        clReleaseMemObject(dbuf);
    free(src0);
    free(dst0);
    free(src1);
    free(dst1);
    free(ref);
    return ok;
}

void tu_tally_check(tu_tally *t, clscan_plan *plan, const tu_case *c)
{
    char msg[2048];
    t->run++;
    if (!tu_check_scan(plan, c, msg, sizeof msg)) {
        if (t->failed++ == 0)
            snprintf(t->first, sizeof t->first, "%s", msg);
        fprintf(stderr, "FAILED: %s\n", msg);
    }
}

/* ---- OpenCL helpers ------------------------------------------------------------------------- */

cl_mem tu_buffer(cl_context ctx, cl_mem_flags flags, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, flags | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)init, &err);
    ck_assert_msg(err == CL_SUCCESS && m, "clCreateBuffer(%zu bytes): %d", bytes, (int)err);
    return m;
}

void tu_read(cl_command_queue q, cl_mem buf, size_t bytes, void *out)
{
    cl_int err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %d", (int)err);
}

void tu_write(cl_command_queue q, cl_mem buf, size_t bytes, const void *in)
{
    cl_int err = clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, in, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueWriteBuffer: %d", (int)err);
}

void tu_expect_status(cl_int got, cl_int want, const char *what)
{
    ck_assert_msg(got == want, "%s: got %s, expected %s (%s)", what, clscan_error_string(got),
                  clscan_error_string(want), clscan_last_error());
    ck_assert_msg(clscan_last_error()[0] != '\0', "%s: no message", what);
}
