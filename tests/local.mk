# The Check test suite (included by the top Makefile.am).  Each test program shares the device
# and the library's program cache among its tests (no fork); see tests/testutil.h.
EXTRA_DIST += tests/swapped_comb.sh tests/kernel_variants.sh tests/valgrind.supp
# Test scripts run through the shell (no need for the executable bit).
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)

if ENABLE_TESTS
TESTS_CFLAGS_ = $(AM_CFLAGS) $(CHECK_CFLAGS)
TESTS_LDADD_ = support/libclscan_support.la lib/libclscan.la $(CHECK_LIBS) $(OPENCL_LIBS) -lm
TESTUTIL_ = tests/testutil.c tests/testutil.h

# scan_test: every operator x type x kind with the automatic tuning (counts around the tile,
#   offsets and guards, in place, 999983 elements, reproducibility, clscan_host).
# multilevel_test: small tiles, three to five levels, other tunings.
# noncomm_test: AFFINE and LAST_NONZERO over several blocks and levels; swapped_comb.sh runs it
#   again with -DCLSCAN_SWAP_COMB and must fail (XFAIL), proving the suite sees swapped arguments;
#   kernel_variants.sh runs it on the GPUs' staged code path, the Blelloch and the two-level primitives,
#   custom_test and segmented_test on the staged two-level variant, and compact_test, bucket_test
#   and radix_sort_test on the GPUs' kernels (block lists, ranking scatter).
# errors_test: bad input (status codes, messages, untouched buffers), sources from CLSCAN_KERNEL_DIR.
# threads_test: one plan from two threads, out-of-order queue, user events, per-thread errors.
# custom_test: custom operators (testops.c) against their references, the custom AFFINE bitwise
#   against the built-in, and bad custom operators.
# segmented_test: segmented scans and scans by key of built-in and custom operators, bad input.
check_PROGRAMS += tests/scan_test tests/multilevel_test tests/noncomm_test tests/errors_test tests/threads_test \
	tests/custom_test tests/segmented_test
TESTS += tests/scan_test tests/multilevel_test tests/noncomm_test tests/errors_test tests/threads_test \
	tests/custom_test tests/segmented_test \
	tests/swapped_comb.sh tests/kernel_variants.sh
XFAIL_TESTS += tests/swapped_comb.sh

tests_scan_test_SOURCES = tests/scan_test.c $(TESTUTIL_)
tests_scan_test_CFLAGS = $(TESTS_CFLAGS_)
tests_scan_test_LDADD = $(TESTS_LDADD_)

tests_multilevel_test_SOURCES = tests/multilevel_test.c $(TESTUTIL_)
tests_multilevel_test_CFLAGS = $(TESTS_CFLAGS_)
tests_multilevel_test_LDADD = $(TESTS_LDADD_)

tests_noncomm_test_SOURCES = tests/noncomm_test.c $(TESTUTIL_)
tests_noncomm_test_CFLAGS = $(TESTS_CFLAGS_)
tests_noncomm_test_LDADD = $(TESTS_LDADD_)

tests_errors_test_SOURCES = tests/errors_test.c $(TESTUTIL_)
tests_errors_test_CPPFLAGS = $(AM_CPPFLAGS) -DCLSCAN_TEST_SRCDIR='"$(abs_top_srcdir)"'
tests_errors_test_CFLAGS = $(TESTS_CFLAGS_)
tests_errors_test_LDADD = $(TESTS_LDADD_)

tests_threads_test_SOURCES = tests/threads_test.c $(TESTUTIL_)
tests_threads_test_CFLAGS = $(TESTS_CFLAGS_) $(PTHREAD_CFLAGS)
tests_threads_test_LDFLAGS = $(PTHREAD_CFLAGS)
tests_threads_test_LDADD = $(TESTS_LDADD_)

# lookback_test: the single pass's fallback (a late tile's total recomputed by its successor)
#   gives the fast path's bits, for each shape of the work-group primitive.
check_PROGRAMS += tests/lookback_test
TESTS += tests/lookback_test
tests_lookback_test_SOURCES = tests/lookback_test.c $(TESTUTIL_)
tests_lookback_test_CFLAGS = $(TESTS_CFLAGS_)
tests_lookback_test_LDADD = $(TESTS_LDADD_)

TESTOPS_ = tests/testops.c tests/testops.h

tests_custom_test_SOURCES = tests/custom_test.c $(TESTOPS_) $(TESTUTIL_)
tests_custom_test_CFLAGS = $(TESTS_CFLAGS_)
tests_custom_test_LDADD = $(TESTS_LDADD_)

tests_segmented_test_SOURCES = tests/segmented_test.c $(TESTOPS_) $(TESTUTIL_)
tests_segmented_test_CFLAGS = $(TESTS_CFLAGS_)
tests_segmented_test_LDADD = $(TESTS_LDADD_)

# The source tree (for the kernel sources errors_test copies) and the program that
# swapped_comb.sh runs.
AM_TESTS_ENVIRONMENT = \
	CLSCAN_SRCDIR='$(abs_top_srcdir)'; export CLSCAN_SRCDIR; \
	NONCOMM_TEST='$(abs_top_builddir)/tests/noncomm_test'; export NONCOMM_TEST; \
	CUSTOM_TEST='$(abs_top_builddir)/tests/custom_test'; export CUSTOM_TEST; \
	SEGMENTED_TEST='$(abs_top_builddir)/tests/segmented_test'; export SEGMENTED_TEST; \
	ALGO_TESTS='$(abs_top_builddir)/tests/compact_test $(abs_top_builddir)/tests/bucket_test \
	$(abs_top_builddir)/tests/radix_sort_test'; export ALGO_TESTS;
endif

# 'make check-valgrind': test programs under valgrind's memcheck (definite leaks and memory
# errors fail; tests/valgrind.supp hides the OpenCL compiler's own noise).  Slow, so only the
# quick one by default (threads_test takes many minutes: the single pass spins under valgrind
# serialised threads): make check-valgrind VALGRIND_TESTS="tests/errors_test tests/threads_test".
VALGRIND_TESTS = tests/errors_test
VALGRIND_FLAGS = --num-callers=40 --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	--suppressions=$(abs_top_srcdir)/tests/valgrind.supp
check-valgrind:
	@if test -z "$(VALGRIND)"; then echo "check-valgrind: configure found no valgrind" >&2; exit 1; fi
	CLSCAN_TEST_TIMEOUT=0 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(VALGRIND_TESTS)' XFAIL_TESTS= \
	  LOG_COMPILER='$(LIBTOOL) --mode=execute $(VALGRIND) $(VALGRIND_FLAGS)'
.PHONY: check-valgrind

# ---- Compaction, bucketing and radix sort (issue 5) -----------------------------------------
# compact_test: densities, element sizes 1 ... 16 bytes, block boundaries, indices, blocking call.
# bucket_test: one bucket, more buckets than elements, empty and skewed buckets, stability.
# radix_sort_test: every key type, duplicates, sorted, reversed, equal, high bits, negatives,
#   -0.0/+0.0, infinities and NaNs, stability through values, low key bits, 0 ... millions.
if ENABLE_TESTS
check_PROGRAMS += tests/compact_test tests/bucket_test tests/radix_sort_test
TESTS += tests/compact_test tests/bucket_test tests/radix_sort_test

tests_compact_test_SOURCES = tests/compact_test.c $(TESTUTIL_)
tests_compact_test_CFLAGS = $(TESTS_CFLAGS_)
tests_compact_test_LDADD = $(TESTS_LDADD_)

tests_bucket_test_SOURCES = tests/bucket_test.c $(TESTUTIL_)
tests_bucket_test_CFLAGS = $(TESTS_CFLAGS_)
tests_bucket_test_LDADD = $(TESTS_LDADD_)

tests_radix_sort_test_SOURCES = tests/radix_sort_test.c $(TESTUTIL_)
tests_radix_sort_test_CFLAGS = $(TESTS_CFLAGS_) $(PTHREAD_CFLAGS)
tests_radix_sort_test_LDFLAGS = $(PTHREAD_CFLAGS)
tests_radix_sort_test_LDADD = $(TESTS_LDADD_)
endif
