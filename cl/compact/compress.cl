/* The CPUs' stores of kept elements by vector compress (x86 AVX-512 VL's vpcompressd and
 * vpcompressq: the selected lanes of a vector packed to its front), where the OpenCL C compiler
 * targets such a CPU (PoCL on Skylake-SP and later Xeons).  COMPRESS_LANES elements of 4 or 8
 * bytes go in one step: their flags as the bits of a mask, the vector packed by the mask in a
 * register, then stored whole, so the lanes past the kept ones write copies that the caller's
 * next stores overwrite: a caller takes a step only where all COMPRESS_LANES positions from the
 * next free one are its own (compressing into memory with the mask instead measured level).
 * COMPRESS_LANES is 0 for other element sizes, other compilers, and with
 * -DCLSCAN_NO_COMPRESS (a developer build option, so that the tests also run the scalar stores
 * on such CPUs); the callers' scalar loops then do all the work.  PoCL, 2 cores, 2^22 uint32,
 * compaction by a predicate: doc/performance.md. */
#if defined(__AVX512F__) && defined(__AVX512VL__) && !defined(CLSCAN_NO_COMPRESS)
#define COMPRESS_LANES (WORDS != 1 ? 0u : sizeof(W) == 4 ? 8u : sizeof(W) == 8 ? 4u : 0u)
#define COMPRESS_INDEX_LANES 8u

/* Elements s[k] of the COMPRESS_LANES from s whose bit k of m is set, in order from d. */
inline void compress_elements(__global const W *s, __global W *d, uint m)
{
    if (sizeof(W) == 4) {
        const int8 v = vload8(0, (__global const int *)s);
        vstore8(__builtin_ia32_compresssi256_mask(v, v, (uchar)m), 0, (__global int *)d);
    } else {
        const long4 v = vload4(0, (__global const long *)s);
        vstore4(__builtin_ia32_compressdi256_mask(v, v, (uchar)m), 0, (__global long *)d);
    }
}

/* Indices i + k of the 8 from i whose bit k of m is set, in order from d. */
inline void compress_indices(uint i, __global uint *d, uint m)
{
    const int8 v = as_int8((uint8)(i) + (uint8)(0, 1, 2, 3, 4, 5, 6, 7));   /* no signed overflow */
    vstore8(__builtin_ia32_compresssi256_mask(v, v, (uchar)m), 0, (__global int *)d);
}
#else
#define COMPRESS_LANES 0u
#define COMPRESS_INDEX_LANES 0u

inline void compress_elements(__global const W *s, __global W *d, uint m)
{
}

inline void compress_indices(uint i, __global uint *d, uint m)
{
}
#endif
