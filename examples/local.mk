# Worked examples (included by the top Makefile.am): built and run by 'make check'.  They use
# only the public header and the library, with the flags pkg-config gives an installed clscan
# (-I the include directory, -lclscan: here through libtool, against the build tree).
EXAMPLES_ = examples/iir_filter examples/fill_forward examples/particles_compact examples/spatial_grid \
	examples/parallel_alloc examples/sort_floats examples/chunked_scan examples/discounted_return \
	examples/csr_row_sum examples/cell_charges examples/cell_energy_sort
check_PROGRAMS += $(EXAMPLES_)
TESTS += $(EXAMPLES_)
EXTRA_DIST += examples/example_device.h
EXAMPLES_LDADD_ = lib/libclscan.la $(OPENCL_LIBS) -lm
examples_iir_filter_SOURCES = examples/iir_filter.c examples/example_device.h
examples_iir_filter_LDADD = $(EXAMPLES_LDADD_)
examples_fill_forward_LDADD = $(EXAMPLES_LDADD_)
examples_particles_compact_SOURCES = examples/particles_compact.c examples/example_device.h
examples_particles_compact_LDADD = $(EXAMPLES_LDADD_)
examples_spatial_grid_SOURCES = examples/spatial_grid.c examples/example_device.h
examples_spatial_grid_LDADD = $(EXAMPLES_LDADD_)
examples_parallel_alloc_SOURCES = examples/parallel_alloc.c examples/example_device.h
examples_parallel_alloc_LDADD = $(EXAMPLES_LDADD_)
examples_sort_floats_SOURCES = examples/sort_floats.c examples/example_device.h
examples_sort_floats_LDADD = $(EXAMPLES_LDADD_)
examples_chunked_scan_SOURCES = examples/chunked_scan.c examples/example_device.h
examples_chunked_scan_LDADD = $(EXAMPLES_LDADD_)
examples_discounted_return_SOURCES = examples/discounted_return.c examples/example_device.h
examples_discounted_return_LDADD = $(EXAMPLES_LDADD_)
examples_csr_row_sum_SOURCES = examples/csr_row_sum.c examples/example_device.h
examples_csr_row_sum_LDADD = $(EXAMPLES_LDADD_)
examples_cell_charges_SOURCES = examples/cell_charges.c examples/example_device.h
examples_cell_charges_LDADD = $(EXAMPLES_LDADD_)
examples_cell_energy_sort_SOURCES = examples/cell_energy_sort.c examples/example_device.h
examples_cell_energy_sort_LDADD = $(EXAMPLES_LDADD_)

# The Fortran example, with the module clscan (fortran/local.mk), when configure found a Fortran
# compiler.
if ENABLE_FORTRAN
check_PROGRAMS += examples/zero_phase
TESTS += examples/zero_phase
examples_zero_phase_SOURCES = examples/zero_phase.f90
examples_zero_phase_LDADD = fortran/libclscan_fortran.la lib/libclscan.la
examples/zero_phase.$(OBJEXT): $(FORTRAN_MODULE_)
endif

# The MPI examples, with libclscan_mpi (mpi/local.mk), when configure found MPI: built by make
# check and run on 2 and 3 ranks by examples/mpi_examples.sh when it found mpiexec too.
EXTRA_DIST += examples/mpi_examples.sh
if ENABLE_MPI
MPI_EXAMPLES_ = examples/mpi_iir_filter examples/mpi_compact
check_PROGRAMS += $(MPI_EXAMPLES_)
MPI_EXAMPLES_LDADD_ = mpi/libclscan_mpi.la lib/libclscan.la $(MPI_LIBS) $(OPENCL_LIBS) -lm
MPI_EXAMPLES_CPPFLAGS_ = $(AM_CPPFLAGS) -I$(top_srcdir)/mpi
examples_mpi_iir_filter_SOURCES = examples/mpi_iir_filter.c examples/example_device.h
examples_mpi_iir_filter_CPPFLAGS = $(MPI_EXAMPLES_CPPFLAGS_)
examples_mpi_iir_filter_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_mpi_iir_filter_LDADD = $(MPI_EXAMPLES_LDADD_)
examples_mpi_compact_SOURCES = examples/mpi_compact.c examples/example_device.h
examples_mpi_compact_CPPFLAGS = $(MPI_EXAMPLES_CPPFLAGS_)
examples_mpi_compact_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_mpi_compact_LDADD = $(MPI_EXAMPLES_LDADD_)
if HAVE_MPIEXEC
if ENABLE_TESTS
TESTS += examples/mpi_examples.sh
AM_TESTS_ENVIRONMENT += \
	MPI_EXAMPLES='$(abs_top_builddir)/examples/mpi_iir_filter $(abs_top_builddir)/examples/mpi_compact'; \
	export MPI_EXAMPLES;
endif
endif
else
EXTRA_DIST += examples/mpi_iir_filter.c examples/mpi_compact.c
endif
