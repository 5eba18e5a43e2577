/* Transforms: the user's OpenCL C snippets become the source and destination types and the
 * functions that cl/scan/io_transform.cl loads and stores through (the conventions of the
 * custom operators, lib/custom.c); clscan_plan_set_transform puts them into a plan. */
#include "transform.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int blank(const char *s)
{
    return !s || !*s;
}

/* The snippets go into functions, so that x, y and i are the only names the expressions see
 * besides the preamble's and the operator's T.  The arrays of negative size are compile-time
 * assertions of the declared sizes. */
static const char in_template[] =
    "/* clscan transform */\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "%s\n"
    "typedef %s clscan_transform_src;\n"
    "typedef char " CLSCAN_TRANSFORM_SRC_CHECK "[(sizeof(clscan_transform_src) == %zu) ? 1 : -1];\n"
    "inline T clscan_transform_in(clscan_transform_src x, ulong i)\n"
    "{\n"
    "    return (%s);\n"
    "}\n";
static const char out_template[] =
    "typedef %s clscan_transform_dst;\n"
    "typedef char " CLSCAN_TRANSFORM_DST_CHECK "[(sizeof(clscan_transform_dst) == %zu) ? 1 : -1];\n"
    "inline clscan_transform_dst clscan_transform_out(T y, ulong i)\n"
    "{\n"
    "    return (%s);\n"
    "}\n";
/* No output transform: the destination holds the operator's elements as they are. */
static const char identity_out[] =
    "typedef T clscan_transform_dst;\n"
    "inline T clscan_transform_out(T y, ulong i)\n"
    "{\n"
    "    return y;\n"
    "}\n";

cl_int clscan_transform_source(const char *fn, const clscan_transform *t, char **source)
{
    const char *const strings[] = {t->src_type, t->in, t->dst_type, t->out, t->preamble};
    const char *const names[] = {"src_type", "in", "dst_type", "out", "preamble"};
    const size_t limits[] = {CLSCAN_CUSTOM_MAX_TYPE, CLSCAN_CUSTOM_MAX_EXPRESSION, CLSCAN_CUSTOM_MAX_TYPE,
                             CLSCAN_CUSTOM_MAX_EXPRESSION, CLSCAN_CUSTOM_MAX_PREAMBLE};
    for (int k = 0; k < 5; ++k) {
        if ((k < 2 && blank(strings[k])) || (k >= 2 && k < 4 && strings[k] && !*strings[k]))
            return clscan_fail(CLSCAN_INVALID_TRANSFORM, "%s: t->%s is %s", fn, names[k],
                               strings[k] ? "an empty string" : "NULL");
        if (strings[k] && strnlen(strings[k], limits[k] + 1) > limits[k])
            return clscan_fail(CLSCAN_INVALID_TRANSFORM, "%s: t->%s is longer than %zu characters", fn, names[k],
                               limits[k]);
    }
    if (t->src_size == 0)
        return clscan_fail(CLSCAN_INVALID_TRANSFORM, "%s: t->src_size is 0", fn);
    const int has_out = t->out != NULL;
    if ((t->dst_type != NULL) != has_out || (t->dst_size != 0) != has_out)
        return clscan_fail(CLSCAN_INVALID_TRANSFORM, "%s: t->dst_type, t->dst_size and t->out must be given together "
                           "(an output transform) or be NULL, 0 and NULL (none)", fn);
    const char *preamble = t->preamble ? t->preamble : "";
    const int n_in = snprintf(NULL, 0, in_template, preamble, t->src_type, t->src_size, t->in);
    const int n_out = has_out ? snprintf(NULL, 0, out_template, t->dst_type, t->dst_size, t->out)
                              : (int)sizeof identity_out - 1;
    char *s = n_in >= 0 && n_out >= 0 ? malloc((size_t)n_in + (size_t)n_out + 1) : NULL;
    if (!s)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for the transform's source", fn);
    snprintf(s, (size_t)n_in + 1, in_template, preamble, t->src_type, t->src_size, t->in);
    if (has_out)
        snprintf(s + n_in, (size_t)n_out + 1, out_template, t->dst_type, t->dst_size, t->out);
    else
        memcpy(s + n_in, identity_out, sizeof identity_out);
    *source = s;
    return CL_SUCCESS;
}

/* After a failed build with a transform: CLSCAN_ELEMENT_SIZE_MISMATCH if the log names one of
 * the transform's compile-time size checks; else err as it was. */
static cl_int transform_mismatch(const char *fn, const clscan_transform *t, cl_int err)
{
    if (!t || err != CL_BUILD_PROGRAM_FAILURE)
        return err;
    if (strstr(clscan_last_error(), CLSCAN_TRANSFORM_SRC_CHECK))
        return clscan_fail(CLSCAN_ELEMENT_SIZE_MISMATCH, "%s: t->src_size is %zu, but the device's sizeof(%s) is not "
                           "(the compile-time check %s failed)", fn, t->src_size, t->src_type,
                           CLSCAN_TRANSFORM_SRC_CHECK);
    if (strstr(clscan_last_error(), CLSCAN_TRANSFORM_DST_CHECK))
        return clscan_fail(CLSCAN_ELEMENT_SIZE_MISMATCH, "%s: t->dst_size is %zu, but the device's sizeof(%s) is not "
                           "(the compile-time check %s failed)", fn, t->dst_size, t->dst_type,
                           CLSCAN_TRANSFORM_DST_CHECK);
    return err;
}

CLSCAN_API cl_int clscan_plan_set_transform(clscan_plan *plan, const clscan_transform *t)
{
    static const char fn[] = "clscan_plan_set_transform";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    char *source = NULL;
    cl_int err = t ? clscan_transform_source(fn, t, &source) : CL_SUCCESS;
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&plan->lock);
    char *const old_source = plan->transform_source;
    const int old_out = plan->transform_out;
    const size_t old_src = plan->src_size, old_dst = plan->dst_size;
    plan->transform_source = source;
    plan->transform_out = t && t->out;
    plan->src_size = t ? t->src_size : plan->element_size;
    plan->dst_size = t && t->out ? t->dst_size : plan->element_size;
    err = clscan_plan_rebuild(plan, fn);
    if (err != CL_SUCCESS) {
        err = transform_mismatch(fn, t, err);
        plan->transform_source = old_source;
        plan->transform_out = old_out;
        plan->src_size = old_src;
        plan->dst_size = old_dst;
        free(source);
    } else {
        free(old_source);
    }
    pthread_mutex_unlock(&plan->lock);
    return err;
}
