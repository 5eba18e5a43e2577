/* clscan built-in operators.
 *
 * The scan kernels (cl/scan/) are generic: they need only
 *   T             the element type,
 *   NEUTRAL       the neutral element, an expression of type T,
 *   COMB(a, b)    the associative combination, a = previous (left), b = current,
 *   COMB_STEP(a, b)  the same where the result is only extended by one more element or stored
 *                 (a work-item's sequential run, the outputs): COMB, or for the compensated
 *                 AFFINE an unnormalised form of it, equal once stored.
 * This file makes each built-in operator an instance of that mechanism, chosen with
 *   -DCLSCAN_OP=CLSCAN_SUM|CLSCAN_MAX|CLSCAN_MIN|CLSCAN_LAST_NONZERO|CLSCAN_AFFINE
 *   -DCLSCAN_TYPE=CLSCAN_INT32|CLSCAN_UINT32|CLSCAN_INT64|CLSCAN_UINT64|CLSCAN_FLOAT|CLSCAN_DOUBLE
 * A user-supplied operator defines T, NEUTRAL and COMB itself (and COMB_STEP as COMB) instead of
 * including this file (lib/custom.c). */

/* The values of the clscan_op and clscan_type enums of clscan.h. */
#define CLSCAN_SUM          0
#define CLSCAN_MAX          1
#define CLSCAN_MIN          2
#define CLSCAN_LAST_NONZERO 3
#define CLSCAN_AFFINE       4

#define CLSCAN_INT32  0
#define CLSCAN_UINT32 1
#define CLSCAN_INT64  2
#define CLSCAN_UINT64 3
#define CLSCAN_FLOAT  4
#define CLSCAN_DOUBLE 5

/* a*b + c must round like the plain C expression: no contraction into fma. */
#pragma OPENCL FP_CONTRACT OFF

/* S: the scalar type; U: the unsigned type of the same width, in which integer arithmetic
 * wraps (signed overflow is undefined in OpenCL C); S2/U2: pairs, for AFFINE (S4: the
 * compensated AFFINE's elements); SEL: the integer type of S's width that select() takes as its
 * condition. */
#if CLSCAN_TYPE == CLSCAN_INT32
#define SEL int
#define S int
#define S2 int2
#define U uint
#define U2 uint2
#define AS_S(x) as_int(x)
#define AS_S2(x) as_int2(x)
#define S_LOWEST INT_MIN
#define S_HIGHEST INT_MAX
#elif CLSCAN_TYPE == CLSCAN_UINT32
#define SEL uint
#define S uint
#define S2 uint2
#define U uint
#define U2 uint2
#define AS_S(x) (x)
#define AS_S2(x) (x)
#define S_LOWEST 0u
#define S_HIGHEST UINT_MAX
#elif CLSCAN_TYPE == CLSCAN_INT64
#define SEL long
#define S long
#define S2 long2
#define U ulong
#define U2 ulong2
#define AS_S(x) as_long(x)
#define AS_S2(x) as_long2(x)
#define S_LOWEST LONG_MIN
#define S_HIGHEST LONG_MAX
#elif CLSCAN_TYPE == CLSCAN_UINT64
#define SEL ulong
#define S ulong
#define S2 ulong2
#define U ulong
#define U2 ulong2
#define AS_S(x) (x)
#define AS_S2(x) (x)
#define S_LOWEST 0ul
#define S_HIGHEST ULONG_MAX
#elif CLSCAN_TYPE == CLSCAN_FLOAT
#define SEL int
#define S float
#define S2 float2
#define S4 float4
#define S_FLOATING 1
#define S_LOWEST (-INFINITY)
#define S_HIGHEST INFINITY
#elif CLSCAN_TYPE == CLSCAN_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define SEL long
#define S double
#define S2 double2
#define S4 double4
#define S_FLOATING 1
#define S_LOWEST (-(double)INFINITY)
#define S_HIGHEST ((double)INFINITY)
#else
#error "CLSCAN_TYPE is not one of the clscan_type values"
#endif

#if CLSCAN_OP == CLSCAN_SUM
#define T S
#define NEUTRAL ((S)0)
#ifdef S_FLOATING
#define COMB(a, b) ((a) + (b))
#else
#define COMB(a, b) AS_S((U)(a) + (U)(b))
#endif

#elif CLSCAN_OP == CLSCAN_MAX || CLSCAN_OP == CLSCAN_MIN
#define T S
#if CLSCAN_OP == CLSCAN_MAX
#define NEUTRAL S_LOWEST
#else
#define NEUTRAL S_HIGHEST
#endif
#define COMB(a, b) clscan_op_extremum((a), (b))
/* Floats follow IEEE 754-2019 maximum/minimum: a NaN wins (the first one, so the result does
 * not depend on the order of evaluation), and -0.0 < +0.0.  Ties keep a. */
inline S clscan_op_extremum(S a, S b)
{
#ifdef S_FLOATING
    if (isnan(a)) return a;
    if (isnan(b)) return b;
#if CLSCAN_OP == CLSCAN_MAX
    return (b > a || (b == a && signbit(a) && !signbit(b))) ? b : a;
#else
    return (b < a || (b == a && signbit(b) && !signbit(a))) ? b : a;
#endif
#else
#if CLSCAN_OP == CLSCAN_MAX
    return b > a ? b : a;
#else
    return b < a ? b : a;
#endif
#endif
}

#elif CLSCAN_OP == CLSCAN_LAST_NONZERO
/* Carries the last non-zero value forward; for floats -0.0 == 0 counts as zero, NaN as non-zero.
 * select() rather than ?: so that CPUs get a blend whatever the data: PoCL compiled ?: in a
 * work-item's run into code as slow as a mispredicted branch on random data (2^24 int32,
 * PoCL: 20-23 ms with ?:, 11-12 ms with select()). */
#define T S
#define NEUTRAL ((S)0)
#define COMB(a, b) select((a), (b), (SEL)((b) != (S)0))

#elif CLSCAN_OP == CLSCAN_AFFINE && defined(S_FLOATING) && CLSCAN_COMPENSATED
/* Compensated AFFINE (CLSCAN_ACCURACY_COMPENSATED; the host defines CLSCAN_COMPENSATED 1): the
 * kernels carry each element as (a, b, a_lo, 0), the map x -> (a + a_lo)*x + b, so that the
 * product of the slopes is an unevaluated double-word a + a_lo, far more accurate than one
 * rounded value.  (With a constant slope every full tile has the same product, and a product
 * rounded once in the working precision is off by the same amount in every tile: the carries,
 * which compose those products tile after tile, would drift linearly with the number of tiles,
 * and y with them.)
 *   COMB_STEP(p, c), a work-item's sequential step and the outputs: hi = c.a*p.a rounded; its
 *   error, exactly, by TwoProduct (an fma: T. J. Dekker, "A floating-point technique for
 *   extending the available precision", Numer. Math. 18, 1971; T. Ogita, S. M. Rump, S. Oishi,
 *   "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005), plus the low parts' terms
 *   c.a*p.a_lo + c.a_lo*p.a (c.a_lo*p.a_lo is dropped), is the low part: for elements from
 *   memory (a_lo 0) S. Graillat's compensated product ("Accurate floating-point product and
 *   exponentiation", IEEE Trans. Computers 58(7), 2009), whose low part stays within a few
 *   hundred ulps of hi over a run; b = c.a*p.b + (c.a_lo*p.b + c.b), the latter fused.
 *   COMB(p, c): the same, renormalised by Fast2Sum (|a_lo| <= half an ulp of a): the product of
 *   a double-word by a double-word (M. Joldes, J.-M. Muller, V. Popescu, "Tight and rigorous
 *   error bounds for basic building blocks of double-word arithmetic", ACM TOMS 44(2), 2017), so
 *   that chains of carries, however long, compose renormalised products.  NARROW of either gives
 *   the same pair (a + a_lo rounded once).
 * Where no product is rounded (a_lo 0) the results are those of the working precision, bits and
 * signs of zeros included, and a product that overflows to inf stays inf (its a_lo is then
 * ignored: no inf - inf).  Memory holds pairs (NARROW_T): WIDEN makes an element of one, NARROW
 * rounds a + a_lo back.  AFFINE_MAKE(a, b): the element of a pair's values
 * (scan/io_recurrence.cl). */
#define T S4
#define NEUTRAL ((S4)((S)1, (S)0, (S)0, (S)0))
#define COMB(p, c) clscan_op_affine((p), (c))
#define COMB_STEP(p, c) clscan_op_affine_step((p), (c))
#define NARROW_T S2
#define WIDEN(v) ((S4)((v).x, (v).y, (S)0, (S)0))
#define NARROW(t) ((S2)(select((t).x, (t).x + (t).z, (SEL)((t).z != (S)0) & (SEL)isfinite((t).x)), \
                         (t).y))
#define AFFINE_MAKE(a, b) ((S4)((a), (b), (S)0, (S)0))
inline S4 clscan_op_affine_step(S4 p, S4 c)
{
    /* c.a_lo's terms behind a test, which the compiler removes where c is an element just
     * loaded (c.a_lo a constant 0); a_lo is finite wherever a is (an overflow makes a_lo inf or
     * NaN, but then a is inf or NaN first), and counts only where a is finite */
    const SEL c_lo = (SEL)(c.z != (S)0) & (SEL)isfinite(c.x);
    const S hi = c.x * p.x, e = fma(c.x, p.x, -hi);
    const S lo = fma(c.x, p.z, select(e, fma(c.z, p.x, e), c_lo));
    const S b = c.x * p.y + select(c.y, fma(c.z, p.y, c.y), c_lo);
    return (S4)(hi, b, lo, (S)0);
}
inline S4 clscan_op_affine(S4 p, S4 c)
{
    const S4 r = clscan_op_affine_step(p, c);
    const S lo = select((S)0, r.z, (SEL)isfinite(r.x));
    const SEL inexact = lo != (S)0;
    const S a = select(r.x, r.x + lo, inexact);
    return (S4)(a, r.y, select((S)0, lo - (a - r.x), inexact), (S)0);
}

#elif CLSCAN_OP == CLSCAN_AFFINE
/* (a, b) stands for x -> a*x + b; comb(p, c) = c after p = (c.a*p.a, c.a*p.b + c.b), each
 * product and sum rounded once (CLSCAN_ACCURACY_WORKING, and the integer types). */
#define T S2
#define NEUTRAL ((S2)((S)1, (S)0))
#define COMB(p, c) clscan_op_affine((p), (c))
#define AFFINE_MAKE(a, b) ((S2)((a), (b)))
inline S2 clscan_op_affine(S2 p, S2 c)
{
#ifdef S_FLOATING
    return (S2)(c.x * p.x, c.x * p.y + c.y);
#else
    const U2 pu = (U2)((U)p.x, (U)p.y), cu = (U2)((U)c.x, (U)c.y);
    return AS_S2((U2)(cu.x * pu.x, cu.x * pu.y + cu.y));
#endif
}

#else
#error "CLSCAN_OP is not one of the clscan_op values"
#endif

/* COMB_STEP(p, c): a work-item's sequential step and the outputs (scan/items.cl,
 * scan/tile_streamed.cl), COMB itself but for the compensated AFFINE. */
#ifndef COMB_STEP
#define COMB_STEP(p, c) COMB((p), (c))
#endif

/* COMB_LANES16(a, b): COMB on 16 lanes of 4-byte integers as their bits (uint16), defined where
 * it is exact in any grouping and has a vector form (SUM, MAX, MIN and LAST_NONZERO of INT32 and
 * UINT32): the CPUs' reduce-by-key folds 16 pairs a step with it (scan/runs_lanes.cl). */
#if (CLSCAN_TYPE == CLSCAN_INT32 || CLSCAN_TYPE == CLSCAN_UINT32) && CLSCAN_OP != CLSCAN_AFFINE
#if CLSCAN_OP == CLSCAN_SUM
#define COMB_LANES16(a, b) ((a) + (b))
#elif CLSCAN_OP == CLSCAN_LAST_NONZERO
#define COMB_LANES16(a, b) select((a), (b), (b) != (uint16)0)
#elif CLSCAN_TYPE == CLSCAN_INT32
#define COMB_LANES16(a, b) as_uint16(CLSCAN_OP == CLSCAN_MAX ? max(as_int16(a), as_int16(b)) \
                                                             : min(as_int16(a), as_int16(b)))
#else
#define COMB_LANES16(a, b) (CLSCAN_OP == CLSCAN_MAX ? max((a), (b)) : min((a), (b)))
#endif
#endif
