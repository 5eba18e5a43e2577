! clscan for Fortran: the module clscan.
!
! * The constants of clscan.h (operators, types, kinds, algorithms, variants, status codes) and
!   OpenCL's status codes, generated from the headers when the library is built
!   (build-aux/fortran-constants.sh), so that their values are the C library's.
! * Interfaces to the C functions, under their C names.  OpenCL handles (contexts, devices,
!   queues, buffers, events) and plans are type(c_ptr) values; pointers that C accepts as NULL
!   (wait lists, events, host values) are type(c_ptr) values too: c_null_ptr or c_loc(x);
!   size_t is integer(c_size_t), cl_uint integer(c_int32_t).
! * Generic wrappers for Fortran arrays on the host: clscan_host and clscan_host_with, for
!   real(c_float), real(c_double), integer(c_int32_t) and integer(c_int64_t); CLSCAN_AFFINE
!   scans pairs, arrays of shape (2, n) holding (a, b) in each column.
! * Fortran strings from clscan_error_string, clscan_last_error and clscan_version_string.
!
! doc/clscan_fortran.3 describes it all.
module clscan
  use, intrinsic :: iso_c_binding
  implicit none
  private

  include "clscan_constants.inc"

  ! struct clscan_scan_options.  Default-initialised: no options.
  type, bind(c), public :: clscan_scan_options
    type(c_ptr) :: carry_in = c_null_ptr          ! cl_mem: one element combined before the first
    integer(c_size_t) :: carry_in_offset = 0
    type(c_ptr) :: init = c_null_ptr              ! host pointer to one element, if carry_in is null
    type(c_ptr) :: total = c_null_ptr             ! cl_mem: receives the total
    integer(c_size_t) :: total_offset = 0
    integer(c_int) :: reverse = 0                 ! non-zero: scan from the end
  end type clscan_scan_options

  ! struct clscan_custom: C strings (NUL-terminated), c_loc of character(kind=c_char) targets.
  ! The generic clscan_plan_create_custom also takes Fortran strings and makes them.
  type, bind(c), public :: clscan_custom
    type(c_ptr) :: type = c_null_ptr
    integer(c_size_t) :: size = 0
    type(c_ptr) :: neutral = c_null_ptr
    type(c_ptr) :: comb = c_null_ptr
    type(c_ptr) :: preamble = c_null_ptr
  end type clscan_custom

  ! struct clscan_predicate (a compactor's), strings as clscan_custom's.  The generic
  ! clscan_compactor_create_if also takes Fortran strings and makes them.
  type, bind(c), public :: clscan_predicate
    type(c_ptr) :: type = c_null_ptr
    type(c_ptr) :: flag = c_null_ptr
    type(c_ptr) :: preamble = c_null_ptr
  end type clscan_predicate

  ! struct clscan_transform (a plan's), strings as clscan_custom's; dst_type, out and preamble
  ! may stay null.  The generic clscan_plan_set_transform also takes Fortran strings.
  type, bind(c), public :: clscan_transform
    type(c_ptr) :: src_type = c_null_ptr
    integer(c_size_t) :: src_size = 0
    type(c_ptr) :: in = c_null_ptr
    type(c_ptr) :: dst_type = c_null_ptr
    integer(c_size_t) :: dst_size = 0
    type(c_ptr) :: out = c_null_ptr
    type(c_ptr) :: preamble = c_null_ptr
  end type clscan_transform

  public :: clscan_plan_create, clscan_plan_create_custom, clscan_plan_release, clscan_element_size, &
            clscan_op_element_size, clscan_enqueue, clscan_enqueue_with, clscan_enqueue_recurrence, &
            clscan_enqueue_segmented, clscan_enqueue_segmented_offsets, clscan_enqueue_by_key, &
            clscan_host, clscan_host_with, clscan_default_device, clscan_cache_clear, &
            clscan_error_string, clscan_last_error, clscan_version_string, &
            clscan_plan_set_tuning, clscan_plan_get_tuning, clscan_plan_set_algorithm, &
            clscan_plan_get_algorithm, clscan_plan_set_variant, clscan_plan_get_variant, &
            clscan_compactor_create, clscan_compactor_release, clscan_compact_enqueue, &
            clscan_compact_indices_enqueue, clscan_compact, clscan_bucketer_create, &
            clscan_bucketer_release, clscan_bucket_enqueue, clscan_sorter_create, &
            clscan_sorter_release, clscan_sorter_set_key_bits, clscan_sort_enqueue, &
            clscan_sorter_set_descending, clscan_sorter_set_key_range, clscan_segmented_sort_enqueue, &
            clscan_plan_set_accuracy, clscan_plan_get_accuracy, clscan_plan_set_transform, &
            clscan_enqueue_with_check, clscan_enqueue_segmented_check, clscan_enqueue_axis, &
            clscan_enqueue_axis_totals, clscan_axis_sort_enqueue, &
            clscan_compactor_create_if, clscan_compact_if_enqueue, clscan_compact_if, &
            clscan_partition_enqueue, clscan_partition_if_enqueue, clscan_unique_enqueue, &
            clscan_runs_create, clscan_runs_release, clscan_unique_by_key_enqueue, clscan_reduce_by_key_enqueue

  ! ---- The C functions ---------------------------------------------------------------------
  interface
    function clscan_plan_create(context, device, op, type, kind, errcode_ret) result(plan) &
        bind(c, name="clscan_plan_create")
      import :: c_ptr, c_int
      type(c_ptr), value :: context, device
      integer(c_int), value :: op, type, kind
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: plan
    end function clscan_plan_create

    subroutine clscan_plan_release(plan) bind(c, name="clscan_plan_release")
      import :: c_ptr
      type(c_ptr), value :: plan
    end subroutine clscan_plan_release

    function clscan_element_size(plan) result(bytes) bind(c, name="clscan_element_size")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_size_t) :: bytes
    end function clscan_element_size

    function clscan_op_element_size(op, type) result(bytes) bind(c, name="clscan_op_element_size")
      import :: c_int, c_size_t
      integer(c_int), value :: op, type
      integer(c_size_t) :: bytes
    end function clscan_op_element_size

    function clscan_enqueue(plan, queue, src, src_offset, dst, dst_offset, count, &
        num_events_in_wait_list, event_wait_list, event) result(status) bind(c, name="clscan_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, src, dst
      integer(c_size_t), value :: src_offset, dst_offset, count
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue

    function clscan_enqueue_with(plan, queue, src, src_offset, dst, dst_offset, count, options, &
        num_events_in_wait_list, event_wait_list, event) result(status) bind(c, name="clscan_enqueue_with")
      import :: c_ptr, c_size_t, c_int32_t, c_int, clscan_scan_options
      type(c_ptr), value :: plan, queue, src, dst
      integer(c_size_t), value :: src_offset, dst_offset, count
      type(clscan_scan_options), intent(in) :: options
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_with

    function clscan_enqueue_recurrence(plan, queue, a, a_offset, a_const, b, b_offset, y, y_offset, count, &
        options, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_enqueue_recurrence")
      import :: c_ptr, c_size_t, c_int32_t, c_int, clscan_scan_options
      type(c_ptr), value :: plan, queue, a, a_const, b, y
      integer(c_size_t), value :: a_offset, b_offset, y_offset, count
      type(clscan_scan_options), intent(in) :: options
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_recurrence

    function clscan_enqueue_segmented(plan, queue, src, src_offset, heads, heads_offset, dst, dst_offset, &
        count, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_enqueue_segmented")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, src, heads, dst
      integer(c_size_t), value :: src_offset, heads_offset, dst_offset, count
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_segmented

    function clscan_enqueue_segmented_offsets(plan, queue, src, src_offset, offsets_type, offsets, &
        offsets_offset, nsegments, dst, dst_offset, count, totals, totals_offset, &
        num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_enqueue_segmented_offsets")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, src, offsets, dst, totals
      integer(c_size_t), value :: src_offset, offsets_offset, nsegments, dst_offset, count, totals_offset
      integer(c_int), value :: offsets_type
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_segmented_offsets

    function clscan_enqueue_by_key(plan, queue, key_type, keys, keys_offset, src, src_offset, dst, &
        dst_offset, count, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_enqueue_by_key")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, keys, src, dst
      integer(c_int), value :: key_type
      integer(c_size_t), value :: keys_offset, src_offset, dst_offset, count
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_by_key

    subroutine clscan_cache_clear() bind(c, name="clscan_cache_clear")
    end subroutine clscan_cache_clear

    function clscan_plan_set_tuning(plan, work_group_size, items_per_work_item) result(status) &
        bind(c, name="clscan_plan_set_tuning")
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: plan
      integer(c_size_t), value :: work_group_size, items_per_work_item
      integer(c_int) :: status
    end function clscan_plan_set_tuning

    function clscan_plan_get_tuning(plan, work_group_size, items_per_work_item) result(status) &
        bind(c, name="clscan_plan_get_tuning")
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: plan
      integer(c_size_t), intent(out) :: work_group_size, items_per_work_item
      integer(c_int) :: status
    end function clscan_plan_get_tuning

    function clscan_plan_set_algorithm(plan, algorithm) result(status) &
        bind(c, name="clscan_plan_set_algorithm")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      integer(c_int), value :: algorithm
      integer(c_int) :: status
    end function clscan_plan_set_algorithm

    function clscan_plan_get_algorithm(plan) result(algorithm) bind(c, name="clscan_plan_get_algorithm")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      integer(c_int) :: algorithm
    end function clscan_plan_get_algorithm

    function clscan_plan_set_variant(plan, tiles, primitive) result(status) &
        bind(c, name="clscan_plan_set_variant")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      integer(c_int), value :: tiles, primitive
      integer(c_int) :: status
    end function clscan_plan_set_variant

    function clscan_plan_get_variant(plan, tiles, primitive) result(status) &
        bind(c, name="clscan_plan_get_variant")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      integer(c_int), intent(out) :: tiles, primitive
      integer(c_int) :: status
    end function clscan_plan_get_variant

    ! Compaction, bucketing and radix sort: handles as type(c_ptr), as plans.
    function clscan_compactor_create(context, device, element_size, errcode_ret) result(compactor) &
        bind(c, name="clscan_compactor_create")
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: context, device
      integer(c_size_t), value :: element_size
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: compactor
    end function clscan_compactor_create

    subroutine clscan_compactor_release(compactor) bind(c, name="clscan_compactor_release")
      import :: c_ptr
      type(c_ptr), value :: compactor
    end subroutine clscan_compactor_release

    function clscan_compact_enqueue(compactor, queue, src, src_offset, flags, flags_offset, count, dst, &
        dst_offset, kept, kept_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_compact_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, flags, dst, kept
      integer(c_size_t), value :: src_offset, flags_offset, count, dst_offset, kept_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_compact_enqueue

    function clscan_compact_indices_enqueue(compactor, queue, flags, flags_offset, count, indices, &
        indices_offset, kept, kept_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_compact_indices_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, flags, indices, kept
      integer(c_size_t), value :: flags_offset, count, indices_offset, kept_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_compact_indices_enqueue

    function clscan_compact(compactor, queue, src, src_offset, flags, flags_offset, count, dst, dst_offset, &
        kept, num_events_in_wait_list, event_wait_list) result(status) bind(c, name="clscan_compact")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, flags, dst
      integer(c_size_t), value :: src_offset, flags_offset, count, dst_offset
      integer(c_size_t), intent(out) :: kept
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list
      integer(c_int) :: status
    end function clscan_compact

    function clscan_bucketer_create(context, device, nbuckets, value_size, errcode_ret) result(bucketer) &
        bind(c, name="clscan_bucketer_create")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: context, device
      integer(c_int32_t), value :: nbuckets
      integer(c_size_t), value :: value_size
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: bucketer
    end function clscan_bucketer_create

    subroutine clscan_bucketer_release(bucketer) bind(c, name="clscan_bucketer_release")
      import :: c_ptr
      type(c_ptr), value :: bucketer
    end subroutine clscan_bucketer_release

    function clscan_bucket_enqueue(bucketer, queue, keys, keys_offset, values, values_offset, count, &
        keys_out, keys_out_offset, values_out, values_out_offset, offsets, offsets_offset, &
        permutation, permutation_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_bucket_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: bucketer, queue, keys, values, keys_out, values_out, offsets, permutation
      integer(c_size_t), value :: keys_offset, values_offset, count, keys_out_offset, values_out_offset, &
                                  offsets_offset, permutation_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_bucket_enqueue

    function clscan_sorter_create(context, device, key_type, value_size, errcode_ret) result(sorter) &
        bind(c, name="clscan_sorter_create")
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: context, device
      integer(c_int), value :: key_type
      integer(c_size_t), value :: value_size
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: sorter
    end function clscan_sorter_create

    subroutine clscan_sorter_release(sorter) bind(c, name="clscan_sorter_release")
      import :: c_ptr
      type(c_ptr), value :: sorter
    end subroutine clscan_sorter_release

    function clscan_sorter_set_key_bits(sorter, key_bits) result(status) &
        bind(c, name="clscan_sorter_set_key_bits")
      import :: c_ptr, c_int
      type(c_ptr), value :: sorter
      integer(c_int), value :: key_bits
      integer(c_int) :: status
    end function clscan_sorter_set_key_bits

    function clscan_sort_enqueue(sorter, queue, keys_in, keys_in_offset, keys_out, keys_out_offset, &
        values_in, values_in_offset, values_out, values_out_offset, count, &
        num_events_in_wait_list, event_wait_list, event) result(status) bind(c, name="clscan_sort_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: sorter, queue, keys_in, keys_out, values_in, values_out
      integer(c_size_t), value :: keys_in_offset, keys_out_offset, values_in_offset, values_out_offset, count
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_sort_enqueue

    function clscan_sorter_set_descending(sorter, descending) result(status) &
        bind(c, name="clscan_sorter_set_descending")
      import :: c_ptr, c_int
      type(c_ptr), value :: sorter
      integer(c_int), value :: descending
      integer(c_int) :: status
    end function clscan_sorter_set_descending

    function clscan_sorter_set_key_range(sorter, begin_bit, end_bit) result(status) &
        bind(c, name="clscan_sorter_set_key_range")
      import :: c_ptr, c_int
      type(c_ptr), value :: sorter
      integer(c_int), value :: begin_bit, end_bit
      integer(c_int) :: status
    end function clscan_sorter_set_key_range

    function clscan_segmented_sort_enqueue(sorter, queue, keys_in, keys_in_offset, keys_out, keys_out_offset, &
        values_in, values_in_offset, values_out, values_out_offset, count, offsets_type, offsets, &
        offsets_offset, nsegments, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_segmented_sort_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: sorter, queue, keys_in, keys_out, values_in, values_out, offsets
      integer(c_size_t), value :: keys_in_offset, keys_out_offset, values_in_offset, values_out_offset, count
      integer(c_int), value :: offsets_type
      integer(c_size_t), value :: offsets_offset, nsegments
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_segmented_sort_enqueue

    function clscan_plan_set_accuracy(plan, accuracy) result(status) bind(c, name="clscan_plan_set_accuracy")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      integer(c_int), value :: accuracy
      integer(c_int) :: status
    end function clscan_plan_set_accuracy

    function clscan_plan_get_accuracy(plan) result(accuracy) bind(c, name="clscan_plan_get_accuracy")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      integer(c_int) :: accuracy
    end function clscan_plan_get_accuracy

    function clscan_enqueue_with_check(plan, queue, src, src_offset, dst, dst_offset, count, options, &
        num_events_in_wait_list, event_wait_list) result(status) bind(c, name="clscan_enqueue_with_check")
      import :: c_ptr, c_size_t, c_int32_t, c_int, clscan_scan_options
      type(c_ptr), value :: plan, queue, src, dst
      integer(c_size_t), value :: src_offset, dst_offset, count
      type(clscan_scan_options), intent(in) :: options
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list
      integer(c_int) :: status
    end function clscan_enqueue_with_check

    function clscan_enqueue_segmented_check(plan, queue, src, src_offset, heads, heads_offset, dst, dst_offset, &
        count, num_events_in_wait_list, event_wait_list) result(status) &
        bind(c, name="clscan_enqueue_segmented_check")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, src, heads, dst
      integer(c_size_t), value :: src_offset, heads_offset, dst_offset, count
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list
      integer(c_int) :: status
    end function clscan_enqueue_segmented_check

    ! Rows of row_pitch elements in C's layout: a Fortran array a(m, n) in a buffer holds n rows
    ! of m elements (its columns), so CLSCAN_ALONG_ROWS scans along its first index.
    function clscan_enqueue_axis(plan, queue, axis, src, src_offset, src_row_pitch, dst, dst_offset, &
        dst_row_pitch, rows, cols, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_enqueue_axis")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, src, dst
      integer(c_int), value :: axis
      integer(c_size_t), value :: src_offset, src_row_pitch, dst_offset, dst_row_pitch, rows, cols
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_axis

    ! One total per line into dst(dst_offset + 1 ...): for a(m, n), CLSCAN_ALONG_ROWS gives the n
    ! totals of its columns a(:, j), CLSCAN_ALONG_COLUMNS the m totals of its rows a(i, :).
    function clscan_enqueue_axis_totals(plan, queue, axis, src, src_offset, src_row_pitch, dst, dst_offset, &
        rows, cols, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_enqueue_axis_totals")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: plan, queue, src, dst
      integer(c_int), value :: axis
      integer(c_size_t), value :: src_offset, src_row_pitch, dst_offset, rows, cols
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_enqueue_axis_totals

    ! A sorter's sort of every line, C's rows as clscan_enqueue_axis's: for a(m, n),
    ! CLSCAN_ALONG_ROWS sorts each a(:, j), CLSCAN_ALONG_COLUMNS each a(i, :).
    function clscan_axis_sort_enqueue(sorter, queue, axis, keys_in, keys_in_offset, in_row_pitch, keys_out, &
        keys_out_offset, out_row_pitch, values_in, values_in_offset, values_out, values_out_offset, rows, cols, &
        num_events_in_wait_list, event_wait_list, event) result(status) bind(c, name="clscan_axis_sort_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: sorter, queue, keys_in, keys_out, values_in, values_out
      integer(c_int), value :: axis
      integer(c_size_t), value :: keys_in_offset, in_row_pitch, keys_out_offset, out_row_pitch, &
                                  values_in_offset, values_out_offset, rows, cols
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_axis_sort_enqueue

    ! Selections: compactors with a predicate, partition, unique, and the runs handle.
    function clscan_compact_if_enqueue(compactor, queue, src, src_offset, count, dst, dst_offset, kept, &
        kept_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_compact_if_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, dst, kept
      integer(c_size_t), value :: src_offset, count, dst_offset, kept_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_compact_if_enqueue

    function clscan_compact_if(compactor, queue, src, src_offset, count, dst, dst_offset, kept, &
        num_events_in_wait_list, event_wait_list) result(status) bind(c, name="clscan_compact_if")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, dst
      integer(c_size_t), value :: src_offset, count, dst_offset
      integer(c_size_t), intent(out) :: kept
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list
      integer(c_int) :: status
    end function clscan_compact_if

    function clscan_partition_enqueue(compactor, queue, src, src_offset, flags, flags_offset, count, dst, &
        dst_offset, kept, kept_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_partition_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, flags, dst, kept
      integer(c_size_t), value :: src_offset, flags_offset, count, dst_offset, kept_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_partition_enqueue

    function clscan_partition_if_enqueue(compactor, queue, src, src_offset, count, dst, dst_offset, kept, &
        kept_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_partition_if_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, dst, kept
      integer(c_size_t), value :: src_offset, count, dst_offset, kept_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_partition_if_enqueue

    function clscan_unique_enqueue(compactor, queue, src, src_offset, count, dst, dst_offset, kept, &
        kept_offset, num_events_in_wait_list, event_wait_list, event) result(status) &
        bind(c, name="clscan_unique_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: compactor, queue, src, dst, kept
      integer(c_size_t), value :: src_offset, count, dst_offset, kept_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_unique_enqueue

    function clscan_runs_create(context, device, key_size, value_size, errcode_ret) result(runs) &
        bind(c, name="clscan_runs_create")
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: context, device
      integer(c_size_t), value :: key_size, value_size
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: runs
    end function clscan_runs_create

    subroutine clscan_runs_release(runs) bind(c, name="clscan_runs_release")
      import :: c_ptr
      type(c_ptr), value :: runs
    end subroutine clscan_runs_release

    function clscan_unique_by_key_enqueue(runs, queue, keys, keys_offset, values, values_offset, count, &
        keys_out, keys_out_offset, values_out, values_out_offset, nruns, nruns_offset, &
        num_events_in_wait_list, event_wait_list, event) result(status) bind(c, name="clscan_unique_by_key_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: runs, queue, keys, values, keys_out, values_out, nruns
      integer(c_size_t), value :: keys_offset, values_offset, count, keys_out_offset, values_out_offset, &
                                  nruns_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_unique_by_key_enqueue

    function clscan_reduce_by_key_enqueue(runs, plan, queue, keys, keys_offset, values, values_offset, count, &
        keys_out, keys_out_offset, values_out, values_out_offset, nruns, nruns_offset, &
        num_events_in_wait_list, event_wait_list, event) result(status) bind(c, name="clscan_reduce_by_key_enqueue")
      import :: c_ptr, c_size_t, c_int32_t, c_int
      type(c_ptr), value :: runs, plan, queue, keys, values, keys_out, values_out, nruns
      integer(c_size_t), value :: keys_offset, values_offset, count, keys_out_offset, values_out_offset, &
                                  nruns_offset
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clscan_reduce_by_key_enqueue
  end interface

  ! The C functions that the generics below wrap (each generic keeps the C form too where its
  ! arguments tell it apart).
  interface
    function c_host(op, type, kind, src, dst, count) result(status) bind(c, name="clscan_host")
      import :: c_ptr, c_size_t, c_int
      integer(c_int), value :: op, type, kind
      type(c_ptr), value :: src, dst
      integer(c_size_t), value :: count
      integer(c_int) :: status
    end function c_host

    function c_host_with(device_spec, op, type, kind, src, dst, count, init, total_out, reverse) &
        result(status) bind(c, name="clscan_host_with")
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: device_spec
      integer(c_int), value :: op, type, kind
      type(c_ptr), value :: src, dst
      integer(c_size_t), value :: count
      type(c_ptr), value :: init, total_out
      integer(c_int), value :: reverse
      integer(c_int) :: status
    end function c_host_with

    function c_plan_create_custom(context, device, op, kind, errcode_ret) result(plan) &
        bind(c, name="clscan_plan_create_custom")
      import :: c_ptr, c_int, clscan_custom
      type(c_ptr), value :: context, device
      type(clscan_custom), intent(in) :: op
      integer(c_int), value :: kind
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: plan
    end function c_plan_create_custom

    function c_compactor_create_if(context, device, element_size, predicate, errcode_ret) result(compactor) &
        bind(c, name="clscan_compactor_create_if")
      import :: c_ptr, c_size_t, c_int, clscan_predicate
      type(c_ptr), value :: context, device
      integer(c_size_t), value :: element_size
      type(clscan_predicate), intent(in) :: predicate
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: compactor
    end function c_compactor_create_if

    function c_plan_set_transform(plan, t) result(status) bind(c, name="clscan_plan_set_transform")
      import :: c_ptr, c_int
      type(c_ptr), value :: plan, t
      integer(c_int) :: status
    end function c_plan_set_transform

    function c_default_device(spec, platform, device) result(status) bind(c, name="clscan_default_device")
      import :: c_ptr, c_int
      type(c_ptr), value :: spec
      type(c_ptr), intent(out) :: platform, device
      integer(c_int) :: status
    end function c_default_device

    function c_error_string(code) result(name) bind(c, name="clscan_error_string")
      import :: c_ptr, c_int
      integer(c_int), value :: code
      type(c_ptr) :: name
    end function c_error_string

    function c_last_error() result(message) bind(c, name="clscan_last_error")
      import :: c_ptr
      type(c_ptr) :: message
    end function c_last_error

    function c_version_string() result(version) bind(c, name="clscan_version_string")
      import :: c_ptr
      type(c_ptr) :: version
    end function c_version_string

    function c_strlen(s) result(n) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface

  ! ---- Generics ----------------------------------------------------------------------------

  ! stat = clscan_host(op, kind, src, dst [, unsigned] [, errmsg]): scans the host array src into
  ! dst on the default device; the element type is the arrays'.  The C form,
  ! clscan_host(op, type, kind, c_loc(src), c_loc(dst), count), serves in-place scans.
  interface clscan_host
    procedure :: c_host, host_f32, host_f64, host_i32, host_i64, &
                  host_f32_pairs, host_f64_pairs, host_i32_pairs, host_i64_pairs
  end interface clscan_host

  ! stat = clscan_host_with(op, kind, src [, dst] [, init] [, total] [, reverse] [, device]
  !                         [, unsigned] [, errmsg]): clscan_host with a carry, a total, a scan
  ! from the end (reverse = .true.) and a chosen device; without dst, a reduction into total.
  ! The C form takes (device_spec, op, type, kind, src, dst, count, init, total_out, reverse),
  ! all pointers as type(c_ptr).
  interface clscan_host_with
    procedure :: c_host_with, with_f32, with_f64, with_i32, with_i64, &
                  with_f32_pairs, with_f64_pairs, with_i32_pairs, with_i64_pairs
  end interface clscan_host_with

  ! plan = clscan_plan_create_custom(context, device, op, kind, errcode_ret) with a
  ! type(clscan_custom), or (context, device, type, size, neutral, comb, kind, errcode_ret
  ! [, preamble]) with Fortran strings.
  interface clscan_plan_create_custom
    procedure :: c_plan_create_custom, plan_create_custom_strings
  end interface clscan_plan_create_custom

  ! stat = clscan_default_device([spec,] platform, device): spec a Fortran string ("P:D" or part
  ! of a device's name); without it, CLSCAN_DEVICE or the first GPU or the first device.
  interface clscan_default_device
    procedure :: default_device, default_device_spec
  end interface clscan_default_device

  ! compactor = clscan_compactor_create_if(context, device, element_size, predicate, errcode_ret)
  ! with a type(clscan_predicate), or (context, device, element_size, type, flag, errcode_ret
  ! [, preamble]) with Fortran strings.
  interface clscan_compactor_create_if
    procedure :: c_compactor_create_if, compactor_create_if_strings
  end interface clscan_compactor_create_if

  ! stat = clscan_plan_set_transform(plan, t) with a type(clscan_transform) (a target), or
  ! type(c_ptr) (c_loc of one, or c_null_ptr: none), or (plan, src_type, src_size, in
  ! [, dst_type, dst_size, out] [, preamble]) with Fortran strings.
  interface clscan_plan_set_transform
    procedure :: c_plan_set_transform, plan_set_transform_struct, plan_set_transform_strings
  end interface clscan_plan_set_transform

contains

  ! ---- Strings -----------------------------------------------------------------------------

  ! A Fortran copy of a C string ("" for a null pointer).
  function fortran_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      s = ""
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function fortran_string

  ! A NUL-terminated copy of a Fortran string, trailing blanks removed, for c_loc.
  subroutine c_string(s, chars)
    character(len=*), intent(in) :: s
    character(kind=c_char), allocatable, intent(out) :: chars(:)
    integer :: i, n
    n = len_trim(s)
    allocate(chars(n + 1))
    do i = 1, n
      chars(i) = s(i:i)
    end do
    chars(n + 1) = c_null_char
  end subroutine c_string

  ! The name of any OpenCL or clscan status code.
  function clscan_error_string(code) result(name)
    integer(c_int), intent(in) :: code
    character(len=:), allocatable :: name
    name = fortran_string(c_error_string(code))
  end function clscan_error_string

  ! The message of this thread's last failure in the C library.
  function clscan_last_error() result(message)
    character(len=:), allocatable :: message
    message = fortran_string(c_last_error())
  end function clscan_last_error

  ! The library's version, "MAJOR.MINOR.PATCH".
  function clscan_version_string() result(version)
    character(len=:), allocatable :: version
    version = fortran_string(c_version_string())
  end function clscan_version_string

  ! ---- Devices, custom operators, predicates and transforms ------------------------------------

  function default_device(platform, device) result(status)
    type(c_ptr), intent(out) :: platform, device
    integer(c_int) :: status
    status = c_default_device(c_null_ptr, platform, device)
  end function default_device

  function default_device_spec(spec, platform, device) result(status)
    character(len=*), intent(in) :: spec
    type(c_ptr), intent(out) :: platform, device
    integer(c_int) :: status
    character(kind=c_char), allocatable, target :: cspec(:)
    call c_string(spec, cspec)
    status = c_default_device(c_loc(cspec), platform, device)
  end function default_device_spec

  function plan_create_custom_strings(context, device, type, size, neutral, comb, kind, errcode_ret, &
      preamble) result(plan)
    type(c_ptr), intent(in) :: context, device
    character(len=*), intent(in) :: type, neutral, comb
    integer(c_size_t), intent(in) :: size
    integer(c_int), intent(in) :: kind
    integer(c_int), intent(out) :: errcode_ret
    character(len=*), intent(in), optional :: preamble
    type(c_ptr) :: plan
    character(kind=c_char), allocatable, target :: ctype(:), cneutral(:), ccomb(:), cpreamble(:)
    type(clscan_custom) :: op
    call c_string(type, ctype)
    call c_string(neutral, cneutral)
    call c_string(comb, ccomb)
    op%type = c_loc(ctype)
    op%size = size
    op%neutral = c_loc(cneutral)
    op%comb = c_loc(ccomb)
    if (present(preamble)) then
      call c_string(preamble, cpreamble)
      op%preamble = c_loc(cpreamble)
    end if
    plan = c_plan_create_custom(context, device, op, kind, errcode_ret)   ! the strings are copied
  end function plan_create_custom_strings

  function compactor_create_if_strings(context, device, element_size, type, flag, errcode_ret, preamble) &
      result(compactor)
    type(c_ptr), intent(in) :: context, device
    integer(c_size_t), intent(in) :: element_size
    character(len=*), intent(in) :: type, flag
    integer(c_int), intent(out) :: errcode_ret
    character(len=*), intent(in), optional :: preamble
    type(c_ptr) :: compactor
    character(kind=c_char), allocatable, target :: ctype(:), cflag(:), cpreamble(:)
    type(clscan_predicate) :: predicate
    call c_string(type, ctype)
    call c_string(flag, cflag)
    predicate%type = c_loc(ctype)
    predicate%flag = c_loc(cflag)
    if (present(preamble)) then
      call c_string(preamble, cpreamble)
      predicate%preamble = c_loc(cpreamble)
    end if
    compactor = c_compactor_create_if(context, device, element_size, predicate, errcode_ret)   ! copied
  end function compactor_create_if_strings

  function plan_set_transform_struct(plan, t) result(status)
    type(c_ptr), intent(in) :: plan
    type(clscan_transform), intent(in), target :: t
    integer(c_int) :: status
    status = c_plan_set_transform(plan, c_loc(t))
  end function plan_set_transform_struct

  ! dst_type, dst_size and out together or none (the C library checks it).
  function plan_set_transform_strings(plan, src_type, src_size, in, dst_type, dst_size, out, preamble) &
      result(status)
    type(c_ptr), intent(in) :: plan
    character(len=*), intent(in) :: src_type, in
    integer(c_size_t), intent(in) :: src_size
    character(len=*), intent(in), optional :: dst_type, out, preamble
    integer(c_size_t), intent(in), optional :: dst_size
    integer(c_int) :: status
    character(kind=c_char), allocatable, target :: csrc(:), cin(:), cdst(:), cout(:), cpreamble(:)
    type(clscan_transform), target :: t
    call c_string(src_type, csrc)
    call c_string(in, cin)
    t%src_type = c_loc(csrc)
    t%src_size = src_size
    t%in = c_loc(cin)
    if (present(dst_type)) then
      call c_string(dst_type, cdst)
      t%dst_type = c_loc(cdst)
    end if
    if (present(dst_size)) t%dst_size = dst_size
    if (present(out)) then
      call c_string(out, cout)
      t%out = c_loc(cout)
    end if
    if (present(preamble)) then
      call c_string(preamble, cpreamble)
      t%preamble = c_loc(cpreamble)
    end if
    status = c_plan_set_transform(plan, c_loc(t))   ! the strings are copied
  end function plan_set_transform_strings

  ! ---- Host arrays -------------------------------------------------------------------------

  ! What the wrappers share: checks what C cannot see (the arrays' shapes against the operator
  ! and each other), then calls clscan_host (device absent and no options: with_options false)
  ! or clscan_host_with.  A failure's message goes to errmsg if present; a shape rejected here
  ! leaves clscan_last_error() as it was.
  function run(fn, op, type, kind, pairs, src_shape, has_dst, dst_shape, src, dst, init, total, reverse, &
      device, with_options, errmsg) result(status)
    character(len=*), intent(in) :: fn
    integer(c_int), intent(in) :: op, type, kind
    logical, intent(in) :: pairs, has_dst
    integer, intent(in) :: src_shape(2), dst_shape(2)   ! (values per element, elements)
    type(c_ptr), intent(in) :: src, dst, init, total
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    logical, intent(in) :: with_options
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    character(len=200) :: why
    character(kind=c_char), allocatable, target :: cdevice(:)
    type(c_ptr) :: spec
    integer(c_int) :: back
    status = CL_SUCCESS
    if (pairs .neqv. (op == CLSCAN_AFFINE)) then
      status = CLSCAN_INVALID_OPERATOR
      if (pairs) then
        write (why, '(a, i0, a)') ": arrays of shape (2, n) are pairs for CLSCAN_AFFINE, but op is ", op, &
            " (use rank-1 arrays)"
      else
        why = ": CLSCAN_AFFINE scans pairs (a, b): arrays of shape (2, n)"
      end if
    else if (pairs .and. src_shape(1) /= 2) then
      status = CL_INVALID_VALUE
      write (why, '(a, i0, a)') ": pairs need arrays of shape (2, n); src has ", src_shape(1), " rows"
    else if (pairs .and. has_dst .and. dst_shape(1) /= 2) then
      status = CL_INVALID_VALUE
      write (why, '(a, i0, a)') ": pairs need arrays of shape (2, n); dst has ", dst_shape(1), " rows"
    else if (has_dst .and. dst_shape(2) /= src_shape(2)) then
      status = CL_INVALID_VALUE
      write (why, '(a, i0, a, i0, a)') ": dst has ", dst_shape(2), " elements, src ", src_shape(2), &
          " (they must be equal)"
    end if
    if (status /= CL_SUCCESS) then
      if (present(errmsg)) errmsg = fn // trim(why)
      return
    end if
    if (with_options) then
      spec = c_null_ptr
      if (present(device)) then
        call c_string(device, cdevice)
        spec = c_loc(cdevice)
      end if
      back = 0
      if (present(reverse)) then
        if (reverse) back = 1
      end if
      status = c_host_with(spec, op, type, kind, src, dst, int(src_shape(2), c_size_t), init, total, back)
    else
      status = c_host(op, type, kind, src, dst, int(src_shape(2), c_size_t))
    end if
    if (status /= CL_SUCCESS .and. present(errmsg)) errmsg = clscan_last_error()
  end function run

  ! The element type of an integer array: signed unless unsigned is present and true.
  pure function int_type(signed, unsigned_type, unsigned) result(type)
    integer(c_int), intent(in) :: signed, unsigned_type
    logical, intent(in), optional :: unsigned
    integer(c_int) :: type
    type = signed
    if (present(unsigned)) then
      if (unsigned) type = unsigned_type
    end if
  end function int_type

  ! Each wrapper below passes its arrays' addresses (null for empty ones, which C accepts with a
  ! count of 0) and shapes; the arrays are contiguous (the compiler copies a strided section in
  ! and out), targets for the call's duration only.

  function host_f32(op, kind, src, dst, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_float), intent(in), target, contiguous :: src(:)
    real(c_float), intent(inout), target, contiguous :: dst(:)
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, CLSCAN_FLOAT, kind, .false., [1, size(src)], .true., [1, size(dst)], &
                 ps, pd, c_null_ptr, c_null_ptr, with_options=.false., errmsg=errmsg)
  end function host_f32

  function host_f64(op, kind, src, dst, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_double), intent(in), target, contiguous :: src(:)
    real(c_double), intent(inout), target, contiguous :: dst(:)
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, CLSCAN_DOUBLE, kind, .false., [1, size(src)], .true., [1, size(dst)], &
                 ps, pd, c_null_ptr, c_null_ptr, with_options=.false., errmsg=errmsg)
  end function host_f64

  function host_i32(op, kind, src, dst, unsigned, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int32_t), intent(in), target, contiguous :: src(:)
    integer(c_int32_t), intent(inout), target, contiguous :: dst(:)
    logical, intent(in), optional :: unsigned
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, int_type(CLSCAN_INT32, CLSCAN_UINT32, unsigned), kind, .false., &
                 [1, size(src)], .true., [1, size(dst)], ps, pd, c_null_ptr, c_null_ptr, &
                 with_options=.false., errmsg=errmsg)
  end function host_i32

  function host_i64(op, kind, src, dst, unsigned, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int64_t), intent(in), target, contiguous :: src(:)
    integer(c_int64_t), intent(inout), target, contiguous :: dst(:)
    logical, intent(in), optional :: unsigned
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, int_type(CLSCAN_INT64, CLSCAN_UINT64, unsigned), kind, .false., &
                 [1, size(src)], .true., [1, size(dst)], ps, pd, c_null_ptr, c_null_ptr, &
                 with_options=.false., errmsg=errmsg)
  end function host_i64

  function host_f32_pairs(op, kind, src, dst, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_float), intent(in), target, contiguous :: src(:, :)
    real(c_float), intent(inout), target, contiguous :: dst(:, :)
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, CLSCAN_FLOAT, kind, .true., shape(src), .true., shape(dst), ps, pd, &
                 c_null_ptr, c_null_ptr, with_options=.false., errmsg=errmsg)
  end function host_f32_pairs

  function host_f64_pairs(op, kind, src, dst, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_double), intent(in), target, contiguous :: src(:, :)
    real(c_double), intent(inout), target, contiguous :: dst(:, :)
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, CLSCAN_DOUBLE, kind, .true., shape(src), .true., shape(dst), ps, pd, &
                 c_null_ptr, c_null_ptr, with_options=.false., errmsg=errmsg)
  end function host_f64_pairs

  function host_i32_pairs(op, kind, src, dst, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int32_t), intent(in), target, contiguous :: src(:, :)
    integer(c_int32_t), intent(inout), target, contiguous :: dst(:, :)
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, CLSCAN_INT32, kind, .true., shape(src), .true., shape(dst), ps, pd, &
                 c_null_ptr, c_null_ptr, with_options=.false., errmsg=errmsg)
  end function host_i32_pairs

  function host_i64_pairs(op, kind, src, dst, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int64_t), intent(in), target, contiguous :: src(:, :)
    integer(c_int64_t), intent(inout), target, contiguous :: dst(:, :)
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd
    ps = c_null_ptr
    pd = c_null_ptr
    if (size(src) > 0) ps = c_loc(src)
    if (size(dst) > 0) pd = c_loc(dst)
    status = run("clscan_host", op, CLSCAN_INT64, kind, .true., shape(src), .true., shape(dst), ps, pd, &
                 c_null_ptr, c_null_ptr, with_options=.false., errmsg=errmsg)
  end function host_i64_pairs

  ! clscan_host_with's wrappers: init and total are one element of the arrays' type (a pair,
  ! dimension(2), for CLSCAN_AFFINE); dst absent makes the call a reduction into total.

  function with_f32(op, kind, src, dst, init, total, reverse, device, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_float), intent(in), target, contiguous :: src(:)
    real(c_float), intent(inout), target, contiguous, optional :: dst(:)
    real(c_float), intent(in), target, optional :: init
    real(c_float), intent(inout), target, optional :: total
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = [1, size(dst)]
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, CLSCAN_FLOAT, kind, .false., [1, size(src)], present(dst), dshape, &
                 ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_f32

  function with_f64(op, kind, src, dst, init, total, reverse, device, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_double), intent(in), target, contiguous :: src(:)
    real(c_double), intent(inout), target, contiguous, optional :: dst(:)
    real(c_double), intent(in), target, optional :: init
    real(c_double), intent(inout), target, optional :: total
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = [1, size(dst)]
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, CLSCAN_DOUBLE, kind, .false., [1, size(src)], present(dst), dshape, &
                 ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_f64

  function with_i32(op, kind, src, dst, init, total, reverse, device, unsigned, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int32_t), intent(in), target, contiguous :: src(:)
    integer(c_int32_t), intent(inout), target, contiguous, optional :: dst(:)
    integer(c_int32_t), intent(in), target, optional :: init
    integer(c_int32_t), intent(inout), target, optional :: total
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    logical, intent(in), optional :: unsigned
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = [1, size(dst)]
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, int_type(CLSCAN_INT32, CLSCAN_UINT32, unsigned), kind, .false., &
                 [1, size(src)], present(dst), dshape, ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_i32

  function with_i64(op, kind, src, dst, init, total, reverse, device, unsigned, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int64_t), intent(in), target, contiguous :: src(:)
    integer(c_int64_t), intent(inout), target, contiguous, optional :: dst(:)
    integer(c_int64_t), intent(in), target, optional :: init
    integer(c_int64_t), intent(inout), target, optional :: total
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    logical, intent(in), optional :: unsigned
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = [1, size(dst)]
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, int_type(CLSCAN_INT64, CLSCAN_UINT64, unsigned), kind, .false., &
                 [1, size(src)], present(dst), dshape, ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_i64

  function with_f32_pairs(op, kind, src, dst, init, total, reverse, device, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_float), intent(in), target, contiguous :: src(:, :)
    real(c_float), intent(inout), target, contiguous, optional :: dst(:, :)
    real(c_float), intent(in), target, optional :: init(2)
    real(c_float), intent(inout), target, optional :: total(2)
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = shape(dst)
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, CLSCAN_FLOAT, kind, .true., shape(src), present(dst), dshape, &
                 ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_f32_pairs

  function with_f64_pairs(op, kind, src, dst, init, total, reverse, device, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    real(c_double), intent(in), target, contiguous :: src(:, :)
    real(c_double), intent(inout), target, contiguous, optional :: dst(:, :)
    real(c_double), intent(in), target, optional :: init(2)
    real(c_double), intent(inout), target, optional :: total(2)
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = shape(dst)
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, CLSCAN_DOUBLE, kind, .true., shape(src), present(dst), dshape, &
                 ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_f64_pairs

  function with_i32_pairs(op, kind, src, dst, init, total, reverse, device, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int32_t), intent(in), target, contiguous :: src(:, :)
    integer(c_int32_t), intent(inout), target, contiguous, optional :: dst(:, :)
    integer(c_int32_t), intent(in), target, optional :: init(2)
    integer(c_int32_t), intent(inout), target, optional :: total(2)
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = shape(dst)
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, CLSCAN_INT32, kind, .true., shape(src), present(dst), dshape, &
                 ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_i32_pairs

  function with_i64_pairs(op, kind, src, dst, init, total, reverse, device, errmsg) result(status)
    integer(c_int), intent(in) :: op, kind
    integer(c_int64_t), intent(in), target, contiguous :: src(:, :)
    integer(c_int64_t), intent(inout), target, contiguous, optional :: dst(:, :)
    integer(c_int64_t), intent(in), target, optional :: init(2)
    integer(c_int64_t), intent(inout), target, optional :: total(2)
    logical, intent(in), optional :: reverse
    character(len=*), intent(in), optional :: device
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: status
    type(c_ptr) :: ps, pd, pi, pt
    integer :: dshape(2)
    ps = c_null_ptr
    pd = c_null_ptr
    pi = c_null_ptr
    pt = c_null_ptr
    dshape = 0
    if (size(src) > 0) ps = c_loc(src)
    if (present(dst)) then
      dshape = shape(dst)
      if (size(dst) > 0) pd = c_loc(dst)
    end if
    if (present(init)) pi = c_loc(init)
    if (present(total)) pt = c_loc(total)
    status = run("clscan_host_with", op, CLSCAN_INT64, kind, .true., shape(src), present(dst), dshape, &
                 ps, pd, pi, pt, reverse, device, .true., errmsg)
  end function with_i64_pairs

end module clscan
