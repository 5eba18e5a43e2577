/* Stream compaction against a sequential reference: all kept, none kept, alternating, random
 * densities; elements of 1, 4, 8, 12 and 16 bytes; counts across block boundaries; offsets and
 * guards; the indices variant; the blocking call; the GPUs' tuning on this device; rejected
 * calls that leave every buffer untouched. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {1, 4, 8, 12, 16};
#define NSIZES 5
static clscan_compactor *compactors[NSIZES];

static clscan_compactor *compactor(int s)
{
    if (!compactors[s]) {
        cl_int err;
        compactors[s] = clscan_compactor_create(tu.context, tu.device, sizes[s], &err);
        ck_assert_msg(compactors[s], "clscan_compactor_create(%zu): %s: %s", sizes[s], clscan_error_string(err),
                      clscan_last_error());
    }
    return compactors[s];
}

enum density { ALL, NONE, ALTERNATING, RANDOM };
static const char *const density_names[] = {"all", "none", "alternating", "random"};

/* Flags of a density; random ones keep about permille / 1000 with non-zero values 1 ... 255. */
static void fill_flags(unsigned char *f, size_t n, enum density d, unsigned permille)
{
    for (size_t i = 0; i < n; i++) {
        switch (d) {
        case ALL: f[i] = (unsigned char)(1 + tu_rand_below(255)); break;
        case NONE: f[i] = 0; break;
        case ALTERNATING: f[i] = i % 2 == 0; break;
        default: f[i] = tu_rand_below(1000) < permille ? (unsigned char)(1 + tu_rand_below(255)) : 0; break;
        }
    }
}

typedef struct ccase {
    int size;                  /* index into sizes */
    size_t count;
    enum density density;
    unsigned permille;
    size_t src_offset, flags_offset, dst_offset, kept_offset;
    int indices;               /* the indices variant */
    int blocking;              /* clscan_compact */
    clscan_compactor *use;     /* NULL: compactor(size) */
} ccase;

/* Runs one case with guards around every output; true if everything matches. */
static bool run_case(const ccase *c, char *msg, size_t msgsize)
{
    const size_t e = c->indices ? 4 : sizes[c->size], n = c->count, es = sizes[c->size];
    const size_t src_n = c->src_offset + n + 3, flags_n = c->flags_offset + n + 5, dst_n = c->dst_offset + n + 7,
                 kept_n = c->kept_offset + 2;
    unsigned char *src = malloc(src_n * es), *flags = malloc(flags_n), *dst0 = malloc(dst_n * e),
                  *dst = malloc(dst_n * e), *expect = malloc(dst_n * e);
    cl_ulong kept0[64], kept[64];
    ck_assert(src && flags && dst0 && dst && expect && kept_n <= 64);
    tu_fill_bytes(src, src_n * es);
    tu_fill_bytes(flags, flags_n);
    fill_flags(flags + c->flags_offset, n, c->density, c->permille);
    tu_fill_bytes(dst0, dst_n * e);
    tu_fill_bytes(kept0, sizeof kept0);

    /* The reference: the sequential loop. */
    memcpy(expect, dst0, dst_n * e);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (flags[c->flags_offset + i]) {
            if (c->indices) {
                const cl_uint idx = (cl_uint)i;
                memcpy(expect + (c->dst_offset + m) * e, &idx, 4);
            } else {
                memcpy(expect + (c->dst_offset + m) * e, src + (c->src_offset + i) * es, es);
            }
            m++;
        }
    }

    cl_mem bsrc = tu_buffer(tu.context, CL_MEM_READ_WRITE, src_n * es, src);
    cl_mem bflags = tu_buffer(tu.context, CL_MEM_READ_WRITE, flags_n, flags);
    cl_mem bdst = tu_buffer(tu.context, CL_MEM_READ_WRITE, dst_n * e, dst0);
    cl_mem bkept = tu_buffer(tu.context, CL_MEM_READ_WRITE, kept_n * 8, kept0);
    clscan_compactor *h = c->use ? c->use : compactor(c->size);
    cl_event ev = NULL;
    cl_int err;
    size_t got_kept = (size_t)-1;
    if (c->blocking)
        err = clscan_compact(h, tu.queue, bsrc, c->src_offset, bflags, c->flags_offset, n, bdst, c->dst_offset,
                             &got_kept, 0, NULL);
    else if (c->indices)
        err = clscan_compact_indices_enqueue(h, tu.queue, bflags, c->flags_offset, n, bdst, c->dst_offset, bkept,
                                             c->kept_offset, 0, NULL, &ev);
    else
        err = clscan_compact_enqueue(h, tu.queue, bsrc, c->src_offset, bflags, c->flags_offset, n, bdst,
                                     c->dst_offset, bkept, c->kept_offset, 0, NULL, &ev);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "call failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (ok && ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    if (ok) {
        tu_read(tu.queue, bdst, dst_n * e, dst);
        tu_read(tu.queue, bkept, kept_n * 8, kept);
        size_t first = dst_n * e;
        for (size_t k = 0; k < dst_n * e && first == dst_n * e; k++)
            if (dst[k] != expect[k])
                first = k;
        if (c->blocking ? got_kept != m : kept[c->kept_offset] != m) {
            ok = false;
            snprintf(msg, msgsize, "kept %llu, expected %zu",
                     (unsigned long long)(c->blocking ? got_kept : kept[c->kept_offset]), m);
        } else if (first < dst_n * e) {
            ok = false;
            snprintf(msg, msgsize, "wrong output: first difference at output element %zd (byte %zu), %zu kept",
                     (ssize_t)(first / e) - (ssize_t)c->dst_offset, first, m);
        } else {
            for (size_t k = 0; k < kept_n; k++)
                if (k != c->kept_offset && memcmp(&kept[k], &kept0[k], 8) != 0 && ok) {
                    ok = false;
                    snprintf(msg, msgsize, "the kept buffer changed outside kept_offset");
                }
        }
    }
    clReleaseMemObject(bsrc);
    clReleaseMemObject(bflags);
    clReleaseMemObject(bdst);
    clReleaseMemObject(bkept);
    free(src), free(flags), free(dst0), free(dst), free(expect);
    return ok;
}

#define CHECK_CASE(...)                                                                                    \
    do {                                                                                                   \
        ccase c_ = {__VA_ARGS__};                                                                          \
        char m_[512] = "";                                                                                 \
        bool ok_ = run_case(&c_, m_, sizeof m_);                                                           \
        ck_assert_msg(ok_, "[seed %llu] compaction of %zu elements of %zu bytes, %s%s (%u permille), "     \
                      "offsets src %zu flags %zu dst %zu kept %zu: %s", (unsigned long long)tu_seed,        \
                      c_.count, sizes[c_.size], c_.indices ? "indices, " : c_.blocking ? "blocking, " : "",  \
                      density_names[c_.density], c_.permille, c_.src_offset, c_.flags_offset,              \
                      c_.dst_offset, c_.kept_offset, m_);                                                  \
    } while (0)

/* Counts around the blocks (4096 elements on CPUs, 8192 on GPUs), every density, each size. */
START_TEST(densities_and_counts_match_the_loop)
{
    const int s = _i;
    const size_t counts[] = {0, 1, 2, 3, 255, 256, 257, 4095, 4096, 4097, 8191, 12289,
                             1 + (size_t)tu_rand_below(40000)};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        for (int d = ALL; d <= RANDOM; d++) {
            if (d != RANDOM && counts[k] > 4097 && counts[k] % 2)
                continue;   /* the fixed densities once per size class is enough */
            const unsigned permille = d == RANDOM ? (unsigned)(k % 3 == 0 ? 10 : k % 3 == 1 ? 500 : 900) : 0;
            CHECK_CASE(.size = s, .count = counts[k], .density = d, .permille = permille);
        }
    }
}
END_TEST

START_TEST(offsets_keep_the_guards)
{
    const int s = _i;
    CHECK_CASE(.size = s, .count = 5000, .density = RANDOM, .permille = 300, .src_offset = 3, .flags_offset = 5,
               .dst_offset = 7, .kept_offset = 2);
    CHECK_CASE(.size = s, .count = 9000, .density = ALTERNATING, .src_offset = 1, .flags_offset = 0,
               .dst_offset = 11, .kept_offset = 1);
}
END_TEST

START_TEST(indices_and_blocking_calls_match_the_loop)
{
    const size_t counts[] = {0, 1, 4097, 30011};
    for (size_t k = 0; k < 4; k++) {
        CHECK_CASE(.size = 1, .count = counts[k], .density = RANDOM, .permille = 400, .indices = 1,
                   .flags_offset = k, .dst_offset = 2 * k, .kept_offset = k % 2);
        CHECK_CASE(.size = 3, .count = counts[k], .density = RANDOM, .permille = 600, .blocking = 1,
                   .src_offset = k, .flags_offset = 1, .dst_offset = 3);
    }
    CHECK_CASE(.size = 0, .count = 8192, .density = ALL, .indices = 1);
    CHECK_CASE(.size = 0, .count = 8192, .density = NONE, .blocking = 1);
}
END_TEST

/* Three million elements, 1% and 50% kept; the same input twice gives the same bits (the
 * reference comparison is exact, so both runs equal it). */
START_TEST(three_million_elements_match_the_loop)
{
    CHECK_CASE(.size = 1, .count = 3000017, .density = RANDOM, .permille = 10);
    CHECK_CASE(.size = 1, .count = 3000017, .density = RANDOM, .permille = 500, .indices = 1);
}
END_TEST

/* The GPUs' kernels (the block scatter, the one pass), here on the CPU (a developer switch) in
 * blocks of 256 x 16 (256 x 32 on GPUs). */
START_TEST(gpu_tuning_matches_the_loop)
{
    setenv("CLSCAN_DEVELOP", "policy=gpu", 1);
    cl_int err;
    clscan_compactor *g = clscan_compactor_create(tu.context, tu.device, 12, &err);
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(g, "clscan_compactor_create: %s", clscan_last_error());
    const size_t counts[] = {1, 4095, 4097, 8191, 8193, 70001};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        CHECK_CASE(.size = 3, .count = counts[k], .density = RANDOM, .permille = 500, .use = g);
        CHECK_CASE(.size = 3, .count = counts[k], .density = RANDOM, .permille = 20, .use = g, .indices = 1);
    }
    clscan_compactor_release(g);
}
END_TEST

/* A compactor of 4-byte elements made under the developer switches `good` (doc/hacking.md),
 * after checking that the malformed `bad` makes creation fail with CL_INVALID_VALUE. */
static clscan_compactor *developer_compactor(const char *good, const char *bad)
{
    cl_int err;
    setenv("CLSCAN_DEVELOP", good, 1);
    clscan_compactor *g = clscan_compactor_create(tu.context, tu.device, 4, &err);
    setenv("CLSCAN_DEVELOP", bad, 1);
    clscan_compactor *refused = clscan_compactor_create(tu.context, tu.device, 4, &err);
    const cl_int refused_err = err;
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(g, "clscan_compactor_create: %s", clscan_last_error());
    ck_assert_msg(!refused && refused_err == CL_INVALID_VALUE, "%s gave %s", bad, clscan_error_string(refused_err));
    return g;
}

/* Other blocks through the developer switches; malformed values refused. */
START_TEST(developer_blocks_match_the_loop)
{
    clscan_compactor *g = developer_compactor("compact_wg=4;compact_items=1024", "compact_wg=3");
    const size_t counts[] = {1, 4095, 4097, 70001};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
        CHECK_CASE(.size = 1, .count = counts[k], .density = RANDOM, .permille = 500, .use = g);
    clscan_compactor_release(g);
}
END_TEST

/* Blocks of 64 elements, so that the blocking call's offsets cross from the count kernel's last
 * block (up to 1024 blocks) to a scan of the counts; a malformed choice of offsets refused. */
START_TEST(small_blocks_cross_the_offsets_limit)
{
    clscan_compactor *g = developer_compactor("compact_wg=4;compact_items=16", "compact_offsets=both");
    const size_t counts[] = {65535, 65536, 65537, 70001};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
        CHECK_CASE(.size = 1, .count = counts[k], .density = RANDOM, .permille = 500, .use = g, .blocking = 1);
    clscan_compactor_release(g);
}
END_TEST

/* ---- Rejected calls ---------------------------------------------------------------------- */

START_TEST(rejected_calls_leave_the_buffers_untouched)
{
    cl_int err = 0;
    tu_expect_status(clscan_compactor_create(tu.context, tu.device, 0, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_ELEMENT_SIZE, "element size 0");
    tu_expect_status(clscan_compactor_create(tu.context, tu.device, 4097, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_ELEMENT_SIZE, "element size 4097");
    tu_expect_status(clscan_compactor_create(NULL, tu.device, 4, &err) ? CL_SUCCESS : err, CL_INVALID_CONTEXT,
                     "NULL context");
    tu_expect_status(clscan_compactor_create(tu.context, NULL, 4, &err) ? CL_SUCCESS : err, CL_INVALID_DEVICE,
                     "NULL device");

    enum { N = 100 };
    unsigned char init[5][N * 4 + 8];
    for (int i = 0; i < 5; i++)
        tu_fill_bytes(init[i], sizeof init[i]);
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[0]);
    cl_mem flags = tu_buffer(tu.context, CL_MEM_READ_WRITE, N, init[1]);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[2]);
    cl_mem kept = tu_buffer(tu.context, CL_MEM_READ_WRITE, 16, init[3]);
    cl_mem ro = tu_buffer(tu.context, CL_MEM_READ_ONLY, N * 4, init[4]);
    clscan_compactor *c = compactor(1);
    cl_event bogus_list[1] = {NULL};
    size_t n = 0;

    tu_expect_status(clscan_compact_enqueue(NULL, tu.queue, src, 0, flags, 0, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CLSCAN_INVALID_HANDLE, "NULL compactor");
    tu_expect_status(clscan_compact_enqueue(c, NULL, src, 0, flags, 0, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, dst, 0, kept, 0, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST, "1 event, NULL list");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, dst, 0, kept, 0, 1, bogus_list, NULL),
                     CL_INVALID_EVENT_WAIT_LIST, "NULL event in the list");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, NULL, 0, flags, 0, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL src");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, NULL, 0, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL flags");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, NULL, 0, kept, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL dst");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, dst, 0, NULL, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL kept");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 1, flags, 0, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "src past its end");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 1, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "flags past their end");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, dst, 1, kept, 0, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "dst past its end");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, dst, 0, kept, 2, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "kept past its end");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, ro, 0, kept, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "read-only dst");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N / 2, src, N / 4, kept, 0, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "dst overlaps src");
    tu_expect_status(clscan_compact_enqueue(c, tu.queue, src, 0, flags, 0, N, dst, 0, dst, 0, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "kept overlaps dst");
    tu_expect_status(clscan_compact_indices_enqueue(c, tu.queue, flags, 0, N, dst, 1, kept, 0, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "indices past their end");
    tu_expect_status(clscan_compact_indices_enqueue(NULL, tu.queue, flags, 0, N, dst, 0, kept, 0, 0, NULL, NULL),
                     CLSCAN_INVALID_HANDLE, "indices: NULL compactor");
    tu_expect_status(clscan_compact(c, tu.queue, src, 0, flags, 0, N, dst, 0, NULL, 0, NULL), CL_INVALID_VALUE,
                     "blocking: NULL kept");
    tu_expect_status(clscan_compact(c, tu.queue, src, 0, flags, 0, N + 1, dst, 0, &n, 0, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "blocking: count past the ends");

    clFinish(tu.queue);
    cl_mem bufs[5] = {src, flags, dst, kept, ro};
    const size_t bytes[5] = {N * 4, N, N * 4, 16, N * 4};
    for (int i = 0; i < 5; i++) {
        unsigned char now[N * 4 + 8];
        tu_read(tu.queue, bufs[i], bytes[i], now);
        ck_assert_msg(memcmp(now, init[i], bytes[i]) == 0, "buffer %d changed by a rejected call", i);
        clReleaseMemObject(bufs[i]);
    }
    clscan_compactor_release(NULL);   /* a no-op */
    static const cl_int codes[] = {CLSCAN_INVALID_HANDLE, CLSCAN_INVALID_ELEMENT_SIZE, CLSCAN_INVALID_BUCKET_COUNT,
                                   CLSCAN_INVALID_KEY_BITS};
    static const char *const names[] = {"CLSCAN_INVALID_HANDLE", "CLSCAN_INVALID_ELEMENT_SIZE",
                                        "CLSCAN_INVALID_BUCKET_COUNT", "CLSCAN_INVALID_KEY_BITS"};
    for (int i = 0; i < 4; i++)
        ck_assert_str_eq(clscan_error_string(codes[i]), names[i]);
}
END_TEST

int main(void)
{
    tu_open("compact_test");
    tu_watchdog(400);
    Suite *s = suite_create("compact");
    TCase *tc = tcase_create("compact");
    tcase_add_loop_test(tc, densities_and_counts_match_the_loop, 0, NSIZES);
    tcase_add_loop_test(tc, offsets_keep_the_guards, 0, NSIZES);
    tcase_add_test(tc, indices_and_blocking_calls_match_the_loop);
    tcase_add_test(tc, three_million_elements_match_the_loop);
    tcase_add_test(tc, gpu_tuning_matches_the_loop);
    tcase_add_test(tc, developer_blocks_match_the_loop);
    tcase_add_test(tc, small_blocks_cross_the_offsets_limit);
    tcase_add_test(tc, rejected_calls_leave_the_buffers_untouched);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    for (int i = 0; i < NSIZES; i++)
        clscan_compactor_release(compactors[i]);
    tu_close();
    return rc;
}
