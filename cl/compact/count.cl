/* counts[g] = the flags set in block g; work-group 0 also clears counts[nblocks], which the
 * exclusive scan of the counts turns into the total. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_count(FLAG_PARAMS, ulong count, __global uint *counts, uint nblocks)
{
    __local uint total;
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
        if (g == 0)
            counts[nblocks] = 0;
    }
}
