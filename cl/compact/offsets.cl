/* The blocks' offsets in one kernel on GPUs with 64-bit atomics, in place of the count kernel
 * and the scan of the counts (compact/count.cl): offsets[b] = the flags set before block b,
 * offsets[nblocks] = all of them, from a decoupled look-back over the blocks' counts
 * (compact/one_pass_lookback.cl; D. Merrill and M. Garland, 2016).  For the scatters that need
 * the total before they place an element (the partition's, the blocking calls'), and whose
 * flags are then read twice.  Blocks take their index from the ticket counter status[0], as in
 * compact/one_pass.cl. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_offsets(FLAG_PARAMS, ulong count, __global uint *offsets, uint nblocks,
                            __global volatile ulong *status, uint ticket_base, uint epoch)
{
    __local uint block_count, ticket, lookback[5];
    const uint li = get_local_id(0);
    if (li == 0) {
        ticket = atomic_inc((volatile __global uint *)status) - ticket_base;
        block_count = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint g = ticket;
    const uint own = count_own(FLAG_ARGS, (ulong)g * TILE, count, li);
    if (own)
        atomic_add(&block_count, own);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint n = block_count;
    if (li == 0)
        one_pass_publish(status, g, epoch, g == 0 ? ONE_PASS_PREFIX : ONE_PASS_AGGREGATE, n);
    const uint p = g == 0 ? 0 : one_pass_lookback(FLAG_ARGS, count, status, g, epoch, li, lookback);
    if (li == 0) {
        if (g > 0)
            one_pass_publish(status, g, epoch, ONE_PASS_PREFIX, p + n);
        offsets[g] = p;
        if (g == nblocks - 1)
            offsets[nblocks] = p + n;
    }
}
