/* Segmented scans and scans by key: every built-in operator (one type each) and the custom
 * operators of testops.c, inclusive and exclusive, both multi-tile algorithms, against the
 * sequential reference applied to each segment.  Segment lengths 1, random, and longer than
 * several tiles; all heads and no heads; offsets; in place.  Small tiles (8 x 2) make long
 * segments span many tiles and several levels with moderate counts.
 *
 * Exit status: 0 all checks passed, 1 some check failed, 77 no device (skip), 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every built-in operator on one type each (each distinct plan is a program build), and the
 * custom ones. */
static const to_op ops[] = {
    {NULL, CLSCAN_SUM, CLSCAN_INT32},   {NULL, CLSCAN_MAX, CLSCAN_UINT64},
    {NULL, CLSCAN_MIN, CLSCAN_FLOAT},   {NULL, CLSCAN_LAST_NONZERO, CLSCAN_DOUBLE},
    {NULL, CLSCAN_AFFINE, CLSCAN_INT32},
    {&to_customs[0], 0, 0}, {&to_customs[1], 0, 0}, {&to_customs[2], 0, 0},
    {&to_customs[3], 0, 0}, {&to_customs[4], 0, 0},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])
static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
#define NLOOP (4 * NOPS) /* ops x kinds x algorithms */

static void combo(int i, const to_op **op, clscan_kind *kind, clscan_algorithm *algo)
{
    *op = &ops[i / 4];
    *kind = (i / 2) % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    *algo = algos[i % 2];
}

/* Where segments start. */
typedef enum { ALL_HEADS, NO_HEADS, RANDOM, LONG, MIXED } pattern;
static const char *const pattern_names[] = {"all heads", "no heads", "random lengths",
                                            "longer than several tiles", "mixed lengths"};

/* How segments are given. */
typedef enum { HEADS, KEYS32, KEYS64 } source;
static const char *const source_names[] = {"heads", "int32 keys", "uint64 keys"};

typedef struct seg_case {
    pattern pattern;
    source source;
    size_t count, src_offset, seg_offset, dst_offset;
    bool in_place;
} seg_case;

/* The next segment length of the pattern (tile: the plan's). */
static size_t segment_length(pattern p, size_t tile)
{
    switch (p) {
    case ALL_HEADS: return 1;
    case NO_HEADS: return SIZE_MAX;
    case RANDOM: return 1 + (size_t)tu_rand_below(3 * tile / 2 + 2);
    case LONG: return 3 * tile + (size_t)tu_rand_below(5 * tile);
    case MIXED:
        switch (tu_rand_below(3)) {
        case 0: return 1;
        case 1: return 1 + (size_t)tu_rand_below(tile + 2);
        default: return 2 * tile + (size_t)tu_rand_below(4 * tile);
        }
    }
    return 1;
}

enum { GUARD = 7 };

/* Runs one case and compares; false with a message on any difference. */
static bool check_case(const to_op *o, clscan_kind kind, clscan_plan *plan, const seg_case *c, char *msg,
                       size_t msgsize)
{
    char name[128], desc[768];
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    const size_t tile = wg * items, n = c->count, e = to_size(o);
    const size_t ke = c->source == HEADS ? 1 : c->source == KEYS32 ? 4 : 8;
    const size_t dst_off = c->in_place ? c->src_offset : c->dst_offset;
    snprintf(desc, sizeof desc, "[seed %" PRIu64 "] %s %s, %s, %s by %s, count %zu, offsets src %zu "
             "%s %zu dst %zu%s, tuning %zu x %zu", tu_seed, to_name(o, name, sizeof name),
             tu_kind_name(kind), tu_algo_name(clscan_plan_get_algorithm(plan)), pattern_names[c->pattern],
             source_names[c->source], n, c->src_offset, source_names[c->source], c->seg_offset, dst_off,
             c->in_place ? " (in place)" : "", wg, items);

    const size_t src_len = c->src_offset + n + GUARD, seg_len = c->seg_offset + n + GUARD;
    const size_t dst_len = dst_off + n + GUARD;
    unsigned char *src = malloc(src_len * e), *seg = malloc(seg_len * ke), *dst0 = malloc(dst_len * e);
    unsigned char *expect = malloc(dst_len * e), *got = malloc(dst_len * e);
    unsigned char *src_back = malloc(src_len * e), *seg_back = malloc(seg_len * ke);
    ck_assert(src && seg && dst0 && expect && got && src_back && seg_back);

    to_fill(o, src, src_len);
    tu_fill_bytes(seg, seg_len * ke);
    tu_fill_bytes(dst0, dst_len * e);
    /* Segments: heads 0/1 (element 0's head random: it starts a segment anyway), or keys that
     * change exactly where a segment starts. */
    uint64_t key = tu_rand();
    size_t left = segment_length(c->pattern, tile);
    unsigned char *x = src + c->src_offset * e, *y = expect + dst_off * e;
    memcpy(expect, c->in_place ? src : dst0, dst_len * e);
    for (size_t i = 0; i < n; i++) {
        const bool head = i > 0 && left == 0;
        if (head)
            left = segment_length(c->pattern, tile);
        --left;
        unsigned char *s = seg + (c->seg_offset + i) * ke;
        if (c->source == HEADS) {
            *s = i == 0 ? (unsigned char)tu_rand_below(2) : head ? (unsigned char)(1 + tu_rand_below(255)) : 0;
        } else {
            if (head)
                key += 1 + tu_rand_below(3);   /* a different key */
            if (c->source == KEYS32) {
                const uint32_t k = (uint32_t)key;
                memcpy(s, &k, 4);
            } else {
                memcpy(s, &key, 8);
            }
        }
    }
    /* The reference of each segment, as the heads or keys mark them. */
    const sup_segments how = c->source == HEADS ? SUP_HEADS : c->source == KEYS32 ? SUP_KEYS32 : SUP_KEYS64;
    for (size_t start = 0, end; start < n; start = end) {
        end = sup_segment_end(how, seg + c->seg_offset * ke, start, n);
        to_reference(o, kind, x + start * e, y + start * e, end - start);
    }

    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, src_len * e, src);
    cl_mem hbuf = tu_buffer(tu.context, CL_MEM_READ_ONLY, seg_len * ke, seg);
    cl_mem dbuf = c->in_place ? sbuf : tu_buffer(tu.context, CL_MEM_READ_WRITE, dst_len * e, dst0);
    cl_event ev = NULL;
    cl_int err;
    if (c->source == HEADS)
        err = clscan_enqueue_segmented(plan, tu.queue, sbuf, c->src_offset, hbuf, c->seg_offset, dbuf,
                                       dst_off, n, 0, NULL, &ev);
    else
        err = clscan_enqueue_by_key(plan, tu.queue, c->source == KEYS32 ? CLSCAN_INT32 : CLSCAN_UINT64,
                                    hbuf, c->seg_offset, sbuf, c->src_offset, dbuf, dst_off, n, 0, NULL, &ev);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "%s: the scan failed: %s: %s", desc, clscan_error_string(err), clscan_last_error());
    if (ok) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        tu_read(tu.queue, dbuf, dst_len * e, got);
        tu_read(tu.queue, hbuf, seg_len * ke, seg_back);
        if (!c->in_place)
            tu_read(tu.queue, sbuf, src_len * e, src_back);
        const size_t d = to_diff(o, y, got + dst_off * e, n);
        if (d < n) {
            ok = false;
            snprintf(msg, msgsize, "%s: first difference at element %zu", desc, d);
        } else if (memcmp(got, expect, dst_off * e) ||
                   memcmp(got + (dst_off + n) * e, expect + (dst_off + n) * e, GUARD * e)) {
            ok = false;
            snprintf(msg, msgsize, "%s: elements around the destination range were written", desc);
        } else if (memcmp(seg, seg_back, seg_len * ke) || (!c->in_place && memcmp(src, src_back, src_len * e))) {
            ok = false;
            snprintf(msg, msgsize, "%s: the source or the %s changed", desc, source_names[c->source]);
        }
    }
    clReleaseMemObject(sbuf);
    clReleaseMemObject(hbuf);
    if (!c->in_place)
        clReleaseMemObject(dbuf);
    free(src); free(seg); free(dst0); free(expect); free(got); free(src_back); free(seg_back);
    return ok;
}

static void tally(tu_tally *t, const to_op *o, clscan_kind kind, clscan_plan *plan, const seg_case *c)
{
    char msg[1024];
    t->run++;
    const bool ok = check_case(o, kind, plan, c, msg, sizeof msg);
    if (!ok) {
        if (t->failed++ == 0)
            snprintf(t->first, sizeof t->first, "%s", msg);
        printf("FAIL %s\n", msg);
    }
}

/* Tile 16: long segments over many tiles and levels; every pattern, heads and keys, offsets
 * and in place. */
START_TEST(segmented_scan_on_small_tiles_matches_the_reference)
{
    const to_op *o;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &o, &kind, &algo);
    clscan_plan *plan = to_plan(o, kind, 8, 2, algo, false);
    tu_tally t = {0};
    const size_t counts[] = {1, 16, 17, 300, 5000};
    for (int p = ALL_HEADS; p <= MIXED; p++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            tally(&t, o, kind, plan, &(seg_case){(pattern)p, HEADS, counts[k], 0, 0, 0, false});
    tally(&t, o, kind, plan, &(seg_case){LONG, HEADS, 40000, 0, 0, 0, false});
    tally(&t, o, kind, plan, &(seg_case){MIXED, HEADS, 3001, 5, 3, 11, false});
    tally(&t, o, kind, plan, &(seg_case){MIXED, HEADS, 3001, 9, 1, 0, true});
    tally(&t, o, kind, plan, &(seg_case){MIXED, KEYS32, 3001, 2, 7, 4, false});
    tally(&t, o, kind, plan, &(seg_case){LONG, KEYS32, 1500, 0, 0, 0, true});
    tally(&t, o, kind, plan, &(seg_case){RANDOM, KEYS32, 700, 0, 0, 0, false});
    if (_i / 2 == 1 || _i / 2 == 17)   /* the 64-bit keys' program: SUM exclusive, argmax exclusive */
        tally(&t, o, kind, plan, &(seg_case){MIXED, KEYS64, 2500, 1, 2, 3, false});
    TU_TALLY_ASSERT(&t);
}
END_TEST

/* The automatic tuning: segments across a few of its (larger) tiles. */
START_TEST(segmented_scan_with_the_automatic_tuning_matches_the_reference)
{
    const to_op *o;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &o, &kind, &algo);
    clscan_plan *plan = to_plan(o, kind, 0, 0, algo, false);
    const size_t tile = tu_tile(plan);
    tu_tally t = {0};
    tally(&t, o, kind, plan, &(seg_case){MIXED, HEADS, 5 * tile + 3, 0, 0, 0, false});
    tally(&t, o, kind, plan, &(seg_case){LONG, KEYS32, 6 * tile + 1, 3, 1, 3, true});
    tally(&t, o, kind, plan, &(seg_case){RANDOM, HEADS, tile - 1, 2, 2, 0, false});
    TU_TALLY_ASSERT(&t);
}
END_TEST

/* The automatic tuning (long runs per work-item: the exclusive shift within a run) for a few
 * (operator, kind): its programs are the slowest to build. */
static bool auto_tuned(int i)
{
    static const struct { int op; clscan_kind kind; } chosen[] = {
        {0, CLSCAN_INCLUSIVE}, {3, CLSCAN_EXCLUSIVE}, {4, CLSCAN_EXCLUSIVE},
        {5, CLSCAN_EXCLUSIVE}, {7, CLSCAN_INCLUSIVE}, {8, CLSCAN_EXCLUSIVE},
    };
    const to_op *o;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(i, &o, &kind, &algo);
    for (size_t k = 0; k < sizeof chosen / sizeof chosen[0]; k++)
        if (o == &ops[chosen[k].op] && kind == chosen[k].kind)
            return true;
    return false;
}

/* Bad input: every refused call returns its code and leaves every buffer untouched. */
typedef struct bufs {
    cl_mem src, heads, dst, keys_short, heads_short, f32;
    int32_t src0[64], dst0[64];
    unsigned char heads0[64];
} bufs;

static void expect_untouched(bufs *b, cl_int err, cl_int want, const char *what)
{
    int32_t src[64], dst[64];
    unsigned char heads[64];
    ck_assert_msg(err == want, "%s: got %s, want %s: %s", what, clscan_error_string(err),
                  clscan_error_string(want), clscan_last_error());
    tu_read(tu.queue, b->src, sizeof src, src);
    tu_read(tu.queue, b->dst, sizeof dst, dst);
    tu_read(tu.queue, b->heads, sizeof heads, heads);
    ck_assert_msg(!memcmp(src, b->src0, sizeof src) && !memcmp(dst, b->dst0, sizeof dst) &&
                  !memcmp(heads, b->heads0, sizeof heads), "%s: a buffer was written", what);
}

START_TEST(bad_segmented_calls_are_refused_and_touch_nothing)
{
    const to_op sum = {NULL, CLSCAN_SUM, CLSCAN_INT32};
    clscan_plan *plan = to_plan(&sum, CLSCAN_INCLUSIVE, 8, 2, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, false);
    bufs b;
    tu_fill_bytes(b.src0, sizeof b.src0);
    tu_fill_bytes(b.dst0, sizeof b.dst0);
    tu_fill_bytes(b.heads0, sizeof b.heads0);
    b.src = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof b.src0, b.src0);
    b.dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof b.dst0, b.dst0);
    b.heads = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof b.heads0, b.heads0);
    b.heads_short = tu_buffer(tu.context, CL_MEM_READ_WRITE, 63, b.heads0);
    b.keys_short = tu_buffer(tu.context, CL_MEM_READ_WRITE, 64 * 8 - 1, NULL);   /* 63 uint64 keys */
    b.f32 = tu_buffer(tu.context, CL_MEM_READ_WRITE, 64 * 4, NULL);
    cl_int err;

    err = clscan_enqueue_segmented(plan, tu.queue, b.src, 0, b.heads_short, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "63 heads for 64 elements");
    err = clscan_enqueue_segmented(plan, tu.queue, b.src, 0, b.heads, 1, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "heads_offset 1 with 64 heads");
    ck_assert_msg(strstr(clscan_last_error(), "heads"), "the message does not name heads: %s", clscan_last_error());
    err = clscan_enqueue_by_key(plan, tu.queue, CLSCAN_UINT64, b.keys_short, 0, b.src, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "63 uint64 keys for 64 elements");
    err = clscan_enqueue_by_key(plan, tu.queue, CLSCAN_INT32, b.f32, 1, b.src, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "keys_offset 1 with 64 int32 keys");
    err = clscan_enqueue_by_key(plan, tu.queue, CLSCAN_FLOAT, b.f32, 0, b.src, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_TYPE, "float keys");
    err = clscan_enqueue_by_key(plan, tu.queue, (clscan_type)42, b.f32, 0, b.src, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_TYPE, "key type 42");
    err = clscan_enqueue_segmented(plan, tu.queue, b.src, 0, NULL, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "NULL heads");
    err = clscan_enqueue_by_key(plan, tu.queue, CLSCAN_INT32, NULL, 0, b.src, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CL_INVALID_MEM_OBJECT, "NULL keys");
    err = clscan_enqueue_segmented(plan, tu.queue, b.src, 0, b.dst, 0, b.dst, 0, 16, 0, NULL, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "heads inside dst");
    err = clscan_enqueue_by_key(plan, tu.queue, CLSCAN_INT32, b.dst, 8, b.src, 0, b.dst, 0, 16, 0, NULL, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "keys inside dst");
    err = clscan_enqueue_segmented(plan, tu.queue, b.src, 1, b.heads, 0, b.src, 0, 16, 0, NULL, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "src and dst overlapping");
    err = clscan_enqueue_segmented(NULL, tu.queue, b.src, 0, b.heads, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_PLAN, "NULL plan");
    err = clscan_enqueue_by_key(NULL, tu.queue, CLSCAN_INT32, b.f32, 0, b.src, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_PLAN, "NULL plan (by key)");
    err = clscan_enqueue_segmented(plan, NULL, b.src, 0, b.heads, 0, b.dst, 0, 64, 0, NULL, NULL);
    expect_untouched(&b, err, CL_INVALID_COMMAND_QUEUE, "NULL queue");
    /* The checks alone give the same statuses, and enqueue nothing. */
    err = clscan_enqueue_segmented_check(plan, tu.queue, b.src, 0, b.heads_short, 0, b.dst, 0, 64, 0, NULL);
    expect_untouched(&b, err, CLSCAN_RANGE_OUT_OF_BOUNDS, "check: 63 heads for 64 elements");
    err = clscan_enqueue_segmented_check(plan, tu.queue, b.src, 0, b.dst, 0, b.dst, 0, 16, 0, NULL);
    expect_untouched(&b, err, CL_MEM_COPY_OVERLAP, "check: heads inside dst");
    err = clscan_enqueue_segmented_check(NULL, tu.queue, b.src, 0, b.heads, 0, b.dst, 0, 64, 0, NULL);
    expect_untouched(&b, err, CLSCAN_INVALID_PLAN, "check: NULL plan");
    err = clscan_enqueue_segmented_check(plan, tu.queue, b.src, 0, b.heads, 0, b.dst, 0, 64, 0, NULL);
    expect_untouched(&b, err, CL_SUCCESS, "check: a valid call");
    /* count 0 is a no-op, even with short buffers. */
    err = clscan_enqueue_segmented(plan, tu.queue, b.src, 0, b.heads_short, 0, b.dst, 0, 0, 0, NULL, NULL);
    expect_untouched(&b, err, CL_SUCCESS, "count 0");
    clReleaseMemObject(b.src);
    clReleaseMemObject(b.dst);
    clReleaseMemObject(b.heads);
    clReleaseMemObject(b.heads_short);
    clReleaseMemObject(b.keys_short);
    clReleaseMemObject(b.f32);
}
END_TEST

int main(void)
{
    tu_open("segmented_test");
    tu_watchdog(600);
    for (int i = 0; i < NLOOP; i++) {
        const to_op *o;
        clscan_kind kind;
        clscan_algorithm algo;
        combo(i, &o, &kind, &algo);
        to_plan(o, kind, 8, 2, algo, true);
        if (auto_tuned(i))
            to_plan(o, kind, 0, 0, algo, true);
    }
    Suite *s = suite_create("segmented");
    TCase *tc = tcase_create("small tiles");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, segmented_scan_on_small_tiles_matches_the_reference, 0, NLOOP);
    suite_add_tcase(s, tc);
    tc = tcase_create("automatic tuning");
    tcase_set_timeout(tc, 0);
    for (int i = 0; i < NLOOP; i++)
        if (auto_tuned(i))
            tcase_add_loop_test(tc, segmented_scan_with_the_automatic_tuning_matches_the_reference, i, i + 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad input");
    tcase_add_test(tc, bad_segmented_calls_are_refused_and_touch_nothing);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    to_close();
    tu_close();
    return rc;
}
