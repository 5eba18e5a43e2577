/* Plain scans through a transform (clscan_plan_set_transform): the source holds elements of the
 * user's type, which the input transform maps to the operator's T as they are loaded, and the
 * destination elements of another type, which the output transform makes from each result as
 * it is stored (lib/transform.c defines clscan_transform_src, clscan_transform_dst,
 * clscan_transform_in and clscan_transform_out from the user's snippets; without an output
 * transform the destination type is T and the output transform the identity).  Every load of
 * the kernels goes through LOAD_IN, so the tiles' totals of reduce-then-scan's first pass, the
 * single pass and its fallback (tile_total_alone) all see the same transformed elements and give
 * the same bits.  The carry-in and the total stay T (OPT_T); so do the tile totals, whose levels
 * are scanned by the plan's levels program (scan/io_plain.cl on T).  The index given to the
 * transforms is the element's place in the scan (from the end for a reverse scan, CLSCAN_DIR
 * -1), the order in which the scan reads.  Otherwise scan/io_plain.cl. */
#define AT(p, i) (p)[CLSCAN_DIR * (long)(i)]
#define LOAD_IN(src, i) clscan_transform_in(AT(src, i), (ulong)(i))
#define STORE_OUT(dst, i, x) (AT(dst, i) = clscan_transform_out((x), (ulong)(i)))
#define AS_T(x) (x)
#define OUT_OF(t) (t)
#define IN_T clscan_transform_src
#define OUT_T clscan_transform_dst
#define OPT_T T
/* The levels kernel of this program is never launched (the levels program scans the totals);
 * the cast only lets it compile. */
#define LEVELS_IN(p) ((__global const IN_T *)(p))
#define IN_PARAMS
#define IN_ARGS
#define IN_KERNEL_PARAMS
#define IN_KERNEL_LOCALS
#define CARRY_T T
#define CARRY_AT(c, i) ((c)[i])
#define TOTALS_PARAMS
#define STORE_TOTAL(t, i, x) ((t)[i] = (x))
