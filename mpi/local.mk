# libclscan_mpi (included by the top Makefile.am), built when configure found an MPI C compiler
# (--with-mpi, --without-mpi): the distributed scans of mpi/clscan_mpi.h in a library of their
# own, so that libclscan needs no MPI.  Compiled by CC with the flags of the MPI compiler
# wrapper (MPI_CFLAGS, MPI_LIBS); installs clscan_mpi.h and clscan-mpi.pc.  doc/mpi.md has the
# design.
EXTRA_DIST += clscan-mpi.pc.in doc/mpi.md doc/perf/pocl-2core-mpi-2026-11-30.txt doc/perf/h200-x2-mpi-2026-12-01.txt
if ENABLE_MPI
lib_LTLIBRARIES += mpi/libclscan_mpi.la
mpi_libclscan_mpi_la_SOURCES = \
	mpi/internal.h mpi/error.c \
	mpi/agree.c \
	mpi/exchange.c \
	mpi/heads.c \
	mpi/plain.c \
	mpi/segmented.c
mpi_libclscan_mpi_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/mpi -DCLSCAN_MPI_BUILDING_LIBRARY
mpi_libclscan_mpi_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(VISIBILITY_CFLAGS) $(PTHREAD_CFLAGS)
# Its own ABI version, moved by libtool's rules like libclscan's.
mpi_libclscan_mpi_la_LDFLAGS = -version-info 0:0:0 -no-undefined
mpi_libclscan_mpi_la_LIBADD = lib/libclscan.la $(MPI_LIBS) $(OPENCL_LIBS) $(PTHREAD_CFLAGS)
include_HEADERS += mpi/clscan_mpi.h
pkgconfig_DATA += clscan-mpi.pc
else
EXTRA_DIST += mpi/clscan_mpi.h mpi/internal.h mpi/error.c mpi/agree.c mpi/exchange.c mpi/heads.c mpi/plain.c \
	mpi/segmented.c
endif

# The scaling benchmark of clscan_mpi_enqueue (bench/clscan-bench-mpi.c): built with the library,
# never run by make check.  'make bench-mpi' runs weak and strong scaling on BENCH_MPI_RANKS
# ranks, one after the other (BENCH_ARGS: --count, --op, --type, --reps), through MPIEXEC with
# BENCH_MPI_FLAGS (e.g. --oversubscribe for more ranks than cores).
EXTRA_DIST += bench/clscan-bench-mpi.c
BENCH_MPI_RANKS = 1 2 4 8
BENCH_MPI_FLAGS =
if ENABLE_MPI
noinst_PROGRAMS += bench/clscan-bench-mpi
bench_clscan_bench_mpi_SOURCES = bench/clscan-bench-mpi.c
bench_clscan_bench_mpi_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/mpi -I$(top_srcdir)
bench_clscan_bench_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
bench_clscan_bench_mpi_LDADD = mpi/libclscan_mpi.la support/libclscan_support.la lib/libclscan.la $(MPI_LIBS) \
	$(OPENCL_LIBS) -lm
bench-mpi: bench/clscan-bench-mpi$(EXEEXT)
	@for mode in "" --strong; do for np in $(BENCH_MPI_RANKS); do \
	  $(MPIEXEC) $(BENCH_MPI_FLAGS) -n $$np $(builddir)/bench/clscan-bench-mpi$(EXEEXT) $$mode $(BENCH_ARGS) || exit 1; \
	done; done
else
bench-mpi:
	@echo "bench-mpi: configure found no MPI" >&2; exit 1
endif
.PHONY: bench-mpi

# The manual pages: installed with the library, distributed always.
MPI_MANS_ = doc/clscan_mpi_enqueue.3 doc/clscan_mpi_enqueue_segmented.3 doc/clscan_mpi_last_error.3 \
	doc/clscan_mpi_cache_clear.3
EXTRA_DIST += $(MPI_MANS_)
if ENABLE_MPI
man_MANS += $(MPI_MANS_)
endif

# After install: the IIR filter example builds through pkg-config clscan-mpi against the installed
# libraries and runs on 2 ranks (with mpiexec).
installcheck-local: installcheck-mpi
if HAVE_MPIEXEC
installcheck-mpi:
	$(AM_V_GEN)flags=`PKG_CONFIG_PATH="$(DESTDIR)$(pkgconfigdir)" $(PKG_CONFIG) --cflags --libs clscan-mpi` && \
	$(CC) -std=c11 -Wall -Wextra -Werror -o installcheck-mpi $(srcdir)/examples/mpi_iir_filter.c $$flags -lm && \
	LD_LIBRARY_PATH="$(DESTDIR)$(libdir)" MPI_EXAMPLES=./installcheck-mpi MPIEXEC='$(MPIEXEC)' \
	  $(SHELL) $(srcdir)/examples/mpi_examples.sh && \
	rm -f installcheck-mpi
else
installcheck-mpi:
endif
.PHONY: installcheck-mpi
