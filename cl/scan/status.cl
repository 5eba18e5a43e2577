/* The single pass's tile status words, behind one interface (scan/status_separate.cl,
 * scan/status_packed.cl, scan/status_wide.cl and scan/status_lane.cl are its
 * layouts):
 *   status_publish(s, g, st, value)   tile g announces its total (STATUS_AGGREGATE) or its
 *                                     inclusive prefix (STATUS_PREFIX)
 *   status_poll(s, j, &value)         tile j's status (0: nothing yet) and the value it announces
 * Each status word carries the scan's epoch in its upper 30 bits, so the host never clears the
 * words between scans (a word of an earlier scan reads as nothing yet).  words[0] is the ticket
 * counter that hands out the tiles. */
#define STATUS_AGGREGATE 1u
#define STATUS_PREFIX 2u

typedef struct tile_status {
    __global volatile uint *words;
    volatile __global T *values;   /* status_separate.cl: totals, then inclusive prefixes */
    ulong tiles;                   /* tiles the words and values have room for */
    uint epoch;
} tile_status;

CLSCAN_INLINE uint status_of(uint word, uint epoch)
{
    return (word >> 2) == epoch ? (word & 3u) : 0u;
}

CLSCAN_INLINE uint status_word(uint epoch, uint st)
{
    return (epoch << 2) | st;
}
