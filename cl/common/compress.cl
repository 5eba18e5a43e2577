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

/* The masks of the compress stores: bit k set where lane k of f is not 0, by one compare into a
 * mask register (the shifts and ors of the portable form below cost some 8 instructions a
 * vector: PoCL 3.1, 2 cores, 2^22, doc/performance.md). */
inline uint lanes_mask4(int4 f)
{
    return __builtin_ia32_cmpd128_mask(f, (int4)0, 4, (uchar)0xff);
}

inline uint lanes_mask8(int8 f)
{
    return __builtin_ia32_cmpd256_mask(f, (int8)0, 4, (uchar)0xff);
}

inline uint lanes_mask16(int16 f)
{
    return __builtin_ia32_cmpd512_mask(f, (int16)0, 4, (ushort)0xffff);
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

inline uint lanes_mask4(int4 f)
{
    const uint4 b = as_uint4(f != 0) & (uint4)(1, 2, 4, 8);
    const uint2 q = b.lo | b.hi;
    return q.x | q.y;
}

inline uint lanes_mask8(int8 f)
{
    const uint8 b = as_uint8(f != 0) & (uint8)(1, 2, 4, 8, 16, 32, 64, 128);
    const uint4 h = b.lo | b.hi;
    const uint2 q = h.lo | h.hi;
    return q.x | q.y;
}
#endif
