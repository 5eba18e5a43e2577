/* flags[j] = the user's predicate of element j of the range (x = src[src_offset + j], i = j), for
 * the j < count of the block (work-item li's elements: select/index.cl).  The predicate's definitions (clscan_pred_type,
 * clscan_pred_flag) come before this file (lib/select.c). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_select_flags_if(__global const clscan_pred_type *src, ulong src_offset, ulong count,
                            __global uchar *flags)
{
    const uint li = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * TILE;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const ulong j = select_index(base, li, r);
        if (j < count)
            flags[j] = clscan_pred_flag(src[src_offset + j], j);
    }
}
