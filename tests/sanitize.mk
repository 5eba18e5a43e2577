# 'make check-sanitize' (included by the top Makefile.am): the test suite built by clang with
# AddressSanitizer and UndefinedBehaviorSanitizer, a short random soak under them, and the
# threads test built with ThreadSanitizer, each in a build tree of its own below _sanitize/
# (tests/check-sanitize.sh says what runs where; doc/reliability.md what it promises and costs).
# Needs clang and its sanitizer runtimes (Debian: clang libclang-rt-14-dev).  Variables:
#   SANITIZE_TESTS="tests/errors_test ..."   the ASan run's tests (default: the whole suite but
#                                            the fault-injection tests, tests/fault_*: they
#                                            preload an allocator of their own (LD_PRELOAD),
#                                            while AddressSanitizer must own every allocation)
#   SANITIZE_TSAN_TESTS=...                  the TSan run's tests (default: tests/threads_test)
#   SANITIZE_SOAK_SECONDS=60                 the soak under ASan (0: none)
#   SANITIZE_CC=clang  SANITIZE_JOBS=2
SANITIZE_CC = clang
SANITIZE_TESTS =
SANITIZE_TSAN_TESTS = tests/threads_test
SANITIZE_SOAK_SECONDS = 60
SANITIZE_JOBS = 2
SANITIZE_DIR = $(abs_top_builddir)/_sanitize
EXTRA_DIST += tests/check-sanitize.sh tests/lsan.supp

# The sanitized trees build from a copy of the distribution's files (a source tree configured in
# place cannot host VPATH builds); the copy keeps the files' times, so the trees rebuild only
# what changed.  A fresh copy replaces the old one by renames, so that a run in another tree
# (make fuzz during make check-sanitize) keeps finding its files.
sanitize-src:
	$(AM_V_at)$(MKDIR_P) $(SANITIZE_DIR)
	$(AM_V_GEN)$(MAKE) $(AM_MAKEFLAGS) distdir distdir='$(SANITIZE_DIR)/src.new' \
	  top_distdir='$(SANITIZE_DIR)/src.new' >/dev/null && \
	cd '$(SANITIZE_DIR)' && rm -rf src.old && { test ! -d src || mv src src.old; } && mv src.new src && \
	rm -rf src.old

check-sanitize: sanitize-src
	SANITIZE_DIR='$(SANITIZE_DIR)' SANITIZE_CC='$(SANITIZE_CC)' SANITIZE_TESTS='$(SANITIZE_TESTS)' SUITE='$(TESTS)' \
	SANITIZE_TSAN_TESTS='$(SANITIZE_TSAN_TESTS)' SANITIZE_SOAK_SECONDS='$(SANITIZE_SOAK_SECONDS)' \
	SANITIZE_JOBS='$(SANITIZE_JOBS)' SUPPRESSIONS='$(abs_top_srcdir)/tests' MAKE='$(MAKE)' \
	  $(SHELL) $(srcdir)/tests/check-sanitize.sh

clean-sanitize:
	-rm -rf $(SANITIZE_DIR)
clean-local: clean-sanitize
.PHONY: sanitize-src check-sanitize clean-sanitize
