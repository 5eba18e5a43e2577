/* One work-item's elements in registers for segmented programs: the interface of
 * scan/items.cl.  The work-item keeps its elements' values (x) and flags (f, see
 * scan/segmented.cl) in two arrays rather than an array of pairs, so that the sequential loops
 * run on plain values (a CPU keeps them in vector registers) and the flags stay bytes beside
 * them.  The loops compute exactly what the pair operator computes on the same elements in the
 * same order, hence the same bits; what leaves the work-item (its total) and what comes in (its
 * prefix) are pairs. */
#define ITEMS_DECL(v) clscan_value v[CLSCAN_ITEMS]; clscan_flags v##_f[CLSCAN_ITEMS]
#define ITEMS_PARAM(v) clscan_value *v, clscan_flags *v##_f
#define ITEMS_ARG(v) v, v##_f
#define STAGE_VALUE(s) (s).v

CLSCAN_INLINE clscan_pair element_at(__global const clscan_value *src IN_PARAMS, ulong i)
{
    return clscan_pair_make(src[i], clscan_head(heads, keys, i));
}

CLSCAN_INLINE void item_set(clscan_value *x, clscan_flags *f, uint k, clscan_pair e)
{
    x[k] = e.v;
    f[k] = head_flags(e.h);
}

CLSCAN_INLINE clscan_value item_value(const clscan_value *x, const clscan_flags *f, uint k)
{
    return x[k];
}

/* The values, then the flags in loops of their own (segments part): only the first element of
 * a run can be element 0, so the others need no test for it, and a CPU vectorises the loops. */
CLSCAN_INLINE void items_load_full(clscan_value *x, clscan_flags *f, __global const clscan_value *src IN_PARAMS,
                                   ulong first)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            x[VIDX(l, r)] = src[first + l * RUN + r];
    flags_load_full(f, heads, keys, first);
}

CLSCAN_INLINE void items_load_partial(clscan_value *x, clscan_flags *f, __global const clscan_value *src IN_PARAMS,
                                      ulong first, ulong count)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l) {
            const ulong i = first + l * RUN + r;
            x[VIDX(l, r)] = i < count ? src[i] : clscan_value_neutral();
            f[VIDX(l, r)] = i < count ? head_flags(clscan_head(heads, keys, i)) : 0;
        }
}

CLSCAN_INLINE void items_store_full(const clscan_value *x, const clscan_flags *f, __global clscan_value *dst,
                                    ulong first)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            dst[first + l * RUN + r] = x[VIDX(l, r)];
}

CLSCAN_INLINE void items_store_partial(const clscan_value *x, const clscan_flags *f, __global clscan_value *dst,
                                       ulong first, ulong count)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            if (first + l * RUN + r < count)
                dst[first + l * RUN + r] = x[VIDX(l, r)];
}

/* The pair of element k after the work-item's sequential scan. */
CLSCAN_INLINE clscan_pair item_pair(const clscan_value *x, const clscan_flags *f, uint k)
{
    return clscan_pair_make(x[k], FLAGS_HEADS(f[k]));
}

/* The pair operator on (x[r - 1], f[r - 1]) and (x[r], f[r]): the value restarts from the
 * neutral value at a head, the run flag is or-ed in. */
CLSCAN_INLINE clscan_pair item_scan(clscan_value *x, clscan_flags *f)
{
    for (uint r = 1; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l) {
            const uint k = VIDX(l, r), j = VIDX(l, r - 1);
            x[k] = VALUE_COMBINE(f[k] & FLAG_OWN ? clscan_value_neutral() : x[j], x[k]);
            f[k] = FLAGS_JOIN(f[j], f[k]);
        }
    T total = item_pair(x, f, VIDX(0, RUN - 1));
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        total = COMBINE(total, item_pair(x, f, VIDX(l, RUN - 1)));
    return total;
}

/* item_scan's total of the elements from first on, loaded as items_load_partial loads them. */
CLSCAN_INLINE clscan_pair item_total_direct(__global const clscan_value *src IN_PARAMS, ulong first, ulong count)
{
    ITEMS_DECL(v);
    items_load_partial(ITEMS_ARG(v), src IN_ARGS, first, count);
    return item_scan(ITEMS_ARG(v));
}

/* As the pair operator applies prefix q to the element's pair: q's value counts only if no
 * segment starts in the run up to the element.  Exclusive: an element that starts a segment gets
 * the neutral value, the others the inclusive result of the element before them. */
CLSCAN_INLINE void item_apply(clscan_value *x, clscan_flags *f, T p, const int exclusive)
{
    T q[CLSCAN_LANES];
    q[0] = p;
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        q[l] = COMBINE(q[l - 1], item_pair(x, f, VIDX(l - 1, RUN - 1)));
    if (exclusive) {
        for (uint r = RUN - 1; r > 0; --r)
            for (uint l = 0; l < CLSCAN_LANES; ++l) {
                const uint k = VIDX(l, r), j = VIDX(l, r - 1);
                const clscan_value prev = VALUE_COMBINE(f[j] & FLAG_RUN ? clscan_value_neutral() : q[l].v, x[j]);
                x[k] = f[k] & FLAG_OWN ? clscan_value_neutral() : prev;
            }
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            x[VIDX(l, 0)] = f[VIDX(l, 0)] & FLAG_OWN ? clscan_value_neutral() : q[l].v;
    } else {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l) {
                const uint k = VIDX(l, r);
                x[k] = VALUE_COMBINE(f[k] & FLAG_RUN ? clscan_value_neutral() : q[l].v, x[k]);
            }
    }
}
