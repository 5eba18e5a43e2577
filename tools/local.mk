# The clscan command-line tool (included by the top Makefile.am).
bin_PROGRAMS += tools/clscan
tools_clscan_SOURCES = \
	tools/clscan.c \
	tools/elements.c \
	tools/elements.h \
	tools/random_input.c \
	tools/random_input.h \
	tools/reference.c \
	tools/reference.h
tools_clscan_LDADD = lib/libclscan.la $(OPENCL_LIBS)
