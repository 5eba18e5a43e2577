/* Every environment variable the library reads (environment.h says which and why). */
#include "environment.h"
#include "variant.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *nonempty(const char *s)
{
    return s && *s ? s : NULL;
}

const char *clscan_env_device(void)
{
    return nonempty(getenv("CLSCAN_DEVICE"));
}

static char cache_dir[4096];
static const char *cache_dir_result;
static pthread_once_t cache_dir_once = PTHREAD_ONCE_INIT;

/* Once per process: the environment of a running program rarely changes, and a cache whose
 * directory moved between two plans would only cost a build. */
static void read_cache_dir(void)
{
    const char *set = getenv("CLSCAN_CACHE_DIR");
    const char *xdg = nonempty(getenv("XDG_CACHE_HOME"));
    const char *home = nonempty(getenv("HOME"));
    int n = -1;
    if (set)   /* empty: the cache is off */
        n = *set ? snprintf(cache_dir, sizeof cache_dir, "%s", set) : -1;
    else if (xdg && xdg[0] == '/')
        n = snprintf(cache_dir, sizeof cache_dir, "%s/clscan", xdg);
    else if (home)
        n = snprintf(cache_dir, sizeof cache_dir, "%s/.cache/clscan", home);
    cache_dir_result = n > 0 && (size_t)n < sizeof cache_dir ? cache_dir : NULL;
}

const char *clscan_env_cache_dir(void)
{
    pthread_once(&cache_dir_once, read_cache_dir);
    return cache_dir_result;
}

/* The index of value (length n) in names (NULL-terminated), or -1. */
static int lookup(const char *value, size_t n, const char *const *names)
{
    for (int i = 0; names[i]; ++i)
        if (strlen(names[i]) == n && strncmp(value, names[i], n) == 0)
            return i;
    return -1;
}

static long number(const char *value, size_t n)
{
    if (n == 0 || n > 9 || strspn(value, "0123456789") < n)
        return -1;
    return strtol(value, NULL, 10);
}

static int power_of_two(long x)
{
    return x > 0 && (x & (x - 1)) == 0;
}

/* One "key=value" switch of length n. */
static cl_int parse_switch(const char *fn, const char *s, size_t n, clscan_dev_options *dev)
{
    static const char *const policies[] = {"cpu", "gpu", NULL};
    static const char *const tiles[] = {"auto", "registers", "staged", "streamed", NULL};
    static const char *const primitives[] = {"auto", "hillis-steele", "blelloch", "two-level", NULL};
    static const char *const layouts[] = {"separate", "packed", "wide", NULL};
    static const char *const host_paths[] = {"auto", "copy", NULL};
    static const char *const radix_passes[] = {"classic", "onesweep", NULL};
    static const char *const compact_offsets[] = {"scan", "count", NULL};
    static const char *const bucket_offsets[] = {"scan", "search", NULL};
    static const char *const runs_passes[] = {"count", "fold", NULL};
    const char *eq = memchr(s, '=', n);
    if (!eq)
        return clscan_fail(CL_INVALID_VALUE, "%s: CLSCAN_DEVELOP: \"%.*s\" is not key=value", fn, (int)n, s);
    const size_t k = (size_t)(eq - s), vn = n - k - 1;
    const char *v = eq + 1;
    int i = -1;
    long x = -1;
    if (k == 6 && !strncmp(s, "policy", k) && (i = lookup(v, vn, policies)) >= 0)
        dev->policy = i;
    else if (k == 5 && !strncmp(s, "tiles", k) && (i = lookup(v, vn, tiles)) >= 0)
        dev->tiles = (clscan_tiles)i;
    else if (k == 9 && !strncmp(s, "primitive", k) && (i = lookup(v, vn, primitives)) >= 0)
        dev->primitive = (clscan_primitive)i;
    else if (k == 6 && !strncmp(s, "status", k) && (i = lookup(v, vn, layouts)) >= 0)
        dev->status = i;
    else if (k == 12 && !strncmp(s, "window_polls", k) && (x = number(v, vn)) >= 0)
        dev->window_polls = x;
    else if (k == 10 && !strncmp(s, "spin_limit", k) && (x = number(v, vn)) >= 0)
        dev->spin_limit = x;
    else if (k == 10 && !strncmp(s, "compact_wg", k) && power_of_two(x = number(v, vn)) && x <= 1024)
        dev->compact_wg = x;
    else if (k == 13 && !strncmp(s, "compact_items", k) && power_of_two(x = number(v, vn)) && x <= 4096)
        dev->compact_items = x;
    else if (k == 15 && !strncmp(s, "compact_offsets", k) && (i = lookup(v, vn, compact_offsets)) >= 0)
        dev->compact_offsets = i;
    else if (k == 14 && !strncmp(s, "bucket_offsets", k) && (i = lookup(v, vn, bucket_offsets)) >= 0)
        dev->bucket_offsets = i;
    else if (k == 9 && !strncmp(s, "runs_pass", k) && (i = lookup(v, vn, runs_passes)) >= 0)
        dev->runs_pass = i;
    else if (k == 12 && !strncmp(s, "radix_passes", k) && (i = lookup(v, vn, radix_passes)) >= 0)
        dev->radix_passes = i;
    else if (k == 11 && !strncmp(s, "radix_items", k) && (x = number(v, vn)) >= 1 && x <= 32)
        dev->radix_items = x;
    else if (k == 4 && !strncmp(s, "host", k) && (i = lookup(v, vn, host_paths)) >= 0)
        dev->host_copy = i;
    else if (k == 5 && !strncmp(s, "build", k) && vn < sizeof dev->build)
        memcpy(dev->build, v, vn), dev->build[vn] = '\0';
    else
        return clscan_fail(CL_INVALID_VALUE, "%s: CLSCAN_DEVELOP: unknown switch or value \"%.*s\" (see "
                           "doc/hacking.md)", fn, (int)n, s);
    return CL_SUCCESS;
}

cl_int clscan_env_dev_options(const char *fn, clscan_dev_options *dev)
{
    memset(dev, 0, sizeof *dev);
    dev->policy = -1;
    dev->status = -1;
    dev->window_polls = -1;
    dev->spin_limit = -1;
    dev->compact_wg = dev->compact_items = -1;
    dev->compact_offsets = -1;
    dev->radix_passes = -1;
    dev->radix_items = -1;
    dev->bucket_offsets = -1;
    dev->runs_pass = -1;
    const char *dir = nonempty(getenv("CLSCAN_KERNEL_DIR"));
    if (dir && strlen(dir) >= sizeof dev->kernel_dir)
        return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: CLSCAN_KERNEL_DIR is longer than %zu bytes", fn,
                           sizeof dev->kernel_dir - 1);
    if (dir)
        strcpy(dev->kernel_dir, dir);
    const char *s = nonempty(getenv("CLSCAN_DEVELOP"));
    while (s && *s) {
        const size_t n = strcspn(s, ";");
        cl_int err = n ? parse_switch(fn, s, n, dev) : CL_SUCCESS;
        if (err != CL_SUCCESS)
            return err;
        s += n + (s[n] == ';');
    }
    return CL_SUCCESS;
}
