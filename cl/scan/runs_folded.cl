/* Reduce-by-key on CPUs with the keys and the values read once (after scan/runs_serial.cl, whose
 * totals and look-back it shares; lib/scan_runs.c takes it where its scratch fits).  As many
 * work-groups of one work-item as the host launches, each taking tiles by ticket until none is
 * left, with a slot of scratch of its own (tile + CLSCAN_RUNS_SLOT_SPARE keys and values: no
 * other work-group writes it).  A tile's runs are folded from NEUTRAL at each head into the slot at
 * their rank in the tile, without a branch (every element writes its run's fold so far; the
 * run's last element writes last), or RUNS_LANES pairs a step where scan/runs_lanes.cl takes
 * them (integers: the same values).  The fold gives the tile's total (its heads, and the fold
 * from its last head: the bits of runs_serial_total) as it goes, where runs_serial.cl counts the
 * heads in a pass of their own before the fold, from memory.  After the look-back the tile's
 * complete runs are copied out at their ranks in the array; the run it continues from the tiles
 * before it (slot 0) as comb(carry, its part in the tile). */

/* Pair i folded into the slot: a head starts a run from NEUTRAL at the next rank; every pair
 * writes its run's fold so far at its run's rank (the run's last pair writes last). */
CLSCAN_INLINE void runs_folded_pair(__global const clscan_value *in, __global const KEY_T *keys, ulong i,
                                    KEY_T *prev, clscan_value *acc, uint *at, __global KEY_T *sk,
                                    __global clscan_value *sv)
{
    const KEY_T k = keys[i];
    const uint head = k != *prev;
    *acc = VALUE_COMBINE(head ? clscan_value_neutral() : *acc, in[i]);
    *at += head;
    sk[*at] = k;
    sv[*at] = *acc;
    *prev = k;
}

/* The pairs base ... end - 1 folded into the slot (sk, sv): slot 0 the run that continues from
 * before base (if any), slot j the tile's j-th run; RUNS_LANES at a time where scan/runs_lanes.cl
 * takes them (from the array's second pair on: a step reads the key before its first), the rest
 * one at a time.  The tile's total: its heads and the fold of its last run. */
CLSCAN_INLINE T runs_folded_fold(__global const clscan_value *in, __global const KEY_T *keys, ulong base, ulong end,
                                 __global KEY_T *sk, __global clscan_value *sv)
{
    KEY_T prev = base != 0 ? keys[base - 1] : ~keys[0];   /* element 0 of the array: a head */
    clscan_value acc = clscan_value_neutral();
    uint at = 0;
    ulong i = base;
    if (RUNS_LANES && i + RUNS_LANES + 1 < end) {
        if (i == 0)   /* the array's first pair: a step reads the key before its first */
            runs_folded_pair(in, keys, i++, &prev, &acc, &at, sk, sv);
        runs_lanes_fold(in, keys, &i, end, &prev, &acc, &at, sk, sv);
    }
    for (; i < end; ++i)
        runs_folded_pair(in, keys, i, &prev, &acc, &at, sk, sv);
    return clscan_pair_make(acc, at);
}

/* The slot's complete runs to their ranks: the carry's run ends in the tile where the tile holds a
 * head (its first run's rank is carry.h), the tile's last run where the next key differs. */
CLSCAN_INLINE void runs_folded_copy(__global const KEY_T *keys, ulong base, ulong end, ulong count, T carry, uint heads,
                                    __global const KEY_T *sk, __global const clscan_value *sv,
                                    __global KEY_T *keys_out, __global clscan_value *values_out)
{
    const int last_ends = end == count || keys[end] != keys[end - 1];
    if (base != 0 && keys[base] == keys[base - 1] && (heads > 0 || last_ends)) {
        keys_out[carry.h - 1] = sk[0];
        values_out[carry.h - 1] = VALUE_COMBINE(carry.v, sv[0]);
    }
    const uint complete = heads - (heads > 0 && !last_ends);
    for (uint j = 0; j < complete; ++j) {
        keys_out[carry.h + j] = sk[j + 1];
        values_out[carry.h + j] = sv[j + 1];
    }
}

/* The arguments of clscan_reduce_runs_serial, then the scratch: a slot of tile +
 * CLSCAN_RUNS_SLOT_SPARE keys and values per work-group (ranks 0 ... tile, and the vector stores'
 * copies past the last; the host sizes it with the same constant). */
typedef char runs_slot_holds_a_step[(CLSCAN_RUNS_SLOT_SPARE >= RUNS_LANES) ? 1 : -1];
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void clscan_reduce_runs_folded(__global const clscan_value *src, ulong src_offset, __global const KEY_T *keys_buf,
                               ulong keys_offset, ulong count, __global KEY_T *keys_out, ulong keys_out_offset,
                               __global clscan_value *values_out, ulong values_out_offset, __global ulong *nruns,
                               ulong nruns_offset, __global volatile uint *status, __global T *values, ulong tiles,
                               uint ticket_base, uint epoch, ulong tile, __global KEY_T *scratch_keys,
                               __global clscan_value *scratch_values)
{
    const tile_status s = {status, values, tiles, epoch};
    __global const clscan_value *in = src + src_offset;
    __global const KEY_T *keys = keys_buf + keys_offset;
    __global KEY_T *sk = scratch_keys + get_group_id(0) * (tile + CLSCAN_RUNS_SLOT_SPARE);
    __global clscan_value *sv = scratch_values + get_group_id(0) * (tile + CLSCAN_RUNS_SLOT_SPARE);
    const ulong ntiles = count / tile + (count % tile != 0);
    for (uint g; (g = atomic_inc(&status[0]) - ticket_base) < ntiles;) {
        const ulong base = (ulong)g * tile, end = count - base < tile ? count : base + tile;
        const T total = runs_folded_fold(in, keys, base, end, sk, sv);
        const T carry = runs_serial_carry(s, g, total, in, keys, tile);
        if (end == count)
            nruns[nruns_offset] = carry.h + total.h;
        runs_folded_copy(keys, base, end, count, carry, total.h, sk, sv, keys_out + keys_out_offset,
                         values_out + values_out_offset);
    }
}
