# Manual pages and the README's example (included by the top Makefile.am).
dist_man_MANS += \
	doc/clscan.1 \
	doc/clscan.3 \
	doc/clscan_cache_clear.3 \
	doc/clscan_default_device.3 \
	doc/clscan_element_size.3 \
	doc/clscan_enqueue_axis.3 \
	doc/clscan_enqueue_axis_totals.3 \
	doc/clscan_axis_sort_enqueue.3 \
	doc/clscan_enqueue.3 \
	doc/clscan_enqueue_by_key.3 \
	doc/clscan_enqueue_recurrence.3 \
	doc/clscan_enqueue_segmented.3 \
	doc/clscan_enqueue_segmented_check.3 \
	doc/clscan_enqueue_segmented_offsets.3 \
	doc/clscan_enqueue_with.3 \
	doc/clscan_enqueue_with_check.3 \
	doc/clscan_error_string.3 \
	doc/clscan_host.3 \
	doc/clscan_host_with.3 \
	doc/clscan_last_error.3 \
	doc/clscan_op_element_size.3 \
	doc/clscan_plan_create.3 \
	doc/clscan_plan_create_custom.3 \
	doc/clscan_plan_get_accuracy.3 \
	doc/clscan_plan_get_algorithm.3 \
	doc/clscan_plan_get_tuning.3 \
	doc/clscan_plan_get_variant.3 \
	doc/clscan_plan_release.3 \
	doc/clscan_plan_set_accuracy.3 \
	doc/clscan_plan_set_algorithm.3 \
	doc/clscan_plan_set_transform.3 \
	doc/clscan_plan_set_tuning.3 \
	doc/clscan_plan_set_variant.3 \
	doc/clscan_version_string.3

# The example of README and clscan_enqueue(3): built by 'make check' so that it keeps
# compiling against clscan.h (installcheck builds it again against the installed library).
EXTRA_DIST += doc/example.c
check_PROGRAMS += doc/example
doc_example_SOURCES = doc/example.c
doc_example_LDADD = lib/libclscan.la $(OPENCL_LIBS)

# 'make check-man': every page renders without warnings (needs groff); a page that only sources
# another (.so) is rendered through it.
check-man:
	$(AM_V_GEN)status=0; for page in $(dist_man_MANS) $(man_MANS); do \
	  if sed -n 1p $(srcdir)/$$page | grep -q '^\.so '; then continue; fi; \
	  groff -t -man -ww -z $(srcdir)/$$page || { echo "$$page: groff warnings" >&2; status=1; }; \
	done; exit $$status

# The operator and performance notes, with the raw outputs doc/performance.md cites (its plots
# and CSV files stay in the repository only).
EXTRA_DIST += doc/operators.md doc/performance.md doc/accuracy.md \
	doc/perf/h200-2026-12-02.txt doc/perf/h200-2026-12-03.txt doc/perf/h200-spread-2026-12-03.txt \
	doc/perf/h200-partition-offsets-2026-12-03.txt doc/perf/h200-held-radix-items-2026-12-03.txt \
	doc/perf/pocl-2core-reduce-by-key-2026-12-03.txt \
	doc/perf/h200-ab-2026-12-01.txt \
	doc/perf/h200-accuracy-time-2026-11-30.txt doc/perf/h200-algos-peers-2026-12-01.txt \
	doc/perf/h200-algos-2026-12-03-90ca061.txt doc/perf/h200-algos-2026-12-03-430bedf.txt \
	doc/perf/h200-bucket-offsets-2026-12-03.txt doc/perf/pocl-2core-bucket-offsets-2026-12-03.txt \
	doc/perf/h200-axis-2026-12-01.txt doc/perf/h200-axis-lines-selections-2026-12-01.txt \
	doc/perf/h200-buckets-selections-2026-12-02.txt doc/perf/h200-compact-one-pass-2026-12-01.txt \
	doc/perf/h200-compact-publish-2026-12-02.txt \
	doc/perf/h200-compact-lookback-2026-12-02.txt doc/perf/h200-sort-staging-partition-2026-12-02.txt \
	doc/perf/h200-custom-2026-12-01.txt doc/perf/h200-custom-mid-2026-12-02.txt \
	doc/perf/h200-mid-timing-2026-12-01.txt doc/perf/h200-onesweep-2026-12-02.txt \
	doc/perf/h200-options-2026-11-30.txt doc/perf/h200-partition-scatter-tuning-2026-12-02.txt \
	doc/perf/h200-radix-scatter-2026-12-01.txt doc/perf/h200-reduce-by-key-2026-12-01.txt \
	doc/perf/h200-scan-2026-11-29.txt doc/perf/h200-scan-2026-12-01.txt \
	doc/perf/h200-segmented-algorithms-2026-12-01.txt doc/perf/h200-segsort-2026-12-01.txt \
	doc/perf/h200-segsort-ab-2026-12-01.txt doc/perf/h200-segsort-long-2026-12-01.txt \
	doc/perf/h200-startup-2026-12-01.txt doc/perf/h200-x2-mpi-2026-12-01.txt \
	doc/perf/pocl-16core-2026-11-29.txt doc/perf/pocl-16core-algos-2026-12-03.txt \
	doc/perf/pocl-16core-reduce-by-key-2026-12-03.txt \
	doc/perf/pocl-16core-partition-scatter-2026-12-03.txt doc/perf/pocl-16core-compress-2026-12-04.txt \
	doc/perf/pocl-16core-reduce-by-key-lanes-2026-12-04.txt doc/perf/pocl-16core-compress-masks-2026-12-04.txt \
	doc/perf/pocl-2core-partition-scatter-2026-12-03.txt doc/perf/pocl-2core-compress-2026-12-04.txt \
	doc/perf/pocl-2core-compress-masks-2026-12-04.txt \
	doc/perf/pocl-2core-2026-11-29.txt \
	doc/perf/pocl-2core-2026-12-01.txt doc/perf/pocl-2core-2026-12-02.txt \
	doc/perf/pocl-2core-mpi-2026-11-30.txt doc/perf/pocl-2core-reduce-by-key-2026-12-01.txt \
	doc/perf/pocl-2core-reduce-by-key-2026-12-02.txt doc/perf/pocl-2core-selections-2026-12-02.txt \
	doc/perf/pocl-2core-reduce-by-key-folded-2026-12-03.txt doc/perf/pocl-2core-reduce-by-key-lanes-2026-12-04.txt \
	doc/perf/pocl-2core-selections-2026-12-03.txt doc/perf/pocl-2core-selections-2026-12-03-noon.txt \
	doc/perf/pocl-accuracy-2026-11-30.txt doc/perf/pocl-accuracy-explain-2026-11-30.txt \
	doc/perf/pocl-accuracy-time-2026-11-30.txt doc/perf/pocl-options-2026-11-30.txt

# The Fortran module's page: installed with the module (fortran/local.mk), distributed always.
EXTRA_DIST += doc/clscan_fortran.3
if ENABLE_FORTRAN
man_MANS += doc/clscan_fortran.3
endif

# The manual pages of compaction, bucketing and radix sort.
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
	doc/clscan_sorter_set_descending.3 \
	doc/clscan_sorter_set_key_bits.3 \
	doc/clscan_sorter_set_key_range.3 \
	doc/clscan_sort_enqueue.3 \
	doc/clscan_segmented_sort_enqueue.3

# The manual pages of selection: predicates, partition, unique, unique_by_key, reduce_by_key.
dist_man_MANS += \
	doc/clscan_compactor_create_if.3 \
	doc/clscan_compact_if_enqueue.3 \
	doc/clscan_compact_if.3 \
	doc/clscan_partition_enqueue.3 \
	doc/clscan_partition_if_enqueue.3 \
	doc/clscan_unique_enqueue.3 \
	doc/clscan_runs_create.3 \
	doc/clscan_runs_release.3 \
	doc/clscan_unique_by_key_enqueue.3 \
	doc/clscan_reduce_by_key_enqueue.3
