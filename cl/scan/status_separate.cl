/* Status words apart from the values (any operator and device): status word 1 + g per tile g,
 * its total in values[g] and its inclusive prefix in values[tiles + g].  A value is written
 * before its status, behind a fence, and read after it, behind a fence. */

CLSCAN_INLINE void status_publish(tile_status s, uint g, uint st, T value)
{
    if (st == STATUS_PREFIX)
        s.values[s.tiles + g] = value;
    else
        s.values[g] = value;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&s.words[1 + g], status_word(s.epoch, st));
}

CLSCAN_INLINE uint status_poll(tile_status s, ulong j, T *value)
{
    const uint st = status_of(s.words[1 + j], s.epoch);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (st == STATUS_PREFIX)
        *value = s.values[s.tiles + j];
    else if (st == STATUS_AGGREGATE)
        *value = s.values[j];
    return st;
}
