/* The look-back of the one-pass kernels on GPUs (compact/one_pass.cl, compact/offsets.cl) over
 * the blocks' counts in the status words of compact/one_pass_status.cl.  A block still silent
 * after CLSCAN_SPIN_LIMIT polls is counted by the waiting work-group from its flags (a count is
 * a sum: the same result; the "decoupled fallback" of Smith, Levien and Owens, 2025). */

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
