/* Each tile's status and value in one 16-byte word (8-byte values, built-in or custom):
 * written with one vector store and read with one vector load, which NVIDIA GPUs perform as
 * single accesses (CUB relies on it; OpenCL does not promise it, so the host picks this layout
 * only there).  Word 1 + g is tile g's (status, value); word 0 holds the ticket counter. */

typedef union {
    ulong u;
    T t;
} status_bits;

/* The value must fit its half of the word (the host picks this layout only then). */
typedef char status_value_fits[sizeof(T) <= sizeof(ulong) ? 1 : -1];

CLSCAN_INLINE void status_publish(tile_status s, uint g, uint st, T value)
{
    status_bits b;
    b.t = value;
    ((volatile __global ulong2 *)s.words)[1 + g] = (ulong2)((ulong)status_word(s.epoch, st), b.u);
}

CLSCAN_INLINE uint status_poll(tile_status s, ulong j, T *value)
{
    const ulong2 w = ((volatile __global ulong2 *)s.words)[1 + j];
    status_bits b;
    b.u = w.y;
    *value = b.t;
    return status_of((uint)w.x, s.epoch);
}
