/* clscan scan kernels: what the parts share.
 *
 * A scan program is joined by the host (lib/variant.c picks the parts, lib/source.c joins them)
 * from, in this order:
 *   the operator           T, NEUTRAL, COMB(a, b) and COMB_STEP(a, b), a the previous (left)
 *                          value: ops/builtin.cl or a custom operator's snippets (lib/custom.c)
 *   segmented programs:    scan/segmented.cl (the operator on (head flag, value) pairs) and
 *                          scan/segments_heads.cl or scan/segments_keys.cl (where heads come from)
 *   scan/contract.cl       this file
 *   scan/combine.cl        COMBINE, COMBINE_STEP: the one place that decides the order of comb's
 *                          arguments
 *   scan/io_plain.cl       plain programs: where elements come from and go to (scan/io_narrow.cl,
 *                          scan/io_recurrence.cl: elements narrower than T, a recurrence's)
 *   scan/wg_*.cl           the work-group primitive, and scan/wg_tree.cl (its total, alone)
 *   scan/items.cl or scan/items_segmented.cl    one work-item's elements in registers
 *   scan/tile_*.cl         one tile: load, scan, store (registers, staged or streamed)
 *   scan/tiles.cl          the kernels of reduce-then-scan
 *   scan/status.cl, scan/status_*.cl, scan/lookback_*.cl, scan/window_fold_*.cl,
 *   scan/lookback_alone.cl, scan/single_pass.cl     the single pass with decoupled look-back
 *   scan/offsets.cl        the heads program: head flags and totals of segments given by offsets
 *
 * Build options, all given by the host:
 *   CLSCAN_WG         work-items per work-group (a power of two)
 *   CLSCAN_ITEMS      elements per work-item (a power of two); a tile is CLSCAN_WG * CLSCAN_ITEMS
 *                     consecutive elements, scanned by one work-group
 *   CLSCAN_LANES      independent runs a work-item's elements are split into (a power of two
 *                     dividing CLSCAN_ITEMS): shorter dependency chains for CPUs
 *   CLSCAN_EXCLUSIVE  0 or 1: the kind of clscan_scan_tiles and of the single pass
 * and those the chosen parts name (CLSCAN_SUBGROUP, CLSCAN_LOOKBACK, CLSCAN_WINDOW_POLLS,
 * CLSCAN_SPIN_LIMIT, CLSCAN_PAIR_BOUND, CLSCAN_KEY_TYPE, CLSCAN_KEY_BYTES,
 * CLSCAN_RUNS_SLOT_SPARE), or the operator (CLSCAN_COMPENSATED).
 *
 * Every output is comb(carry, ...) of the carry-in of its tile, so the result is the fold from
 * NEUTRAL whatever the tiling; exclusive results are inclusive ones shifted right by one with
 * the prefix in front, never computed by inverting comb.  Positions past the count hold
 * NEUTRAL, and every work-item reaches every barrier. */

/* Every function of the parts is always inlined, so that a kernel joined from parts compiles as
 * one body: PoCL (3.1, LLVM 15) left a large function with several callers as a call and then
 * miscompiled the kernel that called it, and a call that a GPU compiler keeps must save the
 * work-item's elements (live in registers across the look-back) around it. */
#define CLSCAN_INLINE inline __attribute__((always_inline))

#define TILE (CLSCAN_WG * CLSCAN_ITEMS)
#define RUN (CLSCAN_ITEMS / CLSCAN_LANES)

/* A work-item's elements are CLSCAN_LANES runs of RUN consecutive elements.  In registers,
 * element r of run l sits at VIDX(l, r): the runs are interleaved, so that one step of all the
 * runs' scans touches neighbouring registers (a CPU does it as one vector operation). */
#define VIDX(l, r) ((r) * CLSCAN_LANES + (l))
