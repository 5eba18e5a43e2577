# libclscan_mpi (included by the top Makefile.am), built when configure found an MPI C compiler
# (--with-mpi, --without-mpi): the distributed scans of mpi/clscan_mpi.h in a library of their
# own, so that libclscan needs no MPI.  Compiled by CC with the flags of the MPI compiler
# wrapper (MPI_CFLAGS, MPI_LIBS); installs clscan_mpi.h and clscan-mpi.pc.  doc/mpi.md has the
# design.
EXTRA_DIST += clscan-mpi.pc.in doc/mpi.md
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
