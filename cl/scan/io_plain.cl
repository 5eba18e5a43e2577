/* Plain scans: elements come from an array of T and go to one, read forwards (CLSCAN_DIR 1) or
 * backwards (CLSCAN_DIR -1: the host passes pointers to the last elements, so that element i
 * of the scan is the i-th from the end: a reverse scan).  (Segmented programs define the same
 * names in scan/segmented.cl and the segments parts.)
 *   LOAD_IN(src, i), STORE_OUT(dst, i, x)   element i of the scan in the arrays
 *   AS_T(x), OUT_OF(t)  a destination element as a T, and back
 *   IN_T, OUT_T         element types of the source and the destination
 *   OPT_T               element type of the carry-in and the total (scan/options.cl)
 *   LEVELS_IN(p)        a destination array read back as a source (the levels, in place)
 *   IN_PARAMS, IN_ARGS  extra parameters of the functions that load (after src)
 *   IN_KERNEL_PARAMS    extra kernel parameters (last); IN_KERNEL_LOCALS turns them into IN_ARGS
 *   CARRY_T, CARRY_AT(c, i)   the type of the tile totals and carries (reduce-then-scan's
 *                       levels), element i of such an array as a T
 *   TOTALS_PARAMS, STORE_TOTAL(t, i, x)   where clscan_reduce writes the tiles' totals */
#define AT(p, i) (p)[CLSCAN_DIR * (long)(i)]
#define LOAD_IN(src, i) AT(src, i)
#define STORE_OUT(dst, i, x) (AT(dst, i) = (x))
#define AS_T(x) (x)
#define OUT_OF(t) (t)
#define IN_T T
#define OUT_T T
#define OPT_T T
#define LEVELS_IN(p) (p)
#define IN_PARAMS
#define IN_ARGS
#define IN_KERNEL_PARAMS
#define IN_KERNEL_LOCALS
#define CARRY_T T
#define CARRY_AT(c, i) ((c)[i])
#define TOTALS_PARAMS
#define STORE_TOTAL(t, i, x) ((t)[i] = (x))
