/* Custom operators: the user's OpenCL C snippets become the T, NEUTRAL and COMB that the scan
 * kernels are generic over, exactly as cl/ops/builtin.cl defines them for the built-in
 * operators. */
#include "custom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int blank(const char *s)
{
    return !s || !*s;
}

/* The snippets go into functions, so that a and b are the only names the expression sees
 * besides the preamble's, and each is evaluated once per combination.  The typedef makes any
 * type spelling (a struct tag, a vector type) one name.  The array of negative size is a
 * compile-time assertion: its name in the build log means the declared size is wrong. */
static const char custom_template[] =
    "/* clscan custom operator */\n"
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "%s\n"
    "typedef %s clscan_custom_type;\n"
    "typedef char " CLSCAN_CUSTOM_SIZE_CHECK "[(sizeof(clscan_custom_type) == %zu) ? 1 : -1];\n"
    "inline clscan_custom_type clscan_custom_neutral(void)\n"
    "{\n"
    "    return (%s);\n"
    "}\n"
    "inline clscan_custom_type clscan_custom_comb(clscan_custom_type a, clscan_custom_type b)\n"
    "{\n"
    "    return (%s);\n"
    "}\n"
    "#define T clscan_custom_type\n"
    "#define NEUTRAL clscan_custom_neutral()\n"
    "#define COMB(a, b) clscan_custom_comb((a), (b))\n"
    "#define COMB_STEP(a, b) COMB((a), (b))\n";

cl_int clscan_custom_source(const clscan_custom *op, char **source)
{
    if (!op)
        return clscan_fail(CLSCAN_INVALID_CUSTOM_OPERATOR, "clscan_plan_create_custom: op is NULL");
    const char *const strings[] = {op->type, op->neutral, op->comb, op->preamble};
    const char *const names[] = {"type", "neutral", "comb", "preamble"};
    const size_t limits[] = {CLSCAN_CUSTOM_MAX_TYPE, CLSCAN_CUSTOM_MAX_EXPRESSION, CLSCAN_CUSTOM_MAX_EXPRESSION,
                             CLSCAN_CUSTOM_MAX_PREAMBLE};
    for (int i = 0; i < 4; ++i) {
        if (i < 3 && blank(strings[i]))
            return clscan_fail(CLSCAN_INVALID_CUSTOM_OPERATOR, "clscan_plan_create_custom: op->%s is %s",
                               names[i], strings[i] ? "an empty string" : "NULL");
        if (strings[i] && strnlen(strings[i], limits[i] + 1) > limits[i])
            return clscan_fail(CLSCAN_INVALID_CUSTOM_OPERATOR, "clscan_plan_create_custom: op->%s is longer than "
                               "%zu characters", names[i], limits[i]);
    }
    if (op->size == 0)
        return clscan_fail(CLSCAN_INVALID_CUSTOM_OPERATOR, "clscan_plan_create_custom: op->size is 0");
    const char *preamble = op->preamble ? op->preamble : "";
    const int n = snprintf(NULL, 0, custom_template, preamble, op->type, op->size, op->neutral, op->comb);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for the operator's source");
    snprintf(s, (size_t)n + 1, custom_template, preamble, op->type, op->size, op->neutral, op->comb);
    *source = s;
    return CL_SUCCESS;
}
