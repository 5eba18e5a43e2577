/* Bucket offsets from the sorted keys: offsets[b] = the first position whose key is >= b, for
 * b = 0 ... nbuckets (so offsets[nbuckets] = count).  Keys above clamp count as clamp (the sort
 * ordered them so).  Two kernels of the same results, the host choosing by the work
 * (lib/bucket.c): a pass over the keys, work proportional to count + nbuckets, or a search per
 * bucket, nbuckets searches of log2(count) steps. */

/* The pass: position i writes the buckets after its predecessor's key up to its own; the last
 * position also those after its key.  Each entry is written exactly once.  No barriers:
 * work-groups of any size, as many as the host launches, each work-item taking its share of the
 * positions a work-group apart (neighbours read neighbours), so that the launch can have few
 * work-groups (H200, 2^26 keys, one position a work-item in work-groups of 64: 0.64 ms, ten times
 * a read of the keys: the work-groups' launches). */
__kernel void clscan_bucket_offsets(__global const uint *keys, ulong keys_offset, ulong count, uint clamp,
                                    __global uint *offsets, ulong offsets_offset, uint nbuckets)
{
    const ulong wg = get_local_size(0), all = wg * get_num_groups(0), items = (count + all - 1) / all;
    const ulong first = (ulong)get_group_id(0) * wg * items + get_local_id(0);
    __global const uint *k = keys + keys_offset;
    __global uint *o = offsets + offsets_offset;
    for (ulong r = 0; r < items; ++r) {
        const ulong i = first + r * wg;
        if (i >= count)
            return;
        const uint key = min(k[i], clamp);
        const uint from = i > 0 ? min(k[i - 1], clamp) + 1 : 0;
        for (uint b = from; b <= key; ++b)
            o[b] = (uint)i;
        if (i == count - 1)
            for (uint b = key + 1; b <= nbuckets; ++b)
                o[b] = (uint)count;
    }
}

/* The search: work-item b halves [0, count) towards the first position whose key is >= b, the
 * same steps for every bucket (the lanes of a warp stay together; count >= 1), then one last
 * comparison.  Neighbouring buckets read the same keys at the first steps and neighbouring keys
 * at the last, from the caches. */
__kernel void clscan_bucket_offsets_search(__global const uint *keys, ulong keys_offset, ulong count, uint clamp,
                                           __global uint *offsets, ulong offsets_offset, uint nbuckets)
{
    const ulong g = get_global_id(0);
    if (g > nbuckets)
        return;
    const uint b = (uint)g;
    __global const uint *k = keys + keys_offset;
    ulong base = 0, n = count;
    while (n > 1) {
        const ulong step = n / 2;
        base = min(k[base + step], clamp) < b ? base + step : base;
        n -= step;
    }
    offsets[offsets_offset + g] = (uint)(base + (min(k[base], clamp) < b));
}
