/* Test hook (tests/lookback_test.c), in place of cl/scan/status_separate.cl: no tile ever sees
 * another's status, so that with CLSCAN_DEVELOP="status=separate;window_polls=0;spin_limit=0"
 * every tile takes the look-back's slow path and computes the totals of all the tiles before
 * it from their input (src and dst must not overlap).  The test checks that the result has the
 * fast path's bits. */

inline void status_publish(tile_status s, uint g, uint st, T value)
{
}

inline uint status_poll(tile_status s, ulong j, T *value)
{
    return 0;
}
