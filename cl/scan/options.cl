/* The options of a scan (clscan_enqueue_with): a carry-in and a total.  A carry-in c takes the
 * place of the neutral element before the first element: every output is comb(c, ...), never
 * commuted; the total is c comb x[0] comb ... comb x[count - 1] (c alone for count 0), written
 * by the last tile.  write_dst 0 stores no scan: a reduction.  Values are the destination's
 * type OPT_T (the destination's element type, or the operator's T where a transform maps the
 * destination's elements: scan/io_transform.cl; AS_T and OUT_OF convert, scan/io_plain.cl).
 *   carry_mode  0 none (NEUTRAL), 1 carry_value (the host's copy), 2 carry_buf[carry_offset]
 *   write_total the total goes to total_buf[total_offset] */
#define OPTIONS_PARAMS OPT_T carry_value, __global const OPT_T *carry_buf, ulong carry_offset, uint carry_mode, \
                       __global OPT_T *total_buf, ulong total_offset, uint write_total, uint write_dst
#define OPTIONS_ARGS carry_value, carry_buf, carry_offset, carry_mode, total_buf, total_offset, write_total, \
                     write_dst

CLSCAN_INLINE T options_origin(OPTIONS_PARAMS)
{
    return carry_mode == 2 ? AS_T(carry_buf[carry_offset]) : carry_mode == 1 ? AS_T(carry_value) : NEUTRAL;
}

CLSCAN_INLINE void options_total(T total, OPTIONS_PARAMS)
{
    if (write_total)
        total_buf[total_offset] = OUT_OF(total);
}
