# 'make soak' (included by the top Makefile.am): tests/soak, random scans with exact checks
# until SOAK_SECONDS are up (tests/soak.c says what it draws).  Built by 'make check' so that it
# keeps compiling, never run by it.  Extra options: make soak SOAK_ARGS="--seed=N --max-count=N".
SOAK_SECONDS = 600
SOAK_ARGS =
check_PROGRAMS += tests/soak
tests_soak_SOURCES = tests/soak.c
tests_soak_LDADD = support/libclscan_support.la lib/libclscan.la $(OPENCL_LIBS) -lm

soak: tests/soak$(EXEEXT)
	CLSCAN_CACHE_DIR='$(abs_top_builddir)/tests/program-cache' $(builddir)/tests/soak$(EXEEXT) --seconds=$(SOAK_SECONDS) $(SOAK_ARGS)
.PHONY: soak
