/* Bucket offsets from the sorted keys: offsets[b] = the first position whose key is >= b, for
 * b = 0 ... nbuckets (so offsets[nbuckets] = count).  Position i writes the buckets after its
 * predecessor's key up to its own; the last position also those after its key.  Each entry is
 * written exactly once.  Keys above clamp count as clamp.  (No barriers: one position per
 * work-item, work-groups of any size.) */
__kernel void clscan_bucket_offsets(__global const uint *keys, ulong keys_offset, ulong count, uint clamp,
                                    __global uint *offsets, ulong offsets_offset, uint nbuckets)
{
    const ulong i = get_global_id(0);
    if (i >= count)
        return;
    __global const uint *k = keys + keys_offset;
    __global uint *o = offsets + offsets_offset;
    const uint key = min(k[i], clamp);
    const uint from = i > 0 ? min(k[i - 1], clamp) + 1 : 0;
    for (uint b = from; b <= key; ++b)
        o[b] = (uint)i;
    if (i == count - 1)
        for (uint b = key + 1; b <= nbuckets; ++b)
            o[b] = (uint)count;
}
