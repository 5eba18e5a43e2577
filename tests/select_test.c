/* Selections against sequential references: predicates (float4, int with a helper, a struct;
 * each using the index), the stable partition by flags and by predicate, unique, unique_by_key
 * and reduce_by_key (AFFINE and LAST_NONZERO, which do not commute, SUM, MAX and a custom 2x2
 * matrix product), on random inputs of random densities and run lengths (runs of 1 and of
 * thousands); counts 0, 1, around the compaction's blocks (4096 elements; 8192 on GPUs) and up to 1.5
 * million; offsets with guards; rejected calls that leave every buffer untouched. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG 512

/* ---- Predicates and their C counterparts ---- */
typedef struct particle {
    cl_int id;
    cl_float mass;
    cl_short tag;
} particle;   /* 12 bytes here and in OpenCL C */

typedef struct pred_case {
    const char *name;
    clscan_predicate def;
    size_t size;
    int (*keep)(const void *x, size_t i);
    void (*fill)(void *x, size_t n, int density);   /* density 0 none, 1 all, 2 random */
} pred_case;

static int keep_float4(const void *x, size_t i)
{
    cl_float v[4];
    memcpy(v, x, sizeof v);
    return v[3] > 0.0f && i % 3 != 1;
}

static void fill_float4(void *x, size_t n, int density)
{
    cl_float *v = x;
    for (size_t k = 0; k < 4 * n; k++) {
        const uint64_t r = tu_rand_below(1000);
        v[k] = r == 0 ? 0.0f : r == 1 ? -0.0f : ((float)r - 500.0f) / 250.0f;
        if (k % 4 == 3 && density < 2)
            v[k] = density ? 1.0f + (float)r : -(float)r;
    }
}

static int keep_int(const void *x, size_t i)
{
    cl_int v;
    memcpy(&v, x, sizeof v);
    return (v & 1) || v == (cl_int)i;
}

static void fill_int(void *x, size_t n, int density)
{
    cl_int *v = x;
    for (size_t k = 0; k < n; k++) {
        const cl_int r = (cl_int)tu_rand_below(1u << 30);
        v[k] = density == 0 ? -2 * (r + 1) : density == 1 ? 2 * r + 1 : tu_rand_below(4) == 0 ? (cl_int)k : r;
    }
}

static int keep_particle(const void *x, size_t i)
{
    particle p;
    memcpy(&p, x, sizeof p);
    return p.mass > 1.5f && p.tag != (cl_short)(i & 7);
}

static void fill_particle(void *x, size_t n, int density)
{
    particle *p = x;
    for (size_t k = 0; k < n; k++) {
        memset(&p[k], 0, sizeof p[k]);   /* the padding too: bytewise outputs */
        p[k].id = (cl_int)k;
        p[k].mass = density == 0 ? 1.0f : density == 1 ? 2.0f : (float)tu_rand_below(300) / 100.0f;
        p[k].tag = (cl_short)(density == 1 ? 8 + tu_rand_below(8) : tu_rand_below(8));
    }
}

static const pred_case preds[] = {
    {"float4 x.w > 0 and i % 3 != 1", {"float4", "x.w > 0.0f && i % 3 != 1", NULL}, 16, keep_float4, fill_float4},
    {"int odd (a helper) or x == i", {"int", "odd(x) || x == (int)i",
                                      "inline int odd(int v) { return v & 1; }"}, 4, keep_int, fill_int},
    {"struct particle", {"particle", "x.mass > 1.5f && x.tag != (short)(i & 7)",
                         "typedef struct { int id; float mass; short tag; } particle;"},
     sizeof(particle), keep_particle, fill_particle},
};
#define NPREDS 3
static clscan_compactor *pred_compactors[NPREDS];

static clscan_compactor *pred_compactor(int p)
{
    if (!pred_compactors[p]) {
        cl_int err;
        pred_compactors[p] = clscan_compactor_create_if(tu.context, tu.device, preds[p].size, &preds[p].def, &err);
        ck_assert_msg(pred_compactors[p], "clscan_compactor_create_if(%s): %s: %s", preds[p].name,
                      clscan_error_string(err), clscan_last_error());
    }
    return pred_compactors[p];
}

static const size_t plain_sizes[] = {1, 4, 8, 12, 16};
#define NPLAIN 5
static clscan_compactor *plain_compactors[NPLAIN];

static clscan_compactor *plain_compactor(int s)
{
    if (!plain_compactors[s]) {
        cl_int err;
        plain_compactors[s] = clscan_compactor_create(tu.context, tu.device, plain_sizes[s], &err);
        ck_assert_msg(plain_compactors[s], "clscan_compactor_create(%zu): %s: %s", plain_sizes[s],
                      clscan_error_string(err), clscan_last_error());
    }
    return plain_compactors[s];
}

/* ---- One selection on a compactor against the reference ---- */
typedef enum sel_kind { COMPACT_IF, COMPACT_IF_BLOCKING, PARTITION_IF, PARTITION_FLAGS, UNIQUE } sel_kind;
static const char *const sel_names[] = {"compact_if", "compact_if (blocking)", "partition_if", "partition", "unique"};

typedef struct sel_case {
    sel_kind kind;
    size_t es, count, src_offset, dst_offset, kept_offset;
    const unsigned char *src;    /* count elements */
    const unsigned char *keep;   /* count decisions of the reference (PARTITION_FLAGS: the flags) */
} sel_case;

static bool equal_bytes(const void *a, const void *b, size_t n, size_t *first)
{
    const unsigned char *x = a, *y = b;
    for (size_t k = 0; k < n; k++)
        if (x[k] != y[k]) {
            *first = k;
            return false;
        }
    return true;
}

static bool run_sel(clscan_compactor *h, const sel_case *c, char *msg)
{
    const size_t es = c->es, n = c->count, so = c->src_offset, dof = c->dst_offset, ko = c->kept_offset;
    const size_t src_n = so + n + 2, dst_n = dof + n + 3, fo = 1;
    unsigned char *src = malloc(src_n * es), *flags = malloc(n + fo + 1), *dst0 = malloc(dst_n * es),
                  *expect = malloc(dst_n * es), *got = malloc(dst_n * es), *src_after = malloc(src_n * es);
    cl_ulong kept0[4], kept[4];
    ck_assert(src && flags && dst0 && expect && got && src_after && ko < 4);
    tu_fill_bytes(src, src_n * es);
    memcpy(src + so * es, c->src, n * es);
    tu_fill_bytes(flags, n + fo + 1);
    for (size_t i = 0; i < n; i++)   /* flags 1 ... 255 or 0 */
        flags[fo + i] = c->keep[i] ? (unsigned char)(1 + tu_rand_below(255)) : 0;
    tu_fill_bytes(dst0, dst_n * es);
    tu_fill_bytes(kept0, sizeof kept0);
    memcpy(expect, dst0, dst_n * es);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (c->keep[i])
            memcpy(expect + (dof + m++) * es, src + (so + i) * es, es);
    if (c->kind == PARTITION_IF || c->kind == PARTITION_FLAGS)
        for (size_t i = 0, r = m; i < n; i++)
            if (!c->keep[i])
                memcpy(expect + (dof + r++) * es, src + (so + i) * es, es);

    cl_mem bsrc = tu_buffer(tu.context, CL_MEM_READ_WRITE, src_n * es, src);
    cl_mem bflags = tu_buffer(tu.context, CL_MEM_READ_WRITE, n + fo + 1, flags);
    cl_mem bdst = tu_buffer(tu.context, CL_MEM_READ_WRITE, dst_n * es, dst0);
    cl_mem bkept = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof kept0, kept0);
    cl_event ev = NULL;
    size_t blocking_kept = (size_t)-1;
    cl_int err = CL_SUCCESS;
    switch (c->kind) {
    case COMPACT_IF:
        err = clscan_compact_if_enqueue(h, tu.queue, bsrc, so, n, bdst, dof, bkept, ko, 0, NULL, &ev);
        break;
    case COMPACT_IF_BLOCKING:
        err = clscan_compact_if(h, tu.queue, bsrc, so, n, bdst, dof, &blocking_kept, 0, NULL);
        break;
    case PARTITION_IF:
        err = clscan_partition_if_enqueue(h, tu.queue, bsrc, so, n, bdst, dof, bkept, ko, 0, NULL, &ev);
        break;
    case PARTITION_FLAGS:
        err = clscan_partition_enqueue(h, tu.queue, bsrc, so, bflags, fo, n, bdst, dof, bkept, ko, 0, NULL, &ev);
        break;
    case UNIQUE:
        err = clscan_unique_enqueue(h, tu.queue, bsrc, so, n, bdst, dof, bkept, ko, 0, NULL, &ev);
        break;
    }
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, MSG, "call failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    if (ok) {
        tu_read(tu.queue, bdst, dst_n * es, got);
        tu_read(tu.queue, bkept, sizeof kept, kept);
        tu_read(tu.queue, bsrc, src_n * es, src_after);
        const cl_ulong got_m = c->kind == COMPACT_IF_BLOCKING ? (cl_ulong)blocking_kept : kept[ko];
        size_t first = 0;
        if (got_m != m) {
            ok = false;
            snprintf(msg, MSG, "count %llu, expected %zu", (unsigned long long)got_m, m);
        } else if (!equal_bytes(expect, got, dst_n * es, &first)) {
            ok = false;
            snprintf(msg, MSG, "dst differs at element %zd (offset included; %zu kept)",
                     (ssize_t)(first / es) - (ssize_t)dof, m);
        } else if (!equal_bytes(src, src_after, src_n * es, &first)) {
            ok = false;
            snprintf(msg, MSG, "src changed at byte %zu", first);
        } else {
            for (size_t k = 0; k < 4 && ok; k++)
                if ((c->kind == COMPACT_IF_BLOCKING || k != ko) && kept[k] != kept0[k]) {
                    ok = false;
                    snprintf(msg, MSG, "the kept buffer changed at %zu", k);
                }
        }
    }
    clReleaseMemObject(bsrc);
    clReleaseMemObject(bflags);
    clReleaseMemObject(bdst);
    clReleaseMemObject(bkept);
    free(src), free(flags), free(dst0), free(expect), free(got), free(src_after);
    return ok;
}

#define CHECK_SEL(h, what, ...)                                                                              \
    do {                                                                                                     \
        sel_case c_ = {__VA_ARGS__};                                                                         \
        char m_[MSG] = "";                                                                                   \
        ck_assert_msg(run_sel((h), &c_, m_), "[seed %llu] %s of %zu elements of %zu bytes (%s), offsets "    \
                      "src %zu dst %zu kept %zu: %s", (unsigned long long)tu_seed, sel_names[c_.kind],       \
                      c_.count, c_.es, (what), c_.src_offset, c_.dst_offset, c_.kept_offset, m_);            \
    } while (0)

static const size_t counts[] = {0, 1, 2, 255, 4095, 4096, 4097, 8193, 12289, 0 /* random */};
#define NCOUNTS 10

static size_t count_at(size_t k)
{
    return k == NCOUNTS - 1 ? 1 + (size_t)tu_rand_below(40000) : counts[k];
}

/* Every predicate: compact_if, its blocking call and partition_if; none, all and random kept. */
START_TEST(predicates_match_the_loop)
{
    const int p = _i;
    const pred_case *pc = &preds[p];
    clscan_compactor *h = pred_compactor(p);
    for (size_t k = 0; k < NCOUNTS; k++) {
        for (int density = 0; density < 3; density++) {
            if (density < 2 && k % 3 != 0)
                continue;   /* all and none at a few counts */
            const size_t n = count_at(k);
            unsigned char *x = malloc(n * pc->size + 1), *keep = malloc(n + 1);
            ck_assert(x && keep);
            pc->fill(x, n, density);
            for (size_t i = 0; i < n; i++)
                keep[i] = (unsigned char)pc->keep(x + i * pc->size, i);
            for (int kind = COMPACT_IF; kind <= PARTITION_IF; kind++)
                CHECK_SEL(h, pc->name, .kind = kind, .es = pc->size, .count = n, .src_offset = k % 3,
                          .dst_offset = (k + kind) % 4, .kept_offset = k % 4, .src = x, .keep = keep);
            free(x), free(keep);
        }
    }
}
END_TEST

/* 1.5 million elements: 367 blocks of the compaction. */
START_TEST(a_million_and_a_half_by_predicate)
{
    const size_t n = 1500007;
    unsigned char *x = malloc(n * 16), *keep = malloc(n);
    ck_assert(x && keep);
    fill_float4(x, n, 2);
    for (size_t i = 0; i < n; i++)
        keep[i] = (unsigned char)keep_float4(x + i * 16, i);
    CHECK_SEL(pred_compactor(0), preds[0].name, .kind = COMPACT_IF, .es = 16, .count = n, .src = x, .keep = keep);
    CHECK_SEL(pred_compactor(0), preds[0].name, .kind = PARTITION_IF, .es = 16, .count = n, .src_offset = 1,
              .dst_offset = 2, .src = x, .keep = keep);
    free(x), free(keep);
}
END_TEST

/* The partition by flags is stable: every element is distinct (its index in it), so any
 * reordering inside either part shows. */
START_TEST(partition_by_flags_is_stable)
{
    const int s = _i;
    const size_t es = plain_sizes[s];
    for (size_t k = 0; k < NCOUNTS; k++) {
        for (int density = 0; density < 4; density++) {
            const size_t n = count_at(k);
            unsigned char *x = malloc(n * es + 1), *keep = malloc(n + 1);
            ck_assert(x && keep);
            tu_fill_bytes(x, n * es);
            for (size_t i = 0; i < n && es >= 4; i++)
                memcpy(x + i * es, &(cl_uint){(cl_uint)i}, 4);
            const unsigned permille = density == 2 ? 100 : 700;
            for (size_t i = 0; i < n; i++)
                keep[i] = density == 0 ? 0 : density == 1 ? 1 : tu_rand_below(1000) < permille;
            CHECK_SEL(plain_compactor(s), "flags", .kind = PARTITION_FLAGS, .es = es, .count = n,
                      .src_offset = density, .dst_offset = k % 5, .kept_offset = density, .src = x, .keep = keep);
            free(x), free(keep);
        }
    }
}
END_TEST

/* Keys of ks bytes in runs: lengths 1 (half of them), 2 ... 8, or (one in 40) up to 6000; a run's
 * key is zero but its last byte, one of `alphabet` values (neighbouring runs may be equal: they
 * merge, and the reference sees that too).  The keys differ only in their last byte: the
 * comparison must look at every word. */
static void fill_runs(unsigned char *keys, size_t n, size_t ks, unsigned alphabet)
{
    memset(keys, 0, n * ks);
    for (size_t i = 0; i < n;) {
        const uint64_t r = tu_rand_below(80);
        size_t len = r < 40 ? 1 : r < 78 ? 2 + (size_t)tu_rand_below(7) : 1 + (size_t)tu_rand_below(6000);
        const unsigned char v = (unsigned char)tu_rand_below(alphabet);
        for (; len && i < n; --len, ++i)
            keys[i * ks + ks - 1] = v;
    }
}

/* The reference's decisions: the first element of each run of equal ones. */
static void run_starts(const unsigned char *keys, size_t n, size_t ks, unsigned char *starts)
{
    for (size_t i = 0; i < n; i++)
        starts[i] = i == 0 || memcmp(keys + i * ks, keys + (i - 1) * ks, ks) != 0;
}

START_TEST(unique_matches_the_loop)
{
    const int s = _i;
    const size_t es = plain_sizes[s];
    for (size_t k = 0; k < NCOUNTS; k++) {
        for (unsigned alphabet = 2; alphabet <= 200; alphabet *= 10) {
            const size_t n = count_at(k);
            unsigned char *x = malloc(n * es + 1), *keep = malloc(n + 1);
            ck_assert(x && keep);
            fill_runs(x, n, es, alphabet);
            run_starts(x, n, es, keep);
            CHECK_SEL(plain_compactor(s), "runs", .kind = UNIQUE, .es = es, .count = n, .src_offset = k % 2,
                      .dst_offset = k % 3, .kept_offset = alphabet % 4, .src = x, .keep = keep);
            free(x), free(keep);
        }
    }
    /* One run of everything; every element its own run. */
    const size_t n = 9000;
    unsigned char *x = calloc(n, es), *keep = malloc(n);
    ck_assert(x && keep);
    run_starts(x, n, es, keep);
    CHECK_SEL(plain_compactor(s), "one run", .kind = UNIQUE, .es = es, .count = n, .src = x, .keep = keep);
    for (size_t i = 0; i < n; i++)
        x[i * es + es - 1] = (unsigned char)(i % 2);
    run_starts(x, n, es, keep);
    CHECK_SEL(plain_compactor(s), "runs of 1", .kind = UNIQUE, .es = es, .count = n, .src = x, .keep = keep);
    free(x), free(keep);
}
END_TEST

/* The GPUs' kernels, here on the CPU through the developer switch (tests/kernel_variants.sh runs
 * the whole program so too): blocks of 256 x 16 here (256 x 32 on GPUs), the flags of a
 * predicate or of runs staged in local memory, the block scatters; the partition's kept and
 * rejected lists in one local array.  Counts around a block and its last work-item's flags (4080;
 * 8160 on GPUs), all, none and some kept. */
START_TEST(gpu_kernels_match_the_loop)
{
    setenv("CLSCAN_DEVELOP", "policy=gpu", 1);
    cl_int err;
    const pred_case *pc = &preds[2];   /* the 12-byte struct: 3 words an element */
    clscan_compactor *h = clscan_compactor_create_if(tu.context, tu.device, pc->size, &pc->def, &err);
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(h, "clscan_compactor_create_if: %s", clscan_last_error());
    const size_t ns[] = {1, 17, 4080, 4095, 4096, 4097, 8160, 8192, 8193, 16385, 70001};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        const size_t n = ns[k], es = pc->size;
        unsigned char *x = malloc(n * es), *keep = malloc(n);
        ck_assert(x && keep);
        for (int density = 0; density < 3; density++) {
            pc->fill(x, n, density);
            for (size_t i = 0; i < n; i++)
                keep[i] = (unsigned char)pc->keep(x + i * es, i);
            for (int kind = COMPACT_IF; kind <= PARTITION_IF; kind++)
                CHECK_SEL(h, "GPU kernels", .kind = kind, .es = es, .count = n, .src_offset = k % 3,
                          .dst_offset = (k + kind) % 4, .kept_offset = k % 4, .src = x, .keep = keep);
            for (size_t i = 0; i < n; i++)   /* the partition by flags: elements distinct */
                keep[i] = density == 2 ? tu_rand_below(1000) < 300 : density == 1;
            CHECK_SEL(h, "GPU kernels, flags", .kind = PARTITION_FLAGS, .es = es, .count = n, .src_offset = density,
                      .dst_offset = k % 5, .kept_offset = density, .src = x, .keep = keep);
        }
        fill_runs(x, n, es, 2 + 98 * (k % 2));
        run_starts(x, n, es, keep);
        CHECK_SEL(h, "GPU kernels, runs", .kind = UNIQUE, .es = es, .count = n, .src_offset = k % 2,
                  .dst_offset = k % 3, .kept_offset = k % 4, .src = x, .keep = keep);
        free(x), free(keep);
    }
    clscan_compactor_release(h);
}
END_TEST

/* ---- unique_by_key and reduce_by_key ---- */
typedef struct runs_case {
    const to_op *op;   /* NULL: unique_by_key */
    size_t ks, count;
    unsigned alphabet;
    size_t offset;     /* of every range */
} runs_case;

static bool run_runs(clscan_runs *r, clscan_plan *plan, const runs_case *c, char *msg)
{
    const size_t ks = c->ks, vs = c->op ? to_size(c->op) : 8, n = c->count, o = c->offset;
    const size_t len = o + n + 2;
    unsigned char *keys = malloc(len * ks), *values = malloc(len * vs), *keys_out0 = malloc(len * ks),
                  *values_out0 = malloc(len * vs), *ek = malloc(len * ks), *ev = malloc(len * vs),
                  *gk = malloc(len * ks), *gv = malloc(len * vs), *acc = malloc(vs);
    cl_ulong nruns0[4], nruns[4];
    ck_assert(keys && values && keys_out0 && values_out0 && ek && ev && gk && gv && acc);
    tu_fill_bytes(keys, len * ks);
    fill_runs(keys + o * ks, n, ks, c->alphabet);
    if (c->op)
        to_fill(c->op, values, len);
    else
        tu_fill_bytes(values, len * vs);
    tu_fill_bytes(keys_out0, len * ks);
    tu_fill_bytes(values_out0, len * vs);
    tu_fill_bytes(nruns0, sizeof nruns0);
    /* The sequential reference: comb(earlier, later) along each run. */
    memcpy(ek, keys_out0, len * ks);
    memcpy(ev, values_out0, len * vs);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *key = keys + (o + i) * ks, *val = values + (o + i) * vs;
        const int start = i == 0 || memcmp(key, key - ks, ks) != 0;
        if (start) {
            memcpy(ek + (o + m) * ks, key, ks);
            memcpy(ev + (o + m) * vs, val, vs);
            m++;
        } else if (c->op) {
            to_comb(c->op, ev + (o + m - 1) * vs, val, acc);
            memcpy(ev + (o + m - 1) * vs, acc, vs);
        }
    }
    cl_mem b[5] = {tu_buffer(tu.context, CL_MEM_READ_WRITE, len * ks, keys),
                   tu_buffer(tu.context, CL_MEM_READ_WRITE, len * vs, values),
                   tu_buffer(tu.context, CL_MEM_READ_WRITE, len * ks, keys_out0),
                   tu_buffer(tu.context, CL_MEM_READ_WRITE, len * vs, values_out0),
                   tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof nruns0, nruns0)};
    cl_event e = NULL;
    const size_t no = o % 4;
    cl_int err = c->op ? clscan_reduce_by_key_enqueue(r, plan, tu.queue, b[0], o, b[1], o, n, b[2], o, b[3], o, b[4],
                                                      no, 0, NULL, &e)
                       : clscan_unique_by_key_enqueue(r, tu.queue, b[0], o, b[1], o, n, b[2], o, b[3], o, b[4], no,
                                                      0, NULL, &e);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, MSG, "call failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (e) {
        clWaitForEvents(1, &e);
        clReleaseEvent(e);
    }
    size_t first = 0;
    if (ok) {
        tu_read(tu.queue, b[2], len * ks, gk);
        tu_read(tu.queue, b[3], len * vs, gv);
        tu_read(tu.queue, b[4], sizeof nruns, nruns);
        if (nruns[no] != m) {
            ok = false;
            snprintf(msg, MSG, "%llu runs, expected %zu", (unsigned long long)nruns[no], m);
        } else if (!equal_bytes(ek, gk, len * ks, &first)) {
            ok = false;
            snprintf(msg, MSG, "keys_out differs at run %zd of %zu", (ssize_t)(first / ks) - (ssize_t)o, m);
        } else if (c->op ? (first = to_diff(c->op, ev, gv, len)) < len : !equal_bytes(ev, gv, len * vs, &first)) {
            ok = false;
            snprintf(msg, MSG, "values_out differs at run %zd of %zu", c->op ? (ssize_t)first - (ssize_t)o
                     : (ssize_t)(first / vs) - (ssize_t)o, m);
        }
        for (size_t k = 0; k < 4 && ok; k++)
            if (k != no && nruns[k] != nruns0[k]) {
                ok = false;
                snprintf(msg, MSG, "nruns changed at %zu", k);
            }
    }
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(b[i]);
    free(keys), free(values), free(keys_out0), free(values_out0), free(ek), free(ev), free(gk), free(gv), free(acc);
    return ok;
}

#define CHECK_RUNS(r, plan, ...)                                                                             \
    do {                                                                                                     \
        runs_case c_ = {__VA_ARGS__};                                                                        \
        char m_[MSG] = "", name_[64] = "unique_by_key";                                                      \
        if (c_.op)                                                                                           \
            to_name(c_.op, name_, sizeof name_);                                                             \
        ck_assert_msg(run_runs((r), (plan), &c_, m_), "[seed %llu] %s, %zu keys of %zu bytes, %u values of " \
                      "key, offset %zu: %s", (unsigned long long)tu_seed, name_, c_.count, c_.ks,            \
                      c_.alphabet, c_.offset, m_);                                                           \
    } while (0)

static clscan_runs *runs_handle(size_t ks, size_t vs)
{
    cl_int err;
    clscan_runs *r = clscan_runs_create(tu.context, tu.device, ks, vs, &err);
    ck_assert_msg(r, "clscan_runs_create(%zu, %zu): %s: %s", ks, vs, clscan_error_string(err), clscan_last_error());
    return r;
}

/* reduce_by_key: with plans of both multi-block algorithms (with 4- and 8-byte keys, the single
 * pass and reduce-then-scan of scan/runs.cl). */
static void runs_sweep(clscan_runs *r, const to_op *op, size_t ks)
{
    const clscan_algorithm algos[] = {CLSCAN_ALGORITHM_SINGLE_PASS, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN};
    for (int a = 0; a < (op ? 2 : 1); a++) {
        clscan_plan *plan = op ? to_plan(op, CLSCAN_INCLUSIVE, 0, 0, algos[a], false) : NULL;
        for (size_t k = 0; k < NCOUNTS; k++)
            for (unsigned alphabet = 2; alphabet <= 200; alphabet *= 10)
                CHECK_RUNS(r, plan, .op = op, .ks = ks, .count = count_at(k), .alphabet = alphabet,
                           .offset = k % 3);
    }
}

START_TEST(unique_by_key_matches_the_loop)
{
    clscan_runs *r = runs_handle(4, 8);
    runs_sweep(r, NULL, 4);
    clscan_runs_release(r);
    r = runs_handle(12, 8);
    runs_sweep(r, NULL, 12);
    clscan_runs_release(r);
}
END_TEST

/* AFFINE and LAST_NONZERO do not commute: an exchanged pair shows. */
START_TEST(reduce_by_key_non_commutative_builtins)
{
    const to_op affine = {NULL, CLSCAN_AFFINE, CLSCAN_INT32}, lnz64 = {NULL, CLSCAN_LAST_NONZERO, CLSCAN_INT64},
                lnz32 = {NULL, CLSCAN_LAST_NONZERO, CLSCAN_INT32}, sum = {NULL, CLSCAN_SUM, CLSCAN_UINT32},
                max = {NULL, CLSCAN_MAX, CLSCAN_FLOAT};
    clscan_runs *r = runs_handle(4, 8);
    runs_sweep(r, &affine, 4);
    runs_sweep(r, &lnz64, 4);
    clscan_runs_release(r);
    /* 4-byte keys and values: on CPUs, the fold in vector lanes (cl/scan/runs_lanes.cl). */
    const to_op max32 = {NULL, CLSCAN_MAX, CLSCAN_INT32}, min32 = {NULL, CLSCAN_MIN, CLSCAN_UINT32};
    r = runs_handle(4, 4);
    runs_sweep(r, &lnz32, 4);
    runs_sweep(r, &sum, 4);
    runs_sweep(r, &max32, 4);
    runs_sweep(r, &min32, 4);
    clscan_runs_release(r);
    r = runs_handle(8, 4);
    runs_sweep(r, &lnz32, 8);
    runs_sweep(r, &sum, 8);
    runs_sweep(r, &max, 8);
    clscan_runs_release(r);
}
END_TEST

/* A custom operator (2x2 int matrices, wrapping: not commutative) with 12-byte keys (a
 * segmented scan and compactions) and with 4-byte keys (one kernel: scan/runs.cl), over more
 * tiles than one look-back window holds. */
START_TEST(reduce_by_key_custom_operator)
{
    const to_op mat = {&to_customs[0], 0, 0};
    clscan_plan *plan = to_plan(&mat, CLSCAN_INCLUSIVE, 0, 0, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, false);
    const size_t key_sizes[] = {12, 4};
    for (int k = 0; k < 2; k++) {
        clscan_runs *r = runs_handle(key_sizes[k], to_size(&mat));
        runs_sweep(r, &mat, key_sizes[k]);
        CHECK_RUNS(r, plan, .op = &mat, .ks = key_sizes[k], .count = 1200013, .alphabet = 50, .offset = 1);
        clscan_runs_release(r);
    }
}
END_TEST

/* On CPUs the one kernel takes tiles of up to 64 of the variant's while the count leaves 8 a
 * compute unit (lib/scan_runs.c): counts that cut it into several such tiles, the last one
 * partial, runs that cross them (alphabet 2), operators that do not commute, 4- and 8-byte keys. */
START_TEST(reduce_by_key_in_large_tiles)
{
    const to_op ops[] = {{NULL, CLSCAN_AFFINE, CLSCAN_INT32}, {NULL, CLSCAN_LAST_NONZERO, CLSCAN_INT64},
                         {NULL, CLSCAN_LAST_NONZERO, CLSCAN_INT32}};
    const size_t key_sizes[] = {4, 8, 4}, big[] = {262147, 1000003};
    for (int o = 0; o < 3; o++) {
        clscan_plan *plan = to_plan(&ops[o], CLSCAN_INCLUSIVE, 0, 0, CLSCAN_ALGORITHM_SINGLE_PASS, false);
        clscan_runs *r = runs_handle(key_sizes[o], to_size(&ops[o]));
        for (int k = 0; k < 2; k++)
            for (unsigned alphabet = 2; alphabet <= 200; alphabet *= 10)
                CHECK_RUNS(r, plan, .op = &ops[o], .ks = key_sizes[o], .count = big[k], .alphabet = alphabet,
                           .offset = (size_t)k);
        clscan_runs_release(r);
    }
}
END_TEST

/* ---- Rejected calls ---- */
/* Fills a buffer with a pattern and checks later that it is still there. */
typedef struct guarded {
    cl_mem mem;
    unsigned char *bytes;
    size_t size;
} guarded;

static guarded guard(size_t size)
{
    guarded g = {NULL, malloc(size), size};
    ck_assert(g.bytes);
    tu_fill_bytes(g.bytes, size);
    g.mem = tu_buffer(tu.context, CL_MEM_READ_WRITE, size, g.bytes);
    return g;
}

static void unguard(guarded *g, const char *what)
{
    unsigned char *now = malloc(g->size);
    ck_assert(now);
    tu_read(tu.queue, g->mem, g->size, now);
    ck_assert_msg(memcmp(now, g->bytes, g->size) == 0, "%s: a rejected call changed a buffer", what);
    free(now);
    free(g->bytes);
    clReleaseMemObject(g->mem);
}

START_TEST(bad_predicates_are_rejected)
{
    cl_int err = CL_SUCCESS;
    const clscan_predicate empty = {"int", "", NULL}, no_type = {NULL, "x > 0", NULL}, blank_type = {"", "x", NULL},
                           broken = {"float4", "x.w >", NULL}, long_flag = {"int", NULL, NULL};
    clscan_compactor *h = clscan_compactor_create_if(tu.context, tu.device, 4, NULL, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_PREDICATE, "NULL predicate");
    h = clscan_compactor_create_if(tu.context, tu.device, 4, &empty, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_PREDICATE, "empty flag");
    h = clscan_compactor_create_if(tu.context, tu.device, 4, &no_type, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_PREDICATE, "NULL type");
    h = clscan_compactor_create_if(tu.context, tu.device, 4, &blank_type, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_PREDICATE, "empty type");
    h = clscan_compactor_create_if(tu.context, tu.device, 4, &long_flag, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_PREDICATE, "NULL flag");
    char *longer = malloc(CLSCAN_CUSTOM_MAX_EXPRESSION + 2);
    ck_assert(longer);
    memset(longer, '1', CLSCAN_CUSTOM_MAX_EXPRESSION + 1);
    longer[CLSCAN_CUSTOM_MAX_EXPRESSION + 1] = '\0';
    const clscan_predicate too_long = {"int", longer, NULL};
    h = clscan_compactor_create_if(tu.context, tu.device, 4, &too_long, &err);
    free(longer);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_PREDICATE, "flag too long");
    h = clscan_compactor_create_if(tu.context, tu.device, 0, &preds[1].def, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_INVALID_ELEMENT_SIZE, "element_size 0");
    /* A snippet that does not compile: the status and the compiler's log. */
    h = clscan_compactor_create_if(tu.context, tu.device, 16, &broken, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CL_BUILD_PROGRAM_FAILURE, "a predicate that does not compile");
    ck_assert_msg(strstr(clscan_last_error(), "clscan_compactor_create_if") &&
                  strstr(clscan_last_error(), "log") && strstr(clscan_last_error(), "error"),
                  "no compiler log: %s", clscan_last_error());
    /* float4 is 16 bytes, not 8. */
    h = clscan_compactor_create_if(tu.context, tu.device, 8, &preds[0].def, &err);
    ck_assert(h == NULL);
    tu_expect_status(err, CLSCAN_ELEMENT_SIZE_MISMATCH, "float4 of 8 bytes");
}
END_TEST

START_TEST(bad_calls_leave_the_buffers_untouched)
{
    const size_t n = 100;
    clscan_compactor *plain = plain_compactor(1), *pc = pred_compactor(1);   /* 4-byte elements */
    guarded src = guard(4 * n), flags = guard(n), dst = guard(4 * n), kept = guard(16);
    cl_event ev = NULL;
    /* No predicate on a plain compactor. */
    tu_expect_status(clscan_compact_if_enqueue(plain, tu.queue, src.mem, 0, n, dst.mem, 0, kept.mem, 0, 0, NULL, &ev),
                     CLSCAN_NO_PREDICATE, "compact_if without a predicate");
    tu_expect_status(clscan_partition_if_enqueue(plain, tu.queue, src.mem, 0, n, dst.mem, 0, kept.mem, 0, 0, NULL,
                                                 &ev), CLSCAN_NO_PREDICATE, "partition_if without a predicate");
    size_t k = 0;
    tu_expect_status(clscan_compact_if(plain, tu.queue, src.mem, 0, n, dst.mem, 0, &k, 0, NULL), CLSCAN_NO_PREDICATE,
                     "blocking compact_if without a predicate");
    tu_expect_status(clscan_compact_if(pc, tu.queue, src.mem, 0, n, dst.mem, 0, NULL, 0, NULL), CL_INVALID_VALUE,
                     "blocking compact_if, kept NULL");
    tu_expect_status(clscan_compact_if_enqueue(NULL, tu.queue, src.mem, 0, n, dst.mem, 0, kept.mem, 0, 0, NULL, &ev),
                     CLSCAN_INVALID_HANDLE, "NULL compactor");
    /* Ranges out of bounds and overlaps. */
    tu_expect_status(clscan_compact_if_enqueue(pc, tu.queue, src.mem, 1, n, dst.mem, 0, kept.mem, 0, 0, NULL, &ev),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "src past its end");
    tu_expect_status(clscan_partition_if_enqueue(pc, tu.queue, src.mem, 0, n, dst.mem, 1, kept.mem, 0, 0, NULL, &ev),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "dst past its end");
    tu_expect_status(clscan_partition_enqueue(plain, tu.queue, src.mem, 0, flags.mem, 1, n, dst.mem, 0, kept.mem, 0,
                                              0, NULL, &ev), CLSCAN_RANGE_OUT_OF_BOUNDS, "flags past their end");
    tu_expect_status(clscan_unique_enqueue(plain, tu.queue, src.mem, 0, n, dst.mem, 0, kept.mem, 2, 0, NULL, &ev),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "kept past its end");
    tu_expect_status(clscan_unique_enqueue(plain, tu.queue, src.mem, 0, n / 2, src.mem, n / 4, kept.mem, 0, 0, NULL,
                                           &ev), CL_MEM_COPY_OVERLAP, "dst over src");
    tu_expect_status(clscan_partition_enqueue(plain, tu.queue, src.mem, 0, flags.mem, 0, n, dst.mem, 0, flags.mem,
                                              0, 0, NULL, &ev), CL_MEM_COPY_OVERLAP, "kept over flags");
    tu_expect_status(clscan_partition_enqueue(plain, tu.queue, src.mem, 0, NULL, 0, n, dst.mem, 0, kept.mem, 0, 0,
                                              NULL, &ev), CL_INVALID_MEM_OBJECT, "flags NULL");
    tu_expect_status(clscan_unique_enqueue(plain, NULL, src.mem, 0, n, dst.mem, 0, kept.mem, 0, 0, NULL, &ev),
                     CL_INVALID_COMMAND_QUEUE, "queue NULL");
    tu_expect_status(clscan_unique_enqueue(plain, tu.queue, src.mem, 0, n, dst.mem, 0, kept.mem, 0, 1, NULL, &ev),
                     CL_INVALID_EVENT_WAIT_LIST, "wait list NULL with 1 event");
    ck_assert(ev == NULL);

    /* The runs' functions. */
    cl_int err;
    ck_assert(clscan_runs_create(tu.context, tu.device, 4, 0, &err) == NULL);
    tu_expect_status(err, CLSCAN_INVALID_ELEMENT_SIZE, "value_size 0");
    ck_assert(clscan_runs_create(tu.context, tu.device, 0, 4, &err) == NULL);
    tu_expect_status(err, CLSCAN_INVALID_ELEMENT_SIZE, "key_size 0");
    clscan_runs *r = runs_handle(4, 4);
    clscan_plan *sum = tu_plan(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE),
                *excl = tu_plan(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_EXCLUSIVE),
                *wide = tu_plan(CLSCAN_SUM, CLSCAN_INT64, CLSCAN_INCLUSIVE);
    guarded keys_out = guard(4 * n), nruns = guard(16);
    tu_expect_status(clscan_reduce_by_key_enqueue(NULL, sum, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem,
                                                  0, dst.mem, 0, nruns.mem, 0, 0, NULL, &ev),
                     CLSCAN_INVALID_HANDLE, "NULL runs");
    tu_expect_status(clscan_reduce_by_key_enqueue(r, NULL, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem,
                                                  0, dst.mem, 0, nruns.mem, 0, 0, NULL, &ev),
                     CLSCAN_INVALID_PLAN, "NULL plan");
    tu_expect_status(clscan_reduce_by_key_enqueue(r, excl, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem,
                                                  0, dst.mem, 0, nruns.mem, 0, 0, NULL, &ev),
                     CLSCAN_INVALID_KIND, "an exclusive plan");
    tu_expect_status(clscan_reduce_by_key_enqueue(r, wide, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem,
                                                  0, dst.mem, 0, nruns.mem, 0, 0, NULL, &ev),
                     CLSCAN_ELEMENT_SIZE_MISMATCH, "a plan of 8-byte elements for 4-byte values");
    tu_expect_status(clscan_reduce_by_key_enqueue(r, sum, tu.queue, src.mem, 0, flags.mem, 0, n / 2, keys_out.mem,
                                                  0, dst.mem, 0, nruns.mem, 0, 0, NULL, &ev),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "values past their end");
    tu_expect_status(clscan_reduce_by_key_enqueue(r, sum, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem,
                                                  0, keys_out.mem, 0, nruns.mem, 0, 0, NULL, &ev),
                     CL_MEM_COPY_OVERLAP, "values_out over keys_out");
    tu_expect_status(clscan_unique_by_key_enqueue(r, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem, 0,
                                                  dst.mem, 0, src.mem, 0, 0, NULL, &ev),
                     CL_MEM_COPY_OVERLAP, "nruns over keys");
    tu_expect_status(clscan_unique_by_key_enqueue(r, tu.queue, src.mem, 0, flags.mem, 0, n / 4, keys_out.mem, 0,
                                                  dst.mem, 0, nruns.mem, 2, 0, NULL, &ev),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "nruns past its end");
    ck_assert(ev == NULL);
    clscan_runs_release(r);
    clscan_runs_release(NULL);
    unguard(&src, "src");
    unguard(&flags, "flags");
    unguard(&dst, "dst");
    unguard(&kept, "kept");
    unguard(&keys_out, "keys_out");
    unguard(&nruns, "nruns");
}
END_TEST

int main(void)
{
    tu_open("select_test");
    tu_watchdog(600);
    Suite *s = suite_create("select");
    TCase *tc = tcase_create("select");
    tcase_add_loop_test(tc, predicates_match_the_loop, 0, NPREDS);
    tcase_add_test(tc, a_million_and_a_half_by_predicate);
    tcase_add_loop_test(tc, partition_by_flags_is_stable, 0, NPLAIN);
    tcase_add_loop_test(tc, unique_matches_the_loop, 0, NPLAIN);
    tcase_add_test(tc, gpu_kernels_match_the_loop);
    tcase_add_test(tc, unique_by_key_matches_the_loop);
    tcase_add_test(tc, reduce_by_key_non_commutative_builtins);
    tcase_add_test(tc, reduce_by_key_custom_operator);
    tcase_add_test(tc, reduce_by_key_in_large_tiles);
    tcase_add_test(tc, bad_predicates_are_rejected);
    tcase_add_test(tc, bad_calls_leave_the_buffers_untouched);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    for (int i = 0; i < NPREDS; i++)
        clscan_compactor_release(pred_compactors[i]);
    for (int i = 0; i < NPLAIN; i++)
        clscan_compactor_release(plain_compactors[i]);
    to_close();
    tu_close();
    return rc;
}
