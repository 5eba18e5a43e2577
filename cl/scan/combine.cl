/* The order of comb's arguments: every combination in the kernels is COMBINE(previous, current)
 * (COMBINE_STEP in a work-item's sequential run and for the outputs, VALUE_COMBINE on the values
 * of segmented programs' pairs).  For a commutative operator the order is invisible; for AFFINE,
 * LAST_NONZERO or a user's operator it is the result.  The test suite replaces this file by one
 * that swaps the arguments and checks that it fails (tests/swapped_comb.sh). */
#define COMBINE(a, b) COMB((a), (b))
#define COMBINE_STEP(a, b) COMB_STEP((a), (b))
#define VALUE_COMBINE(a, b) clscan_value_comb((a), (b))
