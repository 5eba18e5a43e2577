! Zero-phase smoothing of a noisy signal, as scipy.signal.filtfilt does with a one-pole filter:
! the exponential smoothing y(i) = a*y(i-1) + (1-a)*x(i) run forwards, then the same filter run
! backwards over its output, which undoes the forward pass's delay.  Each pass is an inclusive
! CLSCAN_AFFINE scan of the maps y -> a*y + b, held as pairs (a, b) in the columns of a (2, n)
! array, by clscan_host_with from the Fortran module: the forward pass in two halves (the first
! half's total, the composition of its maps, is the second half's carry), the backward pass with
! reverse.  Checked against the sequential loops (the scan rounds in another order: within a
! tolerance).
!
!   gfortran zero_phase.f90 $(pkg-config --cflags --libs clscan-fortran)
!   ./a.out            (exit status 0 when the result is right, 77 without a device)
program zero_phase
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  use clscan
  implicit none
  integer, parameter :: n = 1000000, half = n / 2
  real(c_double), parameter :: a = 0.995_c_double   ! a time constant of 200 samples
  real(c_double), allocatable :: x(:), maps(:, :), y(:, :), z(:, :), y_loop(:)
  real(c_double) :: total(2), state, worst
  type(c_ptr) :: platform, device
  character(len=2000) :: msg
  integer(c_int) :: status
  integer :: i
  logical :: ok

  status = clscan_default_device(platform, device)
  if (status /= CL_SUCCESS) then   ! 'make check' counts 77 as skipped
    write (error_unit, '(2a)') "zero_phase: no OpenCL device: ", clscan_error_string(status)
    stop 77
  end if

  allocate(x(n), maps(2, n), y(2, n), z(2, n), y_loop(n))
  do i = 1, n   ! a slow sine, and a fast one: the noise to remove
    x(i) = sin(2.0e-5_c_double * i) + 0.5_c_double * sin(0.3_c_double * i)
  end do

  ! Forwards, starting settled on the first sample: the carry is the map y -> y + x(1)
  maps(1, :) = a
  maps(2, :) = (1 - a) * x
  status = clscan_host_with(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, maps(:, 1:half), y(:, 1:half), &
                            init=[1.0_c_double, x(1)], total=total, errmsg=msg)
  call check("the forward pass's first half")
  status = clscan_host_with(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, maps(:, half + 1:), y(:, half + 1:), &
                            init=total, errmsg=msg)
  call check("the forward pass's second half")

  ! Backwards over the forward pass's output y(2, :), starting settled on its last value
  maps(2, :) = (1 - a) * y(2, :)
  status = clscan_host_with(CLSCAN_AFFINE, CLSCAN_INCLUSIVE, maps, z, init=[1.0_c_double, y(2, n)], &
                            reverse=.true., errmsg=msg)
  call check("the backward pass")

  ! The sequential filters
  worst = 0
  state = x(1)
  do i = 1, n
    state = a * state + (1 - a) * x(i)
    y_loop(i) = state
    worst = max(worst, abs(y(2, i) - state))
  end do
  state = y_loop(n)
  do i = n, 1, -1
    state = a * state + (1 - a) * y_loop(i)
    worst = max(worst, abs(z(2, i) - state))
  end do
  ok = worst < 1.0e-9_c_double
  write (*, '(a, i0, a, i0, a, g0.12, a, es7.1, 2a)') "zero_phase: ", n, " samples, z(", half, ") = ", &
      z(2, half), ", largest difference from the loops ", worst, ": ", trim(merge("correct", "WRONG  ", ok))
  call clscan_cache_clear()   ! the device's context, queue and plans
  if (.not. ok) stop 1

contains

  subroutine check(what)
    character(len=*), intent(in) :: what
    if (status == CL_SUCCESS) return
    write (error_unit, '(5a)') "zero_phase: ", what, ": ", clscan_error_string(status), ": " // trim(msg)
    stop 1
  end subroutine check

end program zero_phase
