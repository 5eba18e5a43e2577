# The support library (included by the top Makefile.am): names, the sequential reference scans,
# comparisons and random inputs shared by the tests, the clscan tool and the benchmarks.  Built
# once as a libtool convenience library, linked into those programs and never installed.
noinst_LTLIBRARIES = support/libclscan_support.la
support_libclscan_support_la_SOURCES = \
	support/names.c \
	support/names.h \
	support/reference.c \
	support/reference.h \
	support/compare.c \
	support/compare.h \
	support/inputs.c \
	support/inputs.h
support_libclscan_support_la_LIBADD = -lm
