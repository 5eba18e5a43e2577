/* A scan program: the variant's kernel files after the operator's definitions, built with the
 * operator's, the kind's and the variant's defines, and its four kernels (six in the heads
 * program: those of segments from offsets too; ten in the axis program: the lines of a 2-D
 * array, their scans and totals; nine in the runs programs: reduce-by-key). */
#include "plan.h"
#include "scan_run.h"
#include "program.h"
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {"CLSCAN_SUM", "CLSCAN_MAX", "CLSCAN_MIN", "CLSCAN_LAST_NONZERO",
                                       "CLSCAN_AFFINE"};
static const char *const type_names[] = {"CLSCAN_INT32", "CLSCAN_UINT32", "CLSCAN_INT64", "CLSCAN_UINT64",
                                         "CLSCAN_FLOAT", "CLSCAN_DOUBLE"};

void clscan_scan_program_release(clscan_scan_program *p)
{
    cl_kernel *kernels[] = {&p->scan_tiles, &p->scan_tiles_inclusive, &p->reduce, &p->single_pass,
                             &p->offsets_heads, &p->offsets_totals, &p->axis_reduce, &p->axis_carries,
                             &p->axis_scan, &p->axis_reduce_lockstep, &p->axis_scan_lockstep, &p->axis_fold,
                             &p->reduce_runs, &p->runs_carries, &p->runs_chunk_totals, &p->runs_chunk_carries,
                             &p->runs_scatter, &p->reduce_runs_serial, &p->reduce_runs_folded};
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; ++i)
        if (*kernels[i])
            clReleaseKernel(*kernels[i]);
    if (p->program)
        clReleaseProgram(p->program);
    memset(p, 0, sizeof *p);
}

/* The text before the files of a program with the plan's transform: the operator's definitions
 * (a custom operator's, or ops/builtin.cl), then the transform's, which name the operator's T. */
static cl_int transform_text(const char *fn, const clscan_plan *plan, char **text)
{
    static const char *const builtin[] = {"ops/builtin.cl", NULL};
    char *op = NULL;
    cl_int err = plan->custom ? CL_SUCCESS : clscan_source_join(fn, plan->dev.kernel_dir, NULL, builtin, &op);
    if (err != CL_SUCCESS)
        return err;
    const char *definitions = plan->custom ? plan->op_source : op;
    const size_t n = strlen(definitions), m = strlen(plan->transform_source);
    *text = malloc(n + m + 2);
    if (*text) {
        memcpy(*text, definitions, n);
        (*text)[n] = '\n';
        memcpy(*text + n + 1, plan->transform_source, m + 1);
    } else {
        err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for the kernel source", fn);
    }
    free(op);
    return err;
}

cl_int clscan_scan_program_build(const clscan_plan *plan, const char *fn, const clscan_variant_request *r,
                                 clscan_scan_program *p)
{
    memset(p, 0, sizeof *p);
    cl_int err = clscan_variant_choose(fn, r, &p->variant);
    if (err != CL_SUCCESS)
        return err;
    const char *files[1 + CLSCAN_VARIANT_MAX_FILES];
    files[0] = "ops/builtin.cl";   /* the built-in operators; a custom one is text before the files */
    clscan_variant_files(&p->variant, files + 1);
    char defines[1024], variant[512];
    clscan_variant_defines(&p->variant, variant, sizeof variant);
    if (plan->custom)
        snprintf(defines, sizeof defines, "-DCLSCAN_EXCLUSIVE=%d %s", plan->kind == CLSCAN_EXCLUSIVE, variant);
    else
        snprintf(defines, sizeof defines, "-DCLSCAN_OP=%s -DCLSCAN_TYPE=%s -DCLSCAN_EXCLUSIVE=%d %s",
                 op_names[plan->op], type_names[plan->type], plan->kind == CLSCAN_EXCLUSIVE, variant);
    char *text = NULL;
    if (p->variant.transform)
        err = transform_text(fn, plan, &text);
    if (err == CL_SUCCESS)
        err = clscan_program_get(fn, plan->context, plan->device, &plan->info, &plan->dev,
                                 text ? text : plan->op_source, plan->custom || text ? files + 1 : files, defines,
                                 &p->program);
    free(text);
    /* Every program's four kernels, then those of its kind; the axis program's run
     * CLSCAN_AXIS_WG work-items per work-group. */
    const clscan_program_kind what = p->variant.what;
    const int all = 1, heads = what == CLSCAN_PROGRAM_HEADS, axis = what == CLSCAN_PROGRAM_AXIS,
              runs = CLSCAN_PROGRAM_IS_RUNS(what), runs_serial = runs && !p->variant.gpu;
    const size_t wg = p->variant.wg, awg = clscan_axis_wg(&plan->info);
    const struct { int wanted; const char *name; size_t wg; cl_kernel *kernel; } kernels[] = {
        {all, "clscan_scan_tiles", wg, &p->scan_tiles},
        {all, "clscan_scan_tiles_inclusive", wg, &p->scan_tiles_inclusive},
        {all, "clscan_reduce", wg, &p->reduce},
        {all, "clscan_scan_single_pass", wg, &p->single_pass},
        {heads, "clscan_offsets_heads", wg, &p->offsets_heads},
        {heads, "clscan_offsets_totals", wg, &p->offsets_totals},
        {axis, "clscan_axis_reduce", awg, &p->axis_reduce},
        {axis, "clscan_axis_carries", awg, &p->axis_carries},
        {axis, "clscan_axis_scan", awg, &p->axis_scan},
        {axis, "clscan_axis_reduce_lockstep", awg, &p->axis_reduce_lockstep},
        {axis, "clscan_axis_scan_lockstep", awg, &p->axis_scan_lockstep},
        {axis, "clscan_axis_fold", awg, &p->axis_fold},
        {runs, "clscan_reduce_runs", wg, &p->reduce_runs},
        {runs, "clscan_runs_carries", wg, &p->runs_carries},
        {runs, "clscan_runs_chunk_totals", wg, &p->runs_chunk_totals},
        {runs, "clscan_runs_chunk_carries", wg, &p->runs_chunk_carries},
        {runs, "clscan_runs_scatter", wg, &p->runs_scatter},
        {runs_serial, "clscan_reduce_runs_serial", 1, &p->reduce_runs_serial},
        {runs_serial, "clscan_reduce_runs_folded", 1, &p->reduce_runs_folded}};
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels && err == CL_SUCCESS; ++i)
        if (kernels[i].wanted)
            err = clscan_kernel_create(fn, p->program, plan->device, &plan->info, kernels[i].name, kernels[i].wg,
                                       kernels[i].kernel);
    if (err != CL_SUCCESS)
        clscan_scan_program_release(p);
    return err;
}
