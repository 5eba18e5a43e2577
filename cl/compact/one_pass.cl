/* The compaction in one pass on GPUs with 64-bit atomics: the block scatter of
 * compact/scatter_block.cl, with the block's offset from a decoupled look-back over the blocks'
 * counts (D. Merrill and M. Garland, "Single-pass parallel prefix scan with decoupled
 * look-back", 2016; CUB's DeviceSelect) instead of a count kernel and a scan before it, so the
 * flags (or src, for a predicate or runs) are read once.  Blocks take their index from a ticket
 * counter, status[0] (ticket_base: its value before this launch), so a block waits only on
 * blocks that have started (status words: compact/one_pass_status.cl).  A block still silent
 * after CLSCAN_SPIN_LIMIT polls is counted by the waiting work-group from its flags (a count is
 * a sum: the same result; the "decoupled fallback" of Smith, Levien and Owens, 2025).  The last
 * block writes the total.  The arguments of scatter_block.cl, then the status words' and the
 * total's. */

/* The kept elements of the blocks before block g, to every work-item: windows of CLSCAN_WG
 * blocks read at once, back to the nearest prefix.  A window that meets a block not yet
 * published takes the totals before it, and one work-item alone polls that block: a poll of
 * the whole window would load the memory system with every waiting block's CLSCAN_WG reads. */
inline uint one_pass_lookback(FLAG_PARAMS, ulong count, __global volatile ulong *status, uint g, uint epoch,
                              uint li, __local uint *l)   /* l: 5 uints */
{
    __local uint *stop = l, *stop_status = l + 1, *sum = l + 2, *polled = l + 3, *counted = l + 4;
    uint before = 0;
    long end = g;   /* the window: blocks end - CLSCAN_WG ... end - 1 */
    for (;;) {
        const long j = end - 1 - (long)li;
        uint st = ONE_PASS_PREFIX, n = 0;   /* before block 0: a prefix of nothing */
        if (j >= 0)
            st = one_pass_read(status, (uint)j, epoch, &n);
        if (li == 0) {
            *stop = CLSCAN_WG;
            *sum = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (st != ONE_PASS_AGGREGATE)
            atomic_min(stop, li);
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint m = *stop;   /* the nearest block of the window without a total */
        /* The totals before the stop, the prefix at it. */
        const uint take = li < m || (li == m && st == ONE_PASS_PREFIX) ? n : 0;
        if (take)
            atomic_add(sum, take);
        if (li == m)
            *stop_status = st;
        barrier(CLK_LOCAL_MEM_FENCE);
        before += *sum;
        const uint sm = m < CLSCAN_WG ? *stop_status : ONE_PASS_AGGREGATE;
        if (sm == ONE_PASS_PREFIX)
            return before;
        end -= m;
        if (sm == 0) {   /* block end - 1 is silent: polled by one work-item, counted here if it stays so */
            if (li == 0) {
                uint spins = 0, pn, ps;
                while ((ps = one_pass_read(status, (uint)(end - 1), epoch, &pn)) == 0 && ++spins < CLSCAN_SPIN_LIMIT)
                    ;
                *polled = ps;
                *counted = 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (*polled == 0) {
                const uint alone = count_own(FLAG_ARGS, (ulong)(end - 1) * TILE, count, li);
                if (alone)
                    atomic_add(counted, alone);
                barrier(CLK_LOCAL_MEM_FENCE);
                before += *counted;
                end -= 1;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* stop, sum and polled are reset next */
    }
}

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
