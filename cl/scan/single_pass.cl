/* Single pass: a chained scan with decoupled look-back (D. Merrill and M. Garland, "Single-pass
 * parallel prefix scan with decoupled look-back", NVIDIA technical report NVR-2016-002, 2016).
 * One launch; every element is read once and written once (about 2n traffic against 3n for
 * reduce-then-scan).  Tiles take their index from a ticket counter, so a tile waits only on
 * tiles that have already started.  Each tile publishes its total (AGGREGATE) as soon as it has
 * it, and its inclusive prefix (PREFIX) once it knows its carry: from the window of statuses
 * before it (scan/lookback_*.cl), or else from the slow path (scan/lookback_alone.cl).  Both fold
 * from the nearest prefix to the left, so the result is bitwise reproducible for every operator.
 *
 * status: the ticket counter and the status words (scan/status_*.cl); values: the separate
 * layout's totals and prefixes for `tiles` tiles.  ticket_base is the counter's value before this
 * scan, epoch the tag of this scan's status words.  The options (scan/options.cl): the carry-in
 * is the prefix before tile 0 (the look-back's origin), the last tile writes the total. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_single_pass(__global const IN_T *src, ulong src_offset, __global OUT_T *dst,
                             ulong dst_offset, ulong count, __global volatile uint *status,
                             __global T *values, ulong tiles, uint ticket_base, uint epoch, OPTIONS_PARAMS
                             IN_KERNEL_PARAMS)
{
    TILE_LOCALS;
    LOOKBACK_LOCALS;
    IN_KERNEL_LOCALS
    __local uint l_tile;
    __local T l_carry;
    TILE_PRIVATE(t);
    const uint li = get_local_id(0);
    const tile_status s = {status, values, tiles, epoch};
    __global const IN_T *in = src + src_offset;

    if (li == 0) {
        l_tile = atomic_inc(&status[0]) - ticket_base;
        lookback_prepare(LOOKBACK_LOCAL_ARGS);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint g = l_tile;
    const ulong base = (ulong)g * TILE;
    const T origin = options_origin(OPTIONS_ARGS);

    const T total = tile_scan(TILE_PRIVATE_ARG(t), in IN_ARGS, base, count, li, TILE_LOCAL_ARGS);
    const int last = g == get_num_groups(0) - 1;
    if (li == 0)
        status_publish(s, g, g == 0 ? STATUS_PREFIX : STATUS_AGGREGATE, g == 0 ? COMBINE(origin, total) : total);
    if (li == 0 && g == 0 && last)
        options_total(COMBINE(origin, total), OPTIONS_ARGS);

    T carry = origin;
    if (g > 0) {
        const int found = lookback_window(s, g, li, origin, &l_carry, LOOKBACK_LOCAL_ARGS);
        if (li == 0) {
            if (!found)
                l_carry = lookback_alone(s, g, origin, in IN_ARGS, count, LOOKBACK_SCRATCH);
            const T prefix = COMBINE(l_carry, total);
            status_publish(s, g, STATUS_PREFIX, prefix);
            if (last)
                options_total(prefix, OPTIONS_ARGS);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        carry = l_carry;
    }
    if (write_dst)
        tile_store(TILE_PRIVATE_ARG(t), dst + dst_offset, base, count, li, carry, CLSCAN_EXCLUSIVE,
                   TILE_LOCAL_ARGS);
}
