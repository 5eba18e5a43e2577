/* The one-pass compactions' status words (compact/one_pass.cl on GPUs, compact/one_pass_serial.cl
 * on CPUs): status[0] is the ticket counter; block b's status is the 64-bit word status[1 + b]:
 * (epoch << 2 | AGGREGATE or PREFIX) << 32 | count, the block's kept elements or those up to its
 * end, written by one atomic exchange; words of an earlier launch (another epoch) read as nothing
 * yet. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define ONE_PASS_AGGREGATE 1u
#define ONE_PASS_PREFIX 2u

inline void one_pass_publish(__global volatile ulong *status, uint b, uint epoch, uint st, uint n)
{
    atom_xchg((volatile __global ulong *)status + 1 + b, ((ulong)((epoch << 2) | st) << 32) | n);
}

/* Block b's status (0: nothing yet), its count in *n. */
inline uint one_pass_read(__global volatile ulong *status, uint b, uint epoch, uint *n)
{
    const ulong w = status[1 + b];
    const uint hi = (uint)(w >> 32);
    *n = (uint)w;
    return (hi >> 2) == epoch ? (hi & 3u) : 0u;
}
