/* clscan_enqueue_segmented_offsets: segments given by offsets (CSR's row_ptr), against the
 * sequential reference of each segment and bitwise against clscan_enqueue_segmented on the
 * equivalent heads, with the totals of every segment (the reduction; the neutral for an empty
 * one) with and without dst.  Built-in and custom operators (non-commutative ones among them),
 * inclusive and exclusive, both multi-tile algorithms, small tiles (8 x 2: segments over many
 * tiles and levels) and the automatic tuning; uint32 and uint64 offsets; empty segments first,
 * inside and last (offsets = count at the end, CSR's trailing empty rows), one segment, all
 * singletons, counts 0 and 1; non-zero offsets with guards checked; in place.  Then offsets that
 * break the rules (no access outside the ranges), wait lists and events on in-order and
 * out-of-order queues, and bad input (the documented status, a message, buffers untouched).
 *
 * Exit status: 0 all checks passed, 1 some check failed, 77 no device (skip), 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each distinct (operator, kind, tuning) is a program build: an exact built-in, one of 8-byte
 * values, the float AFFINE (not commutative), 2x2 integer matrices and argmax (custom). */
static const to_op ops[] = {
    {NULL, CLSCAN_SUM, CLSCAN_INT32},
    {NULL, CLSCAN_MAX, CLSCAN_UINT64},
    {NULL, CLSCAN_AFFINE, CLSCAN_FLOAT},
    {&to_customs[0], 0, 0},
    {&to_customs[2], 0, 0},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])
static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
#define NLOOP (4 * NOPS) /* operators x kinds x algorithms */

static void combo(int i, const to_op **op, clscan_kind *kind, clscan_algorithm *algo)
{
    *op = &ops[i / 4];
    *kind = (i / 2) % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    *algo = algos[i % 2];
}

enum { GUARD = 5 };

/* How the segments' lengths are drawn. */
typedef enum { MIXED, SPARSE, ONE, SINGLETONS, LONG } layout;
static const char *const layout_names[] = {"mixed lengths with empty segments", "mostly empty segments",
                                           "one segment", "all singletons", "longer than several tiles"};

typedef struct off_case {
    layout layout;
    size_t count;
    bool wide;                 /* uint64 offsets */
    int totals;                /* 0 none, 1 with dst, 2 without dst */
    size_t src_off, off_off, dst_off, tot_off;
    bool in_place;
} off_case;

/* The segments' lengths of the layout (summing to n, empty segments first and last where the
 * layout has any) into *lens; returns their number. */
static size_t draw_segments(layout l, size_t n, size_t tile, size_t **lens)
{
    size_t cap = 16, k = 0, left = n;
    size_t *v = malloc(cap * sizeof *v);
    ck_assert(v);
#define PUSH(len)                                          \
    do {                                                   \
        if (k == cap)                                      \
            ck_assert((v = realloc(v, (cap *= 2) * sizeof *v)) != NULL); \
        v[k++] = (len);                                    \
    } while (0)
    const bool edges = l == MIXED || l == SPARSE;
    if (edges)
        for (uint64_t e = tu_rand_below(3); e > 0; e--)
            PUSH(0);
    while (left > 0 || k == 0) {
        size_t len = 0;
        switch (l) {
        case MIXED:
            switch (tu_rand_below(4)) {
            case 0: len = 0; break;
            case 1: len = 1; break;
            case 2: len = 1 + (size_t)tu_rand_below(tile + 2); break;
            default: len = 2 * tile + (size_t)tu_rand_below(4 * tile); break;
            }
            break;
        case SPARSE: len = tu_rand_below(3) ? 0 : 1 + (size_t)tu_rand_below(2 * tile); break;
        case ONE: len = left; break;
        case SINGLETONS: len = 1; break;
        case LONG: len = 3 * tile + (size_t)tu_rand_below(5 * tile); break;
        }
        len = len < left ? len : left;
        PUSH(len);
        left -= len;
    }
    if (edges)
        for (uint64_t e = 1 + tu_rand_below(3); e > 0; e--)   /* offsets = count at the end */
            PUSH(0);
#undef PUSH
    *lens = v;
    return k;
}

/* Writes offset s (of 4 or 8 bytes) into offs. */
static void put_offset(unsigned char *offs, bool wide, size_t s, uint64_t value)
{
    if (wide) {
        memcpy(offs + s * 8, &value, 8);
    } else {
        const uint32_t v = (uint32_t)value;
        memcpy(offs + s * 4, &v, 4);
    }
}

/* Buffers of a case and their host copies. */
typedef struct arrays {
    size_t src_len, off_len, dst_len, tot_len;
    unsigned char *src, *offs, *dst0, *tot0;
} arrays;

static bool guards_and_range(const char *what, const unsigned char *got, const unsigned char *before, size_t len,
                             size_t first, size_t n, size_t e, char *msg, size_t msgsize, const char *desc)
{
    if (memcmp(got, before, first * e) || memcmp(got + (first + n) * e, before + (first + n) * e,
                                                 (len - first - n) * e)) {
        snprintf(msg, msgsize, "%s: elements around the %s range were written", desc, what);
        return false;
    }
    return true;
}

/* Runs one case and compares; false with a message on any difference. */
static bool check_case(const to_op *o, clscan_kind kind, clscan_plan *plan, const off_case *c, char *msg,
                       size_t msgsize)
{
    char name[128], desc[768];
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    const size_t tile = wg * items, n = c->count, e = to_size(o), oe = c->wide ? 8 : 4;
    size_t *lens;
    const size_t ns = draw_segments(c->layout, n, tile < 16 ? 16 : tile, &lens);
    const bool with_dst = c->totals != 2;
    const size_t dst_off = c->in_place ? c->src_off : c->dst_off;
    snprintf(desc, sizeof desc, "[seed %" PRIu64 "] %s %s, %s, %s, count %zu in %zu segments, %s offsets, "
             "totals %s, offsets src %zu offsets %zu dst %zu%s totals %zu, tuning %zu x %zu", tu_seed,
             to_name(o, name, sizeof name), tu_kind_name(kind), tu_algo_name(clscan_plan_get_algorithm(plan)),
             layout_names[c->layout], n, ns, c->wide ? "uint64" : "uint32",
             c->totals == 0 ? "none" : c->totals == 1 ? "with dst" : "alone (dst NULL)", c->src_off, c->off_off,
             dst_off, c->in_place ? " (in place)" : "", c->tot_off, wg, items);

    arrays a = {.src_len = c->src_off + n + GUARD, .off_len = c->off_off + ns + 1 + GUARD,
                .dst_len = dst_off + n + GUARD, .tot_len = c->tot_off + ns + GUARD};
    a.src = malloc(a.src_len * e), a.offs = malloc(a.off_len * oe), a.dst0 = malloc(a.dst_len * e);
    a.tot0 = malloc(a.tot_len * e);
    unsigned char *expect = malloc(a.dst_len * e), *expect_tot = malloc(a.tot_len * e), *tmp = malloc(n * e + e);
    unsigned char *got = malloc(a.dst_len * e), *got_tot = malloc(a.tot_len * e), *heads = calloc(n + 1, 1);
    unsigned char *seg = malloc(n * e + e), *src_back = malloc(a.src_len * e), *offs_back = malloc(a.off_len * oe);
    ck_assert(a.src && a.offs && a.dst0 && a.tot0 && expect && expect_tot && tmp && got && got_tot && heads && seg &&
              src_back && offs_back);
    to_fill(o, a.src, a.src_len);
    tu_fill_bytes(a.offs, a.off_len * oe);   /* the guards: garbage the kernels must not read */
    tu_fill_bytes(a.dst0, a.dst_len * e);
    tu_fill_bytes(a.tot0, a.tot_len * e);
    if (c->in_place)
        memcpy(a.dst0, a.src, a.dst_len * e);

    /* The offsets, the equivalent heads and the references. */
    const unsigned char *x = a.src + c->src_off * e;
    memcpy(expect, a.dst0, a.dst_len * e);
    memcpy(expect_tot, a.tot0, a.tot_len * e);
    size_t at = 0;
    for (size_t s = 0; s < ns; s++) {
        put_offset(a.offs, c->wide, c->off_off + s, at);
        if (lens[s]) {
            heads[at] = (unsigned char)(1 + tu_rand_below(255));
            to_reference(o, kind, x + at * e, expect + (dst_off + at) * e, lens[s]);
            to_reference(o, CLSCAN_INCLUSIVE, x + at * e, tmp, lens[s]);
            memcpy(expect_tot + (c->tot_off + s) * e, tmp + (lens[s] - 1) * e, e);
        } else {
            to_neutral(o, expect_tot + (c->tot_off + s) * e);
        }
        at += lens[s];
    }
    put_offset(a.offs, c->wide, c->off_off + ns, at);
    if (!with_dst)
        memcpy(expect, a.dst0, a.dst_len * e);

    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, a.src_len * e, a.src);
    cl_mem obuf = tu_buffer(tu.context, CL_MEM_READ_ONLY, a.off_len * oe, a.offs);
    cl_mem dbuf = c->in_place ? sbuf : tu_buffer(tu.context, CL_MEM_READ_WRITE, a.dst_len * e, a.dst0);
    cl_mem tbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, a.tot_len * e, a.tot0);
    /* clscan_enqueue_segmented on the heads, from a copy of the source. */
    cl_mem s2 = tu_buffer(tu.context, CL_MEM_READ_ONLY, n * e + e, x);
    cl_mem h2 = tu_buffer(tu.context, CL_MEM_READ_ONLY, n + 1, heads);
    cl_mem d2 = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * e + e, NULL);
    cl_int err = n ? clscan_enqueue_segmented(plan, tu.queue, s2, 0, h2, 0, d2, 0, n, 0, NULL, NULL) : CL_SUCCESS;
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "%s: clscan_enqueue_segmented failed: %s: %s", desc, clscan_error_string(err),
                 clscan_last_error());
    if (ok && n)
        tu_read(tu.queue, d2, n * e, seg);

    cl_event ev = NULL;
    if (ok) {
        const clscan_type ot = c->wide ? CLSCAN_UINT64 : CLSCAN_UINT32;
        err = clscan_enqueue_segmented_offsets(plan, tu.queue, sbuf, c->src_off, ot, obuf, c->off_off, ns,
                                               with_dst ? dbuf : NULL, dst_off, n, c->totals ? tbuf : NULL, c->tot_off,
                                               0, NULL, &ev);
        ok = err == CL_SUCCESS;
        if (!ok)
            snprintf(msg, msgsize, "%s: the call failed: %s: %s", desc, clscan_error_string(err), clscan_last_error());
    }
    if (ok) {
        ck_assert(clWaitForEvents(1, &ev) == CL_SUCCESS);
        clReleaseEvent(ev);
        tu_read(tu.queue, dbuf, a.dst_len * e, got);
        tu_read(tu.queue, tbuf, a.tot_len * e, got_tot);
        tu_read(tu.queue, obuf, a.off_len * oe, offs_back);
        if (!c->in_place)
            tu_read(tu.queue, sbuf, a.src_len * e, src_back);
        size_t d;
        if (with_dst && (d = to_diff(o, expect + dst_off * e, got + dst_off * e, n)) < n) {
            ok = false;
            snprintf(msg, msgsize, "%s: first difference from the reference at element %zu", desc, d);
        } else if (with_dst && n && memcmp(got + dst_off * e, seg, n * e)) {
            ok = false;
            snprintf(msg, msgsize, "%s: not bitwise clscan_enqueue_segmented's output", desc);
        } else if (!guards_and_range("dst", got, expect, a.dst_len, dst_off, with_dst ? n : 0, e, msg, msgsize,
                                     desc)) {
            ok = false;
        } else if (c->totals && (d = to_diff(o, expect_tot + c->tot_off * e, got_tot + c->tot_off * e, ns)) < ns) {
            ok = false;
            snprintf(msg, msgsize, "%s: total %zu differs from the reference", desc, d);
        } else if (!guards_and_range("totals", got_tot, c->totals ? expect_tot : a.tot0, a.tot_len, c->tot_off,
                                     c->totals ? ns : 0, e, msg, msgsize, desc)) {
            ok = false;
        } else if (memcmp(offs_back, a.offs, a.off_len * oe) || (!c->in_place && memcmp(src_back, a.src,
                                                                                      a.src_len * e))) {
            ok = false;
            snprintf(msg, msgsize, "%s: the source or the offsets changed", desc);
        }
        /* The totals' bits: an inclusive scan's last output of each segment, an exclusive one's
         * combined with the last element (the segmented scan's, so also without dst). */
        for (size_t s = 0, b = 0; ok && c->totals && s < ns; b += lens[s++]) {
            if (!lens[s])
                continue;
            const unsigned char *last = seg + (b + lens[s] - 1) * e;
            if (kind == CLSCAN_EXCLUSIVE)
                to_comb(o, last, x + (b + lens[s] - 1) * e, tmp), last = tmp;
            if (kind == CLSCAN_INCLUSIVE ? memcmp(got_tot + (c->tot_off + s) * e, last, e) != 0
                                         : to_diff(o, last, got_tot + (c->tot_off + s) * e, 1) != 1) {
                ok = false;
                snprintf(msg, msgsize, "%s: total %zu is not the segment's last output%s", desc, s,
                         kind == CLSCAN_EXCLUSIVE ? " combined with its last element" : " bitwise");
            }
        }
    }
    clReleaseMemObject(sbuf), clReleaseMemObject(obuf), clReleaseMemObject(tbuf);
    clReleaseMemObject(s2), clReleaseMemObject(h2), clReleaseMemObject(d2);
    if (!c->in_place)
        clReleaseMemObject(dbuf);
    free(a.src), free(a.offs), free(a.dst0), free(a.tot0), free(expect), free(expect_tot), free(tmp), free(got);
    free(got_tot), free(heads), free(seg), free(src_back), free(offs_back), free(lens);
    return ok;
}

static void tally(tu_tally *t, const to_op *o, clscan_kind kind, clscan_plan *plan, const off_case *c)
{
    char msg[1536];
    t->run++;
    if (!check_case(o, kind, plan, c, msg, sizeof msg)) {
        if (t->failed++ == 0)
            snprintf(t->first, sizeof t->first, "%s", msg);
        printf("FAIL %s\n", msg);
    }
}

/* Tile 16: every layout at counts across the levels, both offset widths, the totals with and
 * without dst, offsets and guards, in place. */
START_TEST(offsets_on_small_tiles_match_the_reference)
{
    const to_op *o;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &o, &kind, &algo);
    clscan_plan *plan = to_plan(o, kind, 8, 2, algo, false);
    tu_tally t = {0};
    const size_t counts[] = {0, 1, 15, 17, 300, 5000};
    int k = 0;
    for (int l = MIXED; l <= LONG; l++)
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++, k++)
            tally(&t, o, kind, plan, &(off_case){(layout)l, counts[i], k % 2, k % 3, 0, 0, 0, 0, false});
    tally(&t, o, kind, plan, &(off_case){MIXED, 40000, true, 1, 0, 0, 0, 0, false});
    tally(&t, o, kind, plan, &(off_case){MIXED, 3001, false, 1, 5, 3, 11, 2, false});
    tally(&t, o, kind, plan, &(off_case){SPARSE, 3001, true, 2, 2, 7, 0, 4, false});
    tally(&t, o, kind, plan, &(off_case){MIXED, 2999, true, 1, 9, 1, 0, 3, true});
    tally(&t, o, kind, plan, &(off_case){SINGLETONS, 700, false, 1, 1, 2, 3, 1, true});
    tally(&t, o, kind, plan, &(off_case){ONE, 0, true, 2, 3, 1, 0, 6, false});
    TU_TALLY_ASSERT(&t);
}
END_TEST

/* The automatic tuning for a few (operator, kind): its programs are the slowest to build. */
static const struct { int op; clscan_kind kind; } auto_cases[] = {
    {0, CLSCAN_INCLUSIVE}, {2, CLSCAN_EXCLUSIVE}, {3, CLSCAN_EXCLUSIVE},
};
#define NAUTO (int)(sizeof auto_cases / sizeof auto_cases[0])

START_TEST(offsets_with_the_automatic_tuning_match_the_reference)
{
    const to_op *o = &ops[auto_cases[_i / 2].op];
    const clscan_kind kind = auto_cases[_i / 2].kind;
    clscan_plan *plan = to_plan(o, kind, 0, 0, algos[_i % 2], false);
    const size_t tile = tu_tile(plan);
    tu_tally t = {0};
    tally(&t, o, kind, plan, &(off_case){MIXED, 5 * tile + 3, false, 1, 0, 0, 0, 0, false});
    tally(&t, o, kind, plan, &(off_case){LONG, 3 * tile + 1, true, 2, 3, 1, 3, 2, false});
    tally(&t, o, kind, plan, &(off_case){SPARSE, tile - 1, true, 1, 2, 2, 2, 0, true});
    TU_TALLY_ASSERT(&t);
}
END_TEST

/* Offsets that break the rules (decreasing, past count, the largest values) give unspecified
 * results, but nothing outside the ranges is written and the inputs stay as they were. */
START_TEST(offsets_that_break_the_rules_stay_in_bounds)
{
    const to_op sum = {NULL, CLSCAN_SUM, CLSCAN_INT32};
    clscan_plan *plan = to_plan(&sum, CLSCAN_EXCLUSIVE, 8, 2, algos[_i % 2], false);
    const bool wide = _i / 2;
    const size_t n = 3000, ns = 200, oe = wide ? 8 : 4;
    enum { G = GUARD };
    int32_t *x = malloc((n + 2 * G) * 4), *y = malloc((n + 2 * G) * 4), *y0 = malloc((n + 2 * G) * 4);
    int32_t *tot = malloc((ns + 2 * G) * 4), *tot0 = malloc((ns + 2 * G) * 4);
    unsigned char *offs = malloc((ns + 1) * oe);
    ck_assert(x && y && y0 && tot && tot0 && offs);
    tu_fill(CLSCAN_SUM, CLSCAN_INT32, x, n + 2 * G);
    tu_fill_bytes(y0, (n + 2 * G) * 4);
    tu_fill_bytes(tot0, (ns + 2 * G) * 4);
    for (size_t s = 0; s <= ns; s++) {
        const uint64_t pick = tu_rand_below(5);
        const uint64_t v = pick == 0 ? tu_rand_below(n) : pick == 1 ? n + tu_rand_below(3 * n)
                           : pick == 2 ? (wide ? UINT64_MAX : UINT32_MAX) : pick == 3 ? n : 0;
        put_offset(offs, wide, s, v);
    }
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_ONLY, (n + 2 * G) * 4, x);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, (n + 2 * G) * 4, y0);
    cl_mem totals = tu_buffer(tu.context, CL_MEM_READ_WRITE, (ns + 2 * G) * 4, tot0);
    cl_mem off = tu_buffer(tu.context, CL_MEM_READ_ONLY, (ns + 1) * oe, offs);
    for (int with_dst = 0; with_dst < 2; with_dst++) {
        cl_int err = clscan_enqueue_segmented_offsets(plan, tu.queue, src, G, wide ? CLSCAN_UINT64 : CLSCAN_UINT32,
                                                      off, 0, ns, with_dst ? dst : NULL, G, n, totals, G, 0, NULL,
                                                      NULL);
        ck_assert_msg(err == CL_SUCCESS, "[seed %" PRIu64 "] %s: %s", tu_seed, clscan_error_string(err),
                      clscan_last_error());
        tu_read(tu.queue, dst, (n + 2 * G) * 4, y);
        tu_read(tu.queue, totals, (ns + 2 * G) * 4, tot);
        ck_assert_msg(!memcmp(y, y0, G * 4) && !memcmp(y + G + n, y0 + G + n, G * 4) &&
                      (with_dst || !memcmp(y, y0, (n + 2 * G) * 4)),
                      "[seed %" PRIu64 "] dst written outside its range", tu_seed);
        ck_assert_msg(!memcmp(tot, tot0, G * 4) && !memcmp(tot + G + ns, tot0 + G + ns, G * 4),
                      "[seed %" PRIu64 "] totals written outside their range", tu_seed);
    }
    clReleaseMemObject(src), clReleaseMemObject(dst), clReleaseMemObject(totals), clReleaseMemObject(off);
    free(x), free(y), free(y0), free(tot), free(tot0), free(offs);
}
END_TEST

/* A small problem on the device: sums of int32 in segments of a few lengths. */
typedef struct small {
    size_t n, ns;
    int32_t x[600], ref[600], tot_ref[64];
    uint32_t offs[65];
    cl_mem src, offsets, dst, totals;
} small;

static void small_make(small *p, int salt)
{
    p->n = 600, p->ns = 64;
    tu_fill(CLSCAN_SUM, CLSCAN_INT32, p->x, p->n);
    p->x[0] += salt;
    size_t at = 0;
    for (size_t s = 0; s < p->ns; s++) {
        const size_t len = s == p->ns - 1 ? p->n - at : at < p->n ? tu_rand_below(20) : 0;
        p->offs[s] = (uint32_t)at;
        const size_t end = at + len < p->n ? at + len : p->n;
        tu_reference(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, p->x + at, p->ref + at, end - at);
        p->tot_ref[s] = end > at ? p->ref[end - 1] : 0;
        at = end;
    }
    p->offs[p->ns] = (uint32_t)p->n;
    p->src = tu_buffer(tu.context, CL_MEM_READ_ONLY, sizeof p->x, p->x);
    p->offsets = tu_buffer(tu.context, CL_MEM_READ_ONLY, sizeof p->offs, p->offs);
    p->dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof p->ref, NULL);
    p->totals = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof p->tot_ref, NULL);
}

static void small_check(small *p, cl_command_queue q)
{
    int32_t y[600], t[64];
    tu_read(q, p->dst, sizeof y, y);
    tu_read(q, p->totals, sizeof t, t);
    ck_assert_msg(!memcmp(y, p->ref, sizeof y) && !memcmp(t, p->tot_ref, sizeof t), "[seed %" PRIu64 "] wrong "
                  "output", tu_seed);
    clReleaseMemObject(p->src), clReleaseMemObject(p->offsets), clReleaseMemObject(p->dst);
    clReleaseMemObject(p->totals);
}

/* The call waits for its wait list and its event completes after the totals; on an
 * out-of-order queue, two calls on one plan share the queue's scratch in order. */
START_TEST(wait_lists_and_events_are_honoured)
{
    const to_op sum = {NULL, CLSCAN_SUM, CLSCAN_INT32};
    clscan_plan *plan = to_plan(&sum, CLSCAN_INCLUSIVE, 8, 2, algos[_i], false);
    cl_int err;
    small a, b;
    small_make(&a, 0);
    cl_event gate = clCreateUserEvent(tu.context, &err), ev = NULL;
    ck_assert(err == CL_SUCCESS);
    err = clscan_enqueue_segmented_offsets(plan, tu.queue, a.src, 0, CLSCAN_UINT32, a.offsets, 0, a.ns, a.dst, 0, a.n,
                                           a.totals, 0, 1, &gate, &ev);
    ck_assert_msg(err == CL_SUCCESS, "%s", clscan_last_error());
    cl_int status = CL_COMPLETE;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    ck_assert_msg(status != CL_COMPLETE, "the event completed before its wait list");
    clSetUserEventStatus(gate, CL_COMPLETE);
    ck_assert(clWaitForEvents(1, &ev) == CL_SUCCESS);
    clReleaseEvent(ev), clReleaseEvent(gate);
    small_check(&a, tu.queue);

    cl_command_queue ooo = clCreateCommandQueue(tu.context, tu.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (!ooo)
        return;   /* the device has no out-of-order queues */
    small_make(&a, 1);
    small_make(&b, 2);
    cl_event e1 = NULL, e2 = NULL;
    err = clscan_enqueue_segmented_offsets(plan, ooo, a.src, 0, CLSCAN_UINT32, a.offsets, 0, a.ns, a.dst, 0, a.n,
                                           a.totals, 0, 0, NULL, &e1);
    ck_assert_msg(err == CL_SUCCESS, "%s", clscan_last_error());
    err = clscan_enqueue_segmented_offsets(plan, ooo, b.src, 0, CLSCAN_UINT32, b.offsets, 0, b.ns, b.dst, 0, b.n,
                                           b.totals, 0, 0, NULL, &e2);
    ck_assert_msg(err == CL_SUCCESS, "%s", clscan_last_error());
    ck_assert(clWaitForEvents(1, &e2) == CL_SUCCESS && clWaitForEvents(1, &e1) == CL_SUCCESS);
    clReleaseEvent(e1), clReleaseEvent(e2);
    small_check(&a, tu.queue);
    small_check(&b, tu.queue);
    clReleaseCommandQueue(ooo);
}
END_TEST

/* ---- Bad input: the documented status, a message naming the function, every buffer as it was */

enum { BN = 64, BS = 8 };   /* elements and segments of the bad calls */

typedef struct bad_bufs {
    cl_mem src, dst, offs, offs64, totals, ro, wo, short_offs;
    unsigned char *init[8];
    size_t bytes[8];
} bad_bufs;

static cl_mem bad_buffer(bad_bufs *b, int i, cl_mem_flags flags, size_t bytes)
{
    b->init[i] = malloc(bytes);
    ck_assert(b->init[i]);
    tu_fill_bytes(b->init[i], bytes);
    b->bytes[i] = bytes;
    return tu_buffer(tu.context, flags, bytes, b->init[i]);
}

static void expect_untouched(const bad_bufs *b, cl_int got, cl_int want, const char *what)
{
    ck_assert_msg(got == want, "%s: got %s, want %s: %s", what, clscan_error_string(got), clscan_error_string(want),
                  clscan_last_error());
    if (want != CL_SUCCESS)
        ck_assert_msg(strstr(clscan_last_error(), "clscan_enqueue_segmented_offsets"), "%s: the message does not "
                      "name the function: %s", what, clscan_last_error());
    const cl_mem all[8] = {b->src, b->dst, b->offs, b->offs64, b->totals, b->ro, b->wo, b->short_offs};
    for (int i = 0; i < 8; i++) {
        if (i == 6)
            continue;   /* write-only: not read back */
        unsigned char *now = malloc(b->bytes[i]);
        ck_assert(now);
        tu_read(tu.queue, all[i], b->bytes[i], now);
        ck_assert_msg(!memcmp(now, b->init[i], b->bytes[i]), "%s: buffer %d was written", what, i);
        free(now);
    }
}

START_TEST(bad_calls_are_refused_and_touch_nothing)
{
    const to_op sum = {NULL, CLSCAN_SUM, CLSCAN_INT32};
    clscan_plan *plan = to_plan(&sum, CLSCAN_INCLUSIVE, 8, 2, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, false);
    bad_bufs b;
    b.src = bad_buffer(&b, 0, CL_MEM_READ_WRITE, BN * 4);
    b.dst = bad_buffer(&b, 1, CL_MEM_READ_WRITE, BN * 4);
    /* Valid offsets, so that a call that should be refused but runs shows in dst. */
    b.offs = bad_buffer(&b, 2, CL_MEM_READ_WRITE, (BS + 1) * 4);
    uint32_t o32[BS + 1];
    uint64_t o64[BS + 1];
    for (int s = 0; s <= BS; s++)
        o32[s] = (uint32_t)(s * BN / BS), o64[s] = (uint64_t)(s * BN / BS);
    memcpy(b.init[2], o32, sizeof o32);
    tu_write(tu.queue, b.offs, sizeof o32, o32);
    b.offs64 = bad_buffer(&b, 3, CL_MEM_READ_WRITE, (BS + 1) * 8);
    memcpy(b.init[3], o64, sizeof o64);
    tu_write(tu.queue, b.offs64, sizeof o64, o64);
    b.totals = bad_buffer(&b, 4, CL_MEM_READ_WRITE, BS * 4);
    b.ro = bad_buffer(&b, 5, CL_MEM_READ_ONLY, BN * 4);
    b.wo = bad_buffer(&b, 6, CL_MEM_WRITE_ONLY, BN * 4);
    b.short_offs = bad_buffer(&b, 7, CL_MEM_READ_WRITE, BS * 4);   /* one offset short */
    const clscan_type u32 = CLSCAN_UINT32, u64 = CLSCAN_UINT64;
    cl_int err;
#define CALL(p, q, src, so, ty, offs, oo, ns, dst, dof, n, tot, to, nw, wl) \
    clscan_enqueue_segmented_offsets(p, q, src, so, ty, offs, oo, ns, dst, dof, n, tot, to, nw, wl, NULL)
    err = CALL(plan, tu.queue, b.src, 0, CLSCAN_INT32, b.offs, 0, BS, b.dst, 0, BN, b.totals, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_TYPE, "int32 offsets");
    err = CALL(plan, tu.queue, b.src, 0, CLSCAN_INT64, b.offs64, 0, BS, b.dst, 0, BN, b.totals, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_TYPE, "int64 offsets");
    err = CALL(plan, tu.queue, b.src, 0, CLSCAN_FLOAT, b.offs, 0, BS, b.dst, 0, BN, b.totals, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_TYPE, "float offsets");
    err = CALL(plan, tu.queue, b.src, 0, (clscan_type)42, b.offs, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_TYPE, "offsets type 42");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.short_offs, 0, BS, b.dst, 0, BN, b.totals, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "nsegments + 1 offsets past the buffer");
    ck_assert_msg(strstr(clscan_last_error(), "offsets"), "the message does not name offsets: %s",
                  clscan_last_error());
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 1, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "offsets_offset 1 with nsegments + 1 offsets");
    err = CALL(plan, tu.queue, b.src, 0, u64, b.offs, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "uint64 offsets in a buffer of uint32 offsets");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, SIZE_MAX, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "nsegments SIZE_MAX");
    err = CALL(plan, tu.queue, b.src, 0, u64, b.offs64, SIZE_MAX / 8, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "offsets_offset SIZE_MAX / 8");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, b.totals, 1, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "totals_offset 1 with nsegments totals");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 1, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "dst one element short");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, b.src, 3, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "totals inside src");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN / 2, b.dst, 20, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "totals inside dst");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, b.offs, 1, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "totals over the offsets");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, NULL, 0, BN, b.offs, 1, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "totals over the offsets (no dst)");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.dst, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "offsets inside dst");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.src, 1, BN - 1, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "src and dst overlapping");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, NULL, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "dst NULL without totals");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, b.ro, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "read-only totals");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.ro, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "read-only dst");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.wo, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "write-only offsets");
    err = CALL(plan, tu.queue, b.src, 0, u32, NULL, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "NULL offsets");
    err = CALL(plan, tu.queue, NULL, 0, u32, b.offs, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "NULL src");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, 0, b.dst, 0, BN, b.totals, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_VALUE, "elements in no segments");
    err = CALL(NULL, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_PLAN, "NULL plan");
    err = CALL(plan, NULL, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_INVALID_COMMAND_QUEUE, "NULL queue");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, b.dst, 0, BN, NULL, 0, 1, NULL);
    expect_untouched(&b, err, CL_INVALID_EVENT_WAIT_LIST, "a wait list of one event, NULL");
    /* No-ops: no elements and no segments (also with totals), or no totals for empty segments;
     * even with buffers too short for anything. */
    err = CALL(plan, tu.queue, b.src, 0, u32, b.short_offs, 0, 0, b.dst, 0, 0, b.totals, 0, 0, NULL);
    expect_untouched(&b, err, CL_SUCCESS, "count 0, nsegments 0");
    err = CALL(plan, tu.queue, NULL, 0, u32, NULL, 0, 0, b.dst, 0, 0, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_SUCCESS, "count 0, nsegments 0, no buffers");
    err = CALL(plan, tu.queue, b.src, 0, u32, b.short_offs, 0, 2 * BS, b.dst, 0, 0, NULL, 0, 0, NULL);
    expect_untouched(&b, err, CL_SUCCESS, "count 0 without totals");
    cl_event ev = NULL;
    err = clscan_enqueue_segmented_offsets(plan, tu.queue, b.src, 0, u32, b.offs, 0, 0, b.dst, 0, 0, NULL, 0, 0, NULL,
                                           &ev);
    ck_assert_msg(err == CL_SUCCESS && ev && clWaitForEvents(1, &ev) == CL_SUCCESS, "a no-op's event");
    clReleaseEvent(ev);
    /* Count 0 with totals: every total the neutral. */
    err = CALL(plan, tu.queue, b.src, 0, u32, b.offs, 0, BS, NULL, 0, 0, b.totals, 0, 0, NULL);
    ck_assert_msg(err == CL_SUCCESS, "count 0 with totals: %s", clscan_last_error());
    int32_t t[BS];
    tu_read(tu.queue, b.totals, sizeof t, t);
    for (int s = 0; s < BS; s++)
        ck_assert_msg(t[s] == 0, "count 0: total %d is %d, not the neutral", s, (int)t[s]);
#undef CALL
    const cl_mem all[8] = {b.src, b.dst, b.offs, b.offs64, b.totals, b.ro, b.wo, b.short_offs};
    for (int i = 0; i < 8; i++) {
        clReleaseMemObject(all[i]);
        free(b.init[i]);
    }
}
END_TEST

int main(void)
{
    tu_open("offsets_test");
    tu_watchdog(900);
    for (int i = 0; i < NLOOP; i++) {
        const to_op *o;
        clscan_kind kind;
        clscan_algorithm algo;
        combo(i, &o, &kind, &algo);
        to_plan(o, kind, 8, 2, algo, true);
    }
    for (int i = 0; i < 2 * NAUTO; i++)
        to_plan(&ops[auto_cases[i / 2].op], auto_cases[i / 2].kind, 0, 0, algos[i % 2], true);
    Suite *s = suite_create("offsets");
    TCase *tc = tcase_create("small tiles");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, offsets_on_small_tiles_match_the_reference, 0, NLOOP);
    suite_add_tcase(s, tc);
    tc = tcase_create("automatic tuning");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, offsets_with_the_automatic_tuning_match_the_reference, 0, 2 * NAUTO);
    suite_add_tcase(s, tc);
    tc = tcase_create("robustness and bad input");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, offsets_that_break_the_rules_stay_in_bounds, 0, 4);
    tcase_add_loop_test(tc, wait_lists_and_events_are_honoured, 0, 2);
    tcase_add_test(tc, bad_calls_are_refused_and_touch_nothing);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    to_close();
    tu_close();
    return rc;
}
