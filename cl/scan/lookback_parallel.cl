/* The look-back's fast path on GPUs: every work-item reads CLSCAN_LOOKBACK statuses of the
 * window of WINDOW tiles before the tile (the prefixes travel back that far per round trip), the
 * nearest tile without a total is found by all work-items at once with a local atomic_min, and
 * the window is folded by scan/window_fold_left.cl or scan/window_fold_tree.cl.  The interface
 * of scan/lookback_serial.cl.  (On the H200, 2^28 floats: a window of 1 x 256 tiles beat 4 x 256
 * and 8 x 256: a longer poll costs more than the farther reach gains.) */
#define WINDOW (CLSCAN_LOOKBACK * CLSCAN_WG)
#define LOOKBACK_LOCALS __local uint lb_first[2], lb_status[WINDOW]; __local T lb_window[WINDOW]
#define LOOKBACK_LOCAL_PARAMS __local uint *first2, __local uint *l_status, __local T *window, __local T *buf
#define LOOKBACK_LOCAL_ARGS lb_first, lb_status, lb_window, wg_buf
#define LOOKBACK_SCRATCH lb_window

CLSCAN_INLINE void lookback_prepare(LOOKBACK_LOCAL_PARAMS)
{
    first2[0] = WINDOW;
}

CLSCAN_INLINE int lookback_window(tile_status s, uint g, uint li, T origin, __local T *carry,
                                  LOOKBACK_LOCAL_PARAMS)
{
    int done = 0;
    for (uint poll = 0; poll < CLSCAN_WINDOW_POLLS && !done; ++poll) {
        /* Two slots for the stop, used in turns, so that resetting the next poll's needs no
         * barrier of its own. */
        __local uint *first = first2 + (poll & 1);
        for (uint k = 0; k < CLSCAN_LOOKBACK; ++k) {
            const uint w = k * CLSCAN_WG + li;   /* window[w] is tile g - 1 - w */
            const long j = (long)g - 1 - (long)w;
            T value = origin;
            const uint st = j >= 0 ? status_poll(s, j, &value) : STATUS_PREFIX;
            window[w] = value;
            l_status[w] = st;
            if (st != STATUS_AGGREGATE)
                atomic_min(first, w);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint m = *first;
        if (li == 0)
            first2[(poll + 1) & 1] = WINDOW;
        done = m < WINDOW && l_status[m] == STATUS_PREFIX;
        if (done)   /* the same for every work-item */
            window_fold(window, m, li, buf, carry);
        barrier(CLK_LOCAL_MEM_FENCE);   /* the carry and the window are rewritten next */
    }
    return done;
}
