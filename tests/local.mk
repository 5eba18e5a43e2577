# The Check test suite (included by the top Makefile.am).  Each test program shares the device
# and the library's program cache among its tests (no fork); see tests/testutil.h.
#
# scan_test        every operator x type x kind with the automatic tuning (counts around the tile,
#                  offsets and guards, in place, 999983 elements, reproducibility, clscan_host)
# multilevel_test  small tiles, three to five levels, other tunings
# noncomm_test     AFFINE and LAST_NONZERO over several tiles and levels, both algorithms
# errors_test      bad input (status codes, messages, untouched buffers), CLSCAN_KERNEL_DIR
# threads_test     one plan from two threads, out-of-order queues, user events, per-thread errors
# lookback_test    the single pass's fallback gives the fast path's bits, for every tile and
#                  primitive shape and for the CPUs' reduce-by-key; status layouts alternating
#                  on one plan
# custom_test      custom operators against their references, the custom AFFINE bitwise against
#                  the built-in in the working precision, bad custom operators
# transform_test   scans through input and output transforms against the host's transform and
#                  scan: both algorithms, levels, options, reverse, bad transforms, sizes
# options_test     clscan_enqueue_with: carry-in from a value or a buffer, total out, reverse,
#                  their combinations on built-in and custom operators, both algorithms, bad options
# recurrence_test  clscan_enqueue_recurrence against the loop and bitwise against the pairs' scan:
#                  a array or constant, y0, totals, reverse, in place, both algorithms, both
#                  accuracies, bad input
# accuracy_test    AFFINE float and double with a constant slope over 6250 tiles: the recurrence
#                  (automatic accuracy) and the compensated pairs' scan within 4 times the loop's
#                  error against a long double reference; exact products keep the working bits
# host_test        clscan_host_with: carries, totals, reverse, reductions, a named device, over the
#                  caller's memory and through copies, bad input
# segmented_test   segmented scans and scans by key of built-in and custom operators, bad input
# offsets_test     clscan_enqueue_segmented_offsets against the reference and bitwise against the
#                  segmented scan on the same heads: empty segments, totals with and without dst,
#                  both offset widths and algorithms, offsets that break the rules, bad input
# compact_test     compaction: densities, element sizes, block boundaries, indices, blocking call
# select_test      predicates (float4, int, struct), partition, unique, unique_by_key, reduce_by_key
#                  (non-commutative and custom operators) against the loop, bad input
# axis_test        clscan_enqueue_axis along rows and columns of pitched 2-D arrays (1x1 to 4x2^20
#                  and 2^16x3) against the reference of each line, bitwise, gaps and guards
#                  untouched, in place, empty arrays, bad input
# axis_totals_test clscan_enqueue_axis_totals along rows and columns (0xN to 3x2^17 and 2^16x3)
#                  against the fold of each line, non-commutative and custom operators, bitwise,
#                  guards and src untouched, float SUM reproducible, no lines, bad input
# axis_sort_test   clscan_axis_sort_enqueue along rows and columns against a stable sort of each
#                  line: duplicates (stability through values), descending, gaps untouched, in
#                  place, empty arrays, bad input
# bucket_test      bucketing: one bucket, more buckets than elements, empty and skewed, stability
# radix_sort_test  every key type (8 to 64 bits), special values, stability through values,
#                  ascending and descending, low key bits and bit ranges, settings changed between sorts
# disk_cache_test  the on-disk program cache, through child processes (the cache's directory is
#                  read once per process): a second process takes the stored binary (built-in and
#                  custom operators); damaged, truncated, empty, foreign files and a directory in
#                  a file's place cost a build and are replaced; an empty CLSCAN_CACHE_DIR turns
#                  it off; the default directories; a directory that cannot be made; processes
#                  at once leave one whole file and no temporary ones
# swapped_comb.sh  noncomm_test with comb's arguments swapped (a kernel file replaced from
#                  tests/hooks/swapped): must FAIL (XFAIL), proving the suite sees the order
# kernel_variants.sh  noncomm_test, custom_test, transform_test, segmented_test, offsets_test,
#                  options_test, recurrence_test, accuracy_test and the algorithms' tests (axis_test
#                  too) on the kernel variants
#                  the default device does not use (developer switches)
# fault_test.sh, fault_order_test.sh, fault_outputs.sh  fault injection into the library's OpenCL
#                  and allocation calls (the block at the end of this file)
EXTRA_DIST += tests/swapped_comb.sh tests/kernel_variants.sh tests/valgrind.supp \
	tests/hooks/swapped/scan/combine.cl tests/hooks/unpublished/scan/status_separate.cl
# The on-disk program cache of every test (and example) run by make check: in the build tree,
# never the user's.  The suite's programs share it (a program is compiled once, not once per
# test program), the fault-injection tests fail calls on its way, 'make clean' removes it.
AM_TESTS_ENVIRONMENT = CLSCAN_CACHE_DIR='$(abs_top_builddir)/tests/program-cache'; export CLSCAN_CACHE_DIR;
clean-local: clean-program-cache
clean-program-cache:
	-rm -rf tests/program-cache
.PHONY: clean-program-cache

# Test scripts run through the shell (no need for the executable bit).
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)

if ENABLE_TESTS
TEST_PROGRAMS_ = tests/scan_test tests/multilevel_test tests/noncomm_test tests/errors_test tests/threads_test \
	tests/lookback_test tests/custom_test tests/options_test tests/recurrence_test tests/accuracy_test \
	tests/segmented_test tests/host_test tests/offsets_test tests/compact_test tests/bucket_test \
	tests/radix_sort_test tests/select_test tests/disk_cache_test tests/axis_test tests/transform_test \
	tests/axis_totals_test tests/axis_sort_test
check_PROGRAMS += $(TEST_PROGRAMS_)
TESTS += $(TEST_PROGRAMS_) tests/swapped_comb.sh tests/kernel_variants.sh
XFAIL_TESTS += tests/swapped_comb.sh

# The test programs' flags: Check's, and the library with Check for the programs that name no
# libraries of their own (the tests).
AM_CFLAGS += $(CHECK_CFLAGS) $(PTHREAD_CFLAGS)
LDADD = support/libclscan_support.la lib/libclscan.la $(CHECK_LIBS) $(OPENCL_LIBS) $(PTHREAD_CFLAGS) -lm
TESTUTIL_ = tests/testutil.c tests/testutil.h
TESTOPS_ = tests/testops.c tests/testops.h

tests_scan_test_SOURCES = tests/scan_test.c $(TESTUTIL_)
tests_multilevel_test_SOURCES = tests/multilevel_test.c $(TESTUTIL_)
tests_noncomm_test_SOURCES = tests/noncomm_test.c $(TESTUTIL_)
tests_errors_test_SOURCES = tests/errors_test.c $(TESTUTIL_)
tests_threads_test_SOURCES = tests/threads_test.c $(TESTUTIL_)
tests_lookback_test_SOURCES = tests/lookback_test.c $(TESTUTIL_)
tests_custom_test_SOURCES = tests/custom_test.c $(TESTOPS_) $(TESTUTIL_)
tests_options_test_SOURCES = tests/options_test.c $(TESTOPS_) $(TESTUTIL_)
tests_recurrence_test_SOURCES = tests/recurrence_test.c $(TESTUTIL_)
tests_host_test_SOURCES = tests/host_test.c $(TESTUTIL_)
tests_accuracy_test_SOURCES = tests/accuracy_test.c $(TESTUTIL_)
tests_segmented_test_SOURCES = tests/segmented_test.c $(TESTOPS_) $(TESTUTIL_)
tests_offsets_test_SOURCES = tests/offsets_test.c $(TESTOPS_) $(TESTUTIL_)
tests_axis_test_SOURCES = tests/axis_test.c $(TESTOPS_) $(TESTUTIL_)
tests_axis_totals_test_SOURCES = tests/axis_totals_test.c $(TESTOPS_) $(TESTUTIL_)
tests_axis_sort_test_SOURCES = tests/axis_sort_test.c $(TESTUTIL_)
tests_compact_test_SOURCES = tests/compact_test.c $(TESTUTIL_)
tests_select_test_SOURCES = tests/select_test.c $(TESTOPS_) $(TESTUTIL_)
tests_bucket_test_SOURCES = tests/bucket_test.c $(TESTUTIL_)
tests_radix_sort_test_SOURCES = tests/radix_sort_test.c $(TESTUTIL_)
tests_disk_cache_test_SOURCES = tests/disk_cache_test.c $(TESTUTIL_)
tests_transform_test_SOURCES = tests/transform_test.c $(TESTUTIL_)
# The two that read kernel files of the source tree when run by hand (make check tells them
# through CLSCAN_SRCDIR).
tests_errors_test_CPPFLAGS = $(AM_CPPFLAGS) -DCLSCAN_TEST_SRCDIR='"$(abs_top_srcdir)"'
tests_lookback_test_CPPFLAGS = $(AM_CPPFLAGS) -DCLSCAN_TEST_SRCDIR='"$(abs_top_srcdir)"'

# The source tree (for the kernel sources and test hooks) and the programs the scripts run.
AM_TESTS_ENVIRONMENT += \
	CLSCAN_SRCDIR='$(abs_top_srcdir)'; export CLSCAN_SRCDIR; \
	NONCOMM_TEST='$(abs_top_builddir)/tests/noncomm_test'; export NONCOMM_TEST; \
	CUSTOM_TEST='$(abs_top_builddir)/tests/custom_test'; export CUSTOM_TEST; \
	TRANSFORM_TEST='$(abs_top_builddir)/tests/transform_test'; export TRANSFORM_TEST; \
	SEGMENTED_TEST='$(abs_top_builddir)/tests/segmented_test'; export SEGMENTED_TEST; \
	OFFSETS_TEST='$(abs_top_builddir)/tests/offsets_test'; export OFFSETS_TEST; \
	OPTIONS_TEST='$(abs_top_builddir)/tests/options_test'; export OPTIONS_TEST; \
	RECURRENCE_TEST='$(abs_top_builddir)/tests/recurrence_test'; export RECURRENCE_TEST; \
	ACCURACY_TEST='$(abs_top_builddir)/tests/accuracy_test'; export ACCURACY_TEST; \
	ALGO_TESTS='$(abs_top_builddir)/tests/compact_test $(abs_top_builddir)/tests/bucket_test \
	$(abs_top_builddir)/tests/radix_sort_test $(abs_top_builddir)/tests/select_test \
	$(abs_top_builddir)/tests/axis_test $(abs_top_builddir)/tests/axis_totals_test \
	$(abs_top_builddir)/tests/axis_sort_test'; export ALGO_TESTS;
endif

# 'make check-valgrind': test programs under valgrind's memcheck (definite leaks and memory
# errors fail; tests/valgrind.supp hides the OpenCL compiler's own noise).  Slow, so only the
# quick one by default (threads_test takes many minutes: the single pass spins under valgrind's
# serialised threads): make check-valgrind VALGRIND_TESTS="tests/errors_test tests/threads_test".
VALGRIND_TESTS = tests/errors_test
VALGRIND_FLAGS = --num-callers=40 --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	--suppressions=$(abs_top_srcdir)/tests/valgrind.supp
check-valgrind:
	@if test -z "$(VALGRIND)"; then echo "check-valgrind: configure found no valgrind" >&2; exit 1; fi
	CLSCAN_TEST_TIMEOUT=0 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(VALGRIND_TESTS)' XFAIL_TESTS= \
	  LOG_COMPILER='$(LIBTOOL) --mode=execute $(VALGRIND) $(VALGRIND_FLAGS)'
.PHONY: check-valgrind

# ---- Fault injection -----------------------------------------------------------------------------
# fault_test.sh    tests/fault_test with the shim tests/fault/shim (a libtool module) preloaded
#                  (LD_PRELOAD): the shim counts the OpenCL calls and the malloc/calloc/realloc
#                  calls made from inside libclscan.so, can fail the kth of them, and keeps books of
#                  the library's OpenCL references and heap blocks; the program walks k over every
#                  such call of sequences that touch every public function (plans, scans of one and
#                  many tiles with both algorithms, segmented, by key and by offsets, tuning, variants
#                  and algorithms, compaction, bucketing, sorting, clscan_host, releases, cache clear,
#                  the on-disk program cache: its binaries loaded, and stored from an empty directory),
#                  on in-order and out-of-order queues with the inputs behind user events.  For each
#                  k: an error with the outputs untouched, or the right result; the same sequence
#                  right again without a fault; no crash; nothing left behind in the books.  It
#                  prints the number of points tried.  The script first checks that the shim wraps
#                  every OpenCL entry point lib/ calls.
# fault_order_test.sh  on an out-of-order queue, a call that fails (with some of its commands
#                  enqueued or none) between two others on the same plan or handle: the next call
#                  still waits for both, and its result is right (scans with both algorithms,
#                  compaction, sorting, bucketing)
# fault_outputs.sh fault_test's sorting and bucketing walks requiring every output of a failed call
#                  untouched: must FAIL (XFAIL) while failed bucket calls leave the output of their
#                  earlier passes behind
if ENABLE_TESTS
# A module built shared although never installed (-rpath), for LD_PRELOAD.
check_LTLIBRARIES = tests/fault/shim.la
tests_fault_shim_la_SOURCES = tests/fault/shim.c tests/fault/shim.h
tests_fault_shim_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/tests/fault
tests_fault_shim_la_LIBADD = -ldl $(PTHREAD_CFLAGS)

# The drivers: without the shim preloaded they execute themselves again with it (FAULT_SHIM_PATH).
FAULT_UTIL_ = tests/fault/util.c tests/fault/util.h tests/fault/shim.h
FAULT_LDADD_ = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -ldl $(PTHREAD_CFLAGS) -lm
FAULT_CPPFLAGS_ = $(AM_CPPFLAGS) -DFAULT_SHIM_PATH='"$(abs_top_builddir)/tests/fault/.libs/shim.so"'
check_PROGRAMS += tests/fault_test tests/fault_order_test
tests_fault_test_SOURCES = tests/fault_test.c $(FAULT_UTIL_)
tests_fault_test_LDADD = $(FAULT_LDADD_)
tests_fault_test_CPPFLAGS = $(FAULT_CPPFLAGS_)
tests_fault_order_test_SOURCES = tests/fault_order_test.c $(FAULT_UTIL_)
tests_fault_order_test_LDADD = $(FAULT_LDADD_)
tests_fault_order_test_CPPFLAGS = $(FAULT_CPPFLAGS_)

TESTS += tests/fault_test.sh tests/fault_order_test.sh tests/fault_outputs.sh
XFAIL_TESTS += tests/fault_outputs.sh
EXTRA_DIST += tests/fault_test.sh tests/fault_order_test.sh tests/fault_outputs.sh
AM_TESTS_ENVIRONMENT += \
	FAULT_TEST='$(abs_top_builddir)/tests/fault_test'; export FAULT_TEST; \
	FAULT_ORDER_TEST='$(abs_top_builddir)/tests/fault_order_test'; export FAULT_ORDER_TEST; \
	FAULT_SHIM_LA='$(abs_top_builddir)/tests/fault/shim.la'; export FAULT_SHIM_LA;
endif

# ---- The bad-input table -------------------------------------------------------------------------
# bad_input_test   every documented status of every public function provoked by one bad argument
#                  (NULL, another context or device, wait lists, images, access flags, ranges,
#                  overlaps through sub-buffers, enumerators, sizes, custom operators, tunings,
#                  variants, environment variables); buffers compared byte for byte, handles
#                  checked with a valid call after each row; prints what it could not provoke
if ENABLE_TESTS
TEST_PROGRAMS_ += tests/bad_input_test
tests_bad_input_test_SOURCES = tests/bad_input_test.c $(TESTUTIL_)
# Reads the kernel files of the source tree when run by hand (make check tells it through CLSCAN_SRCDIR).
tests_bad_input_test_CPPFLAGS = $(AM_CPPFLAGS) -DCLSCAN_TEST_SRCDIR='"$(abs_top_srcdir)"'
endif

# ---- Fortran ---------------------------------------------------------------------------------------
# fortran_test     the module clscan (fortran/local.mk) against Fortran loops: its constants
#                  against the C library's names for them, clscan_host and clscan_host_with on
#                  arrays of every type and on pairs (AFFINE), device buffers through
#                  clscan_plan_create and the enqueue functions, bad calls
# Built when configure found a Fortran compiler (it needs no Check).
if ENABLE_FORTRAN
check_PROGRAMS += tests/fortran_test
TESTS += tests/fortran_test
tests_fortran_test_SOURCES = tests/fortran_test.f90
tests_fortran_test_LDADD = fortran/libclscan_fortran.la lib/libclscan.la $(OPENCL_LIBS)
# Every status code's name, from the headers as the module's constants.
tests/fortran_status_names.inc: $(srcdir)/include/clscan.h include/clscan_version.h \
		$(srcdir)/build-aux/fortran-constants.sh
	$(AM_V_GEN)$(MKDIR_P) tests && $(FORTRAN_CONSTANTS_) --names $(FORTRAN_CONSTANTS_ARGS_) > $@-t && mv $@-t $@
tests/fortran_test.$(OBJEXT): $(FORTRAN_MODULE_) tests/fortran_status_names.inc
CLEANFILES += tests/fortran_status_names.inc tests/fortran_status_names.inc-t
endif

# ---- MPI ---------------------------------------------------------------------------------------
# mpi_test.sh      tests/mpi_test (libclscan_mpi, mpi/local.mk) on 1, 2, 3, 4 and 8 ranks: every
#                  rank's part against a sequential scan of the whole array, exactly (built-in and
#                  custom operators, options, empty and uneven parts, segments across ranks, a rank
#                  with a bad argument)
# Built when configure found MPI, run when it found mpiexec too (it needs no Check, but runs with
# the suite: not with --disable-tests).
EXTRA_DIST += tests/mpi_test.sh
if ENABLE_MPI
check_PROGRAMS += tests/mpi_test
tests_mpi_test_SOURCES = tests/mpi_test.c
tests_mpi_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/mpi -I$(top_srcdir)
tests_mpi_test_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_mpi_test_LDADD = mpi/libclscan_mpi.la support/libclscan_support.la lib/libclscan.la $(MPI_LIBS) \
	$(OPENCL_LIBS) -lm
if HAVE_MPIEXEC
if ENABLE_TESTS
TESTS += tests/mpi_test.sh
AM_TESTS_ENVIRONMENT += \
	MPI_TEST='$(abs_top_builddir)/tests/mpi_test'; export MPI_TEST; \
	MPIEXEC='$(MPIEXEC)'; export MPIEXEC;
endif
endif
endif
