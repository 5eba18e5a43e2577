/* The flag source of unique: element i of the range starts a run, i == 0 or it differs from
 * element i - 1 (the bytewise comparison of select/runs.cl). */
inline uint flag_at(FLAG_PARAMS, ulong i)
{
    __global const W *s = src + (src_offset + i) * WORDS;
    return i == 0 || clscan_runs_differ(s, s - WORDS);
}
