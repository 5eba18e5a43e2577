/* Each tile's status and value in one 64-bit word (4-byte values, built-in or custom, on
 * devices with cl_khr_int64_base_atomics): the status word in the upper half, the value's bits in
 * the lower.  A poll is one load instead of a status load, a fence and a dependent value load,
 * and a tile publishes with one atomic exchange and no fence (an aligned 64-bit load is one
 * access on devices with 64-bit atomics).  The words start 16 bytes in, after the ticket
 * counter: word 2 + g is tile g's. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

typedef union {
    uint u;
    T t;
} status_bits;

/* The value must fit its half of the word (the host picks this layout only then). */
typedef char status_value_fits[sizeof(T) <= sizeof(uint) ? 1 : -1];

CLSCAN_INLINE void status_publish(tile_status s, uint g, uint st, T value)
{
    status_bits b;
    b.t = value;
    atom_xchg((volatile __global ulong *)s.words + 2 + g, ((ulong)status_word(s.epoch, st) << 32) | b.u);
}

CLSCAN_INLINE uint status_poll(tile_status s, ulong j, T *value)
{
    const ulong w = ((volatile __global ulong *)s.words)[2 + j];
    status_bits b;
    b.u = (uint)w;
    *value = b.t;
    return status_of((uint)(w >> 32), s.epoch);
}
