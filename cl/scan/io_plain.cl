/* Plain scans: elements come from an array of T and go to one.  (Segmented programs define the
 * same names in scan/segmented.cl and the segments parts.)
 *   IN_T, OUT_T         element types of the source and the destination
 *   IN_PARAMS, IN_ARGS  extra parameters of the functions that load (after src)
 *   IN_KERNEL_PARAMS    extra kernel parameters (last); IN_KERNEL_LOCALS turns them into IN_ARGS
 *   CARRY_AT(c, i)      element i of an array of tile carries, as a T
 *   TOTALS_PARAMS, STORE_TOTAL(t, i, x)   where clscan_reduce writes the tiles' totals */
#define IN_T T
#define OUT_T T
#define IN_PARAMS
#define IN_ARGS
#define IN_KERNEL_PARAMS
#define IN_KERNEL_LOCALS
#define CARRY_AT(c, i) ((c)[i])
#define TOTALS_PARAMS
#define STORE_TOTAL(t, i, x) ((t)[i] = (x))
