/* Plain scans whose elements are stored narrower than the kernels' T: the pairs (a, b) of a
 * compensated AFFINE plan, which the kernels carry as (a, b, a_lo, 0) (ops/builtin.cl: NARROW_T,
 * WIDEN and NARROW).  Loads widen, stores narrow, the carry-in and the total are pairs; the tile
 * totals and carries stay T, so that no low part is lost between tiles (reduce-then-scan's levels
 * of totals are scanned by the plan's levels program, which is scan/io_plain.cl on T).  Otherwise
 * scan/io_plain.cl, read forwards or backwards the same way. */
#define AT(p, i) (p)[CLSCAN_DIR * (long)(i)]
#define LOAD_IN(src, i) WIDEN(AT(src, i))
#define STORE_OUT(dst, i, x) (AT(dst, i) = NARROW(x))
#define AS_T(x) WIDEN(x)
#define OUT_OF(t) NARROW(t)
#define IN_T NARROW_T
#define OUT_T NARROW_T
#define OPT_T NARROW_T
#define LEVELS_IN(p) (p)
#define IN_PARAMS
#define IN_ARGS
#define IN_KERNEL_PARAMS
#define IN_KERNEL_LOCALS
#define CARRY_T T
#define CARRY_AT(c, i) ((c)[i])
#define TOTALS_PARAMS
#define STORE_TOTAL(t, i, x) ((t)[i] = (x))
