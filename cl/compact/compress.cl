/* The CPUs' stores of kept elements by vector compress (common/compress.cl): COMPRESS_LANES
 * elements of 4 or 8 bytes go in one step, their flags as the bits of a mask, so a caller takes
 * a step only where all COMPRESS_LANES positions from the next free one are its own.
 * COMPRESS_LANES is 0 for other element sizes and where common/compress.cl has no compress; the
 * callers' scalar loops then do all the work.  PoCL, 2 cores, 2^22 uint32, compaction by a
 * predicate: doc/performance.md. */
#if HAVE_COMPRESS
#define COMPRESS_LANES (WORDS != 1 ? 0u : sizeof(W) == 4 ? 8u : sizeof(W) == 8 ? 4u : 0u)
#define COMPRESS_INDEX_LANES 8u

/* Elements s[k] of the COMPRESS_LANES from s whose bit k of m is set, in order from d. */
inline void compress_elements(__global const W *s, __global W *d, uint m)
{
    if (sizeof(W) == 4)
        compress_store_int8(vload8(0, (__global const int *)s), m, (__global int *)d);
    else
        compress_store_long4(vload4(0, (__global const long *)s), m, (__global long *)d);
}

/* Indices i + k of the 8 from i whose bit k of m is set, in order from d. */
inline void compress_indices(uint i, __global uint *d, uint m)
{
    const uint8 v = (uint8)(i) + (uint8)(0, 1, 2, 3, 4, 5, 6, 7);   /* unsigned: no signed overflow */
    compress_store_int8(as_int8(v), m, (__global int *)d);
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
