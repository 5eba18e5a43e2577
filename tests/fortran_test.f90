! fortran_test: the Fortran module clscan against sequential Fortran loops, on fresh random
! inputs (the seed is printed; CLSCAN_TEST_SEED=N repeats a run):
! * the constants: every status code has the name clscan_error_string gives its value (the list
!   is generated from the headers, as the module's constants are), the enumerators give the
!   element sizes of clscan_op_element_size, the version constants the version string;
! * clscan_host on arrays of every type (SUM, MAX and MIN signed and unsigned, LAST_NONZERO,
!   inclusive and exclusive) and the non-commutative AFFINE on pairs, arrays of shape (2, n);
!   the C form in place;
! * clscan_host_with: carry, total, reverse, reductions and a named device, on pairs and values;
! * counts 0, 1, 2, 4099 and 100003; integer results exact; float and double results within
!   1e-4 and 1e-12 of a double-precision loop, relative to the sum of the magnitudes combined
!   for SUM, absolute for AFFINE on stable recurrences (|a| < 1, values of a few units; the
!   largest differences seen are about 100 times smaller);
! * device buffers made with clCreateBuffer (bound here): clscan_plan_create, clscan_enqueue,
!   clscan_enqueue_with (host carry, total in a buffer, reverse), clscan_enqueue_recurrence,
!   clscan_enqueue_segmented, clscan_enqueue_by_key, a custom operator from Fortran strings, a
!   descending radix sort of int16 keys, whole and in two segments;
! * the selections: a compactor with a predicate from Fortran strings (compact_if, blocking and
!   enqueued at an offset, partition_if), partition by flags, unique, unique_by_key and
!   reduce_by_key; scans along both axes of a padded 2-D array; transforms from strings and from
!   the structure, cleared; the accuracy's setter and getter; the argument checks alone;
! * along the axes of padded 2-D arrays: totals with the non-commutative LAST_NONZERO, stable
!   sorts of int32 keys with values, ascending and descending, the padding untouched;
! * bad calls: the documented status, clscan_last_error() or errmsg not empty, outputs untouched.
!
! Exit status: 0 all checks passed, 1 a check failed, 77 no device, 99 a setup error.
program fortran_test
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  use clscan
  implicit none

  ! The few OpenCL calls and constants the device-buffer tests need (the module binds clscan's
  ! functions only; the constants are OpenCL 1.2's).
  integer(c_int64_t), parameter :: CL_MEM_READ_WRITE = 1, CL_MEM_COPY_HOST_PTR = 32
  integer(c_intptr_t), parameter :: CL_CONTEXT_PLATFORM = int(z'1084', c_intptr_t)
  integer(c_int32_t), parameter :: CL_TRUE = 1
  interface
    function clCreateContext(properties, num_devices, devices, pfn_notify, user_data, errcode_ret) &
        result(context) bind(c, name="clCreateContext")
      import :: c_intptr_t, c_int32_t, c_ptr, c_funptr, c_int
      integer(c_intptr_t), intent(in) :: properties(*)
      integer(c_int32_t), value :: num_devices
      type(c_ptr), intent(in) :: devices(*)
      type(c_funptr), value :: pfn_notify
      type(c_ptr), value :: user_data
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: context
    end function clCreateContext
    function clCreateCommandQueue(context, device, properties, errcode_ret) result(queue) &
        bind(c, name="clCreateCommandQueue")
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: context, device
      integer(c_int64_t), value :: properties
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: queue
    end function clCreateCommandQueue
    function clCreateBuffer(context, flags, size, host_ptr, errcode_ret) result(buffer) &
        bind(c, name="clCreateBuffer")
      import :: c_ptr, c_int64_t, c_size_t, c_int
      type(c_ptr), value :: context
      integer(c_int64_t), value :: flags
      integer(c_size_t), value :: size
      type(c_ptr), value :: host_ptr
      integer(c_int), intent(out) :: errcode_ret
      type(c_ptr) :: buffer
    end function clCreateBuffer
    function clEnqueueReadBuffer(queue, buffer, blocking_read, offset, size, ptr, num_events_in_wait_list, &
        event_wait_list, event) result(status) bind(c, name="clEnqueueReadBuffer")
      import :: c_ptr, c_int32_t, c_size_t, c_int
      type(c_ptr), value :: queue, buffer
      integer(c_int32_t), value :: blocking_read
      integer(c_size_t), value :: offset, size
      type(c_ptr), value :: ptr
      integer(c_int32_t), value :: num_events_in_wait_list
      type(c_ptr), value :: event_wait_list, event
      integer(c_int) :: status
    end function clEnqueueReadBuffer
    function clWaitForEvents(num_events, event_list) result(status) bind(c, name="clWaitForEvents")
      import :: c_int32_t, c_ptr, c_int
      integer(c_int32_t), value :: num_events
      type(c_ptr), intent(in) :: event_list(*)
      integer(c_int) :: status
    end function clWaitForEvents
    function clReleaseEvent(event) result(status) bind(c, name="clReleaseEvent")
      import :: c_ptr, c_int
      type(c_ptr), value :: event
      integer(c_int) :: status
    end function clReleaseEvent
    function clReleaseMemObject(buffer) result(status) bind(c, name="clReleaseMemObject")
      import :: c_ptr, c_int
      type(c_ptr), value :: buffer
      integer(c_int) :: status
    end function clReleaseMemObject
    function clReleaseCommandQueue(queue) result(status) bind(c, name="clReleaseCommandQueue")
      import :: c_ptr, c_int
      type(c_ptr), value :: queue
      integer(c_int) :: status
    end function clReleaseCommandQueue
    function clReleaseContext(context) result(status) bind(c, name="clReleaseContext")
      import :: c_ptr, c_int
      type(c_ptr), value :: context
      integer(c_int) :: status
    end function clReleaseContext
  end interface

  integer, parameter :: counts(5) = [0, 1, 2, 4099, 100003]
  real(c_double), parameter :: tol_float = 1.0e-4_c_double, tol_double = 1.0e-12_c_double
  integer(c_int32_t), parameter :: sentinel32 = 123456789
  integer(c_int64_t), parameter :: sentinel64 = 1234567890123_c_int64_t
  integer :: checks = 0, failures = 0
  integer(c_int64_t) :: seed
  character(len=20000) :: msg
  character(len=200) :: topic   ! what is being tested, for the reports
  type(c_ptr) :: platform, device
  integer(c_int) :: status
  integer :: ic

  call start()
  call test_constants()
  do ic = 1, size(counts)
    call test_host_int32(counts(ic))
    call test_host_int64(counts(ic))
    call test_host_float(counts(ic))
    call test_host_double(counts(ic))
    call test_host_with(counts(ic))
  end do
  call test_bad_calls()
  call test_device_buffers()
  call clscan_cache_clear()

  ! In Check's words, which the CI's summary counts
  write (*, '(i0, a, i0, a, i0, a)') ((checks - failures) * 100) / max(checks, 1), "%: Checks: ", checks, &
      ", Failures: ", failures, ", Errors: 0"
  if (failures > 0) then
    write (*, '(a, i0, a)') "fortran_test: CLSCAN_TEST_SEED=", seed, " repeats the inputs"
    stop 1
  end if

contains

  ! ---- Set-up and reports -------------------------------------------------------------------

  subroutine start()
    character(len=64) :: text
    integer :: length, env_status, n
    integer, allocatable :: state(:)
    integer(c_int64_t) :: clock
    call get_environment_variable("CLSCAN_TEST_SEED", text, length, env_status)
    if (env_status == 0 .and. length > 0) then
      read (text, *) seed
    else
      call system_clock(clock)
      seed = mod(clock, 1000000007_c_int64_t)
    end if
    call random_seed(size=n)
    allocate(state(n))
    state = int(mod(seed * 7919_c_int64_t + 104729_c_int64_t * [(n, n = 1, size(state))], 2147483647_c_int64_t))
    call random_seed(put=state)
    write (*, '(a, i0, a, i0, a)') "fortran_test: seed ", seed, " (set CLSCAN_TEST_SEED=", seed, " to repeat)"

    status = clscan_default_device(platform, device)
    if (status /= CL_SUCCESS) then
      call get_environment_variable("CI", text, length, env_status)
      if (env_status == 0 .and. length > 0) then   ! CI machines must have a device
        write (error_unit, '(2a)') "fortran_test: FAIL: no OpenCL device, but CI is set: ", &
            clscan_error_string(status)
        stop 1
      end if
      write (error_unit, '(2a)') "fortran_test: SKIP: no OpenCL device: ", clscan_error_string(status)
      stop 77
    end if
  end subroutine start

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (ok) return
    failures = failures + 1
    if (failures <= 30) write (*, '(4a)') "FAIL: ", trim(topic), ": ", what
  end subroutine expect

  ! A call that must succeed.
  subroutine expect_success(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    call expect(status == CL_SUCCESS, what // " returned " // clscan_error_string(status) // ": " // &
                trim(clscan_last_error()))
  end subroutine expect_success

  ! A call that must fail with code, with a message (errmsg where the wrapper sets it).
  subroutine expect_failure(status, code, message, what)
    integer(c_int), intent(in) :: status, code
    character(len=*), intent(in) :: message, what
    call expect(status == code, what // " returned " // clscan_error_string(status) // ", not " // &
                clscan_error_string(code))
    call expect(len_trim(message) > 0, what // ": no message")
  end subroutine expect_failure

  ! ---- Random inputs ------------------------------------------------------------------------

  ! Uniform integers in [lo, hi].
  function random_ints(n, lo, hi) result(v)
    integer, intent(in) :: n
    integer(c_int64_t), intent(in) :: lo, hi
    integer(c_int64_t) :: v(n)
    real(c_double) :: r(n)
    call random_number(r)
    v = lo + min(int(r * real(hi - lo + 1, c_double), c_int64_t), hi - lo)
  end function random_ints

  ! Any 64-bit patterns (two 32-bit halves).
  function random_bits64(n) result(v)
    integer, intent(in) :: n
    integer(c_int64_t) :: v(n)
    v = ior(ishft(random_ints(n, 0_c_int64_t, 4294967295_c_int64_t), 32), &
            random_ints(n, 0_c_int64_t, 4294967295_c_int64_t))
  end function random_bits64

  function random_reals(n, lo, hi) result(v)
    integer, intent(in) :: n
    real(c_double), intent(in) :: lo, hi
    real(c_double) :: v(n)
    call random_number(v)
    v = lo + (hi - lo) * v
  end function random_reals

  ! ---- Sequential references ----------------------------------------------------------------

  ! Integer scans in 64 bits: int32 values widened (unsigned ones to [0, 2^32)), unsigned int64
  ! values compared through their sign-flipped keys; the C library's neutral elements.  Values
  ! are kept small enough for SUM not to wrap.
  subroutine scan_int(op, kind, bits, unsigned, x, y)
    integer(c_int), intent(in) :: op, kind
    integer, intent(in) :: bits
    logical, intent(in) :: unsigned
    integer(c_int64_t), intent(in) :: x(:)
    integer(c_int64_t), intent(out) :: y(:)
    integer(c_int64_t) :: acc, next
    integer :: i
    select case (op)
    case (CLSCAN_MAX)
      acc = lowest(bits, unsigned)
    case (CLSCAN_MIN)
      acc = highest(bits, unsigned)
    case default
      acc = 0
    end select
    do i = 1, size(x)
      select case (op)
      case (CLSCAN_SUM)
        next = acc + x(i)
      case (CLSCAN_MAX)
        next = acc
        if (less(acc, x(i), bits, unsigned)) next = x(i)
      case (CLSCAN_MIN)
        next = acc
        if (less(x(i), acc, bits, unsigned)) next = x(i)
      case default   ! CLSCAN_LAST_NONZERO
        next = acc
        if (x(i) /= 0) next = x(i)
      end select
      if (kind == CLSCAN_EXCLUSIVE) then
        y(i) = acc
      else
        y(i) = next
      end if
      acc = next
    end do
  end subroutine scan_int

  ! scan_int from a carry: the scan of [carry, x] without its first output; total is the carry
  ! combined with all of x.
  subroutine scan_int_carry(op, kind, bits, unsigned, carry, x, y, total)
    integer(c_int), intent(in) :: op, kind
    integer, intent(in) :: bits
    logical, intent(in) :: unsigned
    integer(c_int64_t), intent(in) :: carry, x(:)
    integer(c_int64_t), intent(out) :: y(:), total
    integer(c_int64_t) :: with_carry(size(x) + 1), out(size(x) + 1)
    with_carry = [carry, x]
    call scan_int(op, CLSCAN_INCLUSIVE, bits, unsigned, with_carry, out)
    total = out(size(out))
    call scan_int(op, kind, bits, unsigned, with_carry, out)
    y = out(2:)
  end subroutine scan_int_carry

  pure logical function less(a, b, bits, unsigned)
    integer(c_int64_t), intent(in) :: a, b
    integer, intent(in) :: bits
    logical, intent(in) :: unsigned
    if (bits == 64 .and. unsigned) then
      less = ieor(a, ibset(0_c_int64_t, 63)) < ieor(b, ibset(0_c_int64_t, 63))
    else
      less = a < b
    end if
  end function less

  pure integer(c_int64_t) function lowest(bits, unsigned)
    integer, intent(in) :: bits
    logical, intent(in) :: unsigned
    if (unsigned) then
      lowest = 0
    else if (bits == 32) then
      lowest = -2147483648_c_int64_t
    else
      lowest = -huge(0_c_int64_t) - 1
    end if
  end function lowest

  pure integer(c_int64_t) function highest(bits, unsigned)
    integer, intent(in) :: bits
    logical, intent(in) :: unsigned
    if (bits == 32 .and. unsigned) then
      highest = 4294967295_c_int64_t
    else if (bits == 32) then
      highest = 2147483647_c_int64_t
    else if (unsigned) then
      highest = -1   ! all bits set
    else
      highest = huge(0_c_int64_t)
    end if
  end function highest

  ! int32 values as scan_int takes them, and back.
  elemental integer(c_int64_t) function widen(v, unsigned)
    integer(c_int32_t), intent(in) :: v
    logical, intent(in) :: unsigned
    widen = int(v, c_int64_t)
    if (unsigned) widen = iand(widen, 4294967295_c_int64_t)
  end function widen

  ! Real scans in double precision; scale(i) is the sum of the magnitudes combined into y(i) (SUM)
  ! or 1, for the tolerance.
  subroutine scan_real(op, kind, x, y, scale)
    integer(c_int), intent(in) :: op, kind
    real(c_double), intent(in) :: x(:)
    real(c_double), intent(out) :: y(:), scale(:)
    real(c_double) :: acc, next, magnitude
    integer :: i
    acc = 0
    if (op == CLSCAN_MAX) acc = -huge(acc)   ! stands for -inf: the inputs are finite
    magnitude = 0
    do i = 1, size(x)
      select case (op)
      case (CLSCAN_SUM)
        next = acc + x(i)
      case (CLSCAN_MAX)
        next = max(acc, x(i))
      case default   ! CLSCAN_LAST_NONZERO
        next = acc
        if (x(i) /= 0) next = x(i)
      end select
      if (kind == CLSCAN_EXCLUSIVE) then
        y(i) = acc
        scale(i) = 1 + magnitude
      else
        y(i) = next
        scale(i) = 1 + magnitude + abs(x(i))
      end if
      magnitude = magnitude + abs(x(i))
      acc = next
    end do
  end subroutine scan_real

  ! AFFINE on pairs (a, b) in the columns: comb(p, c) = (c.a*p.a, c.a*p.b + c.b), "p, then c",
  ! from the carry, forwards or from the end; the total is the carry combined with all.
  subroutine affine_int(kind, reverse, carry, x, y, total)
    integer(c_int), intent(in) :: kind
    logical, intent(in) :: reverse
    integer(c_int64_t), intent(in) :: carry(2), x(:, :)
    integer(c_int64_t), intent(out) :: y(:, :), total(2)
    integer(c_int64_t) :: acc(2), next(2)
    integer :: i, k, n
    n = size(x, 2)
    acc = carry
    do k = 1, n
      i = k
      if (reverse) i = n + 1 - k
      next = [x(1, i) * acc(1), x(1, i) * acc(2) + x(2, i)]
      if (kind == CLSCAN_EXCLUSIVE) then
        y(:, i) = acc
      else
        y(:, i) = next
      end if
      acc = next
    end do
    total = acc
  end subroutine affine_int

  subroutine affine_real(kind, reverse, carry, x, y, total)
    integer(c_int), intent(in) :: kind
    logical, intent(in) :: reverse
    real(c_double), intent(in) :: carry(2), x(:, :)
    real(c_double), intent(out) :: y(:, :), total(2)
    real(c_double) :: acc(2), next(2)
    integer :: i, k, n
    n = size(x, 2)
    acc = carry
    do k = 1, n
      i = k
      if (reverse) i = n + 1 - k
      next = [x(1, i) * acc(1), x(1, i) * acc(2) + x(2, i)]
      if (kind == CLSCAN_EXCLUSIVE) then
        y(:, i) = acc
      else
        y(:, i) = next
      end if
      acc = next
    end do
    total = acc
  end subroutine affine_real

  ! Integer pairs whose scans stay small: a in {-1, 1}, b in [-1000, 1000].
  function small_pairs(n) result(p)
    integer, intent(in) :: n
    integer(c_int64_t) :: p(2, n)
    p(1, :) = 2 * random_ints(n, 0_c_int64_t, 1_c_int64_t) - 1
    p(2, :) = random_ints(n, -1000_c_int64_t, 1000_c_int64_t)
  end function small_pairs

  ! Real pairs of a stable recurrence: a in [0.5, 1), b in [-1, 1).
  function stable_pairs(n) result(p)
    integer, intent(in) :: n
    real(c_double) :: p(2, n)
    p(1, :) = random_reals(n, 0.5_c_double, 1.0_c_double)
    p(2, :) = random_reals(n, -1.0_c_double, 1.0_c_double)
  end function stable_pairs

  ! ---- The constants ------------------------------------------------------------------------

  subroutine check_status(code, name)
    integer(c_int), intent(in) :: code
    character(len=*), intent(in) :: name
    call expect(clscan_error_string(code) == name, "clscan_error_string(" // name // ") is " // &
                clscan_error_string(code))
  end subroutine check_status

  subroutine test_constants()
    integer(c_int) :: op, type
    integer(c_size_t) :: bytes, expected
    character(len=40) :: version
    topic = "constants"
    include "fortran_status_names.inc"
    do op = CLSCAN_SUM, CLSCAN_AFFINE
      do type = CLSCAN_INT32, CLSCAN_DOUBLE
        select case (type)
        case (CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_FLOAT)
          expected = 4
        case default
          expected = 8
        end select
        if (op == CLSCAN_AFFINE) expected = 2 * expected
        bytes = clscan_op_element_size(op, type)
        call expect(bytes == expected, "clscan_op_element_size of an enumerator pair")
      end do
    end do
    call expect(clscan_op_element_size(CLSCAN_AFFINE + 1, CLSCAN_INT32) == 0, "an operator past the last")
    call expect(clscan_op_element_size(CLSCAN_SUM, CLSCAN_DOUBLE + 1) == 0, "a type past the last")
    write (version, '(i0, ".", i0, ".", i0)') CLSCAN_VERSION_MAJOR, CLSCAN_VERSION_MINOR, CLSCAN_VERSION_PATCH
    call expect(clscan_version_string() == trim(version), "clscan_version_string() " // &
                clscan_version_string() // " against the constants " // trim(version))
  end subroutine test_constants

  ! ---- clscan_host --------------------------------------------------------------------------

  subroutine test_host_int32(n)
    integer, intent(in) :: n
    integer(c_int32_t), allocatable, target :: x(:), y(:), p(:, :), q(:, :)
    integer(c_int64_t), allocatable :: ref(:), pref(:, :)
    integer(c_int64_t) :: total(2)
    integer :: u
    logical :: unsigned
    allocate(x(n), y(n), p(2, n), q(2, n), ref(n), pref(2, n))
    write (topic, '(a, i0)') "clscan_host int32, count ", n
    x = int(random_ints(n, -1000_c_int64_t, 1000_c_int64_t), c_int32_t)
    y = sentinel32
    call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_INCLUSIVE, x, y), "SUM inclusive")
    call scan_int(CLSCAN_SUM, CLSCAN_INCLUSIVE, 32, .false., widen(x, .false.), ref)
    call expect(all(y == ref), "SUM inclusive: results")
    call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_EXCLUSIVE, x, y), "SUM exclusive")
    call scan_int(CLSCAN_SUM, CLSCAN_EXCLUSIVE, 32, .false., widen(x, .false.), ref)
    call expect(all(y == ref), "SUM exclusive: results")

    ! Full-range values: signed and unsigned maxima differ
    x = int(random_ints(n, -2147483648_c_int64_t, 2147483647_c_int64_t), c_int32_t)
    do u = 0, 1
      unsigned = u == 1
      call expect_success(clscan_host(CLSCAN_MAX, CLSCAN_INCLUSIVE, x, y, unsigned=unsigned), "MAX")
      call scan_int(CLSCAN_MAX, CLSCAN_INCLUSIVE, 32, unsigned, widen(x, unsigned), ref)
      call expect(all(widen(y, unsigned) == ref), merge("MAX unsigned", "MAX signed  ", unsigned) // ": results")
    end do

    ! In place, through the C form
    x = int(random_ints(n, -1000_c_int64_t, 1000_c_int64_t), c_int32_t)
    call scan_int(CLSCAN_SUM, CLSCAN_INCLUSIVE, 32, .false., widen(x, .false.), ref)
    if (n > 0) then
      call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, c_loc(x), c_loc(x), &
                                      int(n, c_size_t)), "SUM in place (C form)")
      call expect(all(x == ref), "SUM in place (C form): results")
    end if

    p = int(small_pairs(n), c_int32_t)
    q = sentinel32
    call expect_success(clscan_host(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, p, q), "AFFINE on pairs")
    call affine_int(CLSCAN_INCLUSIVE, .false., [1_c_int64_t, 0_c_int64_t], int(p, c_int64_t), pref, total)
    call expect(all(q == pref), "AFFINE on pairs: results")
  end subroutine test_host_int32

  subroutine test_host_int64(n)
    integer, intent(in) :: n
    integer(c_int64_t), allocatable :: x(:), y(:), ref(:), p(:, :), q(:, :), pref(:, :)
    integer(c_int64_t) :: total(2)
    allocate(x(n), y(n), ref(n), p(2, n), q(2, n), pref(2, n))
    write (topic, '(a, i0)') "clscan_host int64, count ", n
    x = random_ints(n, -1000000_c_int64_t, 1000000_c_int64_t)
    y = sentinel64
    call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_INCLUSIVE, x, y), "SUM inclusive")
    call scan_int(CLSCAN_SUM, CLSCAN_INCLUSIVE, 64, .false., x, ref)
    call expect(all(y == ref), "SUM inclusive: results")
    call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_EXCLUSIVE, x, y), "SUM exclusive")
    call scan_int(CLSCAN_SUM, CLSCAN_EXCLUSIVE, 64, .false., x, ref)
    call expect(all(y == ref), "SUM exclusive: results")

    x = random_bits64(n)
    call expect_success(clscan_host(CLSCAN_MIN, CLSCAN_EXCLUSIVE, x, y, unsigned=.true.), "MIN unsigned exclusive")
    call scan_int(CLSCAN_MIN, CLSCAN_EXCLUSIVE, 64, .true., x, ref)
    call expect(all(y == ref), "MIN unsigned exclusive: results")

    p = small_pairs(n)
    q = sentinel64
    call expect_success(clscan_host(CLSCAN_AFFINE, CLSCAN_EXCLUSIVE, p, q), "AFFINE exclusive on pairs")
    call affine_int(CLSCAN_EXCLUSIVE, .false., [1_c_int64_t, 0_c_int64_t], p, pref, total)
    call expect(all(q == pref), "AFFINE exclusive on pairs: results")
  end subroutine test_host_int64

  subroutine test_host_float(n)
    integer, intent(in) :: n
    real(c_float), allocatable :: x(:), y(:), p(:, :), q(:, :)
    real(c_double), allocatable :: ref(:), scale(:), pref(:, :)
    real(c_double) :: total(2)
    allocate(x(n), y(n), p(2, n), q(2, n), ref(n), scale(n), pref(2, n))
    write (topic, '(a, i0)') "clscan_host float, count ", n
    x = real(random_reals(n, 0.0_c_double, 1.0_c_double), c_float)
    y = -1
    call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_INCLUSIVE, x, y), "SUM inclusive")
    call scan_real(CLSCAN_SUM, CLSCAN_INCLUSIVE, real(x, c_double), ref, scale)
    call expect(all(abs(real(y, c_double) - ref) <= tol_float * scale), "SUM inclusive: results")

    x = real(random_reals(n, -1.0_c_double, 1.0_c_double), c_float)
    call expect_success(clscan_host(CLSCAN_MAX, CLSCAN_INCLUSIVE, x, y), "MAX inclusive")
    call scan_real(CLSCAN_MAX, CLSCAN_INCLUSIVE, real(x, c_double), ref, scale)
    call expect(all(real(y, c_double) == ref), "MAX inclusive: results")

    p = real(stable_pairs(n), c_float)
    q = -1
    call expect_success(clscan_host(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, p, q), "AFFINE on pairs")
    call affine_real(CLSCAN_INCLUSIVE, .false., [1.0_c_double, 0.0_c_double], real(p, c_double), pref, total)
    call expect(all(abs(real(q, c_double) - pref) <= tol_float), "AFFINE on pairs: results")
  end subroutine test_host_float

  subroutine test_host_double(n)
    integer, intent(in) :: n
    real(c_double), allocatable :: x(:), y(:), ref(:), scale(:), p(:, :), q(:, :), pref(:, :)
    real(c_double) :: total(2)
    allocate(x(n), y(n), ref(n), scale(n), p(2, n), q(2, n), pref(2, n))
    write (topic, '(a, i0)') "clscan_host double, count ", n
    x = random_reals(n, -1.0_c_double, 1.0_c_double)
    y = -1
    call expect_success(clscan_host(CLSCAN_SUM, CLSCAN_EXCLUSIVE, x, y), "SUM exclusive")
    call scan_real(CLSCAN_SUM, CLSCAN_EXCLUSIVE, x, ref, scale)
    call expect(all(abs(y - ref) <= tol_double * scale), "SUM exclusive: results")

    where (random_reals(n, 0.0_c_double, 1.0_c_double) < 0.5_c_double) x = 0
    call expect_success(clscan_host(CLSCAN_LAST_NONZERO, CLSCAN_INCLUSIVE, x, y), "LAST_NONZERO inclusive")
    call scan_real(CLSCAN_LAST_NONZERO, CLSCAN_INCLUSIVE, x, ref, scale)
    call expect(all(y == ref), "LAST_NONZERO inclusive: results")

    p = stable_pairs(n)
    q = -1
    call expect_success(clscan_host(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, p, q), "AFFINE on pairs")
    call affine_real(CLSCAN_INCLUSIVE, .false., [1.0_c_double, 0.0_c_double], p, pref, total)
    call expect(all(abs(q - pref) <= tol_double), "AFFINE on pairs: results")
  end subroutine test_host_double

  ! ---- clscan_host_with ---------------------------------------------------------------------

  subroutine test_host_with(n)
    integer, intent(in) :: n
    integer(c_int64_t), allocatable :: p(:, :), q(:, :), pref(:, :), ref64(:)
    integer(c_int64_t) :: carry(2), total(2), total_ref(2), one(1)
    real(c_double), allocatable :: r(:, :), s(:, :), rref(:, :), ref(:), scale(:)
    real(c_double) :: rcarry(2), rtotal(2), rtotal_ref(2)
    real(c_float), allocatable :: x(:)
    real(c_float) :: reduced, init
    integer(c_int32_t), allocatable :: i32(:), j32(:)
    integer(c_int32_t) :: init32, total32
    character(len=64) :: spec
    integer(c_int) :: kind
    integer :: back, length, env_status
    logical :: reverse
    character(len=40) :: label
    allocate(p(2, n), q(2, n), pref(2, n), ref64(n), r(2, n), s(2, n), rref(2, n), ref(n), scale(n), x(n), &
             i32(n), j32(n))

    ! The non-commutative AFFINE on integer pairs: exact, every kind, forwards and backwards
    do kind = CLSCAN_INCLUSIVE, CLSCAN_EXCLUSIVE
      do back = 0, 1
        reverse = back == 1
        write (topic, '(a, i0)') "clscan_host_with int64 pairs, count ", n
        write (label, '(a, a, l1)') merge("inclusive", "exclusive", kind == CLSCAN_INCLUSIVE), ", reverse ", reverse
        p = small_pairs(n)
        carry = reshape(small_pairs(1), [2])
        q = sentinel64
        total = sentinel64
        call expect_success(clscan_host_with(CLSCAN_AFFINE, kind, p, q, init=carry, total=total, &
                                             reverse=reverse, errmsg=msg), "AFFINE " // trim(label))
        call affine_int(kind, reverse, carry, p, pref, total_ref)
        call expect(all(q == pref), "AFFINE " // trim(label) // ": results")
        call expect(all(total == total_ref), "AFFINE " // trim(label) // ": total")
      end do
    end do

    ! AFFINE on double pairs from the end, with a carry and the total
    write (topic, '(a, i0)') "clscan_host_with double pairs, count ", n
    r = stable_pairs(n)
    rcarry = [1.0_c_double, 2.5_c_double]
    rtotal = 0
    call expect_success(clscan_host_with(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, r, s, init=rcarry, total=rtotal, &
                                         reverse=.true.), "AFFINE inclusive reverse")
    call affine_real(CLSCAN_INCLUSIVE, .true., rcarry, r, rref, rtotal_ref)
    call expect(all(abs(s - rref) <= tol_double * 10), "AFFINE inclusive reverse: results")
    call expect(all(abs(rtotal - rtotal_ref) <= tol_double * 10), "AFFINE inclusive reverse: total")

    ! A reduction (no dst) of floats with a carry: the total only
    write (topic, '(a, i0)') "clscan_host_with float reduction, count ", n
    x = real(random_reals(n, 0.0_c_double, 1.0_c_double), c_float)
    init = 100
    reduced = -1
    call expect_success(clscan_host_with(CLSCAN_SUM, CLSCAN_INCLUSIVE, x, init=init, total=reduced), &
                        "SUM reduction")
    call scan_real(CLSCAN_SUM, CLSCAN_INCLUSIVE, real(x, c_double), ref, scale)
    if (n > 0) then
      call expect(abs(real(reduced, c_double) - (100 + ref(n))) <= tol_float * (100 + scale(n)), &
                  "SUM reduction: total")
    else
      call expect(reduced == 100, "SUM reduction of nothing: the carry")
    end if

    ! Unsigned MAX from the end with a carry, on a device named by a spec ($CLSCAN_DEVICE or 0:0)
    write (topic, '(a, i0)') "clscan_host_with int32 on a named device, count ", n
    call get_environment_variable("CLSCAN_DEVICE", spec, length, env_status)
    if (env_status /= 0 .or. length == 0) spec = "0:0"
    i32 = int(random_ints(n, -2147483648_c_int64_t, 2147483647_c_int64_t), c_int32_t)
    one = random_ints(1, -2147483648_c_int64_t, 2147483647_c_int64_t)
    init32 = int(one(1), c_int32_t)
    j32 = sentinel32
    total32 = sentinel32
    call expect_success(clscan_host_with(CLSCAN_MAX, CLSCAN_EXCLUSIVE, i32, j32, init=init32, total=total32, &
                                         reverse=.true., device=spec, unsigned=.true.), "MAX unsigned reverse")
    ! The reference: the reversed array scanned from the carry
    call scan_int_carry(CLSCAN_MAX, CLSCAN_EXCLUSIVE, 32, .true., widen(init32, .true.), widen(i32(n:1:-1), .true.), &
                        ref64(n:1:-1), one(1))
    call expect(all(widen(j32, .true.) == ref64), "MAX unsigned reverse: results")
    call expect(widen(total32, .true.) == one(1), "MAX unsigned reverse: total")
  end subroutine test_host_with

  ! ---- Bad calls ----------------------------------------------------------------------------

  subroutine test_bad_calls()
    integer, parameter :: n = 10
    integer(c_int32_t), target :: x(n), y(n), p(2, n), q(2, n), r(3, n), s(3, n)
    integer(c_int32_t) :: short(n - 1)
    real(c_double) :: d(n), total
    type(c_ptr) :: other_platform, other_device
    topic = "bad calls"
    x = 1
    p = 1
    r = 1

    ! Rejected by the C library: its status and message
    y = sentinel32
    msg = ""
    status = clscan_host(99, CLSCAN_INCLUSIVE, x, y, errmsg=msg)
    call expect_failure(status, CLSCAN_INVALID_OPERATOR, clscan_last_error(), "an operator of 99")
    call expect(len_trim(msg) > 0, "an operator of 99: errmsg is empty")
    call expect(all(y == sentinel32), "an operator of 99: dst touched")
    status = clscan_host(CLSCAN_SUM, 77, CLSCAN_INCLUSIVE, c_loc(x), c_loc(y), int(n, c_size_t))
    call expect_failure(status, CLSCAN_INVALID_TYPE, clscan_last_error(), "a type of 77 (C form)")
    call expect(all(y == sentinel32), "a type of 77 (C form): dst touched")
    status = clscan_host(CLSCAN_SUM, 5, x, y)
    call expect_failure(status, CLSCAN_INVALID_KIND, clscan_last_error(), "a kind of 5")
    call expect(all(y == sentinel32), "a kind of 5: dst touched")
    status = clscan_host_with(CLSCAN_SUM, CLSCAN_INCLUSIVE, x, y, device="no device has this name")
    call expect_failure(status, CLSCAN_INVALID_DEVICE_SPEC, clscan_last_error(), "a device spec that matches none")
    status = clscan_host_with(CLSCAN_SUM, CLSCAN_INCLUSIVE, x)   ! neither dst nor total
    call expect_failure(status, CL_INVALID_HOST_PTR, clscan_last_error(), "no dst and no total")
    status = clscan_default_device("no device has this name", other_platform, other_device)
    call expect_failure(status, CLSCAN_INVALID_DEVICE_SPEC, clscan_last_error(), "clscan_default_device's spec")

    ! Rejected by the wrappers (shapes): the status, and the message in errmsg
    msg = ""
    status = clscan_host(CLSCAN_SUM, CLSCAN_INCLUSIVE, x, short, errmsg=msg)
    call expect_failure(status, CL_INVALID_VALUE, msg, "dst shorter than src")
    msg = ""
    status = clscan_host(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, x, y, errmsg=msg)
    call expect_failure(status, CLSCAN_INVALID_OPERATOR, msg, "AFFINE on a rank-1 array")
    msg = ""
    status = clscan_host(CLSCAN_SUM, CLSCAN_INCLUSIVE, p, q, errmsg=msg)
    call expect_failure(status, CLSCAN_INVALID_OPERATOR, msg, "SUM on pairs")
    msg = ""
    status = clscan_host(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, r, s, errmsg=msg)
    call expect_failure(status, CL_INVALID_VALUE, msg, "AFFINE on a (3, n) array")
    msg = ""
    status = clscan_host_with(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, p, s, errmsg=msg)
    call expect_failure(status, CL_INVALID_VALUE, msg, "clscan_host_with: AFFINE into a (3, n) array")
    call expect(all(y == sentinel32), "shapes: dst touched")

    ! An FP64-less device would refuse double; elsewhere this succeeds
    d = 1
    status = clscan_host_with(CLSCAN_SUM, CLSCAN_INCLUSIVE, d, total=total)
    if (status /= CLSCAN_FP64_NOT_SUPPORTED) then
      call expect_success(status, "a double reduction")
      call expect(total == n, "a double reduction: total")
    end if
  end subroutine test_bad_calls

  ! ---- Device buffers -----------------------------------------------------------------------

  subroutine test_device_buffers()
    integer, parameter :: n = 50001
    integer(c_int64_t), allocatable, target :: x(:), y(:), ref(:)
    integer(c_int64_t), target :: carry, total(1)
    integer(c_int32_t), allocatable, target :: keys(:)
    integer(c_int8_t), allocatable, target :: heads(:)
    real(c_double), allocatable, target :: b(:), yd(:)
    real(c_double), target :: a_const, y0
    real(c_double) :: state, worst
    type(c_ptr) :: context, queue, plan, affine, custom, src, dst, tot, hbuf, kbuf, bbuf, ybuf
    type(c_ptr), target :: done
    type(clscan_scan_options) :: options
    integer(c_intptr_t) :: properties(3)
    integer(c_int) :: err
    integer(c_size_t) :: wg, items, bytes
    integer :: i
    integer(c_int64_t) :: acc
    topic = "device buffers"
    allocate(x(n), y(n), ref(n), keys(n), heads(n), b(n), yd(n))

    properties = [CL_CONTEXT_PLATFORM, transfer(platform, 0_c_intptr_t), 0_c_intptr_t]
    context = clCreateContext(properties, 1_c_int32_t, [device], c_null_funptr, c_null_ptr, err)
    if (err /= CL_SUCCESS) call setup_error("clCreateContext", err)
    queue = clCreateCommandQueue(context, device, 0_c_int64_t, err)
    if (err /= CL_SUCCESS) call setup_error("clCreateCommandQueue", err)

    bytes = int(n, c_size_t) * 8
    x = random_ints(n, -1000000_c_int64_t, 1000000_c_int64_t)
    src = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), bytes, c_loc(x), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
    dst = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, c_null_ptr, err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
    tot = clCreateBuffer(context, CL_MEM_READ_WRITE, 8_c_size_t, c_null_ptr, err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)

    ! A plan, a scan with an event, the result read back
    plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_INT64, CLSCAN_EXCLUSIVE, err)
    call expect_success(err, "clscan_plan_create")
    if (err /= CL_SUCCESS) return
    call expect(clscan_element_size(plan) == 8, "clscan_element_size")
    call expect_success(clscan_plan_get_tuning(plan, wg, items), "clscan_plan_get_tuning")
    call expect(wg * items > 0, "clscan_plan_get_tuning: a tile of no elements")
    call expect(any(clscan_plan_get_algorithm(plan) == [CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, &
                                                        CLSCAN_ALGORITHM_SINGLE_PASS]), "clscan_plan_get_algorithm")
    call expect_success(clscan_enqueue(plan, queue, src, 0_c_size_t, dst, 0_c_size_t, int(n, c_size_t), &
                                       0_c_int32_t, c_null_ptr, c_loc(done)), "clscan_enqueue")
    call expect_success(clWaitForEvents(1_c_int32_t, [done]), "clWaitForEvents")
    call expect_success(clReleaseEvent(done), "clReleaseEvent")
    y = sentinel64
    call read_back(queue, dst, y)
    call scan_int(CLSCAN_SUM, CLSCAN_EXCLUSIVE, 64, .false., x, ref)
    call expect(all(y == ref), "clscan_enqueue: results")

    ! With options: a host carry, the total into a buffer, from the end
    carry = 1000
    options%init = c_loc(carry)
    options%total = tot
    options%reverse = 1
    call expect_success(clscan_enqueue_with(plan, queue, src, 0_c_size_t, dst, 0_c_size_t, int(n, c_size_t), &
                                            options, 0_c_int32_t, c_null_ptr, c_null_ptr), "clscan_enqueue_with")
    call read_back(queue, dst, y)
    call read_back(queue, tot, total)
    call scan_int_carry(CLSCAN_SUM, CLSCAN_EXCLUSIVE, 64, .false., carry, x(n:1:-1), ref(n:1:-1), acc)
    call expect(all(y == ref), "clscan_enqueue_with: results")
    call expect(total(1) == acc, "clscan_enqueue_with: total")

    ! Segmented: heads restart the sum (element 1 always starts a segment)
    heads = int(random_ints(n, 0_c_int64_t, 1_c_int64_t), c_int8_t)
    hbuf = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(n, c_size_t), &
                          c_loc(heads), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
    call expect_success(clscan_enqueue_segmented(plan, queue, src, 0_c_size_t, hbuf, 0_c_size_t, dst, 0_c_size_t, &
                                                 int(n, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                        "clscan_enqueue_segmented")
    call read_back(queue, dst, y)
    acc = 0
    do i = 1, n
      if (heads(i) /= 0) acc = 0
      ref(i) = acc
      acc = acc + x(i)
    end do
    call expect(all(y == ref), "clscan_enqueue_segmented: results")

    ! By key: runs of equal int32 keys
    keys = int(random_ints(n, 0_c_int64_t, 2_c_int64_t), c_int32_t)
    kbuf = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(n, c_size_t) * 4, &
                          c_loc(keys), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
    call expect_success(clscan_enqueue_by_key(plan, queue, CLSCAN_INT32, kbuf, 0_c_size_t, src, 0_c_size_t, dst, &
                                              0_c_size_t, int(n, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                        "clscan_enqueue_by_key")
    call read_back(queue, dst, y)
    acc = 0
    do i = 1, n
      if (i > 1) then
        if (keys(i) /= keys(i - 1)) acc = 0
      end if
      ref(i) = acc
      acc = acc + x(i)
    end do
    call expect(all(y == ref), "clscan_enqueue_by_key: results")

    ! A custom operator from Fortran strings: the same sum, bitwise
    custom = clscan_plan_create_custom(context, device, "long", 8_c_size_t, "0", "a + b", CLSCAN_EXCLUSIVE, err, &
                                       preamble="/* a custom sum */")
    call expect_success(err, "clscan_plan_create_custom (strings)")
    if (err == CL_SUCCESS) then
      call expect_success(clscan_enqueue(custom, queue, src, 0_c_size_t, dst, 0_c_size_t, int(n, c_size_t), &
                                         0_c_int32_t, c_null_ptr, c_null_ptr), "clscan_enqueue (custom)")
      call read_back(queue, dst, y)
      call scan_int(CLSCAN_SUM, CLSCAN_EXCLUSIVE, 64, .false., x, ref)
      call expect(all(y == ref), "custom sum: results")
      call clscan_plan_release(custom)
    end if
    custom = clscan_plan_create_custom(context, device, "long", 8_c_size_t, "", "a + b", CLSCAN_EXCLUSIVE, err)
    call expect(.not. c_associated(custom), "a custom operator without a neutral: a plan")
    call expect_failure(err, CLSCAN_INVALID_CUSTOM_OPERATOR, clscan_last_error(), "a custom operator without a neutral")

    ! A recurrence y(i) = a*y(i-1) + b(i) from y0, a constant, on an AFFINE double plan
    affine = clscan_plan_create(context, device, CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE, err)
    if (err == CLSCAN_FP64_NOT_SUPPORTED) then
      write (*, '(a)') "fortran_test: the device has no double precision; clscan_enqueue_recurrence not tested"
    else
      call expect_success(err, "clscan_plan_create (AFFINE double)")
    end if
    if (err == CL_SUCCESS) then
      b = random_reals(n, -1.0_c_double, 1.0_c_double)
      bbuf = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), bytes, c_loc(b), err)
      if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
      ybuf = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, c_null_ptr, err)
      if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
      a_const = 0.9_c_double
      y0 = 3
      options = clscan_scan_options()
      options%init = c_loc(y0)
      call expect_success(clscan_enqueue_recurrence(affine, queue, c_null_ptr, 0_c_size_t, c_loc(a_const), bbuf, &
                                                    0_c_size_t, ybuf, 0_c_size_t, int(n, c_size_t), options, &
                                                    0_c_int32_t, c_null_ptr, c_null_ptr), "clscan_enqueue_recurrence")
      call expect_success(clEnqueueReadBuffer(queue, ybuf, CL_TRUE, 0_c_size_t, bytes, c_loc(yd), 0_c_int32_t, &
                                              c_null_ptr, c_null_ptr), "clEnqueueReadBuffer")
      state = y0
      worst = 0
      do i = 1, n
        state = a_const * state + b(i)
        worst = max(worst, abs(yd(i) - state))
      end do
      call expect(worst <= tol_double * 10, "clscan_enqueue_recurrence: results")
      call expect_success(clReleaseMemObject(bbuf), "clReleaseMemObject")
      call expect_success(clReleaseMemObject(ybuf), "clReleaseMemObject")
      call clscan_plan_release(affine)
    end if

    ! A null plan: the status and a message, dst untouched
    y = sentinel64
    status = clscan_enqueue(c_null_ptr, queue, src, 0_c_size_t, dst, 0_c_size_t, int(n, c_size_t), 0_c_int32_t, &
                            c_null_ptr, c_null_ptr)
    call expect_failure(status, CLSCAN_INVALID_PLAN, clscan_last_error(), "clscan_enqueue without a plan")

    call test_sort_descending(context, queue)
    call test_selections(context, queue)
    call test_axis_transform(context, queue)
    call test_axis_totals(context, queue)
    call test_axis_sort(context, queue)

    call clscan_plan_release(plan)
    call expect_success(clReleaseMemObject(src), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(dst), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(tot), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(hbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(kbuf), "clReleaseMemObject")
    call expect_success(clReleaseCommandQueue(queue), "clReleaseCommandQueue")
    call expect_success(clReleaseContext(context), "clReleaseContext")
  end subroutine test_device_buffers

  ! A descending sort of int16 keys: the output does not increase and holds every key as often
  ! as the input (counted per value); the same as a segmented sort of two segments; the sorter's
  ! setters on NULL.
  subroutine test_sort_descending(context, queue)
    type(c_ptr), intent(in) :: context, queue
    integer, parameter :: n = 20011, m = 7001, lo = -1000, hi = 1000
    integer(c_int16_t), allocatable, target :: k(:), got(:)
    integer(c_int64_t), allocatable :: r(:)
    integer(c_int32_t), target :: offs(3)
    integer :: counts(lo:hi), i
    integer(c_int) :: err
    type(c_ptr) :: sorter, kin, kout, obuf
    allocate(k(n), got(n))
    offs = [0, m, n]
    r = random_ints(n, int(lo, c_int64_t), int(hi, c_int64_t))
    k = int(r, c_int16_t)
    kin = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(n, c_size_t) * 2, c_loc(k), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
    kout = clCreateBuffer(context, CL_MEM_READ_WRITE, int(n, c_size_t) * 2, c_null_ptr, err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
    sorter = clscan_sorter_create(context, device, CLSCAN_INT16, 0_c_size_t, err)
    call expect_success(err, "clscan_sorter_create(CLSCAN_INT16)")
    if (err == CL_SUCCESS) then
      call expect_success(clscan_sorter_set_descending(sorter, 1), "clscan_sorter_set_descending")
      call expect_failure(clscan_sorter_set_key_range(sorter, 0, 8), CLSCAN_INVALID_KEY_BITS, clscan_last_error(), &
                          "clscan_sorter_set_key_range of int16 keys")
      call expect_success(clscan_sort_enqueue(sorter, queue, kin, 0_c_size_t, kout, 0_c_size_t, c_null_ptr, &
                                              0_c_size_t, c_null_ptr, 0_c_size_t, int(n, c_size_t), 0_c_int32_t, &
                                              c_null_ptr, c_null_ptr), "clscan_sort_enqueue (descending)")
      call expect_success(clEnqueueReadBuffer(queue, kout, CL_TRUE, 0_c_size_t, int(n, c_size_t) * 2, c_loc(got), &
                                              0_c_int32_t, c_null_ptr, c_null_ptr), "clEnqueueReadBuffer")
      call expect(all(got(1:n - 1) >= got(2:n)), "descending sort: the output increases somewhere")
      counts = 0
      do i = 1, n
        counts(k(i)) = counts(k(i)) + 1
      end do
      do i = 1, n
        if (got(i) >= lo .and. got(i) <= hi) counts(got(i)) = counts(got(i)) - 1
      end do
      call expect(all(counts == 0), "descending sort: not the input's keys")
      ! The same keys in two segments (CSR offsets 0, m, n), sorted each on its own, descending
      obuf = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), 12_c_size_t, c_loc(offs), err)
      if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
      call expect_success(clscan_segmented_sort_enqueue(sorter, queue, kin, 0_c_size_t, kout, 0_c_size_t, c_null_ptr, &
                                                        0_c_size_t, c_null_ptr, 0_c_size_t, int(n, c_size_t), &
                                                        CLSCAN_UINT32, obuf, 0_c_size_t, 2_c_size_t, 0_c_int32_t, &
                                                        c_null_ptr, c_null_ptr), "clscan_segmented_sort_enqueue")
      call expect_success(clEnqueueReadBuffer(queue, kout, CL_TRUE, 0_c_size_t, int(n, c_size_t) * 2, c_loc(got), &
                                              0_c_int32_t, c_null_ptr, c_null_ptr), "clEnqueueReadBuffer")
      call expect(all(got(1:m - 1) >= got(2:m)) .and. all(got(m + 1:n - 1) >= got(m + 2:n)), &
                  "segmented sort: a segment's output increases somewhere")
      counts = 0
      do i = 1, m
        counts(k(i)) = counts(k(i)) + 1
        if (got(i) >= lo .and. got(i) <= hi) counts(got(i)) = counts(got(i)) - 1
      end do
      call expect(all(counts == 0), "segmented sort: the first segment does not hold its own keys")
      call expect_success(clReleaseMemObject(obuf), "clReleaseMemObject")
      call clscan_sorter_release(sorter)
    end if
    call expect_failure(clscan_sorter_set_descending(c_null_ptr, 1), CLSCAN_INVALID_HANDLE, clscan_last_error(), &
                        "clscan_sorter_set_descending without a sorter")
    call expect_failure(clscan_sorter_set_key_range(c_null_ptr, 0, 8), CLSCAN_INVALID_HANDLE, clscan_last_error(), &
                        "clscan_sorter_set_key_range without a sorter")
    call expect_success(clReleaseMemObject(kin), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(kout), "clReleaseMemObject")
  end subroutine test_sort_descending

  ! ---- Selections, axis scans, transforms, checks ------------------------------------------

  ! A buffer with a copy of values.
  function buffer_i32(context, values) result(buffer)
    type(c_ptr), intent(in) :: context
    integer(c_int32_t), intent(in), target, contiguous :: values(:)
    type(c_ptr) :: buffer
    integer(c_int) :: err
    buffer = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(size(values), c_size_t) * 4, &
                            c_loc(values), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
  end function buffer_i32

  function buffer_i64(context, values) result(buffer)
    type(c_ptr), intent(in) :: context
    integer(c_int64_t), intent(in), target, contiguous :: values(:)
    type(c_ptr) :: buffer
    integer(c_int) :: err
    buffer = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(size(values), c_size_t) * 8, &
                            c_loc(values), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
  end function buffer_i64

  ! A blocking read of the first size(values) int32 values of a buffer.
  subroutine read_i32(queue, buffer, values)
    type(c_ptr), intent(in) :: queue, buffer
    integer(c_int32_t), intent(inout), target, contiguous :: values(:)
    call expect_success(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0_c_size_t, int(size(values), c_size_t) * 4, &
                                            c_loc(values), 0_c_int32_t, c_null_ptr, c_null_ptr), "clEnqueueReadBuffer")
  end subroutine read_i32

  subroutine read_i32_2d(queue, buffer, values)
    type(c_ptr), intent(in) :: queue, buffer
    integer(c_int32_t), intent(inout), target, contiguous :: values(:, :)
    call expect_success(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0_c_size_t, int(size(values), c_size_t) * 4, &
                                            c_loc(values), 0_c_int32_t, c_null_ptr, c_null_ptr), "clEnqueueReadBuffer")
  end subroutine read_i32_2d

  ! The number a selection wrote into a cl_ulong buffer.
  function read_count(queue, buffer) result(count)
    type(c_ptr), intent(in) :: queue, buffer
    integer :: count
    integer(c_int64_t), target :: value(1)
    value = -1
    call read_back(queue, buffer, value)
    count = int(value(1))
  end function read_count

  ! A NUL-terminated C string of s, for the structures' c_loc.
  subroutine to_c(s, chars)
    character(len=*), intent(in) :: s
    character(kind=c_char), allocatable, intent(out) :: chars(:)
    integer :: i
    allocate(chars(len(s) + 1))
    do i = 1, len(s)
      chars(i) = s(i:i)
    end do
    chars(len(s) + 1) = c_null_char
  end subroutine to_c

  ! Whether x(i), at index i of the range (from 0), satisfies the predicate of test_selections.
  pure logical function chosen(x, i)
    integer(c_int32_t), intent(in) :: x
    integer, intent(in) :: i
    chosen = mod(x, 3) == 0 .or. mod(i, 7) == 1
  end function chosen

  ! A compactor with a predicate (compact_if blocking and enqueued at an offset, partition_if),
  ! partition by flags, unique; unique_by_key and reduce_by_key; each against a Fortran loop,
  ! over counts that cross the compaction's blocks; the rejections of a compactor without a
  ! predicate, of an empty predicate and of reduce_by_key without a plan, outputs untouched.
  subroutine test_selections(context, queue)
    type(c_ptr), intent(in) :: context, queue
    integer, parameter :: n = 10007, off = 5
    integer(c_int32_t), allocatable, target :: x(:), keys(:), got(:), ref(:), fill(:)
    integer(c_int64_t), allocatable, target :: v(:), vgot(:), vref(:), vfill(:)
    integer(c_int8_t), allocatable, target :: flags(:)
    integer(c_int64_t), target :: zero(1)
    integer(c_size_t) :: kept
    integer(c_int) :: err
    type(c_ptr) :: c, plain, runs, plan, xbuf, fbuf, dbuf, kbuf, kout, vbuf, vout, nbuf
    integer :: i, m, r
    topic = "selections"
    allocate(x(n), keys(n), got(n), ref(n), fill(n), v(n), vgot(n), vref(n), vfill(n), flags(n))
    x = int(random_ints(n, -50_c_int64_t, 50_c_int64_t), c_int32_t)
    keys = int(random_ints(n, 0_c_int64_t, 2_c_int64_t), c_int32_t)
    v = random_ints(n, -1000000_c_int64_t, 1000000_c_int64_t)
    flags = int(random_ints(n, 0_c_int64_t, 1_c_int64_t), c_int8_t)
    fill = sentinel32
    vfill = sentinel64
    zero = 0
    xbuf = buffer_i32(context, x)
    kbuf = buffer_i32(context, keys)
    vbuf = buffer_i64(context, v)
    dbuf = buffer_i32(context, fill)
    kout = buffer_i32(context, fill)
    vout = buffer_i64(context, vfill)
    nbuf = buffer_i64(context, zero)
    fbuf = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(n, c_size_t), c_loc(flags), err)
    if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)

    c = clscan_compactor_create_if(context, device, 4_c_size_t, "int", "x % 3 == 0 || i % 7 == 1", err, &
                                   preamble="/* multiples of 3, and every seventh from the second */")
    call expect_success(err, "clscan_compactor_create_if (strings)")
    if (err == CL_SUCCESS) then
      ! compact_if, blocking: the kept elements in order, dst untouched after them
      m = 0
      do i = 1, n
        if (chosen(x(i), i - 1)) then
          m = m + 1
          ref(m) = x(i)
        end if
      end do
      kept = 0
      call expect_success(clscan_compact_if(c, queue, xbuf, 0_c_size_t, int(n, c_size_t), dbuf, 0_c_size_t, kept, &
                                            0_c_int32_t, c_null_ptr), "clscan_compact_if")
      call expect(kept == m, "clscan_compact_if: the number kept")
      call read_i32(queue, dbuf, got)
      call expect(all(got(1:m) == ref(1:m)), "clscan_compact_if: results")
      call expect(all(got(m + 1:n) == sentinel32), "clscan_compact_if: dst written past the kept")

      ! compact_if_enqueue of x(off + 1:n): i is the index in the range
      m = 0
      do i = off + 1, n
        if (chosen(x(i), i - off - 1)) then
          m = m + 1
          ref(m) = x(i)
        end if
      end do
      call expect_success(clscan_compact_if_enqueue(c, queue, xbuf, int(off, c_size_t), int(n - off, c_size_t), &
                                                    dbuf, 0_c_size_t, nbuf, 0_c_size_t, 0_c_int32_t, c_null_ptr, &
                                                    c_null_ptr), "clscan_compact_if_enqueue")
      call read_i32(queue, dbuf, got)
      call expect(read_count(queue, nbuf) == m, "clscan_compact_if_enqueue: the number kept")
      call expect(all(got(1:m) == ref(1:m)), "clscan_compact_if_enqueue: results")

      ! partition_if: the chosen in order, then the others in order
      m = 0
      do i = 1, n
        if (chosen(x(i), i - 1)) then
          m = m + 1
          ref(m) = x(i)
        end if
      end do
      r = m
      do i = 1, n
        if (.not. chosen(x(i), i - 1)) then
          r = r + 1
          ref(r) = x(i)
        end if
      end do
      call expect_success(clscan_partition_if_enqueue(c, queue, xbuf, 0_c_size_t, int(n, c_size_t), dbuf, &
                                                      0_c_size_t, nbuf, 0_c_size_t, 0_c_int32_t, c_null_ptr, &
                                                      c_null_ptr), "clscan_partition_if_enqueue")
      call read_i32(queue, dbuf, got)
      call expect(read_count(queue, nbuf) == m, "clscan_partition_if_enqueue: the number chosen")
      call expect(all(got == ref), "clscan_partition_if_enqueue: results")

      ! partition by flags
      m = 0
      do i = 1, n
        if (flags(i) /= 0) then
          m = m + 1
          ref(m) = x(i)
        end if
      end do
      r = m
      do i = 1, n
        if (flags(i) == 0) then
          r = r + 1
          ref(r) = x(i)
        end if
      end do
      call expect_success(clscan_partition_enqueue(c, queue, xbuf, 0_c_size_t, fbuf, 0_c_size_t, int(n, c_size_t), &
                                                   dbuf, 0_c_size_t, nbuf, 0_c_size_t, 0_c_int32_t, c_null_ptr, &
                                                   c_null_ptr), "clscan_partition_enqueue")
      call read_i32(queue, dbuf, got)
      call expect(read_count(queue, nbuf) == m, "clscan_partition_enqueue: the number flagged")
      call expect(all(got == ref), "clscan_partition_enqueue: results")

      ! unique: the first of each run of equal keys
      m = 0
      do i = 1, n
        if (i == 1) then
          m = 1
          ref(m) = keys(i)
        else if (keys(i) /= keys(i - 1)) then
          m = m + 1
          ref(m) = keys(i)
        end if
      end do
      call expect_success(clscan_unique_enqueue(c, queue, kbuf, 0_c_size_t, int(n, c_size_t), dbuf, 0_c_size_t, &
                                                nbuf, 0_c_size_t, 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_unique_enqueue")
      call read_i32(queue, dbuf, got)
      call expect(read_count(queue, nbuf) == m, "clscan_unique_enqueue: the number of runs")
      call expect(all(got(1:m) == ref(1:m)), "clscan_unique_enqueue: results")

      ! count 0: nothing kept
      call expect_success(clscan_compact_if(c, queue, xbuf, 0_c_size_t, 0_c_size_t, dbuf, 0_c_size_t, kept, &
                                            0_c_int32_t, c_null_ptr), "clscan_compact_if of no elements")
      call expect(kept == 0, "clscan_compact_if of no elements: the number kept")
      call clscan_compactor_release(c)
    end if

    ! A compactor without a predicate refuses compact_if; an empty predicate is refused
    call expect_success(clReleaseMemObject(dbuf), "clReleaseMemObject")
    dbuf = buffer_i32(context, fill)
    plain = clscan_compactor_create(context, device, 4_c_size_t, err)
    call expect_success(err, "clscan_compactor_create")
    if (err == CL_SUCCESS) then
      call expect_failure(clscan_compact_if_enqueue(plain, queue, xbuf, 0_c_size_t, int(n, c_size_t), dbuf, &
                                                    0_c_size_t, nbuf, 0_c_size_t, 0_c_int32_t, c_null_ptr, &
                                                    c_null_ptr), CLSCAN_NO_PREDICATE, clscan_last_error(), &
                          "clscan_compact_if_enqueue without a predicate")
      call read_i32(queue, dbuf, got)
      call expect(all(got == sentinel32), "clscan_compact_if_enqueue without a predicate: dst touched")
      call clscan_compactor_release(plain)
    end if
    c = clscan_compactor_create_if(context, device, 4_c_size_t, "int", "", err)
    call expect(.not. c_associated(c), "an empty predicate: a compactor")
    call expect_failure(err, CLSCAN_INVALID_PREDICATE, clscan_last_error(), "an empty predicate")

    ! unique_by_key and reduce_by_key (int32 keys, int64 values, an inclusive SUM)
    runs = clscan_runs_create(context, device, 4_c_size_t, 8_c_size_t, err)
    call expect_success(err, "clscan_runs_create")
    plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_INT64, CLSCAN_INCLUSIVE, err)
    call expect_success(err, "clscan_plan_create (SUM int64 inclusive)")
    if (c_associated(runs) .and. c_associated(plan)) then
      call expect_failure(clscan_reduce_by_key_enqueue(runs, c_null_ptr, queue, kbuf, 0_c_size_t, vbuf, 0_c_size_t, &
                                                       int(n, c_size_t), kout, 0_c_size_t, vout, 0_c_size_t, nbuf, &
                                                       0_c_size_t, 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          CLSCAN_INVALID_PLAN, clscan_last_error(), "clscan_reduce_by_key_enqueue without a plan")
      call read_i32(queue, kout, got)
      call read_back(queue, vout, vgot)
      call expect(all(got == sentinel32) .and. all(vgot == sentinel64), &
                  "clscan_reduce_by_key_enqueue without a plan: outputs touched")

      m = 0
      do i = 1, n
        if (i == 1) then
          m = 1
        else if (keys(i) /= keys(i - 1)) then
          m = m + 1
        else
          vref(m) = vref(m) + v(i)
          cycle
        end if
        ref(m) = keys(i)
        vref(m) = v(i)
      end do
      call expect_success(clscan_reduce_by_key_enqueue(runs, plan, queue, kbuf, 0_c_size_t, vbuf, 0_c_size_t, &
                                                       int(n, c_size_t), kout, 0_c_size_t, vout, 0_c_size_t, nbuf, &
                                                       0_c_size_t, 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_reduce_by_key_enqueue")
      call read_i32(queue, kout, got)
      call read_back(queue, vout, vgot)
      call expect(read_count(queue, nbuf) == m, "clscan_reduce_by_key_enqueue: the number of runs")
      call expect(all(got(1:m) == ref(1:m)), "clscan_reduce_by_key_enqueue: keys")
      call expect(all(vgot(1:m) == vref(1:m)), "clscan_reduce_by_key_enqueue: sums")

      do i = 1, n   ! the first value of each run
        if (i == 1) then
          m = 1
        else if (keys(i) /= keys(i - 1)) then
          m = m + 1
        else
          cycle
        end if
        vref(m) = v(i)
      end do
      call expect_success(clscan_unique_by_key_enqueue(runs, queue, kbuf, 0_c_size_t, vbuf, 0_c_size_t, &
                                                       int(n, c_size_t), kout, 0_c_size_t, vout, 0_c_size_t, nbuf, &
                                                       0_c_size_t, 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_unique_by_key_enqueue")
      call read_i32(queue, kout, got)
      call read_back(queue, vout, vgot)
      call expect(read_count(queue, nbuf) == m, "clscan_unique_by_key_enqueue: the number of runs")
      call expect(all(got(1:m) == ref(1:m)), "clscan_unique_by_key_enqueue: keys")
      call expect(all(vgot(1:m) == vref(1:m)), "clscan_unique_by_key_enqueue: values")
    end if
    call clscan_runs_release(runs)
    call clscan_plan_release(plan)

    call expect_success(clReleaseMemObject(xbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(kbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(vbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(dbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(kout), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(vout), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(nbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(fbuf), "clReleaseMemObject")
  end subroutine test_selections

  ! Scans along both axes of a Fortran array a(m, nc) stored with a leading dimension p > m
  ! (C's nc rows of m elements at a pitch of p), the padding untouched; a bad axis and a bad
  ! pitch rejected; a transform from Fortran strings (int32 in, int64 scan) and from the
  ! structure (with an output transform), cleared with c_null_ptr, an empty one rejected; the
  ! accuracy's setter and getter; the argument checks alone.
  subroutine test_axis_transform(context, queue)
    type(c_ptr), intent(in) :: context, queue
    integer, parameter :: m = 37, p = 40, nc = 300, n = 5003
    integer(c_int32_t), allocatable, target :: a(:, :), got(:, :), ref(:, :), fill(:, :), x(:), y32(:), r32(:)
    integer(c_int64_t), allocatable, target :: y(:), r64(:)
    integer(c_int8_t), allocatable, target :: heads(:)
    character(kind=c_char), allocatable, target :: csrc(:), cin(:), cdst(:), cout(:)
    type(clscan_transform), target :: t
    type(clscan_scan_options) :: options
    type(c_ptr) :: plan, wide, abuf, dbuf, xbuf, ybuf, hbuf
    integer(c_int) :: err
    integer(c_int64_t) :: acc
    integer :: i, j
    topic = "axis scans and transforms"
    allocate(a(p, nc), got(p, nc), ref(p, nc), fill(p, nc), x(n), y32(n), r32(n), y(n), r64(n), heads(n))
    a = reshape(int(random_ints(p * nc, -1000_c_int64_t, 1000_c_int64_t), c_int32_t), [p, nc])
    fill = sentinel32
    abuf = buffer_i32(context, reshape(a, [p * nc]))
    dbuf = buffer_i32(context, reshape(fill, [p * nc]))

    plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, err)
    call expect_success(err, "clscan_plan_create (SUM int32 inclusive)")
    if (err == CL_SUCCESS) then
      ! A bad axis and a bad pitch: dst untouched
      call expect_failure(clscan_enqueue_axis(plan, queue, 7, abuf, 0_c_size_t, int(p, c_size_t), dbuf, 0_c_size_t, &
                                              int(p, c_size_t), int(nc, c_size_t), int(m, c_size_t), 0_c_int32_t, &
                                              c_null_ptr, c_null_ptr), CLSCAN_INVALID_AXIS, clscan_last_error(), &
                          "clscan_enqueue_axis along axis 7")
      call expect_failure(clscan_enqueue_axis(plan, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, int(m - 1, c_size_t), &
                                              dbuf, 0_c_size_t, int(p, c_size_t), int(nc, c_size_t), &
                                              int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          CLSCAN_INVALID_PITCH, clscan_last_error(), "clscan_enqueue_axis with a pitch below cols")
      call read_i32_2d(queue, dbuf, got)
      call expect(all(got == sentinel32), "clscan_enqueue_axis rejected: dst touched")

      ! Along C's columns: along the second index of a, for every first index
      ref = sentinel32
      do i = 1, m
        acc = 0
        do j = 1, nc
          acc = acc + a(i, j)
          ref(i, j) = int(acc, c_int32_t)
        end do
      end do
      call expect_success(clscan_enqueue_axis(plan, queue, CLSCAN_ALONG_COLUMNS, abuf, 0_c_size_t, int(p, c_size_t), &
                                              dbuf, 0_c_size_t, int(p, c_size_t), int(nc, c_size_t), &
                                              int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_enqueue_axis (CLSCAN_ALONG_COLUMNS)")
      call read_i32_2d(queue, dbuf, got)
      call expect(all(got == ref), "clscan_enqueue_axis (CLSCAN_ALONG_COLUMNS): results, padding untouched")

      ! Along C's rows: along the first index of a, for every second index
      do j = 1, nc
        acc = 0
        do i = 1, m
          acc = acc + a(i, j)
          ref(i, j) = int(acc, c_int32_t)
        end do
      end do
      call expect_success(clscan_enqueue_axis(plan, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, int(p, c_size_t), &
                                              dbuf, 0_c_size_t, int(p, c_size_t), int(nc, c_size_t), &
                                              int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_enqueue_axis (CLSCAN_ALONG_ROWS)")
      call read_i32_2d(queue, dbuf, got)
      call expect(all(got == ref), "clscan_enqueue_axis (CLSCAN_ALONG_ROWS): results, padding untouched")

      ! The argument checks alone: what the calls would return, nothing enqueued
      options = clscan_scan_options()
      heads = int(random_ints(n, 0_c_int64_t, 1_c_int64_t), c_int8_t)
      hbuf = clCreateBuffer(context, ior(CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR), int(n, c_size_t), c_loc(heads), err)
      if (err /= CL_SUCCESS) call setup_error("clCreateBuffer", err)
      call expect_success(clscan_enqueue_with_check(plan, queue, abuf, 0_c_size_t, dbuf, 0_c_size_t, int(m, c_size_t), &
                                                    options, 0_c_int32_t, c_null_ptr), "clscan_enqueue_with_check")
      call expect_failure(clscan_enqueue_with_check(c_null_ptr, queue, abuf, 0_c_size_t, dbuf, 0_c_size_t, &
                                                    int(m, c_size_t), options, 0_c_int32_t, c_null_ptr), &
                          CLSCAN_INVALID_PLAN, clscan_last_error(), "clscan_enqueue_with_check without a plan")
      call expect_success(clscan_enqueue_segmented_check(plan, queue, abuf, 0_c_size_t, hbuf, 0_c_size_t, dbuf, &
                                                         0_c_size_t, int(n, c_size_t), 0_c_int32_t, c_null_ptr), &
                          "clscan_enqueue_segmented_check")
      call expect_failure(clscan_enqueue_segmented_check(plan, queue, abuf, 0_c_size_t, hbuf, 0_c_size_t, dbuf, &
                                                         0_c_size_t, int(p * nc + 1, c_size_t), 0_c_int32_t, &
                                                         c_null_ptr), CLSCAN_RANGE_OUT_OF_BOUNDS, clscan_last_error(), &
                          "clscan_enqueue_segmented_check past the buffers")
      call read_i32_2d(queue, dbuf, got)
      call expect(all(got == ref), "the checks alone: dst touched")
      call expect_success(clReleaseMemObject(hbuf), "clReleaseMemObject")

      ! The accuracy: set, read back; an unknown one refused
      call expect(clscan_plan_get_accuracy(plan) == CLSCAN_ACCURACY_AUTO, "clscan_plan_get_accuracy: not AUTO at first")
      call expect_success(clscan_plan_set_accuracy(plan, CLSCAN_ACCURACY_WORKING), "clscan_plan_set_accuracy")
      call expect(clscan_plan_get_accuracy(plan) == CLSCAN_ACCURACY_WORKING, "clscan_plan_get_accuracy after a set")
      call expect_failure(clscan_plan_set_accuracy(plan, 9), CL_INVALID_VALUE, clscan_last_error(), &
                          "clscan_plan_set_accuracy(9)")
      call clscan_plan_release(plan)
    end if

    ! Transforms on a SUM of int64: int32 elements in, widened with their index
    x = int(random_ints(n, -100000_c_int64_t, 100000_c_int64_t), c_int32_t)
    xbuf = buffer_i32(context, x)
    r64 = sentinel64
    ybuf = buffer_i64(context, r64)
    wide = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_INT64, CLSCAN_INCLUSIVE, err)
    call expect_success(err, "clscan_plan_create (SUM int64 inclusive)")
    if (err == CL_SUCCESS) then
      call expect_failure(clscan_plan_set_transform(wide, "int", 4_c_size_t, ""), CLSCAN_INVALID_TRANSFORM, &
                          clscan_last_error(), "clscan_plan_set_transform with an empty in")
      call expect_success(clscan_plan_set_transform(wide, "int", 4_c_size_t, "(long)x * 3 + (long)i"), &
                          "clscan_plan_set_transform (strings)")
      acc = 0
      do i = 1, n
        acc = acc + 3 * int(x(i), c_int64_t) + (i - 1)
        r64(i) = acc
      end do
      call expect_success(clscan_enqueue(wide, queue, xbuf, 0_c_size_t, ybuf, 0_c_size_t, int(n, c_size_t), &
                                         0_c_int32_t, c_null_ptr, c_null_ptr), "clscan_enqueue (transform in)")
      call read_back(queue, ybuf, y)
      call expect(all(y == r64), "clscan_enqueue (transform in): results")

      ! The structure, with an output transform to int32: the sums' remainders by 1000
      call to_c("int", csrc)
      call to_c("(long)x", cin)
      call to_c("int", cdst)
      call to_c("(int)(y % 1000)", cout)
      t = clscan_transform(src_type=c_loc(csrc), src_size=4_c_size_t, in=c_loc(cin), dst_type=c_loc(cdst), dst_size=4_c_size_t, &
                           out=c_loc(cout))
      call expect_success(clscan_plan_set_transform(wide, t), "clscan_plan_set_transform (structure)")
      acc = 0
      do i = 1, n
        acc = acc + x(i)
        r32(i) = int(mod(acc, 1000_c_int64_t), c_int32_t)
      end do
      y32 = sentinel32
      call expect_success(clscan_enqueue(wide, queue, xbuf, 0_c_size_t, ybuf, 0_c_size_t, int(n, c_size_t), &
                                         0_c_int32_t, c_null_ptr, c_null_ptr), "clscan_enqueue (transforms in, out)")
      call read_i32(queue, ybuf, y32)
      call expect(all(y32 == r32), "clscan_enqueue (transforms in, out): results")

      ! Cleared: the plain scan of int64 elements again
      call expect_success(clscan_plan_set_transform(wide, c_null_ptr), "clscan_plan_set_transform(c_null_ptr)")
      call expect_failure(clscan_enqueue(wide, queue, xbuf, 0_c_size_t, ybuf, 0_c_size_t, int(n, c_size_t), &
                                         0_c_int32_t, c_null_ptr, c_null_ptr), CLSCAN_RANGE_OUT_OF_BOUNDS, &
                          clscan_last_error(), "int64 elements from a buffer of n int32 after the transform is cleared")
      call clscan_plan_release(wide)
    end if
    call expect_success(clReleaseMemObject(xbuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(ybuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(abuf), "clReleaseMemObject")
    call expect_success(clReleaseMemObject(dbuf), "clReleaseMemObject")
  end subroutine test_axis_transform

  ! Totals along both axes of padded Fortran arrays a(m, nc) (C's nc rows of m elements at a
  ! pitch of p) with the non-commutative LAST_NONZERO on int32, against Fortran loops: the last
  ! non-zero element of each a(:, j) (CLSCAN_ALONG_ROWS) and of each a(i, :) (CLSCAN_ALONG_COLUMNS),
  ! written at an offset, the dst elements around them untouched.  Half the elements are 0 and
  ! the padding is non-zero, so that a total that reads the padding or folds out of order is
  ! wrong.  The shapes give many short lines and a few lines of 20011 elements each way (long
  ! lines are cut into blocks).  Lines of no elements give the neutral 0; bad calls are rejected
  ! with dst untouched; no lines still complete the event.
  subroutine test_axis_totals(context, queue)
    type(c_ptr), intent(in) :: context, queue
    integer, parameter :: shapes(3, 3) = reshape([37, 40, 300, 3, 5, 20011, 20011, 20013, 3], [3, 3])
    integer(c_int32_t), allocatable, target :: a(:, :), got(:), ref(:), fill(:)
    integer(c_int32_t) :: last
    type(c_ptr) :: plan, abuf, dbuf
    type(c_ptr), target :: done
    integer(c_int) :: err
    integer :: m, p, nc, is, i, j
    character(len=60) :: shape_name
    topic = "axis totals"
    plan = clscan_plan_create(context, device, CLSCAN_LAST_NONZERO, CLSCAN_INT32, CLSCAN_INCLUSIVE, err)
    call expect_success(err, "clscan_plan_create (LAST_NONZERO int32)")
    if (err /= CL_SUCCESS) return
    do is = 1, size(shapes, 2)
      m = shapes(1, is)
      p = shapes(2, is)
      nc = shapes(3, is)
      write (shape_name, '(a, i0, a, i0, a, i0)') " of a(", m, ", ", nc, ") at a pitch of ", p
      allocate(a(p, nc), got(max(m, nc) + 2), ref(max(m, nc) + 2), fill(max(m, nc) + 2))
      a = reshape(int(random_ints(p * nc, -1000_c_int64_t, 1000_c_int64_t) &
                      * random_ints(p * nc, 0_c_int64_t, 1_c_int64_t), c_int32_t), [p, nc])
      a(m + 1:p, :) = reshape(int(random_ints((p - m) * nc, 1_c_int64_t, 1000_c_int64_t), c_int32_t), [p - m, nc])
      fill = sentinel32
      abuf = buffer_i32(context, reshape(a, [p * nc]))

      ! Along C's rows: one total per second index of a, into dst(2:nc + 1)
      ref = sentinel32
      do j = 1, nc
        last = 0
        do i = 1, m
          if (a(i, j) /= 0) last = a(i, j)
        end do
        ref(j + 1) = last
      end do
      dbuf = buffer_i32(context, fill)
      call expect_success(clscan_enqueue_axis_totals(plan, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, &
                                                     int(p, c_size_t), dbuf, 1_c_size_t, int(nc, c_size_t), &
                                                     int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_enqueue_axis_totals (CLSCAN_ALONG_ROWS)" // trim(shape_name))
      call read_i32(queue, dbuf, got)
      call expect(all(got == ref), "clscan_enqueue_axis_totals (CLSCAN_ALONG_ROWS)" // trim(shape_name) // &
                  ": results, the rest of dst untouched")
      call expect_success(clReleaseMemObject(dbuf), "clReleaseMemObject")

      ! Along C's columns: one total per first index of a, into dst(2:m + 1)
      ref = sentinel32
      do i = 1, m
        last = 0
        do j = 1, nc
          if (a(i, j) /= 0) last = a(i, j)
        end do
        ref(i + 1) = last
      end do
      dbuf = buffer_i32(context, fill)
      call expect_success(clscan_enqueue_axis_totals(plan, queue, CLSCAN_ALONG_COLUMNS, abuf, 0_c_size_t, &
                                                     int(p, c_size_t), dbuf, 1_c_size_t, int(nc, c_size_t), &
                                                     int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                          "clscan_enqueue_axis_totals (CLSCAN_ALONG_COLUMNS)" // trim(shape_name))
      call read_i32(queue, dbuf, got)
      call expect(all(got == ref), "clscan_enqueue_axis_totals (CLSCAN_ALONG_COLUMNS)" // trim(shape_name) // &
                  ": results, the rest of dst untouched")

      if (is == 1) then
        ! Bad calls: dst untouched
        call expect_failure(clscan_enqueue_axis_totals(plan, queue, 7, abuf, 0_c_size_t, int(p, c_size_t), dbuf, &
                                                       1_c_size_t, int(nc, c_size_t), int(m, c_size_t), 0_c_int32_t, &
                                                       c_null_ptr, c_null_ptr), CLSCAN_INVALID_AXIS, &
                            clscan_last_error(), "clscan_enqueue_axis_totals along axis 7")
        call expect_failure(clscan_enqueue_axis_totals(plan, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, &
                                                       int(m - 1, c_size_t), dbuf, 1_c_size_t, int(nc, c_size_t), &
                                                       int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                            CLSCAN_INVALID_PITCH, clscan_last_error(), "clscan_enqueue_axis_totals with a pitch below cols")
        call expect_failure(clscan_enqueue_axis_totals(plan, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, &
                                                       int(p, c_size_t), dbuf, int(size(fill) - nc + 1, c_size_t), &
                                                       int(nc, c_size_t), int(m, c_size_t), 0_c_int32_t, c_null_ptr, &
                                                       c_null_ptr), CLSCAN_RANGE_OUT_OF_BOUNDS, clscan_last_error(), &
                            "clscan_enqueue_axis_totals with totals past dst")
        call expect_failure(clscan_enqueue_axis_totals(c_null_ptr, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, &
                                                       int(p, c_size_t), dbuf, 1_c_size_t, int(nc, c_size_t), &
                                                       int(m, c_size_t), 0_c_int32_t, c_null_ptr, c_null_ptr), &
                            CLSCAN_INVALID_PLAN, clscan_last_error(), "clscan_enqueue_axis_totals without a plan")
        call read_i32(queue, dbuf, got)
        call expect(all(got == ref), "clscan_enqueue_axis_totals rejected: dst touched")

        ! Rows of no elements: nc neutrals; no lines: nothing written, the event completes
        ref(2:nc + 1) = 0
        call expect_success(clscan_enqueue_axis_totals(plan, queue, CLSCAN_ALONG_ROWS, abuf, 0_c_size_t, &
                                                       int(p, c_size_t), dbuf, 1_c_size_t, int(nc, c_size_t), &
                                                       0_c_size_t, 0_c_int32_t, c_null_ptr, c_null_ptr), &
                            "clscan_enqueue_axis_totals of empty rows")
        call expect_success(clscan_enqueue_axis_totals(plan, queue, CLSCAN_ALONG_COLUMNS, abuf, 0_c_size_t, &
                                                       int(p, c_size_t), dbuf, 1_c_size_t, int(nc, c_size_t), &
                                                       0_c_size_t, 0_c_int32_t, c_null_ptr, c_loc(done)), &
                            "clscan_enqueue_axis_totals of no columns")
        call expect_success(clWaitForEvents(1_c_int32_t, [done]), "clWaitForEvents (no lines)")
        call expect_success(clReleaseEvent(done), "clReleaseEvent")
        call read_i32(queue, dbuf, got)
        call expect(all(got == ref), "clscan_enqueue_axis_totals of empty rows: not the neutrals, or no lines wrote")
      end if
      call expect_success(clReleaseMemObject(dbuf), "clReleaseMemObject")
      call expect_success(clReleaseMemObject(abuf), "clReleaseMemObject")
      deallocate(a, got, ref, fill)
    end do
    call clscan_plan_release(plan)
  end subroutine test_axis_totals

  ! Axis sorts of int32 keys with int32 values, ascending and descending, along both axes of
  ! padded Fortran arrays a(m, nc) read at a pitch of p and written at a pitch of q, against a
  ! stable counting sort of each line: CLSCAN_ALONG_COLUMNS sorts each a(i, :), CLSCAN_ALONG_ROWS
  ! each a(:, j).  Keys in [-8, 8] repeat many times in a line and each value is its element's
  ! place, so the values show that equal keys kept their order.  The output padding stays as
  ! filled; the input padding holds keys that would show if read.  The shapes give lines ranked
  ! by comparisons (up to 32 keys), middling lines and columns of 5000 keys (more than one chunk
  ! of the radix passes).  Bad calls are rejected with the outputs untouched.
  subroutine test_axis_sort(context, queue)
    type(c_ptr), intent(in) :: context, queue
    integer, parameter :: shapes(4, 3) = reshape([37, 40, 41, 300, 20, 23, 20, 9, 3, 4, 5, 5000], [4, 3])
    integer, parameter :: klo = -8, khi = 8
    integer(c_int32_t), allocatable, target :: a(:, :), v(:, :), gotk(:, :), gotv(:, :), refk(:, :), refv(:, :), &
                                               fill(:, :)
    type(c_ptr) :: sorter, kin, vin, kout, vout
    type(c_ptr), target :: done
    integer(c_int) :: err, axis
    integer :: m, p, q, nc, is, i, j, ia, descending
    character(len=80) :: what
    topic = "axis sorts"
    sorter = clscan_sorter_create(context, device, CLSCAN_INT32, 4_c_size_t, err)
    call expect_success(err, "clscan_sorter_create(CLSCAN_INT32, values of 4 bytes)")
    if (err /= CL_SUCCESS) return
    do is = 1, size(shapes, 2)
      m = shapes(1, is)
      p = shapes(2, is)
      q = shapes(3, is)
      nc = shapes(4, is)
      allocate(a(p, nc), v(p, nc), gotk(q, nc), gotv(q, nc), refk(q, nc), refv(q, nc), fill(q, nc))
      a = reshape(int(random_ints(p * nc, int(klo, c_int64_t), int(khi, c_int64_t)), c_int32_t), [p, nc])
      a(m + 1:p, :) = klo - 1000
      v = reshape([(i, i = 0, p * nc - 1)], [p, nc])
      fill = sentinel32
      kin = buffer_i32(context, reshape(a, [p * nc]))
      vin = buffer_i32(context, reshape(v, [p * nc]))
      do ia = 1, 2
        axis = merge(CLSCAN_ALONG_COLUMNS, CLSCAN_ALONG_ROWS, ia == 1)
        do descending = 0, 1
          write (what, '(a, a, a, i0, a, i0, a, i0, a, i0)') trim(merge("columns", "rows   ", ia == 1)), &
              trim(merge(" descending", " ascending ", descending == 1)), " of a(", m, ", ", nc, ") at pitches ", p, &
              " and ", q
          refk = sentinel32
          refv = sentinel32
          if (ia == 1) then
            do i = 1, m
              call stable_counting_sort(a(i, :), v(i, :), klo, khi, descending == 1, refk(i, :), refv(i, :))
            end do
          else
            do j = 1, nc
              call stable_counting_sort(a(1:m, j), v(1:m, j), klo, khi, descending == 1, refk(1:m, j), refv(1:m, j))
            end do
          end if
          call expect_success(clscan_sorter_set_descending(sorter, descending), "clscan_sorter_set_descending")
          kout = buffer_i32(context, reshape(fill, [q * nc]))
          vout = buffer_i32(context, reshape(fill, [q * nc]))
          call expect_success(clscan_axis_sort_enqueue(sorter, queue, axis, kin, 0_c_size_t, int(p, c_size_t), kout, &
                                                       0_c_size_t, int(q, c_size_t), vin, 0_c_size_t, vout, &
                                                       0_c_size_t, int(nc, c_size_t), int(m, c_size_t), 0_c_int32_t, &
                                                       c_null_ptr, c_null_ptr), "clscan_axis_sort_enqueue " // trim(what))
          call read_i32_2d(queue, kout, gotk)
          call read_i32_2d(queue, vout, gotv)
          call expect(all(gotk == refk), "clscan_axis_sort_enqueue " // trim(what) // ": keys, padding untouched")
          call expect(all(gotv == refv), "clscan_axis_sort_enqueue " // trim(what) // &
                      ": values (stability), padding untouched")

          if (is == 1 .and. ia == 1 .and. descending == 1) then
            ! Bad calls: the outputs untouched
            call expect_failure(clscan_axis_sort_enqueue(sorter, queue, 7, kin, 0_c_size_t, int(p, c_size_t), kout, &
                                                         0_c_size_t, int(q, c_size_t), vin, 0_c_size_t, vout, &
                                                         0_c_size_t, int(nc, c_size_t), int(m, c_size_t), 0_c_int32_t, &
                                                         c_null_ptr, c_null_ptr), CLSCAN_INVALID_AXIS, &
                                clscan_last_error(), "clscan_axis_sort_enqueue along axis 7")
            call expect_failure(clscan_axis_sort_enqueue(sorter, queue, axis, kin, 0_c_size_t, int(p, c_size_t), &
                                                         kout, 0_c_size_t, int(m - 1, c_size_t), vin, 0_c_size_t, &
                                                         vout, 0_c_size_t, int(nc, c_size_t), int(m, c_size_t), &
                                                         0_c_int32_t, c_null_ptr, c_null_ptr), CLSCAN_INVALID_PITCH, &
                                clscan_last_error(), "clscan_axis_sort_enqueue with an output pitch below cols")
            call expect_failure(clscan_axis_sort_enqueue(sorter, queue, axis, kin, 0_c_size_t, int(p, c_size_t), &
                                                         kout, 0_c_size_t, int(q, c_size_t), c_null_ptr, 0_c_size_t, &
                                                         c_null_ptr, 0_c_size_t, int(nc, c_size_t), int(m, c_size_t), &
                                                         0_c_int32_t, c_null_ptr, c_null_ptr), CL_INVALID_MEM_OBJECT, &
                                clscan_last_error(), "clscan_axis_sort_enqueue without the sorter's values")
            call expect_failure(clscan_axis_sort_enqueue(sorter, queue, axis, kin, 0_c_size_t, int(p, c_size_t), &
                                                         kout, 0_c_size_t, int(q, c_size_t), vin, 0_c_size_t, vout, &
                                                         0_c_size_t, int(nc + 1, c_size_t), int(m, c_size_t), &
                                                         0_c_int32_t, c_null_ptr, c_null_ptr), &
                                CLSCAN_RANGE_OUT_OF_BOUNDS, clscan_last_error(), &
                                "clscan_axis_sort_enqueue of a row past the buffers")
            call expect_failure(clscan_axis_sort_enqueue(c_null_ptr, queue, axis, kin, 0_c_size_t, int(p, c_size_t), &
                                                         kout, 0_c_size_t, int(q, c_size_t), vin, 0_c_size_t, vout, &
                                                         0_c_size_t, int(nc, c_size_t), int(m, c_size_t), &
                                                         0_c_int32_t, c_null_ptr, c_null_ptr), CLSCAN_INVALID_HANDLE, &
                                clscan_last_error(), "clscan_axis_sort_enqueue without a sorter")
            ! No rows: nothing sorted, the event completes
            call expect_success(clscan_axis_sort_enqueue(sorter, queue, axis, kin, 0_c_size_t, int(p, c_size_t), &
                                                         kout, 0_c_size_t, int(q, c_size_t), vin, 0_c_size_t, vout, &
                                                         0_c_size_t, 0_c_size_t, int(m, c_size_t), 0_c_int32_t, &
                                                         c_null_ptr, c_loc(done)), "clscan_axis_sort_enqueue of no rows")
            call expect_success(clWaitForEvents(1_c_int32_t, [done]), "clWaitForEvents (no rows)")
            call expect_success(clReleaseEvent(done), "clReleaseEvent")
            call read_i32_2d(queue, kout, gotk)
            call read_i32_2d(queue, vout, gotv)
            call expect(all(gotk == refk) .and. all(gotv == refv), &
                        "clscan_axis_sort_enqueue rejected or of no rows: an output touched")
          end if
          call expect_success(clReleaseMemObject(kout), "clReleaseMemObject")
          call expect_success(clReleaseMemObject(vout), "clReleaseMemObject")
        end do
      end do
      call expect_success(clReleaseMemObject(kin), "clReleaseMemObject")
      call expect_success(clReleaseMemObject(vin), "clReleaseMemObject")
      deallocate(a, v, gotk, gotv, refk, refv, fill)
    end do
    call clscan_sorter_release(sorter)
  end subroutine test_axis_sort

  ! A stable sort of keys in [lo, hi] with their values by counting: the keys of each value in
  ! turn (increasing, or decreasing when descending), in their order in the line.
  subroutine stable_counting_sort(keys, values, lo, hi, descending, sorted_keys, sorted_values)
    integer(c_int32_t), intent(in) :: keys(:), values(:)
    integer, intent(in) :: lo, hi
    logical, intent(in) :: descending
    integer(c_int32_t), intent(inout) :: sorted_keys(:), sorted_values(:)
    integer :: k, i, n
    n = 0
    do k = merge(hi, lo, descending), merge(lo, hi, descending), merge(-1, 1, descending)
      do i = 1, size(keys)
        if (keys(i) == k) then
          n = n + 1
          sorted_keys(n) = keys(i)
          sorted_values(n) = values(i)
        end if
      end do
    end do
  end subroutine stable_counting_sort

  ! A blocking read of the first size(values) int64 values of a buffer.
  subroutine read_back(queue, buffer, values)
    type(c_ptr), intent(in) :: queue, buffer
    integer(c_int64_t), intent(inout), target, contiguous :: values(:)
    call expect_success(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0_c_size_t, int(size(values), c_size_t) * 8, &
                                            c_loc(values), 0_c_int32_t, c_null_ptr, c_null_ptr), "clEnqueueReadBuffer")
  end subroutine read_back

  subroutine setup_error(what, err)
    character(len=*), intent(in) :: what
    integer(c_int), intent(in) :: err
    write (error_unit, '(4a)') "fortran_test: setup error: ", what, ": ", clscan_error_string(err)
    stop 99
  end subroutine setup_error

end program fortran_test
