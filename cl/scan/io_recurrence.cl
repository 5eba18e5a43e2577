/* Linear recurrences y[i] = a[i] * y[i-1] + b[i] (clscan_enqueue_recurrence) on the built-in
 * AFFINE operator: its pairs (a, b), maps y -> a*y + b, are made as the elements are loaded,
 * from the array of b (the source), and from the array of a or the one constant a; the scan
 * composes them, and the second component of the inclusive scan is y[i].  Only y is stored, so
 * the kernels read a and b once and write y once, without an array of pairs (AFFINE_MAKE(a, b)
 * of ops/builtin.cl makes the element: a pair, or a compensated one).  The tiles' totals and
 * carries stay T (the levels of reduce-then-scan run on the plan's plain program, or on its
 * levels program where the recurrence is compensated).  The names are those of
 * scan/io_plain.cl, read forwards or backwards the same way.
 *   carry y0:  the pair (1, y0): the map y -> y + y0 applied to y[-1] = 0 gives y0
 *   total:     the second component, y[count - 1] */
#define AT(p, i) (p)[CLSCAN_DIR * (long)(i)]
#define LOAD_IN(src, i) AFFINE_MAKE(coef_const ? coef_value : AT(coef, i), AT(src, i))
#define STORE_OUT(dst, i, x) (AT(dst, i) = (x).y)
#define AS_T(x) AFFINE_MAKE((S)1, (x))
#define OUT_OF(t) (t).y
#define IN_T S
#define OUT_T S
#define OPT_T S
#define LEVELS_IN(p) (p)
#define IN_PARAMS , __global const S *coef, S coef_value, uint coef_const
#define IN_ARGS , coef, coef_value, coef_const
/* coef_const 1: every a is coef_value (coef_buf is a placeholder). */
#define IN_KERNEL_PARAMS , __global const S *coef_buf, ulong coef_offset, S coef_value, uint coef_const
#define IN_KERNEL_LOCALS __global const S *coef = coef_buf + coef_offset;
#define CARRY_T T
#define CARRY_AT(c, i) ((c)[i])
#define TOTALS_PARAMS
#define STORE_TOTAL(t, i, x) ((t)[i] = (x))
