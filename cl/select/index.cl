/* The r-th of work-item li's CLSCAN_ITEMS elements in the block at base, for the kernels that
 * make flags (runs.cl, flags_if.cl).  CLSCAN_SELECT_STRIDED (the host's choice, as the device
 * policy of the compaction): 1 on GPUs, where neighbouring work-items take neighbouring
 * elements (coalesced); 0 on CPUs, where each work-item streams through its own consecutive run
 * (the layout of the compaction's count and scatter there: PoCL runs a work-item's loop in one
 * thread, and strided accesses cost it about twice the time). */
inline ulong select_index(ulong base, uint li, uint r)
{
    return CLSCAN_SELECT_STRIDED ? base + (ulong)r * CLSCAN_WG + li : base + (ulong)li * CLSCAN_ITEMS + r;
}
