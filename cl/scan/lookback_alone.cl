/* The look-back's slow path, by one work-item without barriers, when the window did not reach
 * a prefix.  Spinning is bounded: a tile whose status does not arrive within CLSCAN_SPIN_LIMIT
 * polls has its total computed here from its input with the functions its own work-group uses
 * (tile_total_alone), hence with the same bits: the "decoupled fallback" of T. Smith, R. Levien
 * and J. D. Owens ("Decoupled fallback: a portable single-pass GPU scan", 2025), which makes
 * the single pass safe where work-groups are not scheduled fairly.  scratch: CLSCAN_WG elements
 * of local memory. */

/* Phase 1: the nearest tile before g with a prefix (-1: none; *acc then origin, the virtual
 * prefix before tile 0), spinning a bounded time on each status still missing; *acc its prefix. */
CLSCAN_INLINE long lookback_find_prefix(tile_status s, uint g, T origin, T *acc)
{
    T value = NEUTRAL;
    *acc = origin;
    for (long found = (long)g - 1; found >= 0; --found) {
        uint st = status_poll(s, found, &value);
        for (uint spin = 0; st == 0 && spin < CLSCAN_SPIN_LIMIT; ++spin)
            st = status_poll(s, found, &value);
        if (st == STATUS_PREFIX) {
            *acc = value;
            return found;
        }
    }
    return -1;
}

/* Phase 2's value of tile k, whose status was still missing: alone, its total computed from its
 * input, unless the tile published meanwhile (it may then have started to write its output,
 * in-place scans: take the published value, equal by construction).  The fence keeps the poll
 * after the reads of the input.  *st: the status then. */
CLSCAN_INLINE T lookback_missing(tile_status s, long k, T alone, uint *st)
{
    T value = NEUTRAL;
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    *st = status_poll(s, k, &value);
    return *st == 0 ? alone : value;
}

/* Phase 2: fold left from that prefix over the totals of the tiles up to g - 1; a total still
 * missing is computed from the tile's input.  A tile that has published its prefix meanwhile
 * restarts the fold from that prefix: the left fold from tile 0, the same bits. */
CLSCAN_INLINE T lookback_alone(tile_status s, uint g, T origin, __global const IN_T *src IN_PARAMS, ulong count,
                               __local T *scratch)
{
    T acc, value = NEUTRAL;
    for (long k = lookback_find_prefix(s, g, origin, &acc) + 1; k < (long)g; ++k) {
        uint st = status_poll(s, k, &value);
        if (st == 0)
            value = lookback_missing(s, k, tile_total_alone(src IN_ARGS, (ulong)k * TILE, count, scratch), &st);
        acc = st == STATUS_PREFIX ? value : COMBINE(acc, value);
    }
    return acc;
}
