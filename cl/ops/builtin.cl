/* clscan built-in operators.
 *
 * The scan kernels (cl/scan/) are generic: they need only
 *   T             the element type,
 *   NEUTRAL       the neutral element, an expression of type T,
 *   COMB(a, b)    the associative combination, a = previous (left), b = current.
 * This file makes each built-in operator an instance of that mechanism, chosen with
 *   -DCLSCAN_OP=CLSCAN_SUM|CLSCAN_MAX|CLSCAN_MIN|CLSCAN_LAST_NONZERO|CLSCAN_AFFINE
 *   -DCLSCAN_TYPE=CLSCAN_INT32|CLSCAN_UINT32|CLSCAN_INT64|CLSCAN_UINT64|CLSCAN_FLOAT|CLSCAN_DOUBLE
 * A user-supplied operator defines T, NEUTRAL and COMB itself instead of including this file. */

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
 * wraps (signed overflow is undefined in OpenCL C); S2/U2: pairs, for AFFINE; SEL: the
 * integer type of S's width that select() takes as its condition. */
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
#define S_FLOATING 1
#define S_LOWEST (-INFINITY)
#define S_HIGHEST INFINITY
#elif CLSCAN_TYPE == CLSCAN_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define SEL long
#define S double
#define S2 double2
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

#elif CLSCAN_OP == CLSCAN_AFFINE
/* (a, b) stands for x -> a*x + b; comb(p, c) = c after p = (c.a*p.a, c.a*p.b + c.b). */
#define T S2
#define NEUTRAL ((S2)((S)1, (S)0))
#define COMB(p, c) clscan_op_affine((p), (c))
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
