/* The compaction in one pass on GPUs with 64-bit atomics: the block scatter of
 * compact/scatter_block.cl, with the block's offset from a decoupled look-back over the blocks'
 * counts (D. Merrill and M. Garland, "Single-pass parallel prefix scan with decoupled
 * look-back", 2016; CUB's DeviceSelect; compact/one_pass_lookback.cl) instead of a count kernel
 * and a scan before it, so the flags (or src, for a predicate or runs) are read once.  Blocks
 * take their index from a ticket counter, status[0] (ticket_base: its value before this
 * launch), so a block waits only on blocks that have started (status words:
 * compact/one_pass_status.cl).  The last block writes the total.  The arguments of
 * scatter_block.cl, then the status words' and the total's. */

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_one_pass(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                             __global uint *indices, ulong indices_offset, uint write_indices,
                             __global volatile ulong *status, uint ticket_base, uint epoch,
                             __global ulong *kept, ulong kept_offset)
{
    __local uint buf[2 * CLSCAN_WG];
    __local uint4 stage[(TILE + 15) / 16];
    __local ushort list[TILE];
    __local uint block_kept, ticket, lookback[5];
    const uint li = get_local_id(0);
    if (li == 0)
        ticket = atomic_inc((volatile __global uint *)status) - ticket_base;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint g = ticket;
    const ulong base = (ulong)g * TILE;
    const uint bits = own_flags(FLAG_ARGS, base, count, li, (__local uchar *)stage);
    /* The block's count is published as soon as the last work-item has it, its prefix after the
     * look-back, and only then is the list of kept positions made: what the blocks after it
     * wait for comes first. */
    const uint own = popcount(bits);
    const uint at = wg_exclusive_sum(own, buf, li);
    if (li == CLSCAN_WG - 1) {
        block_kept = at + own;
        one_pass_publish(status, g, epoch, g == 0 ? ONE_PASS_PREFIX : ONE_PASS_AGGREGATE, at + own);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint n = block_kept;
    const uint p = g == 0 ? 0 : one_pass_lookback(FLAG_ARGS, count, status, g, epoch, li, lookback);
    if (li == 0 && g > 0)
        one_pass_publish(status, g, epoch, ONE_PASS_PREFIX, p + n);
    if (li == 0 && g == get_num_groups(0) - 1)
        kept[kept_offset] = (ulong)p + n;
    block_list_own(bits, at, list, li);
    barrier(CLK_LOCAL_MEM_FENCE);
    block_write(FLAG_ARGS, base, n, p, dst, dst_offset, indices, indices_offset, write_indices, list, li);
}
