# The clscan command-line tool (included by the top Makefile.am).
bin_PROGRAMS += tools/clscan
tools_clscan_SOURCES = tools/clscan.c tools/options.c tools/options.h
tools_clscan_LDADD = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS)
