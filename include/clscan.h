/* clscan: prefix scans on any OpenCL 1.2 device.
 *
 * A plan fixes the operator, the element type and the kind of scan (inclusive or exclusive)
 * for one device of one context; clscan_enqueue() then scans buffers on any queue of that
 * context and device.  All counts and offsets are in elements.  Every function validates its
 * arguments before it enqueues anything: a rejected call returns a specific status code, sets
 * the message returned by clscan_last_error(), and leaves every buffer untouched.
 *
 * Status codes are cl_int: OpenCL's own values where one fits (CL_INVALID_VALUE,
 * CL_INVALID_MEM_OBJECT, ...), clscan's own codes (CLSCAN_*) in the range -3000 ... -3099,
 * which no OpenCL code uses.  clscan_error_string() names any of them. */
#ifndef CLSCAN_H
#define CLSCAN_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#include <stddef.h>

#include "clscan_version.h"

#if defined(_WIN32) && defined(CLSCAN_BUILDING_LIBRARY) && defined(DLL_EXPORT)
#define CLSCAN_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(CLSCAN_BUILDING_LIBRARY)
#define CLSCAN_API __attribute__((visibility("default")))
#else
#define CLSCAN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The combining operator.  comb(a, b) with a the previous (left) value and b the current one:
 *   CLSCAN_SUM           a + b            neutral 0          (integers wrap)
 *   CLSCAN_MAX           max(a, b)        neutral lowest     (floats: IEEE 754-2019 maximum:
 *                                                             a NaN wins, -0.0 < +0.0)
 *   CLSCAN_MIN           min(a, b)        neutral highest    (floats: a NaN wins, -0.0 < +0.0)
 *   CLSCAN_LAST_NONZERO  b != 0 ? b : a   neutral 0          (floats: -0.0 counts as zero,
 *                                                             NaN as non-zero)
 *   CLSCAN_AFFINE        elements are pairs (a, b) meaning x -> a*x + b, stored a, b
 *                        interleaved; comb(p, c) = (c.a*p.a, c.a*p.b + c.b), "p then c";
 *                        neutral (1, 0).  Integer arithmetic wraps. */
typedef enum clscan_op   { CLSCAN_SUM, CLSCAN_MAX, CLSCAN_MIN, CLSCAN_LAST_NONZERO, CLSCAN_AFFINE } clscan_op;
/* The element types.  CLSCAN_INT8 ... CLSCAN_UINT16 are keys of the radix sort only
 * (clscan_sorter_create); every scan rejects them with CLSCAN_INVALID_TYPE.  They extend this
 * enum rather than a sorter-only one so that the sorter keeps one vocabulary of types with the
 * rest of the library (as ArrayFire's af_dtype, whose functions each reject the types they do not
 * support), clscan_sorter_create keeps its signature, and the old values keep their numbers. */
typedef enum clscan_type {
    CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64, CLSCAN_UINT64, CLSCAN_FLOAT, CLSCAN_DOUBLE,
    CLSCAN_INT8, CLSCAN_UINT8, CLSCAN_INT16, CLSCAN_UINT16
} clscan_type;
/* Inclusive: y[i] = x[0] op ... op x[i].  Exclusive: y[0] = neutral, y[i] = x[0] op ... op x[i-1]
 * (the inclusive result shifted right by one, never computed by subtracting). */
typedef enum clscan_kind { CLSCAN_INCLUSIVE, CLSCAN_EXCLUSIVE } clscan_kind;
typedef struct clscan_plan clscan_plan;

/* clscan's own status codes. */
#define CLSCAN_INVALID_PLAN            -3000 /* NULL plan */
#define CLSCAN_INVALID_OPERATOR        -3001 /* op is not a clscan_op */
#define CLSCAN_INVALID_TYPE            -3002 /* type is not a clscan_type */
#define CLSCAN_INVALID_KIND            -3003 /* kind is not a clscan_kind */
#define CLSCAN_FP64_NOT_SUPPORTED      -3004 /* CLSCAN_DOUBLE on a device without cl_khr_fp64 */
#define CLSCAN_RANGE_OUT_OF_BOUNDS     -3005 /* offset + count past the end of a buffer, or overflow */
#define CLSCAN_DEVICE_NOT_SUPPORTED    -3006 /* the device cannot run the kernels (limits too small) */
#define CLSCAN_KERNEL_SOURCE_NOT_FOUND -3007 /* CLSCAN_KERNEL_DIR set, but a .cl file could not be read */
#define CLSCAN_INVALID_DEVICE_SPEC     -3008 /* CLSCAN_DEVICE (or a --device string) matches no device */
#define CLSCAN_INVALID_CUSTOM_OPERATOR -3009 /* a clscan_custom that is NULL, has a NULL or empty string or size 0 */
#define CLSCAN_ELEMENT_SIZE_MISMATCH   -3010 /* a clscan_custom's size is not the device's sizeof(type) */

/* Creates a plan for device in context.  Builds the kernels (or takes them from the program
 * cache) and chooses the work-group size from the device's limits.  On failure returns NULL and
 * stores the status in *errcode_ret (if non-NULL); on success stores CL_SUCCESS. */
CLSCAN_API clscan_plan *clscan_plan_create(cl_context context, cl_device_id device, clscan_op op,
                                           clscan_type type, clscan_kind kind, cl_int *errcode_ret);
/* Releases the plan.  NULL is a no-op.  Scans already enqueued complete normally. */
CLSCAN_API void   clscan_plan_release(clscan_plan *plan);
/* Bytes of one element; a pair for AFFINE (8 for float, 16 for double).  0 for NULL. */
CLSCAN_API size_t clscan_element_size(const clscan_plan *plan);

/* Scans count elements of src from element src_offset into dst from element dst_offset, on queue,
 * after the wait list; *event (if event is non-NULL) completes when dst is written.
 * src == dst with equal offsets scans in place. count 0 is a valid no-op. */
CLSCAN_API cl_int clscan_enqueue(clscan_plan *plan, cl_command_queue queue,
                                 cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t count,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);

/* Blocking convenience: scans a host array on the default device (see clscan_default_device).
 * src == dst scans in place.  The context, queue and plans it needs are cached until
 * clscan_cache_clear().  On devices that share the host's memory (CPUs) nothing is copied: the
 * buffers are made over src and dst (CL_MEM_USE_HOST_PTR). */
CLSCAN_API cl_int clscan_host(clscan_op op, clscan_type type, clscan_kind kind,
                              const void *src, void *dst, size_t count);

/* clscan_host on a chosen device (spec as clscan_default_device: "P:D" or part of a name; NULL =
 * the default) with options (carry and reverse; total given as a host pointer below):
 * init (NULL = none) is the carry of clscan_enqueue_with, total_out (NULL = not wanted)
 * receives the total (one element; it must not overlap src or dst), reverse scans from the
 * end.  dst may be NULL when total_out is given (a reduction); count 0 with total_out gives
 * the carry (or the neutral element).  Each device's context, queue and plans are cached
 * (eight devices at most; beyond, the least recently used is closed). */
CLSCAN_API cl_int clscan_host_with(const char *device_spec, clscan_op op, clscan_type type, clscan_kind kind,
                                   const void *src, void *dst, size_t count,
                                   const void *init, void *total_out, int reverse);

CLSCAN_API const char *clscan_error_string(cl_int code);  /* name of any OpenCL or clscan status code */
CLSCAN_API const char *clscan_last_error(void);           /* one-line message for this thread's last failure */

/* ---- Additions ---------------------------------------------------------------------------- */

/* Bytes of one element of op and type (a pair for AFFINE); 0 for invalid values. */
CLSCAN_API size_t clscan_op_element_size(clscan_op op, clscan_type type);

/* The default device: CLSCAN_DEVICE="P:D" (platform and device index) or a substring of a device
 * name; otherwise the first GPU of any platform, else the first device.  spec may be NULL
 * (then the environment decides) or a string in the same syntax, which then wins over it. */
CLSCAN_API cl_int clscan_default_device(const char *spec, cl_platform_id *platform, cl_device_id *device);

/* Optional tuning, for experts and tests: the work-group size and the number of elements each
 * work-item scans sequentially (0 keeps the automatic choice).  Both must be powers of two; the
 * work-group size must fit the device (CL_INVALID_WORK_GROUP_SIZE otherwise); the tile must fit
 * its local memory, at most 4096 elements per work-item and, for tiles held in the work-items'
 * registers, at most 1 MiB of elements per work-group (CLSCAN_DEVICE_NOT_SUPPORTED otherwise).  The plan keeps its
 * previous tuning on failure.  Must not race with clscan_enqueue on the same plan. */
CLSCAN_API cl_int clscan_plan_set_tuning(clscan_plan *plan, size_t work_group_size, size_t items_per_work_item);
/* The tuning in force: elements per tile = work_group_size * items_per_work_item. */
CLSCAN_API cl_int clscan_plan_get_tuning(const clscan_plan *plan, size_t *work_group_size, size_t *items_per_work_item);

/* How arrays of more than one tile are scanned.  Both give bitwise reproducible results (the
 * same input, device and plan give the same output on every run), but not the same bits as
 * each other for float SUM and AFFINE, whose rounding depends on the order of combination.
 *   REDUCE_THEN_SCAN: tile totals, a recursive scan of the totals, then every tile with its
 *                     carry: about 3n elements of memory traffic, several launches.
 *   SINGLE_PASS:      one launch; tiles take tickets in order, publish their totals and
 *                     prefixes, and look back (decoupled look-back, with a bounded wait and a
 *                     fallback that recomputes a late tile's total): about 2n traffic.
 *   AUTO:             SINGLE_PASS on CPUs, and on NVIDIA GPUs for plain scans of 4- and
 *                     8-byte elements, built-in or custom (status and value in one word of
 *                     8 or 16 bytes); REDUCE_THEN_SCAN elsewhere (each measured faster
 *                     where chosen; doc/performance.md).  SINGLE_PASS relies on work-groups
 *                     of one launch seeing each other's global writes, which OpenCL 1.2 does
 *                     not promise: it is known to hold on CPUs and NVIDIA GPUs. */
typedef enum clscan_algorithm {
    CLSCAN_ALGORITHM_AUTO,
    CLSCAN_ALGORITHM_REDUCE_THEN_SCAN,
    CLSCAN_ALGORITHM_SINGLE_PASS
} clscan_algorithm;
/* Chooses the plan's algorithm (default AUTO).  CL_INVALID_VALUE for an unknown value.  Must
 * not race with clscan_enqueue on the same plan. */
CLSCAN_API cl_int clscan_plan_set_algorithm(clscan_plan *plan, clscan_algorithm algorithm);
/* The algorithm the plan uses now for plain scans of arrays of more than one tile (AUTO
 * resolved; segmented scans on GPUs resolve AUTO to REDUCE_THEN_SCAN). */
CLSCAN_API clscan_algorithm clscan_plan_get_algorithm(const clscan_plan *plan);

/* Which kernels scan a tile (doc/design.md), for experts and tests: every choice gives the same
 * results on every device (bitwise for exact operators; float SUM and AFFINE may round
 * differently across choices, as across tunings), and each is fastest somewhere.
 *   tiles: how a work-group's tile of work_group_size * items_per_work_item elements moves
 *     REGISTERS  each work-item reads its consecutive elements from global memory (CPUs)
 *     STAGED     loads and stores go through local memory, coalesced (GPUs)
 *     STREAMED   one work-item per work-group scans its tile as four runs side by side through
 *                local memory (CPUs; needs a work-group size of 1 and 4 or more items)
 *   primitive: how a work-group scans its work-items' totals
 *     HILLIS_STEELE  Hillis and Steele (1986), double-buffered: log2(n) steps, n log2(n) work
 *     BLELLOCH       Blelloch (1990): 2 log2(n) steps, about 2n work
 *     TWO_LEVEL      Hillis-Steele within groups of 32 work-items (fewer for work-groups under 64),
 *                    then over the groups' totals; with warp shuffles on NVIDIA GPUs
 * AUTO is the device's choice: on CPUs STREAMED for the automatic tuning (one work-item, 4 or
 * more items) and REGISTERS for other tunings; on GPUs STAGED; the primitive TWO_LEVEL on NVIDIA
 * GPUs for work-group sizes that are multiples of 32 up to 1024, HILLIS_STEELE elsewhere.
 * STREAMED tiles use no primitive (clscan_plan_get_variant reports the one set or
 * HILLIS_STEELE), and TWO_LEVEL on one work-item is HILLIS_STEELE.  Segmented scans and scans by
 * key use REGISTERS where the plan streams.  clscan_plan_set_variant rebuilds the kernels (the
 * tuning, if automatic, becomes the new variant's); CL_INVALID_VALUE for an unknown value or a
 * variant the tuning in force cannot run, CLSCAN_DEVICE_NOT_SUPPORTED or
 * CL_INVALID_WORK_GROUP_SIZE where the tuning in force does not fit the new variant, the build's
 * status if it fails; the plan is unchanged on failure.  Must not race with clscan_enqueue on the
 * same plan.  clscan_plan_get_variant gives the variant in force, AUTO resolved. */
typedef enum clscan_tiles {
    CLSCAN_TILES_AUTO,
    CLSCAN_TILES_REGISTERS,
    CLSCAN_TILES_STAGED,
    CLSCAN_TILES_STREAMED
} clscan_tiles;
typedef enum clscan_primitive {
    CLSCAN_PRIMITIVE_AUTO,
    CLSCAN_PRIMITIVE_HILLIS_STEELE,
    CLSCAN_PRIMITIVE_BLELLOCH,
    CLSCAN_PRIMITIVE_TWO_LEVEL
} clscan_primitive;
CLSCAN_API cl_int clscan_plan_set_variant(clscan_plan *plan, clscan_tiles tiles, clscan_primitive primitive);
CLSCAN_API cl_int clscan_plan_get_variant(const clscan_plan *plan, clscan_tiles *tiles,
                                          clscan_primitive *primitive);

/* The arithmetic of the AFFINE plans of FLOAT and DOUBLE (every other plan's is exact, or rounds
 * each operation once in the element type, whatever is set here):
 *   COMPENSATED  the kernels carry each product of slopes as a double-word (an unevaluated sum
 *                hi + lo, its rounding errors kept exactly by fma-based error-free
 *                transformations) and fold lo into the offsets: the products and y have about
 *                the error of the sequential loop in the same precision, or less, at every tuning
 *                (clscan(3), "Floating-point results", has the bound and the measurements).
 *                Elements in memory stay pairs; the kernels' elements, tile totals and carries
 *                are twice as wide, and the arithmetic about twice as long (wants a fast fma).
 *   WORKING      each product and sum rounded once in the element type, as the C expression
 *                comb(p, c) = (c.a*p.a, c.a*p.b + c.b) without fma (the bits of a custom
 *                operator with that expression): a constant slope's products drift with the
 *                number of tiles (every tile's product carries the same rounding error, and the
 *                carries compose them), and y with them.
 *   AUTO         COMPENSATED for clscan_enqueue_recurrence on CPU devices, whose pairs never
 *                live in memory (1.2 to 1.5 times the time on PoCL); WORKING for recurrences on
 *                other devices (the H200: 2.5 to 3.3 times the time) and for scans of pairs
 *                (clscan_enqueue, clscan_enqueue_with; CPUs 1.5 to 2 times) (doc/performance.md).
 * Segmented scans and scans by key of AFFINE plans round in the working precision. */
typedef enum clscan_accuracy {
    CLSCAN_ACCURACY_AUTO,
    CLSCAN_ACCURACY_WORKING,
    CLSCAN_ACCURACY_COMPENSATED
} clscan_accuracy;
/* Chooses the plan's accuracy (default AUTO) and rebuilds its kernels: CL_INVALID_VALUE for an
 * unknown value, CLSCAN_DEVICE_NOT_SUPPORTED when a tuning set by the user does not fit the
 * compensated elements (twice as wide), the build's status if it fails; the plan is unchanged on
 * failure.  Must not race
 * with clscan_enqueue on the same plan.  clscan_plan_get_accuracy gives the accuracy set (AUTO
 * until one is; AUTO for NULL). */
CLSCAN_API cl_int clscan_plan_set_accuracy(clscan_plan *plan, clscan_accuracy accuracy);
CLSCAN_API clscan_accuracy clscan_plan_get_accuracy(const clscan_plan *plan);

/* ---- Custom operators, segmented scans and scans by key (doc/operators.md) ------------------ */

/* A user-defined operator, in OpenCL C.  The strings are compiled for the plan's device into the
 * same kernels as the built-in operators (which are instances of the same mechanism):
 *   typedef <type> T;  T neutral(void) { return (<neutral>); }  T comb(T a, T b) { return (<comb>); }
 * after the preamble.  comb must be associative, neutral its neutral element on both sides; a is
 * the previous (left) value and b the current one.  The snippets may name a, b, the preamble's
 * declarations and OpenCL C's built-ins; they must not rely on any other name of the library's
 * kernels, nor on the order or number of calls (a scan combines in a tree).  They run with the
 * rights of any kernel the caller enqueues on their own device. */
typedef struct clscan_custom {
    const char *type;      /* OpenCL C type of one element: "float4", or a struct declared in preamble */
    size_t      size;      /* bytes of one element in a buffer */
    const char *neutral;   /* OpenCL C expression of that type: the neutral element */
    const char *comb;      /* OpenCL C expression of that type in a (previous) and b (current) */
    const char *preamble;  /* optional OpenCL C code placed before the kernels (typedefs, helpers); may be NULL */
} clscan_custom;

/* The longest snippets a custom operator may have, in characters: compilers parse a long
 * expression recursively, and one overflowed its stack (in the caller's process) on a sum of
 * 24000 terms.  (Macros of the preamble can still expand to deeper expressions than the library
 * can see: keep expanded expressions short.) */
#define CLSCAN_CUSTOM_MAX_TYPE       256
#define CLSCAN_CUSTOM_MAX_EXPRESSION 4096    /* neutral, comb */
#define CLSCAN_CUSTOM_MAX_PREAMBLE   16384

/* Creates a plan for a custom operator (copied: op's strings need not outlive the call).
 * CLSCAN_INVALID_CUSTOM_OPERATOR for a NULL op, a NULL or empty type, neutral or comb, a snippet
 * longer than its limit above, or size 0;
 * CLSCAN_ELEMENT_SIZE_MISMATCH when size is not the device's sizeof(type); CL_BUILD_PROGRAM_FAILURE
 * with the compiler's log in clscan_last_error() when the snippets do not compile. */
CLSCAN_API clscan_plan *clscan_plan_create_custom(cl_context context, cl_device_id device,
                                                  const clscan_custom *op, clscan_kind kind,
                                                  cl_int *errcode_ret);

/* ---- Transforms: scans whose input or output type is not the operator's (doc/operators.md) ----
 * As CUB's accumulator types and Thrust's transform_inclusive_scan: an input transform in OpenCL
 * C maps each source element x (of the user's type) and its index i to the operator's type T,
 * and an optional output transform maps each result y (a T) to the destination's type:
 *   typedef <src_type> S;  T in(S x, ulong i) { return (<in>); }
 *   typedef <dst_type> D;  D out(T y, ulong i) { return (<out>); }
 * after the operator's definitions and the preamble (the conventions of clscan_custom: the
 * expressions may name x, i, y, the preamble's declarations, the operator's type as T and
 * OpenCL C's built-ins; they run once per element read or written, in any order, with
 * FP_CONTRACT off; a tile may read an element more than once, always with the same result).
 * i is the element's index in the scan, 0 ... count - 1 (reverse scans: counted from the end, as
 * the reversed array the scan reads).  Example, a compaction's offsets from particles:
 *   {"float4", 16, "(x.w > 0.0f) ? 1 : 0", NULL, 0, NULL, NULL} on an exclusive CLSCAN_SUM of
 *   CLSCAN_INT32.
 * The transform is a setting of a plan (clscan_plan_set_transform) rather than a new creation
 * function: it composes with every operator, built-in or custom, and with the other settings
 * (tuning, variant, algorithm) without a creation function per combination, and one plan can be
 * switched between transforms (each built once: the program cache keeps them). */
#define CLSCAN_INVALID_TRANSFORM       -3065 /* a clscan_transform with a NULL or empty src_type or in, src_size 0, out
                                              * without dst_type or dst_size 0 (or the reverse), a snippet too long */
#define CLSCAN_TRANSFORM_NOT_SUPPORTED -3066 /* a plan with a transform given to a scan that takes none (segmented,
                                              * by key, recurrence, reduce_by_key, libclscan_mpi) */

typedef struct clscan_transform {
    const char *src_type;  /* OpenCL C type of a source element: "float4", "uchar", a struct of the preamble */
    size_t      src_size;  /* bytes of a source element in a buffer (the device's sizeof(src_type)) */
    const char *in;        /* OpenCL C expression of type T in x (a src_type) and i (ulong) */
    const char *dst_type;  /* optional: OpenCL C type of a destination element; NULL: T (out NULL too) */
    size_t      dst_size;  /* bytes of a destination element (0 when dst_type is NULL) */
    const char *out;       /* OpenCL C expression of type dst_type in y (a T) and i; NULL exactly when dst_type is */
    const char *preamble;  /* optional OpenCL C code placed before (typedefs, helpers); may be NULL */
} clscan_transform;
/* Limits: CLSCAN_CUSTOM_MAX_TYPE (src_type, dst_type), CLSCAN_CUSTOM_MAX_EXPRESSION (in, out),
 * CLSCAN_CUSTOM_MAX_PREAMBLE. */

/* Sets the plan's transform (copied: the strings need not outlive the call), or clears it (t
 * NULL), and rebuilds the plan's kernels with it: clscan_enqueue and clscan_enqueue_with then
 * read src as elements of src_size bytes and write dst as elements of dst_size bytes (of the
 * operator's size without an output transform); carry_in, init and total stay elements of the
 * operator's type (the total is the kernels', not copied from dst).  Both algorithms, every
 * tuning and variant.  CLSCAN_INVALID_PLAN, CLSCAN_INVALID_TRANSFORM as above,
 * CLSCAN_ELEMENT_SIZE_MISMATCH when src_size or dst_size is not the device's sizeof of its type,
 * CL_BUILD_PROGRAM_FAILURE with the compiler's log in clscan_last_error() when the snippets do not
 * compile; the plan is unchanged on failure.  Must not race with enqueues on the same plan.  The
 * segmented scans, scans by key, recurrences, clscan_reduce_by_key_enqueue and libclscan_mpi's
 * scans reject a plan with a transform (CLSCAN_TRANSFORM_NOT_SUPPORTED). */
CLSCAN_API cl_int clscan_plan_set_transform(clscan_plan *plan, const clscan_transform *t);

/* Segmented scan: heads is a buffer of cl_uchar; heads[i] != 0 starts a new segment at element i
 * (element 0 always starts one). Exclusive: the first element of each segment gets the neutral.
 * Offsets are in elements (bytes for heads).  heads must not overlap dst.  Any plan serves; the
 * first segmented scan of a plan (and of each tuning) builds its program. */
CLSCAN_API cl_int clscan_enqueue_segmented(clscan_plan *plan, cl_command_queue queue,
                                           cl_mem src, size_t src_offset, cl_mem heads, size_t heads_offset,
                                           cl_mem dst, size_t dst_offset, size_t count,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event);

/* Scan by key: a new segment starts wherever keys[i] != keys[i-1]; key_type is one of the integer
 * types (CLSCAN_INVALID_TYPE otherwise).  keys_offset is in keys; keys must not overlap dst. */
CLSCAN_API cl_int clscan_enqueue_by_key(clscan_plan *plan, cl_command_queue queue, clscan_type key_type,
                                        cl_mem keys, size_t keys_offset, cl_mem src, size_t src_offset,
                                        cl_mem dst, size_t dst_offset, size_t count,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event);

/* Segmented scan with segments given by offsets, as CSR's row_ptr: offsets holds nsegments + 1
 * values of offsets_type (CLSCAN_UINT32 or CLSCAN_UINT64), offsets[0] = 0, non-decreasing,
 * offsets[nsegments] = count; segment s is [offsets[s], offsets[s+1]) (empty segments allowed).
 * Offsets that break these rules give unspecified results but never a read or write outside
 * the given ranges of src, dst and totals (the kernels clamp).
 * totals (optional, NULL = none): totals[s] = the reduction of segment s (the neutral for an empty
 * one): a reduce-by-segment.  dst may be NULL when totals is given.
 * The plan's kind applies within each segment as for clscan_enqueue_segmented.  nsegments 0 needs
 * count 0 (CL_INVALID_VALUE otherwise: no segment holds the elements); count 0 with totals writes
 * the neutral to every total.  offsets must not overlap dst; totals must not overlap src, dst or
 * offsets.  An inclusive plan's totals have the bits of the segments' last outputs, an exclusive
 * one's are comb(last output, last element), whether dst is given or not. */
CLSCAN_API cl_int clscan_enqueue_segmented_offsets(clscan_plan *plan, cl_command_queue queue,
                                                   cl_mem src, size_t src_offset,
                                                   clscan_type offsets_type, cl_mem offsets, size_t offsets_offset,
                                                   size_t nsegments,
                                                   cl_mem dst, size_t dst_offset, size_t count,
                                                   cl_mem totals, size_t totals_offset,
                                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                   cl_event *event);

/* ---- Scans along one axis of a 2-D array ------------------------------------------------- */
/* As ArrayFire's scan along a dimension, without transposing.  The array is rows rows of cols
 * elements, row r starting at element offset + r * row_pitch (row_pitch >= cols, in elements;
 * the elements between cols and row_pitch are neither read nor written).
 *   CLSCAN_ALONG_ROWS     each row scanned on its own, left to right (rows independent scans)
 *   CLSCAN_ALONG_COLUMNS  each column scanned on its own, top to bottom (cols independent scans) */
typedef enum clscan_axis { CLSCAN_ALONG_ROWS, CLSCAN_ALONG_COLUMNS } clscan_axis;
#define CLSCAN_INVALID_AXIS            -3060 /* axis is not a clscan_axis */
#define CLSCAN_INVALID_PITCH           -3061 /* a row pitch less than the row's cols */
/* Scans every row or every column of src into dst with the plan's operator and kind (built-in or
 * custom; comb(earlier, later); inclusive or exclusive within each line), on queue after the wait
 * list.  Bitwise reproducible: the same shape and input give the same bits on every run (float
 * SUM and AFFINE need not have the bits of clscan_enqueue of the same line).  In place: src == dst
 * with the same offset and pitch; other overlaps are CL_MEM_COPY_OVERLAP.  rows or cols 0: nothing
 * to scan (*event still completes).  CLSCAN_RANGE_OUT_OF_BOUNDS when the last row's end is past a
 * buffer or (rows - 1) * pitch + cols overflows.  The first call of a plan builds its axis program. */
CLSCAN_API cl_int clscan_enqueue_axis(clscan_plan *plan, cl_command_queue queue, clscan_axis axis,
                                      cl_mem src, size_t src_offset, size_t src_row_pitch,
                                      cl_mem dst, size_t dst_offset, size_t dst_row_pitch,
                                      size_t rows, size_t cols,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event);
/* Totals along an axis (ArrayFire's sum along a dimension, CUB's DeviceSegmentedReduce without
 * offsets): the reduction of every row (CLSCAN_ALONG_ROWS: rows totals) or every column
 * (CLSCAN_ALONG_COLUMNS: cols totals) of src with the plan's operator, comb(earlier, later) in
 * the line's order (built-in or custom, commutative or not; the plan's kind does not matter),
 * into dst[dst_offset + l] for line l.  src as for clscan_enqueue_axis (its row pitch in
 * elements; the gaps not read); dst must not overlap it.  Lines without elements (rows 0 along
 * columns, cols 0 along rows) get the neutral; no lines: nothing written (*event still
 * completes).  Bitwise reproducible (the lines are cut into blocks by the shape alone); columns
 * are read coalesced.  The first call of a plan builds its axis program (shared with
 * clscan_enqueue_axis). */
CLSCAN_API cl_int clscan_enqueue_axis_totals(clscan_plan *plan, cl_command_queue queue, clscan_axis axis,
                                             cl_mem src, size_t src_offset, size_t src_row_pitch,
                                             cl_mem dst, size_t dst_offset, size_t rows, size_t cols,
                                             cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                             cl_event *event);
/* Sorts along an axis (ArrayFire's sort along a dimension, CUB's DeviceSegmentedRadixSort with
 * equal segments): every row or every column of keys_in sorted on its own, stably, with the
 * sorter's key type, values, direction and bits, into keys_out (values_in moved with their keys
 * into values_out).  Pitches in elements, >= cols (CLSCAN_INVALID_PITCH): keys_in and values_in
 * have in_row_pitch, keys_out and values_out out_row_pitch; the elements between cols and the
 * pitch are neither read nor written.  In place: each output the same buffer, offset and pitch as
 * its input; other overlaps are CL_MEM_COPY_OVERLAP.  values_in and values_out must be given
 * exactly when the sorter has values.  rows or cols 0: nothing to sort (*event still completes).
 * Rows are the segmented sort's segments (clscan_segmented_sort_enqueue, no offsets needed);
 * columns are transposed into the sorter's scratch (tiles through local memory, coalesced both
 * ways), sorted as rows and transposed back.  Every line below 2^32 keys, rows * cols too. */
struct clscan_sorter;   /* clscan_sorter, below */
CLSCAN_API cl_int clscan_axis_sort_enqueue(struct clscan_sorter *sorter, cl_command_queue queue, clscan_axis axis,
                                           cl_mem keys_in, size_t keys_in_offset, size_t in_row_pitch,
                                           cl_mem keys_out, size_t keys_out_offset, size_t out_row_pitch,
                                           cl_mem values_in, size_t values_in_offset,
                                           cl_mem values_out, size_t values_out_offset, size_t rows, size_t cols,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event);

/* ---- Carries, totals, reverse scans and reductions --------------------------------------- */

/* Options of one scan beyond clscan_enqueue; a zeroed struct means none. */
typedef struct clscan_scan_options {
    cl_mem      carry_in;        /* one element on the device, combined before the first: NULL = none */
    size_t      carry_in_offset; /* in elements */
    const void *init;            /* host copy of one element, used when carry_in is NULL; NULL = none */
    cl_mem      total;           /* receives carry op x[0] op ... op x[count-1] (one element); NULL = not written */
    size_t      total_offset;    /* in elements */
    int         reverse;         /* non-zero: scan from the end, see below */
} clscan_scan_options;

/* clscan_enqueue with options.  With a carry c (carry_in or init):
 *   inclusive  y[i] = c op x[0] op ... op x[i]
 *   exclusive  y[0] = c, y[i] = c op x[0] op ... op x[i-1]
 * and *total = c op x[0] op ... op x[count-1] (the neutral's place taken by c; count 0: total = c).
 * reverse: the array is read from its end, so "previous" is the element after:
 *   inclusive  y[i] = c op x[count-1] op x[count-2] op ... op x[i]
 *   exclusive  y[count-1] = c, y[i] = c op x[count-1] op ... op x[i+1]
 * (the scan of the reversed array, written back in place order, as JAX's associative_scan(reverse=True)).
 * dst may be NULL when total is given: a reduction, reading the input once.
 * options NULL = clscan_enqueue.  Works for every plan: built-in, custom, every type and kind.
 * The carry is applied as comb(c, x), never commuted; init is copied before the call returns.
 * carry_in must not overlap dst (it is read while dst is written), total must not overlap src,
 * dst or carry_in (CL_MEM_COPY_OVERLAP).  An inclusive scan's total has the bits of its last
 * output (y[count-1]; reverse: y[0]); a reduction's (dst NULL) combines in another tree, so its
 * float totals may differ from the scan's in the last bits; each is reproducible. */
CLSCAN_API cl_int clscan_enqueue_with(clscan_plan *plan, cl_command_queue queue,
                                      cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t count,
                                      const clscan_scan_options *options,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event);

/* The argument checks alone: clscan_enqueue_with_check runs exactly the checks of
 * clscan_enqueue_with (options NULL: of clscan_enqueue), clscan_enqueue_segmented_check those of
 * clscan_enqueue_segmented, with the same arguments but the event, and enqueues nothing: the
 * status the call would return before it enqueues its first command (CL_SUCCESS when it would
 * go on; a failure of the device or of an allocation later in the call is not foreseen).  For
 * callers that must agree with others before any of them enqueues (libclscan_mpi). */
CLSCAN_API cl_int clscan_enqueue_with_check(clscan_plan *plan, cl_command_queue queue,
                                            cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset,
                                            size_t count, const clscan_scan_options *options,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list);
CLSCAN_API cl_int clscan_enqueue_segmented_check(clscan_plan *plan, cl_command_queue queue,
                                                 cl_mem src, size_t src_offset, cl_mem heads, size_t heads_offset,
                                                 cl_mem dst, size_t dst_offset, size_t count,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list);

/* First-order linear recurrence without pairs, for an AFFINE plan of FLOAT or DOUBLE (inclusive):
 *   y[i] = a[i] * y[i-1] + b[i],  y[-1] = y0
 * a: count values, or NULL for the constant *a_const (a float or double as the plan's type);
 * b, y: count values (y == b with equal offsets: in place).  options: carry_in / init give y0 as
 * ONE value of the type (not a pair; none = 0); total (if given) receives y[count-1];
 * reverse: y[i] = a[i] * y[i+1] + b[i], y[count] = y0.  Reads a and b once, writes y once.
 * The pairs (a[i], b[i]) are composed as by clscan_enqueue_with on pairs with the carry (1, y0),
 * with the same bits when the plan's accuracy is set (clscan_plan_set_accuracy; under AUTO a
 * recurrence on a CPU device is compensated and a scan of pairs is not), except the total of a reduction, y
 * NULL, over several tiles with CLSCAN_ALGORITHM_REDUCE_THEN_SCAN: it comes from the pairs' scan,
 * not their reduction.  Integer AFFINE plans work too (wrapping).  a == y with equal offsets is
 * in place too; other overlaps of y with a or b are CL_MEM_COPY_OVERLAP.  y may be NULL when a
 * total is given.  CLSCAN_INVALID_OPERATOR for a plan of another operator or a custom one,
 * CLSCAN_INVALID_KIND for an exclusive one, CL_INVALID_VALUE when a and a_const are NULL,
 * CLSCAN_DEVICE_NOT_SUPPORTED when a tuning set by the user does not fit compensated elements. */
CLSCAN_API cl_int clscan_enqueue_recurrence(clscan_plan *plan, cl_command_queue queue,
                                            cl_mem a, size_t a_offset, const void *a_const,
                                            cl_mem b, size_t b_offset, cl_mem y, size_t y_offset, size_t count,
                                            const clscan_scan_options *options,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                            cl_event *event);

/* Releases every cached program, and the default context and queue of clscan_host.  Plans
 * created before stay valid (they hold their own references).  Cached programs keep their
 * contexts alive until this is called.  The on-disk cache of program binaries (CLSCAN_CACHE_DIR,
 * default $XDG_CACHE_HOME/clscan or $HOME/.cache/clscan; empty: off) is left as it is: no file
 * is deleted. */
CLSCAN_API void clscan_cache_clear(void);

/* The library's version, "MAJOR.MINOR.PATCH". */
CLSCAN_API const char *clscan_version_string(void);

/* ---- Compaction, bucketing and radix sort (built on the scans) ----------------------------
 * Handles in the style of the plan: created for one device of one context (the kernels are
 * built then, or taken from the program cache), used on any queue of that context and device,
 * released with their _release function (NULL is a no-op).  Each handle owns scratch memory,
 * allocated at the first call and grown when a larger count arrives; calls on one handle are
 * ordered after each other (each waits on the previous one's commands), on any queue.  Every
 * enqueue function takes a wait list and returns in *event (if non-NULL) an event that
 * completes when all its outputs are written.  Offsets and counts are in elements; counts
 * must be below 2^32.  Every argument is validated before anything is enqueued: a rejected
 * call returns a specific status and leaves every buffer untouched.  Results are
 * deterministic: the same input gives bitwise the same output. */
#define CLSCAN_INVALID_HANDLE          -3020 /* NULL compactor, bucketer or sorter */
#define CLSCAN_INVALID_ELEMENT_SIZE    -3021 /* element or value size 0 (where not allowed) or above 4096 */
#define CLSCAN_INVALID_BUCKET_COUNT    -3022 /* nbuckets 0 or above 2^31 */
#define CLSCAN_INVALID_KEY_BITS        -3023 /* key bits or range outside the keys, or set for signed or float keys */

/* Status codes of libclscan_mpi (clscan_mpi.h; named here so that clscan_error_string names them). */
#define CLSCAN_MPI_REMOTE_ERROR        -3030 /* another rank of the communicator rejected its arguments */
#define CLSCAN_MPI_FAILED              -3031 /* an MPI call failed (the communicator's error handler returned) */

/* Stream compaction: keeps the elements of src whose cl_uchar flag is non-zero, in their
 * order, and writes the number kept as one cl_ulong to kept[kept_offset]. */
typedef struct clscan_compactor clscan_compactor;
/* element_size: bytes of one element of src and dst, 1 ... 4096. */
CLSCAN_API clscan_compactor *clscan_compactor_create(cl_context context, cl_device_id device,
                                                     size_t element_size, cl_int *errcode_ret);
CLSCAN_API void clscan_compactor_release(clscan_compactor *compactor);
/* dst must have room for count elements from dst_offset (all may be kept); elements of dst past
 * the kept ones are left as they were.  src and dst must not overlap. */
CLSCAN_API cl_int clscan_compact_enqueue(clscan_compactor *compactor, cl_command_queue queue,
                                         cl_mem src, size_t src_offset, cl_mem flags, size_t flags_offset,
                                         size_t count, cl_mem dst, size_t dst_offset,
                                         cl_mem kept, size_t kept_offset,
                                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                         cl_event *event);
/* The same, writing the indices i (0 ... count - 1, as cl_uint) of the kept elements instead. */
CLSCAN_API cl_int clscan_compact_indices_enqueue(clscan_compactor *compactor, cl_command_queue queue,
                                                 cl_mem flags, size_t flags_offset, size_t count,
                                                 cl_mem indices, size_t indices_offset,
                                                 cl_mem kept, size_t kept_offset,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event);
/* Blocking convenience: clscan_compact_enqueue, then waits and stores the number kept in *kept. */
CLSCAN_API cl_int clscan_compact(clscan_compactor *compactor, cl_command_queue queue,
                                 cl_mem src, size_t src_offset, cl_mem flags, size_t flags_offset,
                                 size_t count, cl_mem dst, size_t dst_offset, size_t *kept,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list);

/* ---- Selection: predicates, partition, unique, reduce_by_key (built on the compaction) ------
 * As Thrust's copy_if / partition_copy / unique_copy / reduce_by_key and CUB's DeviceSelect,
 * DevicePartition and DeviceReduce::ReduceByKey; stable, deterministic, counts below 2^32, every
 * count of results written as one cl_ulong on the device. */
#define CLSCAN_INVALID_PREDICATE       -3050 /* a clscan_predicate that is NULL, has a NULL or empty type or flag, or a snippet too long */
#define CLSCAN_NO_PREDICATE            -3051 /* a predicate's function on a compactor created without one */
/* (A NULL clscan_runs is CLSCAN_INVALID_HANDLE, as a NULL compactor.) */

/* A predicate in OpenCL C, compiled for the compactor's device (the conventions of clscan_custom):
 *   typedef <type> T;  int flag(T x, ulong i) { return (<flag>) ? 1 : 0; }
 * after the preamble: element x (of the compactor's element_size bytes) is kept when the
 * expression is non-zero; i is its index in the range (0 ... count - 1).  The expression may name
 * x, i, the preamble's declarations and OpenCL C's built-ins; it runs once per element, in any
 * order, with FP_CONTRACT off.  Limits: CLSCAN_CUSTOM_MAX_TYPE, _EXPRESSION (flag), _PREAMBLE. */
typedef struct clscan_predicate {
    const char *type;      /* OpenCL C type of one element: "float4", or a struct declared in preamble */
    const char *flag;      /* OpenCL C expression in x and i: "x.w > 0.0f", "(i & 1) == 0 && x != 0" */
    const char *preamble;  /* optional OpenCL C code placed before (typedefs, helpers); may be NULL */
} clscan_predicate;

/* A compactor that also selects by predicate (copied: its strings need not outlive the call).  It
 * serves every function of a compactor as well.  CLSCAN_INVALID_PREDICATE for a NULL predicate, a
 * NULL or empty type or flag, a snippet longer than its limit; CLSCAN_INVALID_ELEMENT_SIZE as
 * clscan_compactor_create; CLSCAN_ELEMENT_SIZE_MISMATCH when element_size is not the device's
 * sizeof(type); CL_BUILD_PROGRAM_FAILURE with the compiler's log in clscan_last_error() when the
 * snippets do not compile. */
CLSCAN_API clscan_compactor *clscan_compactor_create_if(cl_context context, cl_device_id device, size_t element_size,
                                                        const clscan_predicate *predicate, cl_int *errcode_ret);
/* clscan_compact_enqueue with the predicate's flags (no flags buffer): the kept elements of src in
 * order from dst[dst_offset], their number to kept[kept_offset].  CLSCAN_NO_PREDICATE on a
 * compactor made by clscan_compactor_create.  src and dst must not overlap. */
CLSCAN_API cl_int clscan_compact_if_enqueue(clscan_compactor *compactor, cl_command_queue queue,
                                            cl_mem src, size_t src_offset, size_t count,
                                            cl_mem dst, size_t dst_offset, cl_mem kept, size_t kept_offset,
                                            cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                            cl_event *event);
/* Blocking convenience: clscan_compact_if_enqueue, then waits and stores the number kept in *kept. */
CLSCAN_API cl_int clscan_compact_if(clscan_compactor *compactor, cl_command_queue queue,
                                    cl_mem src, size_t src_offset, size_t count, cl_mem dst, size_t dst_offset,
                                    size_t *kept, cl_uint num_events_in_wait_list, const cl_event *event_wait_list);
/* Stable partition into dst: the elements whose cl_uchar flag is non-zero in order, then the
 * others in order (all count elements written); the number of the first ones to kept[kept_offset].
 * Any compactor.  dst must not overlap src, flags or kept. */
CLSCAN_API cl_int clscan_partition_enqueue(clscan_compactor *compactor, cl_command_queue queue,
                                           cl_mem src, size_t src_offset, cl_mem flags, size_t flags_offset,
                                           size_t count, cl_mem dst, size_t dst_offset,
                                           cl_mem kept, size_t kept_offset,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event);
/* The same by the compactor's predicate (CLSCAN_NO_PREDICATE without one). */
CLSCAN_API cl_int clscan_partition_if_enqueue(clscan_compactor *compactor, cl_command_queue queue,
                                              cl_mem src, size_t src_offset, size_t count,
                                              cl_mem dst, size_t dst_offset, cl_mem kept, size_t kept_offset,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event);
/* The first element of each run of equal elements (the same element_size bytes: -0.0f and 0.0f
 * differ, NaNs of one pattern are equal), in order, to dst; the number of runs to kept.  Any
 * compactor.  src and dst must not overlap. */
CLSCAN_API cl_int clscan_unique_enqueue(clscan_compactor *compactor, cl_command_queue queue,
                                        cl_mem src, size_t src_offset, size_t count,
                                        cl_mem dst, size_t dst_offset, cl_mem kept, size_t kept_offset,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event);

/* Runs of equal keys (keys of key_size bytes, equal when their bytes are) with values of
 * value_size bytes (both 1 ... 4096): the handle of unique_by_key and reduce_by_key, in the
 * style of the compactor (scratch, calls ordered, any queue of its context and device). */
typedef struct clscan_runs clscan_runs;
CLSCAN_API clscan_runs *clscan_runs_create(cl_context context, cl_device_id device, size_t key_size,
                                           size_t value_size, cl_int *errcode_ret);
CLSCAN_API void clscan_runs_release(clscan_runs *runs);
/* thrust::unique_by_key_copy: the first key of each run and its value, in order, to keys_out and
 * values_out; the number of runs to nruns[nruns_offset].  Outputs must not overlap the inputs or
 * each other. */
CLSCAN_API cl_int clscan_unique_by_key_enqueue(clscan_runs *runs, cl_command_queue queue,
                                               cl_mem keys, size_t keys_offset, cl_mem values, size_t values_offset,
                                               size_t count, cl_mem keys_out, size_t keys_out_offset,
                                               cl_mem values_out, size_t values_out_offset,
                                               cl_mem nruns, size_t nruns_offset,
                                               cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                               cl_event *event);
/* thrust::reduce_by_key: for each run of equal keys, its key to keys_out and the reduction of its
 * values by the plan's operator, comb(earlier, later) in order (non-commutative and custom
 * operators alike), to values_out; the number of runs to nruns[nruns_offset].  The plan must be
 * inclusive (CLSCAN_INVALID_KIND), of the runs' context and device (CL_INVALID_CONTEXT,
 * CL_INVALID_DEVICE), and its elements value_size bytes (CLSCAN_ELEMENT_SIZE_MISMATCH).  A run's
 * reduction has the bits of the last output of the plan's segmented scan of the run
 * (clscan_enqueue_segmented): reproducible; integer results exact.  The first call of a plan
 * builds its segmented program.  Outputs must not overlap the inputs or each other. */
CLSCAN_API cl_int clscan_reduce_by_key_enqueue(clscan_runs *runs, clscan_plan *plan, cl_command_queue queue,
                                               cl_mem keys, size_t keys_offset, cl_mem values, size_t values_offset,
                                               size_t count, cl_mem keys_out, size_t keys_out_offset,
                                               cl_mem values_out, size_t values_out_offset,
                                               cl_mem nruns, size_t nruns_offset,
                                               cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                               cl_event *event);

/* Bucketing (a stable counting sort by small keys): cl_uint keys in [0, nbuckets) (a larger key
 * counts as nbuckets - 1), optional values of value_size bytes.  Outputs: the keys and the
 * values grouped by key (the order inside each bucket kept), the nbuckets + 1 cl_uint offsets
 * (bucket b is [offsets[b], offsets[b + 1]); offsets[nbuckets] = count), and the permutation
 * (cl_uint: element j of the output is element permutation[j] of the input). */
typedef struct clscan_bucketer clscan_bucketer;
/* nbuckets: 1 ... 2^31; value_size: 0 (no values) ... 4096. */
CLSCAN_API clscan_bucketer *clscan_bucketer_create(cl_context context, cl_device_id device, cl_uint nbuckets,
                                                   size_t value_size, cl_int *errcode_ret);
CLSCAN_API void clscan_bucketer_release(clscan_bucketer *bucketer);
/* keys_out and permutation may be NULL (not written); values and values_out must be given
 * exactly when value_size > 0.  Outputs must not overlap the inputs or each other. */
CLSCAN_API cl_int clscan_bucket_enqueue(clscan_bucketer *bucketer, cl_command_queue queue,
                                        cl_mem keys, size_t keys_offset, cl_mem values, size_t values_offset,
                                        size_t count, cl_mem keys_out, size_t keys_out_offset,
                                        cl_mem values_out, size_t values_out_offset,
                                        cl_mem offsets, size_t offsets_offset,
                                        cl_mem permutation, size_t permutation_offset,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event);

/* Radix sort: stable, LSD with 8-bit digits, ascending unless set descending.  Keys of any
 * clscan_type, read and written at their own width (1, 2, 4 or 8 bytes: one pass of 8 bits per
 * key byte): integers by value, floats in IEEE total order (-NaN < -inf < ... < -0.0 < +0.0 <
 * ... < +inf < +NaN); optional values of value_size bytes move with their keys. */
typedef struct clscan_sorter clscan_sorter;
/* value_size: 0 (keys only) ... 4096.  CLSCAN_FP64_NOT_SUPPORTED is never returned: double keys
 * are sorted as bit patterns. */
CLSCAN_API clscan_sorter *clscan_sorter_create(cl_context context, cl_device_id device, clscan_type key_type,
                                               size_t value_size, cl_int *errcode_ret);
CLSCAN_API void clscan_sorter_release(clscan_sorter *sorter);
/* Unsigned keys only: sort by the low key_bits bits (1 ... the key's width; 0: all), ignoring
 * the others (fewer passes when keys are known to be small); the same as
 * clscan_sorter_set_key_range(sorter, 0, key_bits).  Must not race with enqueues. */
CLSCAN_API cl_int clscan_sorter_set_key_bits(clscan_sorter *sorter, unsigned key_bits);
/* Sorts count keys (and values) into keys_out (values_out).  In place (out == in at the same
 * offset) is allowed; other overlaps are not.  values_in and values_out must be given exactly
 * when value_size > 0. */
CLSCAN_API cl_int clscan_sort_enqueue(clscan_sorter *sorter, cl_command_queue queue,
                                      cl_mem keys_in, size_t keys_in_offset, cl_mem keys_out, size_t keys_out_offset,
                                      cl_mem values_in, size_t values_in_offset,
                                      cl_mem values_out, size_t values_out_offset, size_t count,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event);
/* Descending order (descending non-zero; 0 restores ascending): the reverse of the ascending
 * order, still stable (keys that compare equal keep their input order, as CUB's
 * SortPairsDescending): integers from the largest, floats in reversed IEEE total order (+NaN >
 * +inf > ... > +0.0 > -0.0 > ... > -inf > -NaN, so +0.0 comes before -0.0).  The digits are
 * inverted in the kernels: the same passes as ascending.  With a key range, descending by the
 * bits of the range.  Must not race with enqueues on the same sorter. */
CLSCAN_API cl_int clscan_sorter_set_descending(clscan_sorter *sorter, int descending);
/* Unsigned keys: sort by bits [begin_bit, end_bit) of each key (bit 0 the least significant),
 * as CUB's begin_bit and end_bit, ignoring the others (keys equal in those bits keep their
 * order; every bit moves with its key); ceil((end_bit - begin_bit) / 8) passes.  Needs
 * begin_bit < end_bit <= the key's width; signed and floating keys accept only the whole key
 * [0, width).  CLSCAN_INVALID_KEY_BITS otherwise (the sorter keeps its range).  Must not race
 * with enqueues on the same sorter. */
CLSCAN_API cl_int clscan_sorter_set_key_range(clscan_sorter *sorter, unsigned begin_bit, unsigned end_bit);
/* Segmented sort: many independent stable sorts in one call, with the sorter's key type, values,
 * direction and bits.  The segments are given as by clscan_enqueue_segmented_offsets (CSR's
 * row_ptr): nsegments + 1 offsets of offsets_type (CLSCAN_UINT32 or CLSCAN_UINT64, else
 * CLSCAN_INVALID_TYPE) from element offsets_offset, offsets[0] = 0, non-decreasing,
 * offsets[nsegments] = count; segment s is [offsets[s], offsets[s+1]) and is sorted within
 * itself (empty segments allowed; offsets that break the rules give unspecified results, never a
 * read or write outside the given ranges).  nsegments 0 needs count 0 (CL_INVALID_VALUE).  One
 * work-group sorts each segment with all its passes (for many small segments: 10^5 segments of
 * up to 1000 keys); a few large segments are faster with clscan_sort_enqueue each.  The buffers
 * as for clscan_sort_enqueue; offsets must not overlap keys_out or values_out. */
CLSCAN_API cl_int clscan_segmented_sort_enqueue(clscan_sorter *sorter, cl_command_queue queue,
                                                cl_mem keys_in, size_t keys_in_offset,
                                                cl_mem keys_out, size_t keys_out_offset,
                                                cl_mem values_in, size_t values_in_offset,
                                                cl_mem values_out, size_t values_out_offset, size_t count,
                                                clscan_type offsets_type, cl_mem offsets, size_t offsets_offset,
                                                size_t nsegments, cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event);

#ifdef __cplusplus
}
#endif
#endif /* CLSCAN_H */
