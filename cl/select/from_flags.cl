/* The flag source of the compaction by the user's flags (clscan_compact*, clscan_partition):
 * element i of the range is kept if its uchar flag is non-zero. */
inline uint flag_at(FLAG_PARAMS, ulong i)
{
    return flags[flags_offset + i] != 0;
}

/* Element i > 0's flag (from_runs.cl's tells a run's start without testing i). */
inline uint flag_past_first(FLAG_PARAMS, ulong i)
{
    return flag_at(FLAG_ARGS, i);
}
