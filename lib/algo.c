/* What compaction, bucketing and radix sort share (algo.h). */
#include "algo.h"

void algo_words(size_t size, const char **word, size_t *words)
{
    static const char *const names[] = {"uint4", "uint2", "uint", "uchar"};
    static const size_t sizes[] = {16, 8, 4, 1};
    size_t i = 0;
    while (size % sizes[i] != 0)
        ++i;
    *word = names[i];
    *words = size / sizes[i];
}

clscan_plan *algo_count_plan(cl_context context, cl_device_id device, cl_int *err)
{
    return clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_EXCLUSIVE, err);
}
