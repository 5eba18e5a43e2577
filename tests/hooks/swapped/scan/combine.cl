/* Test hook (tests/swapped_comb.sh), in place of cl/scan/combine.cl: every combination with its
 * arguments swapped, comb(current, previous).  The non-commutative checks must then fail. */
#define COMBINE(a, b) COMB((b), (a))
#define COMBINE_STEP(a, b) COMB_STEP((b), (a))
#define VALUE_COMBINE(a, b) clscan_value_comb((b), (a))
