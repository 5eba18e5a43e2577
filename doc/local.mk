# Manual pages and the README's example (included by the top Makefile.am).
dist_man_MANS += \
	doc/clscan.1 \
	doc/clscan.3 \
	doc/clscan_cache_clear.3 \
	doc/clscan_default_device.3 \
	doc/clscan_element_size.3 \
	doc/clscan_enqueue.3 \
	doc/clscan_enqueue_by_key.3 \
	doc/clscan_enqueue_segmented.3 \
	doc/clscan_error_string.3 \
	doc/clscan_host.3 \
	doc/clscan_last_error.3 \
	doc/clscan_op_element_size.3 \
	doc/clscan_plan_create.3 \
	doc/clscan_plan_create_custom.3 \
	doc/clscan_plan_get_algorithm.3 \
	doc/clscan_plan_get_tuning.3 \
	doc/clscan_plan_release.3 \
	doc/clscan_plan_set_algorithm.3 \
	doc/clscan_plan_set_tuning.3 \
	doc/clscan_version_string.3

# The example of README and clscan_enqueue(3): built by 'make check' so that it keeps
# compiling against clscan.h (installcheck builds it again against the installed library).
EXTRA_DIST += doc/example.c
check_PROGRAMS += doc/example
doc_example_SOURCES = doc/example.c
doc_example_LDADD = lib/libclscan.la $(OPENCL_LIBS)

# 'make check-man': every page renders without warnings (needs groff).
check-man:
	$(AM_V_GEN)status=0; for page in $(dist_man_MANS); do \
	  groff -t -man -ww -z $(srcdir)/$$page || { echo "$$page: groff warnings" >&2; status=1; }; \
	done; exit $$status

# The design and performance notes, with the measurements and plots they cite.
EXTRA_DIST += doc/operators.md doc/performance.md doc/perf/h200-2026-11-29.csv doc/perf/h200-2026-11-29.txt \
	doc/perf/h200-sweeps-2026-11-29.txt doc/perf/pocl-2026-11-29.csv doc/perf/pocl-2026-11-29.txt doc/perf/pocl-lanes2-2026-11-29.txt \
	doc/perf/h200-float-sum-excl.png doc/perf/h200-int-max-incl.png doc/perf/h200-int-lastnz-incl.png \
	doc/perf/h200-float-affine-incl.png doc/perf/h200-double-sum-excl.png \
	doc/perf/pocl-float-sum-excl.png doc/perf/pocl-int-max-incl.png doc/perf/pocl-int-lastnz-incl.png \
	doc/perf/pocl-float-affine-incl.png doc/perf/pocl-double-sum-excl.png

# Compaction, bucketing and radix sort (issue 5).
dist_man_MANS += \
	doc/clscan_compactor_create.3 \
	doc/clscan_compactor_release.3 \
	doc/clscan_compact_enqueue.3 \
	doc/clscan_compact_indices_enqueue.3 \
	doc/clscan_compact.3 \
	doc/clscan_bucketer_create.3 \
	doc/clscan_bucketer_release.3 \
	doc/clscan_bucket_enqueue.3 \
	doc/clscan_sorter_create.3 \
	doc/clscan_sorter_release.3 \
	doc/clscan_sorter_set_key_bits.3 \
	doc/clscan_sort_enqueue.3
EXTRA_DIST += doc/perf/pocl-algos-2026-11-29.txt doc/perf/pocl-algos-2026-11-29.csv \
	doc/perf/pocl-algos-compact-50.png doc/perf/pocl-algos-compact-1.png doc/perf/pocl-algos-bucket-65536.png \
	doc/perf/pocl-algos-sort-u32.png doc/perf/pocl-algos-sort-u32-pairs.png doc/perf/pocl-algos-sort-f32.png
# The second session's H200 runs (kernels reworked for GPUs; compaction, bucketing, sort).
EXTRA_DIST += doc/perf/h200-kernels-2026-11-29.txt doc/perf/h200-lookback-window-2026-11-29.txt \
	doc/perf/h200-algos-2026-11-29.txt doc/perf/h200-algos-2026-11-29.csv
EXTRA_DIST += doc/perf/h200-algos-compact-50.png doc/perf/h200-algos-compact-1.png doc/perf/h200-algos-bucket-65536.png \
	doc/perf/h200-algos-sort-u32.png doc/perf/h200-algos-sort-u32-pairs.png doc/perf/h200-algos-sort-f32.png
EXTRA_DIST += doc/perf/pocl-session2-2026-11-29.txt doc/perf/pocl-session2-2026-11-29.csv
# The third session's H200 runs (scans with CUB in the same run; ranking scatter, listed compaction).
EXTRA_DIST += doc/perf/h200-session3-2026-11-29.txt doc/perf/h200-session3-2026-11-29.csv \
	doc/perf/h200-algos-session3-2026-11-29.txt doc/perf/h200-algos-session3-2026-11-29.csv
EXTRA_DIST += \
	doc/perf/h200-session3-custom-float-affine-incl.png \
	doc/perf/h200-session3-custom-float-sum-excl.png \
	doc/perf/h200-session3-double-sum-excl.png \
	doc/perf/h200-session3-float-affine-incl.png \
	doc/perf/h200-session3-float-sum-excl.png \
	doc/perf/h200-session3-int-lastnz-incl.png \
	doc/perf/h200-session3-int-max-incl.png \
	doc/perf/h200-session3-key-int-max-incl.png \
	doc/perf/h200-session3-seg-float-sum-excl.png \
	doc/perf/h200-algos-session3-bucket-65536.png \
	doc/perf/h200-algos-session3-compact-1.png \
	doc/perf/h200-algos-session3-compact-50.png \
	doc/perf/h200-algos-session3-sort-f32.png \
	doc/perf/h200-algos-session3-sort-u32-pairs.png \
	doc/perf/h200-algos-session3-sort-u32.png
# Segmented scans on PoCL (issue 4): notes, and the A/B program they used (not built).
EXTRA_DIST += doc/perf/segmented-notes.md doc/perf/segab.c
# The fourth session's H200 runs (single pass with packed status words; Boost.Compute run directly).
EXTRA_DIST += doc/perf/h200-session4-2026-11-29.txt doc/perf/h200-session4-2026-11-29.csv \
	doc/perf/h200-session4-custom-float-affine-incl.png \
	doc/perf/h200-session4-custom-float-sum-excl.png \
	doc/perf/h200-session4-double-sum-excl.png \
	doc/perf/h200-session4-float-affine-incl.png \
	doc/perf/h200-session4-float-sum-excl.png \
	doc/perf/h200-session4-int-lastnz-incl.png \
	doc/perf/h200-session4-int-max-incl.png \
	doc/perf/h200-session4-key-int-max-incl.png \
	doc/perf/h200-session4-seg-float-sum-excl.png
EXTRA_DIST += doc/perf/pocl-session4-2026-11-29.txt doc/perf/pocl-session4-2026-11-29.csv
# The fifth session's H200 runs (16-byte status words; both peers in the same run).
EXTRA_DIST += doc/perf/h200-session5-2026-11-29.txt doc/perf/h200-session5-2026-11-29.csv \
	doc/perf/h200-algos-session5-2026-11-29.csv \
	doc/perf/h200-session5-double-sum-excl.png \
	doc/perf/h200-session5-float-affine-incl.png \
	doc/perf/h200-session5-float-sum-excl.png \
	doc/perf/h200-session5-int-lastnz-incl.png \
	doc/perf/h200-session5-int-max-incl.png \
	doc/perf/h200-algos-session5-bucket-65536.png \
	doc/perf/h200-algos-session5-compact-1.png \
	doc/perf/h200-algos-session5-compact-50.png \
	doc/perf/h200-algos-session5-sort-f32.png \
	doc/perf/h200-algos-session5-sort-u32-pairs.png \
	doc/perf/h200-algos-session5-sort-u32.png
# The fifth session's PoCL runs (the CPUs' streamed tiles, item 20).
EXTRA_DIST += doc/perf/pocl-session5-2026-11-29.txt doc/perf/pocl-session5-2026-11-29.csv \
	doc/perf/pocl-session5-double-sum-excl.png \
	doc/perf/pocl-session5-float-affine-incl.png \
	doc/perf/pocl-session5-float-sum-excl.png \
	doc/perf/pocl-session5-int-lastnz-incl.png \
	doc/perf/pocl-session5-int-max-incl.png
