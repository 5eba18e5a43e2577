/* The flag source of the selections by a predicate (clscan_compact_if*, clscan_partition_if):
 * the user's predicate of element i of the range (x = src[src_offset + i], i), evaluated where
 * it is needed instead of stored as flags.  The predicate's definitions (clscan_pred_type,
 * clscan_pred_flag) come before the files (lib/select.c); clscan_pred_type's size is the
 * element's. */
inline uint flag_at(FLAG_PARAMS, ulong i)
{
    return clscan_pred_flag(((__global const clscan_pred_type *)src)[src_offset + i], i);
}

/* Element i > 0's flag (from_runs.cl's tells a run's start without testing i). */
inline uint flag_past_first(FLAG_PARAMS, ulong i)
{
    return flag_at(FLAG_ARGS, i);
}
