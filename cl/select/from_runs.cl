/* The flag source of unique: element i of the range starts a run, i == 0 or it differs from
 * element i - 1 (the bytewise comparison of select/runs.cl); flag_past_first, the same for i > 0
 * without the test (the loops that start past element 0). */
inline uint flag_past_first(FLAG_PARAMS, ulong i)   /* i > 0 */
{
    __global const W *s = src + (src_offset + i) * WORDS;
    return clscan_runs_differ(s, s - WORDS);
}

inline uint flag_at(FLAG_PARAMS, ulong i)
{
    return i == 0 || flag_past_first(FLAG_ARGS, i);
}
