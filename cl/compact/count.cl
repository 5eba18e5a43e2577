/* counts[g] = the flags set in block g.  With `offsets` set, the last block to finish (the last
 * ticket of the counter tickets[0], ticket_base: its value before this launch) turns the counts
 * into their exclusive scan, the block offsets, and writes the total to counts[nblocks], so that
 * no scan kernel follows (the last-block sum of the CUDA C++ Programming Guide's __threadfence()
 * example; each count is published before its ticket, as the scans' separate status words are,
 * scan/status_separate.cl).  Without it work-group 0 clears counts[nblocks], which the scan of
 * the counts then turns into the total. */

/* The exclusive scan of counts[0, nblocks) in place and their total in counts[nblocks], by one
 * work-group: each work-item sums a run of the counts (a multiple of 4 long, read as uint4 and 16
 * at a time, so that its loads are in flight together), the work-group scans the sums, each
 * work-item writes its run's offsets.  Plain loads: these are the kernel's first reads of the
 * counts, so no cache holds an older copy, and the fence before orders them after the tickets. */
inline void scan_counts(__global uint *counts, uint nblocks, __local uint *buf, uint li)
{
    const uint per = ((nblocks + CLSCAN_WG - 1) / CLSCAN_WG + 3) & ~3u;
    const uint first = min(li * per, nblocks), end = min(first + per, nblocks);
    uint sum = 0, b = first;
    for (; b + 16 <= end; b += 16) {
        const uint4 v0 = vload4(0, counts + b), v1 = vload4(1, counts + b);
        const uint4 v2 = vload4(2, counts + b), v3 = vload4(3, counts + b);
        const uint4 v = v0 + v1 + v2 + v3;
        sum += v.x + v.y + v.z + v.w;
    }
    for (; b < end; ++b)
        sum += counts[b];
    uint offset = wg_exclusive_sum(sum, buf, li);
    for (b = first; b + 4 <= end; b += 4) {
        const uint4 v = vload4(0, counts + b);
        uint4 o;
        o.x = offset;
        o.y = o.x + v.x;
        o.z = o.y + v.y;
        o.w = o.z + v.z;
        offset = o.w + v.w;
        vstore4(o, 0, counts + b);
    }
    for (; b < end; ++b) {
        const uint n = counts[b];
        counts[b] = offset;
        offset += n;
    }
    if (li == CLSCAN_WG - 1)
        counts[nblocks] = offset;
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_count(FLAG_PARAMS, ulong count, __global uint *counts, uint nblocks,
                          __global volatile uint *tickets, uint ticket_base, uint offsets)
{
    __local uint total, last;
    __local uint buf[2 * CLSCAN_WG];
    const uint li = get_local_id(0), g = get_group_id(0);
    if (li == 0)
        total = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint n = count_own(FLAG_ARGS, (ulong)g * TILE, count, li);
    if (n)
        atomic_add(&total, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == 0) {
        counts[g] = total;
        if (offsets) {
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);   /* the count before the ticket */
            last = atomic_inc(tickets) - ticket_base == nblocks - 1;
        } else if (g == 0) {
            counts[nblocks] = 0;
        }
    }
    if (!offsets)   /* a kernel argument: the same in every work-item */
        return;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last)
        return;
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);   /* every block's ticket before its count */
    scan_counts(counts, nblocks, buf, li);
}
