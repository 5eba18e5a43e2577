/* The look-back's fast path on CPUs: the work-group reads the statuses of the CLSCAN_WG tiles
 * before it at once, and one work-item finds the stop and folds (a CPU's work-group of a few
 * work-items pays more for barriers and local atomics than for the short serial loops).
 * The look-back interface (the same in scan/lookback_parallel.cl):
 *   LOOKBACK_LOCALS, LOOKBACK_LOCAL_PARAMS, LOOKBACK_LOCAL_ARGS   its local memory
 *   LOOKBACK_SCRATCH     CLSCAN_WG elements of it that the fallback may use once it is done
 *   lookback_prepare(LOOKBACK_LOCAL_ARGS)   by the first work-item, before the kernel's first barrier
 *   lookback_window(s, g, li, origin, carry, LOOKBACK_LOCAL_ARGS)   by every work-item: 1 when
 *                        *carry holds the combination of all tiles before g, 0 after
 *                        CLSCAN_WINDOW_POLLS reads of the window without finding it
 * Given the nearest tile with a PREFIX in the window and AGGREGATEs for all the tiles after it,
 * the carry is that prefix folded left with those totals (before tile 0 there is a virtual
 * prefix: origin, the scan's carry-in or NEUTRAL).  That left fold gives the same bits wherever the look-back stops. */
#define LOOKBACK_LOCALS __local uint lb_status[CLSCAN_WG], lb_found; __local T lb_window[CLSCAN_WG]
#define LOOKBACK_LOCAL_PARAMS __local uint *l_status, __local uint *found, __local T *window
#define LOOKBACK_LOCAL_ARGS lb_status, &lb_found, lb_window
#define LOOKBACK_SCRATCH lb_window

CLSCAN_INLINE void lookback_prepare(LOOKBACK_LOCAL_PARAMS)
{
}

CLSCAN_INLINE int lookback_window(tile_status s, uint g, uint li, T origin, __local T *carry,
                                  LOOKBACK_LOCAL_PARAMS)
{
    int done = 0;
    for (uint poll = 0; poll < CLSCAN_WINDOW_POLLS && !done; ++poll) {
        const long j = (long)g - 1 - (long)li;   /* window[li] is tile g - 1 - li */
        T value = origin;
        l_status[li] = j >= 0 ? status_poll(s, j, &value) : STATUS_PREFIX;
        window[li] = value;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (li == 0) {
            uint m = 0;
            while (m < CLSCAN_WG && l_status[m] == STATUS_AGGREGATE)
                ++m;
            *found = m < CLSCAN_WG && l_status[m] == STATUS_PREFIX;
            if (*found) {
                T acc = window[m];
                for (uint i = m; i > 0; --i)
                    acc = COMBINE(acc, window[i - 1]);
                *carry = acc;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        done = *found;
        barrier(CLK_LOCAL_MEM_FENCE);   /* the window and found are rewritten next */
    }
    return done;
}
