# Fuzzing (included by the top Makefile.am): libFuzzer targets of tests/fuzz/ for the tool's
# command line and input file, the device specification, custom operators' strings and the
# developer environment variables (each file says what it checks; doc/reliability.md has the
# figures).
#
# 'make fuzz' builds them with clang (-fsanitize=fuzzer,address,undefined) in the tree
# _sanitize/fuzz and runs each for FUZZ_SECONDS (default 60) from its seed corpus
# tests/fuzz/corpus/NAME, keeping what it finds in _sanitize/fuzz/corpus/NAME; crashes go to
# _sanitize/fuzz/crashes and fail the target.  A crash, once fixed, is copied to
# tests/fuzz/regressions/NAME.  'make check' replays every seed and regression through each
# target (tests/fuzz/replay_NAME, built with the suite's compiler; under check-sanitize, with
# the sanitizers).  Variables: FUZZ_SECONDS=60  FUZZ_TARGETS="options input ..."  FUZZ_ARGS
# (more libFuzzer flags)  FUZZ_CC=clang.
FUZZ_SECONDS = 60
FUZZ_TARGETS = options input device_spec custom environment
FUZZ_ARGS =
FUZZ_CC = clang
# The link flag of the fuzz programs, which only the fuzz tree builds (tests/fuzz/run.sh).
FUZZER_FLAGS = -fsanitize=fuzzer

FUZZ_COMMON_ = tests/fuzz/fuzz.h
FUZZ_LDADD_ = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -lm
# custom and environment call the library's internal functions: its static archive, its headers.
FUZZ_LIB_CPPFLAGS_ = $(AM_CPPFLAGS) -I$(top_srcdir)/lib

# The libFuzzer programs: built on demand ('make fuzz-targets', in the fuzz tree).
FUZZ_PROGRAMS_ = tests/fuzz/fuzz_options tests/fuzz/fuzz_input tests/fuzz/fuzz_device_spec \
	tests/fuzz/fuzz_custom tests/fuzz/fuzz_environment
EXTRA_PROGRAMS = $(FUZZ_PROGRAMS_)
tests_fuzz_fuzz_options_SOURCES = tests/fuzz/fuzz_options.c tools/options.c tools/options.h $(FUZZ_COMMON_)
tests_fuzz_fuzz_options_LDADD = $(FUZZ_LDADD_)
tests_fuzz_fuzz_options_LDFLAGS = $(FUZZER_FLAGS)
tests_fuzz_fuzz_input_SOURCES = tests/fuzz/fuzz_input.c tools/options.c tools/options.h $(FUZZ_COMMON_)
tests_fuzz_fuzz_input_LDADD = $(FUZZ_LDADD_)
tests_fuzz_fuzz_input_LDFLAGS = $(FUZZER_FLAGS)
tests_fuzz_fuzz_device_spec_SOURCES = tests/fuzz/fuzz_device_spec.c $(FUZZ_COMMON_)
tests_fuzz_fuzz_device_spec_LDADD = $(FUZZ_LDADD_)
tests_fuzz_fuzz_device_spec_LDFLAGS = $(FUZZER_FLAGS)
tests_fuzz_fuzz_custom_SOURCES = tests/fuzz/fuzz_custom.c $(FUZZ_COMMON_)
tests_fuzz_fuzz_custom_CPPFLAGS = $(FUZZ_LIB_CPPFLAGS_)
tests_fuzz_fuzz_custom_LDADD = $(FUZZ_LDADD_)
tests_fuzz_fuzz_custom_LDFLAGS = $(FUZZER_FLAGS) -static
tests_fuzz_fuzz_environment_SOURCES = tests/fuzz/fuzz_environment.c $(FUZZ_COMMON_)
tests_fuzz_fuzz_environment_CPPFLAGS = $(FUZZ_LIB_CPPFLAGS_)
tests_fuzz_fuzz_environment_LDADD = $(FUZZ_LDADD_)
tests_fuzz_fuzz_environment_LDFLAGS = $(FUZZER_FLAGS) -static

# The replays: the same targets with a main() of their own, run by 'make check'.
FUZZ_REPLAYS_ = tests/fuzz/replay_options tests/fuzz/replay_input tests/fuzz/replay_device_spec \
	tests/fuzz/replay_custom tests/fuzz/replay_environment
check_PROGRAMS += $(FUZZ_REPLAYS_)
TESTS += $(FUZZ_REPLAYS_)
FUZZ_REPLAY_CPPFLAGS_ = -DFUZZ_SRCDIR='"$(abs_top_srcdir)"'
tests_fuzz_replay_options_SOURCES = tests/fuzz/replay.c $(tests_fuzz_fuzz_options_SOURCES)
tests_fuzz_replay_options_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_REPLAY_CPPFLAGS_) -DFUZZ_NAME='"options"'
tests_fuzz_replay_options_LDADD = $(FUZZ_LDADD_)
tests_fuzz_replay_input_SOURCES = tests/fuzz/replay.c $(tests_fuzz_fuzz_input_SOURCES)
tests_fuzz_replay_input_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_REPLAY_CPPFLAGS_) -DFUZZ_NAME='"input"'
tests_fuzz_replay_input_LDADD = $(FUZZ_LDADD_)
tests_fuzz_replay_device_spec_SOURCES = tests/fuzz/replay.c $(tests_fuzz_fuzz_device_spec_SOURCES)
tests_fuzz_replay_device_spec_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_REPLAY_CPPFLAGS_) -DFUZZ_NAME='"device_spec"'
tests_fuzz_replay_device_spec_LDADD = $(FUZZ_LDADD_)
tests_fuzz_replay_custom_SOURCES = tests/fuzz/replay.c $(tests_fuzz_fuzz_custom_SOURCES)
tests_fuzz_replay_custom_CPPFLAGS = $(FUZZ_LIB_CPPFLAGS_) $(FUZZ_REPLAY_CPPFLAGS_) -DFUZZ_NAME='"custom"'
tests_fuzz_replay_custom_LDADD = $(FUZZ_LDADD_)
tests_fuzz_replay_custom_LDFLAGS = -static
tests_fuzz_replay_environment_SOURCES = tests/fuzz/replay.c $(tests_fuzz_fuzz_environment_SOURCES)
tests_fuzz_replay_environment_CPPFLAGS = $(FUZZ_LIB_CPPFLAGS_) $(FUZZ_REPLAY_CPPFLAGS_) -DFUZZ_NAME='"environment"'
tests_fuzz_replay_environment_LDADD = $(FUZZ_LDADD_)
tests_fuzz_replay_environment_LDFLAGS = -static

EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/corpus tests/fuzz/regressions

fuzz-targets: $(FUZZ_PROGRAMS_)
.PHONY: fuzz-targets

# The fuzz tree builds from the same copy of the distribution as check-sanitize.
fuzz: sanitize-src
	SANITIZE_DIR='$(SANITIZE_DIR)' FUZZ_CC='$(FUZZ_CC)' FUZZ_SECONDS='$(FUZZ_SECONDS)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_ARGS='$(FUZZ_ARGS)' SANITIZE_JOBS='$(SANITIZE_JOBS)' \
	SUPPRESSIONS='$(abs_top_srcdir)/tests' FUZZ_SEEDS='$(abs_top_srcdir)/tests/fuzz/corpus' MAKE='$(MAKE)' \
	  $(SHELL) $(srcdir)/tests/fuzz/run.sh
.PHONY: fuzz
