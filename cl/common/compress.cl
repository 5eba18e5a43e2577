/* Vector compress on CPUs (x86 AVX-512 VL's vpcompressd and vpcompressq: the lanes of a vector
 * selected by a mask packed to its front), where the OpenCL C compiler targets such a CPU (PoCL
 * on Skylake-SP and later Xeons).  The vector is packed in a register and stored whole, so the
 * lanes past the selected ones write copies: a caller stores only where all the vector's places
 * are its own, and its next stores overwrite the copies (compressing into memory with the mask
 * instead measured level).  HAVE_COMPRESS is 0 for other compilers and with -DCLSCAN_NO_COMPRESS
 * (a developer build option, so that the tests also run the callers' scalar stores on such
 * CPUs). */
#if defined(__AVX512F__) && defined(__AVX512VL__) && !defined(CLSCAN_NO_COMPRESS)
#define HAVE_COMPRESS 1

/* The lanes k of v with bit k of m set, in order from d. */
inline void compress_store_int8(int8 v, uint m, __global int *d)
{
    vstore8(__builtin_ia32_compresssi256_mask(v, v, (uchar)m), 0, d);
}

inline void compress_store_long4(long4 v, uint m, __global long *d)
{
    vstore4(__builtin_ia32_compressdi256_mask(v, v, (uchar)m), 0, d);
}

inline void compress_store_int16(int16 v, uint m, __global int *d)
{
    vstore16(__builtin_ia32_compresssi512_mask(v, v, (ushort)m), 0, d);
}
#else
#define HAVE_COMPRESS 0

inline void compress_store_int8(int8 v, uint m, __global int *d)
{
}

inline void compress_store_long4(long4 v, uint m, __global long *d)
{
}

inline void compress_store_int16(int16 v, uint m, __global int *d)
{
}
#endif
