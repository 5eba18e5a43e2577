# The Fortran module (included by the top Makefile.am), built when configure found a Fortran
# compiler: the module clscan (fortran/clscan.f90) in its own library, libclscan_fortran, so
# that libclscan needs no Fortran runtime; the module file is installed in $(fmoddir)
# (configure --with-fortran-moddir), with clscan-fortran.pc.  The constants come from the
# headers through build-aux/fortran-constants.sh (the values the C preprocessor gives).
EXTRA_DIST += build-aux/fortran-constants.sh
if ENABLE_FORTRAN
lib_LTLIBRARIES += fortran/libclscan_fortran.la
fortran_libclscan_fortran_la_SOURCES = fortran/clscan.f90
# Its own ABI version, moved by libtool's rules like libclscan's.
fortran_libclscan_fortran_la_LDFLAGS = -version-info 0:0:0 -no-undefined
fortran_libclscan_fortran_la_LIBADD = lib/libclscan.la

# Module files are written to, and looked up in, fortran/ of the build tree; the generated
# includes are looked up there and in tests/ (a VPATH build keeps them apart from the sources).
AM_FCFLAGS = $(WARN_FCFLAGS) $(FC_MODOUT)fortran $(FC_MODINC)fortran -Ifortran -Itests
FORTRAN_MODULE_ = fortran/clscan.$(FC_MODEXT)
nodist_fmod_DATA = $(FORTRAN_MODULE_)
pkgconfig_DATA += clscan-fortran.pc

FORTRAN_CONSTANTS_ = $(SHELL) $(srcdir)/build-aux/fortran-constants.sh
FORTRAN_CONSTANTS_ARGS_ = '$(CPP) $(AM_CPPFLAGS) $(CPPFLAGS)' $(srcdir)/include/clscan.h include/clscan_version.h
fortran/clscan_constants.inc: $(srcdir)/include/clscan.h include/clscan_version.h \
		$(srcdir)/build-aux/fortran-constants.sh
	$(AM_V_GEN)$(MKDIR_P) fortran && $(FORTRAN_CONSTANTS_) $(FORTRAN_CONSTANTS_ARGS_) > $@-t && mv $@-t $@
fortran/clscan.lo: fortran/clscan_constants.inc
# The module file comes with the object.
$(FORTRAN_MODULE_): fortran/clscan.lo
	@test -f $@ || { echo "$@ was not written with fortran/clscan.lo" >&2; exit 1; }
CLEANFILES += fortran/clscan_constants.inc fortran/clscan_constants.inc-t $(FORTRAN_MODULE_)
endif

# After install: the Fortran example builds through pkg-config against the installed module.
installcheck-local: installcheck-fortran
if ENABLE_FORTRAN
installcheck-fortran:
	$(AM_V_GEN)flags=`PKG_CONFIG_PATH="$(DESTDIR)$(pkgconfigdir)" $(PKG_CONFIG) --cflags --libs clscan-fortran` && \
	$(FC) $(WARN_FCFLAGS) -o installcheck-fortran $(srcdir)/examples/zero_phase.f90 $$flags && \
	LD_LIBRARY_PATH="$(DESTDIR)$(libdir)" ./installcheck-fortran && \
	rm -f installcheck-fortran
else
installcheck-fortran:
endif
.PHONY: installcheck-fortran
