# The benchmark (bench/README): built by make, never run by make check; 'make bench' runs it on
# the default device (CLSCAN_DEVICE) with the peers that were built.  Extra options:
#   make bench BENCH_ARGS="--max 24 --csv bench.csv"
#
# The timed sequential loops (the seq column): bench/bench_seq.c alone is compiled with
# BENCH_SEQ_CFLAGS (configure: -O3 -march=native), placed after CFLAGS so that they win over the
# build's -O2; the rule is written out because automake puts a target's own flags before CFLAGS.
# The object links into clscan-bench and clscan-bench-algos, which print the command line.
BENCH_SEQ_OBJ = bench/bench_seq.$(OBJEXT)
BENCH_SEQ_DEPS = $(srcdir)/bench/bench_seq.c $(srcdir)/bench/bench_seq.h $(srcdir)/bench/bench_algos.h \
	$(srcdir)/bench/bench_common.h $(srcdir)/support/reference.c $(srcdir)/support/reference.h \
	$(srcdir)/support/names.h $(srcdir)/support/inputs.h $(srcdir)/include/clscan.h
BENCH_SEQ_COMPILE = $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(AM_CPPFLAGS) -I$(srcdir)/bench -I$(srcdir) \
	$(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS) $(BENCH_SEQ_CFLAGS)
$(BENCH_SEQ_OBJ): $(BENCH_SEQ_DEPS)
	@$(MKDIR_P) bench
	$(AM_V_CC)$(BENCH_SEQ_COMPILE) -DBENCH_SEQ_BUILD='"$(CC) $(CFLAGS) $(BENCH_SEQ_CFLAGS)"' \
	  -c -o $@ $(srcdir)/bench/bench_seq.c
CLEANFILES += $(BENCH_SEQ_OBJ)
EXTRA_DIST += bench/bench_seq.c bench/bench_seq.h

noinst_PROGRAMS += bench/clscan-bench
bench_clscan_bench_SOURCES = bench/clscan-bench.c bench/bench_common.h bench/peer_launcher.h
bench_clscan_bench_LDADD = $(BENCH_SEQ_OBJ) support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -lm
EXTRA_DIST += bench/README bench/plot.sh
# What the scan options cost: recurrences against pairs, reductions against scans, clscan_host's
# paths ('make bench-options').
noinst_PROGRAMS += bench/clscan-bench-options
bench_clscan_bench_options_SOURCES = bench/clscan-bench-options.c bench/bench_common.h
bench_clscan_bench_options_LDADD = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -lm
bench-options: bench/clscan-bench-options$(EXEEXT)
	$(builddir)/bench/clscan-bench-options$(EXEEXT) $(BENCH_ARGS)
.PHONY: bench-options

# What a new process pays before its first result, with the on-disk program cache cold and warm
# ('make bench-startup'; BENCH_ARGS="--fresh-env POCL_CACHE_DIR" empties PoCL's own cache too).
noinst_PROGRAMS += bench/clscan-bench-startup
bench_clscan_bench_startup_SOURCES = bench/clscan-bench-startup.c
bench_clscan_bench_startup_LDADD = lib/libclscan.la $(OPENCL_LIBS)
bench-startup: bench/clscan-bench-startup$(EXEEXT)
	$(builddir)/bench/clscan-bench-startup$(EXEEXT) $(BENCH_ARGS)
.PHONY: bench-startup

# The bucket offsets' two kernels alone, on sorted keys (lib/bucket.c chooses between them); its
# usage is at the top of its source.
noinst_PROGRAMS += bench/clscan-bench-bucket-offsets
bench_clscan_bench_bucket_offsets_SOURCES = bench/clscan-bench-bucket-offsets.c
bench_clscan_bench_bucket_offsets_LDADD = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS)

BENCH_PEERS =
BENCH_PEER_ARGS =
BENCH_ARGS =

# Boost.Compute on the same OpenCL device.
if HAVE_BOOST_COMPUTE
noinst_PROGRAMS += bench/boost-bench
bench_boost_bench_SOURCES = bench/boost-bench.cpp bench/bench_common.h bench/boost_common.hpp
bench_boost_bench_CPPFLAGS = $(AM_CPPFLAGS) -DCL_TARGET_OPENCL_VERSION=120
bench_boost_bench_CXXFLAGS = $(PEER_CXXFLAGS) $(PTHREAD_CFLAGS)
bench_boost_bench_LDADD = support/libclscan_support.la $(OPENCL_LIBS)
BENCH_PEERS += bench/boost-bench$(EXEEXT)
BENCH_PEER_ARGS += --boost=$(builddir)/bench/boost-bench$(EXEEXT)
endif

# CUB on NVIDIA machines (configure --enable-cub), compiled and linked by nvcc; the GPU
# architecture can be changed: make CUB_ARCH=sm_80.  nvcc cannot link a libtool library, so it
# compiles the support library's sources that the peer uses (as C) along with it; clscan.h only
# gives the enumerations of operators and types (nothing links libclscan).
CUB_ARCH = sm_90
CUB_INCLUDES = -I$(srcdir)/bench -I$(srcdir) -I$(srcdir)/include -I$(builddir)/include
CUB_SUPPORT_FILES = $(srcdir)/support/names.c $(srcdir)/support/reference.c $(srcdir)/support/compare.c
if ENABLE_CUB
noinst_PROGRAMS += bench/cub-bench
bench_cub_bench_SOURCES =
bench_cub_bench_LDADD =   # not the tests' LDADD (libtool libraries and -pthread, which nvcc refuses)
bench_cub_bench_DEPENDENCIES = $(srcdir)/bench/cub-bench.cu $(srcdir)/bench/bench_common.h $(CUB_SUPPORT_FILES)
bench_cub_bench_LINK = $(NVCC) $(NVCCFLAGS) -arch=$(CUB_ARCH) -Xcompiler=-Wall,-Wextra \
	$(CUB_INCLUDES) $(srcdir)/bench/cub-bench.cu $(CUB_SUPPORT_FILES) -o $@
BENCH_PEERS += bench/cub-bench$(EXEEXT)
BENCH_PEER_ARGS += --cub=$(builddir)/bench/cub-bench$(EXEEXT)
endif
EXTRA_DIST += bench/cub-bench.cu

bench: bench/clscan-bench$(EXEEXT) $(BENCH_PEERS)
	$(builddir)/bench/clscan-bench$(EXEEXT) $(BENCH_PEER_ARGS) $(BENCH_ARGS)
.PHONY: bench

# ---- Compaction, bucketing and radix sort (bench/README): clscan-bench-algos, with its peers
# boost-bench-algos (copy_if, sort, sort_by_key) and cub-bench-algos (DeviceSelect::Flagged,
# DeviceRadixSort).  'make bench-algos' runs it with the peers that were built.
noinst_PROGRAMS += bench/clscan-bench-algos
bench_clscan_bench_algos_SOURCES = bench/clscan-bench-algos.c bench/bench_algos.h bench/bench_common.h bench/peer_launcher.h
bench_clscan_bench_algos_LDADD = $(BENCH_SEQ_OBJ) support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -lm
BENCH_ALGOS_PEERS =
BENCH_ALGOS_PEER_ARGS =
if HAVE_BOOST_COMPUTE
noinst_PROGRAMS += bench/boost-bench-algos
bench_boost_bench_algos_SOURCES = bench/boost-bench-algos.cpp bench/bench_algos.h bench/bench_common.h bench/boost_common.hpp
bench_boost_bench_algos_CPPFLAGS = $(AM_CPPFLAGS) -DCL_TARGET_OPENCL_VERSION=120
bench_boost_bench_algos_CXXFLAGS = $(PEER_CXXFLAGS) $(PTHREAD_CFLAGS)
bench_boost_bench_algos_LDADD = $(OPENCL_LIBS)
BENCH_ALGOS_PEERS += bench/boost-bench-algos$(EXEEXT)
BENCH_ALGOS_PEER_ARGS += --boost=$(builddir)/bench/boost-bench-algos$(EXEEXT)
endif
if ENABLE_CUB
noinst_PROGRAMS += bench/cub-bench-algos
bench_cub_bench_algos_SOURCES =
bench_cub_bench_algos_LDADD =
bench_cub_bench_algos_DEPENDENCIES = $(srcdir)/bench/cub-bench-algos.cu $(srcdir)/bench/bench_algos.h \
	$(srcdir)/bench/bench_common.h
bench_cub_bench_algos_LINK = $(NVCC) $(NVCCFLAGS) -arch=$(CUB_ARCH) -Xcompiler=-Wall,-Wextra \
	$(CUB_INCLUDES) $(srcdir)/bench/cub-bench-algos.cu -o $@
BENCH_ALGOS_PEERS += bench/cub-bench-algos$(EXEEXT)
BENCH_ALGOS_PEER_ARGS += --cub=$(builddir)/bench/cub-bench-algos$(EXEEXT)
endif
EXTRA_DIST += bench/cub-bench-algos.cu bench/plot-algos.sh

bench-algos: bench/clscan-bench-algos$(EXEEXT) $(BENCH_ALGOS_PEERS)
	$(builddir)/bench/clscan-bench-algos$(EXEEXT) $(BENCH_ALGOS_PEER_ARGS) $(BENCH_ARGS)
.PHONY: bench-algos

# ---- Accuracy (bench/README): clscan-accuracy, the rounding error of AFFINE scans and float SUM
# against the sequential loop, both against a compensated long double reference.
noinst_PROGRAMS += bench/clscan-accuracy
bench_clscan_accuracy_SOURCES = bench/clscan-accuracy.c
bench_clscan_accuracy_LDADD = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -lm
