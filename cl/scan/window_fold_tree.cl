/* The look-back window's fold for exactly associative operators (integers; MAX, MIN and
 * LAST_NONZERO of any type), whose bits do not depend on the grouping: each work-item folds
 * CLSCAN_LOOKBACK neighbouring tiles of window[m] ... window[0] in tile order (NEUTRAL in
 * front), then the work-group primitive folds the work-items' results.  Called by every
 * work-item (the primitive has barriers). */
CLSCAN_INLINE void window_fold(__local const T *window, uint m, uint li, __local T *buf, __local T *carry)
{
    T y = NEUTRAL;
    for (uint k = CLSCAN_LOOKBACK; k-- > 0;) {
        const uint w = (CLSCAN_WG - 1 - li) * CLSCAN_LOOKBACK + k;
        if (w <= m)
            y = COMBINE(y, window[w]);
    }
    T unused = NEUTRAL, folded;
    wg_scan(y, buf, li, &unused, &folded);
    if (li == 0)
        *carry = folded;
}
