/* Each tile's status in the unused fourth lane of its value, one 16-byte word: the compensated
 * float AFFINE's (a, b, a_lo, 0) (ops/builtin.cl), 16 bytes, which scan/status_wide.cl cannot
 * hold beside a status.  Written with one vector store and read with one vector load, single
 * accesses on NVIDIA GPUs (as scan/status_wide.cl assumes; OpenCL does not promise it elsewhere,
 * so the host picks this layout only there).  Word 1 + g is tile g's; word 0 holds the ticket
 * counter. */

typedef union {
    uint4 u;
    T t;
} status_lanes;

CLSCAN_INLINE void status_publish(tile_status s, uint g, uint st, T value)
{
    status_lanes b;
    b.t = value;
    b.u.w = status_word(s.epoch, st);
    ((volatile __global uint4 *)s.words)[1 + g] = b.u;
}

CLSCAN_INLINE uint status_poll(tile_status s, ulong j, T *value)
{
    status_lanes b;
    b.u = ((volatile __global uint4 *)s.words)[1 + j];
    const uint st = status_of(b.u.w, s.epoch);
    b.u.w = 0;   /* the lane's own value */
    *value = b.t;
    return st;
}
