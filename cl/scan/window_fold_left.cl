/* The look-back window's fold for operators whose bits depend on the grouping (float SUM and
 * AFFINE, custom operators): the left fold window[m], window[m - 1], ... window[0] by one
 * work-item, so that the bits do not depend on where the look-back stopped.  Loads come eight
 * at a time ahead of the combinations, which then run back to back.  Called by every work-item. */
CLSCAN_INLINE void window_fold(__local const T *window, uint m, uint li, __local T *buf, __local T *carry)
{
    if (li != 0)
        return;
    T acc = window[m];
    uint i = m;
    for (; i >= 8; i -= 8) {
        T w8[8];
        for (uint k = 0; k < 8; ++k)
            w8[k] = window[i - 1 - k];
        for (uint k = 0; k < 8; ++k)
            acc = COMBINE(acc, w8[k]);
    }
    for (; i > 0; --i)
        acc = COMBINE(acc, window[i - 1]);
    *carry = acc;
}
