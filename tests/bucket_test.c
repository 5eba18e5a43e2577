/* Bucketing against a sequential counting sort: one bucket, more buckets than elements, empty
 * buckets, skewed keys, 2^16 buckets; stability inside the buckets (values and the
 * permutation); optional outputs left out; keys past the last bucket; offsets and guards;
 * rejected calls. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bucketer_entry {
    cl_uint nbuckets;
    size_t value_size;
    clscan_bucketer *b;
} bucketer_entry;
static bucketer_entry bucketers[32];
static int nbucketers;

static clscan_bucketer *bucketer(cl_uint nbuckets, size_t value_size)
{
    for (int i = 0; i < nbucketers; i++)
        if (bucketers[i].nbuckets == nbuckets && bucketers[i].value_size == value_size)
            return bucketers[i].b;
    ck_assert(nbucketers < 32);
    cl_int err;
    clscan_bucketer *b = clscan_bucketer_create(tu.context, tu.device, nbuckets, value_size, &err);
    ck_assert_msg(b, "clscan_bucketer_create(%u, %zu): %s: %s", nbuckets, value_size, clscan_error_string(err),
                  clscan_last_error());
    bucketers[nbucketers++] = (bucketer_entry){nbuckets, value_size, b};
    return b;
}

enum keys { UNIFORM, SKEWED, EVEN_ONLY, SOME_PAST_THE_END };
static const char *const key_names[] = {"uniform", "skewed", "even buckets only", "some past the end"};

typedef struct bcase {
    cl_uint nbuckets;
    size_t value_size;
    enum keys keys;
    size_t count;
    size_t offset;          /* of every input and output */
    int no_keys_out, no_permutation;
} bcase;

static bool run_case(const bcase *c, char *msg, size_t msgsize)
{
    const size_t n = c->count, vs = c->value_size, o = c->offset, nb = c->nbuckets;
    const size_t len = o + n + 3, olen = o + nb + 1 + 2;
    cl_uint *keys = malloc(len * 4), *kexp = malloc(len * 4), *kgot = malloc(len * 4), *pexp = malloc(len * 4),
            *pgot = malloc(len * 4), *oexp = malloc(olen * 4), *ogot = malloc(olen * 4);
    unsigned char *vals = malloc(len * vs + 1), *vexp = malloc(len * vs + 1), *vgot = malloc(len * vs + 1);
    ck_assert(keys && kexp && kgot && pexp && pgot && oexp && ogot && vals && vexp && vgot);
    tu_fill_bytes(keys, len * 4);
    const cl_uint hot = (cl_uint)tu_rand_below(nb);
    for (size_t i = 0; i < n; i++) {
        cl_uint k;
        switch (c->keys) {
        case SKEWED: k = tu_rand_below(10) < 9 ? hot : (cl_uint)tu_rand_below(nb); break;
        case EVEN_ONLY: k = (cl_uint)(tu_rand_below((nb + 1) / 2) * 2); break;
        case SOME_PAST_THE_END: k = tu_rand_below(4) ? (cl_uint)tu_rand_below(nb) : (cl_uint)tu_rand(); break;
        default: k = (cl_uint)tu_rand_below(nb); break;
        }
        keys[o + i] = k;
    }
    tu_fill_bytes(vals, len * vs);
    tu_fill_bytes(kexp, len * 4);
    tu_fill_bytes(pexp, len * 4);
    tu_fill_bytes(oexp, olen * 4);
    tu_fill_bytes(vexp, len * vs);
    memcpy(kgot, kexp, len * 4);
    memcpy(pgot, pexp, len * 4);
    memcpy(ogot, oexp, olen * 4);
    memcpy(vgot, vexp, len * vs);

    cl_mem bk = tu_buffer(tu.context, CL_MEM_READ_WRITE, len * 4, keys);
    cl_mem bv = vs ? tu_buffer(tu.context, CL_MEM_READ_WRITE, len * vs, vals) : NULL;
    cl_mem bko = c->no_keys_out ? NULL : tu_buffer(tu.context, CL_MEM_READ_WRITE, len * 4, kexp);
    cl_mem bvo = vs ? tu_buffer(tu.context, CL_MEM_READ_WRITE, len * vs, vexp) : NULL;
    cl_mem bo = tu_buffer(tu.context, CL_MEM_READ_WRITE, olen * 4, oexp);
    cl_mem bp = c->no_permutation ? NULL : tu_buffer(tu.context, CL_MEM_READ_WRITE, len * 4, pexp);

    /* The reference: a sequential counting sort (keys past the end count as nbuckets - 1). */
    size_t *start = calloc(nb + 1, sizeof *start);
    ck_assert(start);
    for (size_t i = 0; i < n; i++) {
        const cl_uint k = keys[o + i] < nb ? keys[o + i] : (cl_uint)(nb - 1);
        start[k + 1]++;
    }
    for (size_t b = 0; b < nb; b++)
        start[b + 1] += start[b];
    for (size_t b = 0; b <= nb; b++)
        oexp[o + b] = (cl_uint)start[b];
    for (size_t i = 0; i < n; i++) {
        const cl_uint k = keys[o + i] < nb ? keys[o + i] : (cl_uint)(nb - 1);
        const size_t p = start[k]++;
        kexp[o + p] = keys[o + i];
        pexp[o + p] = (cl_uint)i;
        memcpy(vexp + (o + p) * vs, vals + (o + i) * vs, vs);
    }
    free(start);

    cl_event ev = NULL;
    cl_int err = clscan_bucket_enqueue(bucketer(c->nbuckets, vs), tu.queue, bk, o, bv, o, n, bko, o, bvo, o, bo, o,
                                       bp, o, 0, NULL, &ev);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "clscan_bucket_enqueue failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (ok) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        if (bko)
            tu_read(tu.queue, bko, len * 4, kgot);
        if (bvo)
            tu_read(tu.queue, bvo, len * vs, vgot);
        if (bp)
            tu_read(tu.queue, bp, len * 4, pgot);
        tu_read(tu.queue, bo, olen * 4, ogot);
        const char *what = NULL;
        size_t at = 0;
        for (size_t i = 0; i < olen && !what; i++)
            if (ogot[i] != oexp[i])
                what = "offsets", at = i;
        for (size_t i = 0; i < len && !what; i++) {
            if (bko && kgot[i] != kexp[i])
                what = "keys", at = i;
            else if (bp && pgot[i] != pexp[i])
                what = "permutation", at = i;
            else if (memcmp(vgot + i * vs, vexp + i * vs, vs) != 0)
                what = "values", at = i;
        }
        if (what) {
            ok = false;
            snprintf(msg, msgsize, "wrong %s: first difference at element %lld", what, (long long)at - (long long)o);
        }
    }
    cl_mem all[] = {bk, bv, bko, bvo, bo, bp};
    for (size_t i = 0; i < 6; i++)
        if (all[i])
            clReleaseMemObject(all[i]);
    free(keys), free(kexp), free(kgot), free(pexp), free(pgot), free(oexp), free(ogot), free(vals), free(vexp),
        free(vgot);
    return ok;
}

#define CHECK_BUCKETS(...)                                                                                 \
    do {                                                                                                   \
        bcase c_ = {__VA_ARGS__};                                                                          \
        char m_[512] = "";                                                                                 \
        bool ok_ = run_case(&c_, m_, sizeof m_);                                                           \
        ck_assert_msg(ok_, "[seed %llu] %zu keys (%s) into %u buckets, values of %zu bytes, offset %zu%s%s: %s", \
                      (unsigned long long)tu_seed, c_.count, key_names[c_.keys], c_.nbuckets, c_.value_size, \
                      c_.offset, c_.no_keys_out ? ", no keys_out" : "", c_.no_permutation ? ", no permutation" : "", \
                      m_);                                                                                 \
    } while (0)

static const cl_uint nbuckets[] = {1, 2, 7, 256, 1000, 65536};
#define NNB 6

/* Counts around the blocks; uniform, skewed and sparse keys; with and without values. */
START_TEST(buckets_match_a_counting_sort)
{
    const cl_uint nb = nbuckets[_i];
    const size_t counts[] = {0, 1, 5, 4095, 4097, 1 + (size_t)tu_rand_below(30000)};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
        for (int keys = UNIFORM; keys <= EVEN_ONLY; keys++)
            CHECK_BUCKETS(.nbuckets = nb, .value_size = (k + (size_t)keys) % 2 ? 8 : 0, .keys = keys, .count = counts[k],
                          .offset = k % 3);
}
END_TEST

/* More buckets than elements, keys past the last bucket, optional outputs left out, odd sizes
 * of values. */
START_TEST(edge_cases_match_a_counting_sort)
{
    CHECK_BUCKETS(.nbuckets = 65536, .value_size = 8, .keys = UNIFORM, .count = 100);
    CHECK_BUCKETS(.nbuckets = 1000, .value_size = 0, .keys = UNIFORM, .count = 3);
    CHECK_BUCKETS(.nbuckets = 7, .value_size = 8, .keys = SOME_PAST_THE_END, .count = 9999, .offset = 1);
    CHECK_BUCKETS(.nbuckets = 65536, .value_size = 0, .keys = SOME_PAST_THE_END, .count = 20000);
    CHECK_BUCKETS(.nbuckets = 256, .value_size = 0, .keys = SKEWED, .count = 7000, .no_keys_out = 1);
    CHECK_BUCKETS(.nbuckets = 256, .value_size = 8, .keys = UNIFORM, .count = 7000, .no_keys_out = 1,
                  .no_permutation = 1);
    CHECK_BUCKETS(.nbuckets = 1000, .value_size = 0, .keys = EVEN_ONLY, .count = 7000, .no_permutation = 1);
}
END_TEST

/* A uniform grid's size: two million particles in 2^16 cells. */
START_TEST(two_million_keys_in_65536_buckets)
{
    CHECK_BUCKETS(.nbuckets = 65536, .value_size = 8, .keys = UNIFORM, .count = 2000003);
}
END_TEST

START_TEST(rejected_calls_leave_the_buffers_untouched)
{
    cl_int err = 0;
    tu_expect_status(clscan_bucketer_create(tu.context, tu.device, 0, 0, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_BUCKET_COUNT, "0 buckets");
    tu_expect_status(clscan_bucketer_create(tu.context, tu.device, 0x80000001u, 0, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_BUCKET_COUNT, "2^31 + 1 buckets");
    tu_expect_status(clscan_bucketer_create(tu.context, tu.device, 16, 5000, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_ELEMENT_SIZE, "values of 5000 bytes");
    tu_expect_status(clscan_bucketer_create(tu.context, NULL, 16, 0, &err) ? CL_SUCCESS : err, CL_INVALID_DEVICE,
                     "NULL device");
    clscan_bucketer *b = bucketer(7, 8), *k = bucketer(7, 0);
    enum { N = 64 };
    unsigned char init[6][N * 8];
    for (int i = 0; i < 6; i++)
        tu_fill_bytes(init[i], sizeof init[i]);
    cl_mem keys = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[0]);
    cl_mem vals = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 8, init[1]);
    cl_mem kout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[2]);
    cl_mem vout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 8, init[3]);
    cl_mem offs = tu_buffer(tu.context, CL_MEM_READ_WRITE, 8 * 4, init[4]);
    cl_mem perm = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[5]);
    tu_expect_status(clscan_bucket_enqueue(NULL, tu.queue, keys, 0, vals, 0, N, kout, 0, vout, 0, offs, 0, perm, 0, 0,
                                           NULL, NULL), CLSCAN_INVALID_HANDLE, "NULL bucketer");
    tu_expect_status(clscan_bucket_enqueue(b, NULL, keys, 0, vals, 0, N, kout, 0, vout, 0, offs, 0, perm, 0, 0,
                                           NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 0, NULL, 0, N, kout, 0, vout, 0, offs, 0, perm, 0, 0,
                                           NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL values");
    tu_expect_status(clscan_bucket_enqueue(k, tu.queue, keys, 0, vals, 0, N, kout, 0, vout, 0, offs, 0, perm, 0, 0,
                                           NULL, NULL), CL_INVALID_MEM_OBJECT, "values without value_size");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 0, vals, 0, N, kout, 0, vout, 0, NULL, 0, perm, 0, 0,
                                           NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL offsets");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 0, vals, 0, N, kout, 0, vout, 0, offs, 1, perm, 0, 0,
                                           NULL, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS, "offsets past their end");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 1, vals, 0, N, kout, 0, vout, 0, offs, 0, perm, 0, 0,
                                           NULL, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS, "keys past their end");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 0, vals, 0, N, kout, 0, vout, 0, offs, 0, kout, 0, 0,
                                           NULL, NULL), CL_MEM_COPY_OVERLAP, "permutation is keys_out");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 0, vals, 0, N, keys, 0, vout, 0, offs, 0, perm, 0, 0,
                                           NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "keys_out is keys (bucketing is not in place)");
    tu_expect_status(clscan_bucket_enqueue(b, tu.queue, keys, 0, vals, 0, N, kout, 0, vout, 0, offs, 0, perm, 0, 1,
                                           NULL, NULL), CL_INVALID_EVENT_WAIT_LIST, "1 event, NULL list");
    clFinish(tu.queue);
    cl_mem bufs[6] = {keys, vals, kout, vout, offs, perm};
    const size_t bytes[6] = {N * 4, N * 8, N * 4, N * 8, 32, N * 4};
    for (int i = 0; i < 6; i++) {
        unsigned char now[N * 8];
        tu_read(tu.queue, bufs[i], bytes[i], now);
        ck_assert_msg(memcmp(now, init[i], bytes[i]) == 0, "buffer %d changed by a rejected call", i);
        clReleaseMemObject(bufs[i]);
    }
    clscan_bucketer_release(NULL);
}
END_TEST

int main(void)
{
    tu_open("bucket_test");
    tu_watchdog(400);
    Suite *s = suite_create("bucket");
    TCase *tc = tcase_create("bucket");
    tcase_add_loop_test(tc, buckets_match_a_counting_sort, 0, NNB);
    tcase_add_test(tc, edge_cases_match_a_counting_sort);
    tcase_add_test(tc, two_million_keys_in_65536_buckets);
    tcase_add_test(tc, rejected_calls_leave_the_buffers_untouched);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    for (int i = 0; i < nbucketers; i++)
        clscan_bucketer_release(bucketers[i].b);
    tu_close();
    return rc;
}
