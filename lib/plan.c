/* Plans: an operator and a kind for one device of one context, with the kernels of the variant
 * chosen for them (variant.c).  The public functions that create, tune and release plans. */
#include "plan.h"
#include "custom.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

static const size_t type_sizes[] = {4, 4, 8, 8, 4, 8};

static int valid_op(clscan_op op) { return (unsigned)op <= (unsigned)CLSCAN_AFFINE; }
static int valid_type(clscan_type t) { return (unsigned)t <= (unsigned)CLSCAN_DOUBLE; }
static int valid_kind(clscan_kind k) { return (unsigned)k <= (unsigned)CLSCAN_EXCLUSIVE; }

CLSCAN_API size_t clscan_op_element_size(clscan_op op, clscan_type type)
{
    if (!valid_op(op) || !valid_type(type))
        return 0;
    return type_sizes[type] * (op == CLSCAN_AFFINE ? 2 : 1);
}

CLSCAN_API size_t clscan_element_size(const clscan_plan *plan)
{
    return plan ? plan->element_size : 0;
}

/* Bytes of a (head flag, value) pair, struct { value; uchar; }, at most: the flag is padded up
 * to the value's alignment, a power of two that divides its size. */
static size_t pair_bound(size_t e)
{
    const size_t align = e & (~e + 1);   /* the largest power of two dividing e */
    return e + (align > 2 ? align : 2);
}

/* Bytes of a runs program's (count of heads, value) pair, struct { value; uint; }, at most: the
 * count after the value at a multiple of 4, the whole padded to the value's alignment. */
static size_t runs_pair_bound(size_t e)
{
    const size_t align = e & (~e + 1), a = align > 4 ? align : 4;
    const size_t bytes = (e + 3) / 4 * 4 + 4;
    return (bytes + a - 1) / a * a;
}

/* Whether program `what` computes the compensated AFFINE (ops/builtin.cl): built-in AFFINE of
 * FLOAT or DOUBLE, plain programs, when the accuracy is COMPENSATED, or AUTO for a recurrence on
 * a CPU (its elements never live in memory, so the wider kernels cost no traffic: PoCL 1.2-1.5x
 * the time; on the H200 the arithmetic and carries cost 2.5-3.3x, so GPUs opt in).  The levels
 * program serves compensated plans (compensated too) and plans with a transform (whose plain
 * programs read the user's elements).  A plan with a transform is never compensated: its input
 * transform makes elements of the operator's T. */
static int compensated(const clscan_plan *plan, clscan_program_kind what)
{
    const clscan_accuracy a = plan->want.accuracy;
    return !plan->custom && !plan->transform_source && plan->op == CLSCAN_AFFINE &&
           (plan->type == CLSCAN_FLOAT || plan->type == CLSCAN_DOUBLE) &&
           CLSCAN_PROGRAM_IS_PLAIN(what) &&
           (a == CLSCAN_ACCURACY_COMPENSATED || what == CLSCAN_PROGRAM_LEVELS ||
            (a == CLSCAN_ACCURACY_AUTO && CLSCAN_PROGRAM_IS_RECURRENCE(what) &&
             (plan->info.type & CL_DEVICE_TYPE_CPU)));
}

void clscan_plan_request(const clscan_plan *plan, clscan_program_kind what, clscan_variant_request *r)
{
    const int floating = plan->type == CLSCAN_FLOAT || plan->type == CLSCAN_DOUBLE;
    memset(r, 0, sizeof *r);
    r->info = &plan->info;
    r->dev = &plan->dev;
    r->what = what;
    r->value_size = plan->element_size;
    /* Compensated: the kernels' elements are (a, b, a_lo, 0), twice the pairs in memory. */
    r->compensated = compensated(plan, what);
    r->kernel_size = r->compensated ? 2 * plan->element_size : plan->element_size;
    r->pair_bound = CLSCAN_PROGRAM_IS_RUNS(what) ? runs_pair_bound(plan->element_size) : plan->pair_bound;
    r->transform = plan->transform_source != NULL;
    /* Exactly associative: every grouping gives the same bits (nothing is known of a user's). */
    r->exact = !plan->custom && (!floating || plan->op == CLSCAN_MAX || plan->op == CLSCAN_MIN ||
                                 plan->op == CLSCAN_LAST_NONZERO);
    /* CPUs: independent runs per work-item, so that their dependency chains overlap (PoCL, 2^22
     * and 2^24: 2 runs were fastest for SUM, MAX, MIN and LAST_NONZERO, 8 for AFFINE). */
    r->cpu_lanes = !plan->custom && plan->op == CLSCAN_AFFINE ? 8 : 2;
    r->tiles = plan->want.tiles;
    r->primitive = plan->want.primitive;
    r->algorithm = plan->want.algorithm;
    const clscan_variant *plain = &plan->programs[CLSCAN_PROGRAM_PLAIN].variant;
    if (what == CLSCAN_PROGRAM_PLAIN) {
        r->wg = plan->want.wg;
        r->items = plan->want.items;
        r->shrink = !r->wg && !r->items;
    } else if (CLSCAN_PROGRAM_IS_PLAIN(what)) {
        /* The plain program's variant, read from the other end or from coefficients; under
         * the automatic tuning, a compensated program's wider elements take proportionally
         * fewer per work-item (the same bytes of tile, which the plain program's fit). */
        r->wg = plain->wg;
        r->items = plain->items;
        r->tiles = plain->tiles;
        r->primitive = plain->primitive;
        if (!plan->want.wg && !plan->want.items && r->kernel_size > plain->element_size) {
            const size_t scaled = plain->items * plain->element_size / r->kernel_size;
            r->items = scaled ? scaled : 1;
        }
    } else {
        /* The user's tuning, with fewer elements where pairs would not fit; else the automatic
         * one of segmented programs (their own: on GPUs much shorter runs than plain scans'). */
        const int automatic = !plan->want.wg && !plan->want.items;
        r->wg = automatic ? 0 : plain->wg;
        r->items = automatic ? 0 : plain->items;
        r->shrink = 1;
    }
}

cl_int clscan_plan_program(clscan_plan *plan, const char *fn, clscan_program_kind what,
                           const clscan_scan_program **program)
{
    clscan_scan_program *p = &plan->programs[what];
    if (!p->program) {
        clscan_variant_request r;
        clscan_plan_request(plan, what, &r);
        cl_int err = clscan_scan_program_build(plan, fn, &r, p);
        if (err != CL_SUCCESS)
            return err;
    }
    *program = p;
    return CL_SUCCESS;
}

/* An automatic tuning shrinks the work-group while the kernels run fewer work-items (registers). */
cl_int clscan_plan_rebuild(clscan_plan *plan, const char *fn)
{
    clscan_variant_request r;
    clscan_plan_request(plan, CLSCAN_PROGRAM_PLAIN, &r);
    clscan_scan_program p;
    cl_int err;
    while ((err = clscan_scan_program_build(plan, fn, &r, &p)) == CL_INVALID_WORK_GROUP_SIZE && r.shrink &&
           p.variant.wg > 1) {
        r.wg = p.variant.wg / 2;
        r.items = p.variant.items;
    }
    if (err != CL_SUCCESS)
        return err;
    for (int k = 0; k < CLSCAN_PROGRAM_KINDS; ++k)
        clscan_scan_program_release(&plan->programs[k]);
    plan->programs[CLSCAN_PROGRAM_PLAIN] = p;
    return CL_SUCCESS;
}

static void free_plan(clscan_plan *plan)
{
    for (int k = 0; k < CLSCAN_PROGRAM_KINDS; ++k)
        clscan_scan_program_release(&plan->programs[k]);
    free(plan->zeros);
    free(plan->op_source);
    free(plan->transform_source);
    free(plan);
}

/* A new plan for the operator already set in *proto (custom, op, type, element_size,
 * op_source, which the plan takes over): checks the device, reads the developer switches and
 * builds the plain program.  NULL (and *err set) on failure. */
static clscan_plan *create(const char *fn, cl_context context, cl_device_id device, clscan_kind kind,
                           const clscan_plan *proto, cl_int *err)
{
    clscan_plan *plan = calloc(1, sizeof *plan);
    if (!plan) {
        free(proto->op_source);
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for a plan", fn);
        return NULL;
    }
    *plan = *proto;
    plan->context = context;
    plan->device = device;
    plan->kind = kind;
    plan->pair_bound = pair_bound(plan->element_size);
    plan->src_size = plan->dst_size = plan->element_size;
    if (plan->element_size <= ((size_t)1 << 30) && !(plan->zeros = calloc(1, plan->element_size)))
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for a plan", fn);
    else if ((*err = clscan_check_device(fn, context, device, &plan->info)) == CL_SUCCESS &&
        (*err = clscan_env_dev_options(fn, &plan->dev)) == CL_SUCCESS) {
        if (!plan->custom && plan->type == CLSCAN_DOUBLE && !plan->info.has_fp64)
            *err = clscan_fail(CLSCAN_FP64_NOT_SUPPORTED, "%s: CLSCAN_DOUBLE needs cl_khr_fp64, which %s does not "
                               "offer", fn, plan->info.name);
        else
            *err = clscan_plan_rebuild(plan, fn);
    }
    if (*err != CL_SUCCESS) {
        free_plan(plan);
        return NULL;
    }
    pthread_mutex_init(&plan->lock, NULL);
    clRetainContext(context);
    return plan;
}

CLSCAN_API clscan_plan *clscan_plan_create(cl_context context, cl_device_id device, clscan_op op,
                                           clscan_type type, clscan_kind kind, cl_int *errcode_ret)
{
    static const char fn[] = "clscan_plan_create";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    if (!valid_op(op))
        *err = clscan_fail(CLSCAN_INVALID_OPERATOR, "%s: operator %d is not a clscan_op", fn, (int)op);
    else if (!valid_type(type))
        *err = clscan_fail(CLSCAN_INVALID_TYPE, "%s: type %d is not a type of the scans", fn, (int)type);
    else if (!valid_kind(kind))
        *err = clscan_fail(CLSCAN_INVALID_KIND, "%s: kind %d is not a clscan_kind", fn, (int)kind);
    else
        *err = CL_SUCCESS;
    if (*err != CL_SUCCESS)
        return NULL;
    const clscan_plan proto = {.op = op, .type = type, .element_size = clscan_op_element_size(op, type)};
    return create(fn, context, device, kind, &proto, err);
}

/* After a custom plan failed: CLSCAN_ELEMENT_SIZE_MISMATCH if op->size is not the device's
 * sizeof(type), found by the compile-time check of the operator's definitions built alone (a
 * plan may fail on its element size before its program is compiled); else err as it was. */
static cl_int size_mismatch(const char *fn, cl_context context, cl_device_id device, const clscan_custom *op,
                            cl_int err)
{
    if (err != CL_BUILD_PROGRAM_FAILURE && err != CLSCAN_DEVICE_NOT_SUPPORTED)
        return err;
    int mismatch = err == CL_BUILD_PROGRAM_FAILURE && strstr(clscan_last_error(), CLSCAN_CUSTOM_SIZE_CHECK);
    if (err == CLSCAN_DEVICE_NOT_SUPPORTED) {
        char *text = NULL, *saved = NULL;
        clscan_device_info info;
        clscan_dev_options dev;
        cl_program program = NULL;
        const char *none[] = {NULL};
        if ((saved = malloc(strlen(clscan_last_error()) + 1)))
            strcpy(saved, clscan_last_error());
        if (saved && clscan_custom_source(op, &text) == CL_SUCCESS &&
            clscan_check_device(fn, context, device, &info) == CL_SUCCESS &&
            clscan_env_dev_options(fn, &dev) == CL_SUCCESS &&
            clscan_program_get(fn, context, device, &info, &dev, text, none, "", &program) == CL_BUILD_PROGRAM_FAILURE)
            mismatch = strstr(clscan_last_error(), CLSCAN_CUSTOM_SIZE_CHECK) != NULL;
        if (program)
            clReleaseProgram(program);
        if (saved && !mismatch)
            clscan_fail(err, "%s", saved);   /* the plan's own message */
        free(saved);
        free(text);
    }
    if (!mismatch)
        return err;
    return clscan_fail(CLSCAN_ELEMENT_SIZE_MISMATCH, "%s: op->size is %zu, but the device's sizeof(%s) is not %zu "
                       "(the compile-time check %s failed)", fn, op->size, op->type, op->size,
                       CLSCAN_CUSTOM_SIZE_CHECK);
}

CLSCAN_API clscan_plan *clscan_plan_create_custom(cl_context context, cl_device_id device,
                                                  const clscan_custom *op, clscan_kind kind,
                                                  cl_int *errcode_ret)
{
    static const char fn[] = "clscan_plan_create_custom";
    cl_int dummy;
    cl_int *err = errcode_ret ? errcode_ret : &dummy;
    clscan_plan proto = {.custom = 1};
    if ((*err = clscan_custom_source(op, &proto.op_source)) != CL_SUCCESS)
        return NULL;
    if (!valid_kind(kind)) {
        free(proto.op_source);
        *err = clscan_fail(CLSCAN_INVALID_KIND, "%s: kind %d is not a clscan_kind", fn, (int)kind);
        return NULL;
    }
    proto.element_size = op->size;
    clscan_plan *plan = create(fn, context, device, kind, &proto, err);
    if (!plan)
        *err = size_mismatch(fn, context, device, op, *err);
    return plan;
}

CLSCAN_API void clscan_plan_release(clscan_plan *plan)
{
    if (!plan)
        return;
    clscan_scratch_release(plan);
    clReleaseContext(plan->context);
    pthread_mutex_destroy(&plan->lock);
    free_plan(plan);
}

/* Applies a change of the user's choices: rebuilds, or keeps the old ones on failure. */
static cl_int change(clscan_plan *plan, const clscan_choices *want, const char *fn)
{
    pthread_mutex_lock(&plan->lock);
    const clscan_choices old = plan->want;
    plan->want = *want;
    const cl_int err = clscan_plan_rebuild(plan, fn);
    if (err != CL_SUCCESS)
        plan->want = old;
    pthread_mutex_unlock(&plan->lock);
    return err;
}

CLSCAN_API cl_int clscan_plan_set_tuning(clscan_plan *plan, size_t work_group_size, size_t items_per_work_item)
{
    static const char fn[] = "clscan_plan_set_tuning";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    clscan_choices want = plan->want;
    want.wg = work_group_size;
    want.items = items_per_work_item;
    return change(plan, &want, fn);
}

CLSCAN_API cl_int clscan_plan_get_tuning(const clscan_plan *plan, size_t *work_group_size,
                                         size_t *items_per_work_item)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_plan_get_tuning: plan is NULL");
    if (work_group_size)
        *work_group_size = plan->programs[CLSCAN_PROGRAM_PLAIN].variant.wg;
    if (items_per_work_item)
        *items_per_work_item = plan->programs[CLSCAN_PROGRAM_PLAIN].variant.items;
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_plan_set_variant(clscan_plan *plan, clscan_tiles tiles, clscan_primitive primitive)
{
    static const char fn[] = "clscan_plan_set_variant";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    clscan_choices want = plan->want;
    want.tiles = tiles;
    want.primitive = primitive;
    return change(plan, &want, fn);
}

CLSCAN_API cl_int clscan_plan_get_variant(const clscan_plan *plan, clscan_tiles *tiles,
                                          clscan_primitive *primitive)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_plan_get_variant: plan is NULL");
    if (tiles)
        *tiles = plan->programs[CLSCAN_PROGRAM_PLAIN].variant.tiles;
    if (primitive)
        *primitive = plan->programs[CLSCAN_PROGRAM_PLAIN].variant.primitive;
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_plan_set_algorithm(clscan_plan *plan, clscan_algorithm algorithm)
{
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_plan_set_algorithm: plan is NULL");
    if ((unsigned)algorithm > (unsigned)CLSCAN_ALGORITHM_SINGLE_PASS)
        return clscan_fail(CL_INVALID_VALUE, "clscan_plan_set_algorithm: %d is not a clscan_algorithm",
                           (int)algorithm);
    /* The programs hold every kernel: only the records change. */
    pthread_mutex_lock(&plan->lock);
    plan->want.algorithm = algorithm;
    for (int k = 0; k < CLSCAN_PROGRAM_KINDS; ++k) {
        clscan_variant *v = &plan->programs[k].variant;
        if (plan->programs[k].program)
            v->algorithm = clscan_variant_algorithm(v, &plan->info, algorithm);
    }
    pthread_mutex_unlock(&plan->lock);
    return CL_SUCCESS;
}

CLSCAN_API clscan_algorithm clscan_plan_get_algorithm(const clscan_plan *plan)
{
    return plan ? plan->programs[CLSCAN_PROGRAM_PLAIN].variant.algorithm : CLSCAN_ALGORITHM_AUTO;
}

CLSCAN_API cl_int clscan_plan_set_accuracy(clscan_plan *plan, clscan_accuracy accuracy)
{
    static const char fn[] = "clscan_plan_set_accuracy";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if ((unsigned)accuracy > (unsigned)CLSCAN_ACCURACY_COMPENSATED)
        return clscan_fail(CL_INVALID_VALUE, "%s: %d is not a clscan_accuracy", fn, (int)accuracy);
    clscan_choices want = plan->want;
    want.accuracy = accuracy;
    return change(plan, &want, fn);
}

CLSCAN_API clscan_accuracy clscan_plan_get_accuracy(const clscan_plan *plan)
{
    return plan ? plan->want.accuracy : CLSCAN_ACCURACY_AUTO;
}
