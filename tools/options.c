/* The clscan tool's command line (clscan(1)) and its input file, without any OpenCL call (see
 * options.h). */
#define _POSIX_C_SOURCE 200809L
#include "tools/options.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/names.h"

enum option_id {
    OPT_HELP, OPT_VERSION, OPT_LIST_DEVICES, OPT_DEVICE, OPT_OP, OPT_TYPE, OPT_INCLUSIVE,
    OPT_EXCLUSIVE, OPT_COUNT, OPT_INPUT, OPT_OUTPUT, OPT_REPEAT, OPT_SEED, OPT_TUNING, OPT_TOLERANCE,
    OPT_ALGORITHM, OPT_VARIANT, OPT_ACCURACY
};

static const struct option_spec {
    const char *name;
    enum option_id id;
    bool has_value;
} option_specs[] = {
    { "help", OPT_HELP, false },           { "version", OPT_VERSION, false },
    { "list-devices", OPT_LIST_DEVICES, false },
    { "device", OPT_DEVICE, true },        { "op", OPT_OP, true },
    { "type", OPT_TYPE, true },            { "inclusive", OPT_INCLUSIVE, false },
    { "exclusive", OPT_EXCLUSIVE, false }, { "count", OPT_COUNT, true },
    { "input", OPT_INPUT, true },          { "output", OPT_OUTPUT, true },
    { "repeat", OPT_REPEAT, true },        { "seed", OPT_SEED, true },
    { "tuning", OPT_TUNING, true },        { "tolerance", OPT_TOLERANCE, true },
    { "algorithm", OPT_ALGORITHM, true },   { "variant", OPT_VARIANT, true },
    { "accuracy", OPT_ACCURACY, true },
};

void tool_print_help(FILE *f)
{
    fputs(
"Usage: clscan [OPTION]...\n"
"       clscan --list-devices\n"
"Run a prefix scan with the clscan library on an OpenCL device, check the result\n"
"against a sequential CPU reference, and report the time.\n"
"\n"
"What to scan:\n"
"  --op=OP          the operator: sum (default), max, min, last-nonzero, affine\n"
"  --type=TYPE      the element type: int32 (default), uint32, int64, uint64,\n"
"                   float, double\n"
"  --exclusive      exclusive scan: y[0] = neutral, y[i] = x[0] op ... op x[i-1]\n"
"  --inclusive      inclusive scan: y[i] = x[0] op ... op x[i] (the default)\n"
"  --count=N        scan N random elements (default 1000000); the values are\n"
"                   chosen so that the check is exact for every operator\n"
"  --seed=S         seed of the random elements (default 1)\n"
"  --input=FILE     scan the elements of FILE instead: raw native-endian binary\n"
"                   of TYPE; for affine, pairs a, b interleaved, so the size\n"
"                   must be a multiple of twice the size of TYPE; '-' reads\n"
"                   stdin\n"
"  --output=FILE    write the scan result as raw binary to FILE; '-' writes to\n"
"                   stdout (the report then goes to stderr)\n"
"\n"
"Where and how:\n"
"  --device=D       the device: P:D (platform and device index, as listed by\n"
"                   --list-devices) or a substring of a device name; default:\n"
"                   $CLSCAN_DEVICE, else the first GPU, else the first device\n"
"  --repeat=R       time R runs (default 1) after one warm-up run and report\n"
"                   the median device and host times\n"
"  --tuning=WG:IPW  work-group size and items per work-item of the plan\n"
"                   (clscan_plan_set_tuning; powers of two, 0 = automatic)\n"
"  --algorithm=A    how arrays of more than one tile are scanned\n"
"                   (clscan_plan_set_algorithm): auto (default),\n"
"                   reduce-then-scan, single-pass\n"
"  --accuracy=A     AFFINE on float and double (clscan_plan_set_accuracy):\n"
"                   auto (default), working or compensated\n"
"  --variant=T:P    the kernels that scan a tile (clscan_plan_set_variant):\n"
"                   tiles T auto, registers, staged or streamed; work-group\n"
"                   primitive P auto, hillis-steele, blelloch or two-level\n"
"  --tolerance=T    relative tolerance of the check of float and double sum and\n"
"                   affine scans of --input data, whose result depends on the\n"
"                   order of evaluation (default: epsilon times a bound on the\n"
"                   roundings on the way to an element; see clscan(1))\n"
"\n"
"Information:\n"
"  --list-devices   list every OpenCL platform and device with its P:D index;\n"
"                   '*' marks the default device\n"
"  -h, --help       show this help and exit\n"
"  -V, --version    show the library's version and exit\n"
"\n"
"Option values may be given as --opt=VALUE or --opt VALUE.\n"
"\n"
"The device time runs from a marker enqueued just before the scan to the end of\n"
"the scan's event (OpenCL profiling); the host time is the wall time from the\n"
"call of clscan_enqueue to the completion of that event.  The checks are\n"
"bitwise except where --tolerance applies; random float sums and affine scans\n"
"are exact by construction, so their checks are bitwise too.\n"
"\n"
"Exit status: 0 if the result matched the reference (and repeated runs gave\n"
"bitwise the same result), 1 if not, 2 for usage, input/output, OpenCL or clscan\n"
"errors.\n"
"\n"
"Environment: CLSCAN_DEVICE; for kernel work CLSCAN_KERNEL_DIR and\n"
"CLSCAN_DEVELOP; see clscan(1), clscan(3) and doc/hacking.md.\n",
        f);
}

static void usage_error(FILE *err, const char *fmt, const char *arg)
{
    fputs("clscan: ", err);
    fprintf(err, fmt, arg);
    fputs("\nTry 'clscan --help' for more information.\n", err);
}

/* Parses a decimal unsigned integer, the whole string. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = (uint64_t)v;
    return true;
}

static bool parse_size(const char *s, size_t *out)
{
    uint64_t v;
    if (!parse_u64(s, &v) || v > SIZE_MAX)
        return false;
    *out = (size_t)v;
    return true;
}

static bool parse_tuning(const char *s, size_t *wg, size_t *ipw)
{
    const char *colon = strchr(s, ':');
    if (!colon || colon == s)
        return false;
    char first[32];
    size_t len = (size_t)(colon - s);
    if (len >= sizeof first)
        return false;
    memcpy(first, s, len);
    first[len] = '\0';
    return parse_size(first, wg) && parse_size(colon + 1, ipw);
}

int tool_parse_options(int argc, char **argv, tool_options *o, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->op = CLSCAN_SUM;
    o->type = CLSCAN_INT32;
    o->kind = CLSCAN_INCLUSIVE;
    o->count = DEFAULT_COUNT;
    o->repeat = 1;
    o->seed = 1;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const struct option_spec *spec = NULL;
        const char *value = NULL;
        if (strcmp(arg, "-h") == 0) {
            o->help = true;
            continue;
        }
        if (strcmp(arg, "-V") == 0) {
            o->version = true;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            usage_error(err, arg[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'", arg);
            return EXIT_TROUBLE;
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        for (size_t k = 0; k < sizeof option_specs / sizeof option_specs[0]; k++) {
            if (strlen(option_specs[k].name) == name_len && strncmp(option_specs[k].name, name, name_len) == 0) {
                spec = &option_specs[k];
                break;
            }
        }
        if (!spec) {
            usage_error(err, "unknown option '%s'", arg);
            return EXIT_TROUBLE;
        }
        if (spec->has_value) {
            if (eq) {
                value = eq + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                usage_error(err, "option '%s' needs a value", arg);
                return EXIT_TROUBLE;
            }
        } else if (eq) {
            usage_error(err, "option '%s' takes no value", arg);
            return EXIT_TROUBLE;
        }

        switch (spec->id) {
        case OPT_HELP:         o->help = true; break;
        case OPT_VERSION:      o->version = true; break;
        case OPT_LIST_DEVICES: o->list_devices = true; break;
        case OPT_DEVICE:       o->device = value; break;
        case OPT_INCLUSIVE:    o->kind = CLSCAN_INCLUSIVE; break;
        case OPT_EXCLUSIVE:    o->kind = CLSCAN_EXCLUSIVE; break;
        case OPT_INPUT:        o->input = value; break;
        case OPT_OUTPUT:       o->output = value; break;
        case OPT_OP:
            if (!sup_parse_op(value, &o->op)) {
                usage_error(err, "unknown operator '%s' (sum, max, min, last-nonzero, affine)", value);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_TYPE:
            if (!sup_parse_type(value, &o->type)) {
                usage_error(err, "unknown type '%s' (int32, uint32, int64, uint64, float, double)", value);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_COUNT:
            if (!parse_size(value, &o->count)) {
                usage_error(err, "invalid count '%s'", value);
                return EXIT_TROUBLE;
            }
            o->count_set = true;
            break;
        case OPT_REPEAT: {
            uint64_t r;
            if (!parse_u64(value, &r) || r == 0 || r > 1000000) {
                usage_error(err, "invalid repeat count '%s' (1 to 1000000)", value);
                return EXIT_TROUBLE;
            }
            o->repeat = (unsigned long)r;
            break;
        }
        case OPT_SEED:
            if (!parse_u64(value, &o->seed)) {
                usage_error(err, "invalid seed '%s'", value);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_TUNING:
            if (!parse_tuning(value, &o->work_group_size, &o->items_per_work_item)) {
                usage_error(err, "invalid tuning '%s' (WG:IPW, e.g. 256:8)", value);
                return EXIT_TROUBLE;
            }
            o->tuning_set = true;
            break;
        case OPT_ALGORITHM:
            if (!sup_parse_algorithm(value, &o->algorithm)) {
                usage_error(err, "unknown algorithm '%s' (auto, reduce-then-scan, single-pass)", value);
                return EXIT_TROUBLE;
            }
            o->algorithm_set = true;
            break;
        case OPT_ACCURACY:
            if (!sup_parse_accuracy(value, &o->accuracy)) {
                usage_error(err, "unknown accuracy '%s' (auto, working, compensated)", value);
                return EXIT_TROUBLE;
            }
            o->accuracy_set = true;
            break;
        case OPT_VARIANT: {
            char tiles[32] = "";
            const char *colon = strchr(value, ':');
            const size_t n = colon ? (size_t)(colon - value) : sizeof tiles;
            if (n < sizeof tiles) {
                memcpy(tiles, value, n);
                tiles[n] = '\0';
            }
            if (n >= sizeof tiles || !sup_parse_tiles(tiles, &o->tiles) || !sup_parse_primitive(colon + 1, &o->primitive)) {
                usage_error(err, "invalid variant '%s' (TILES:PRIMITIVE, e.g. staged:blelloch)", value);
                return EXIT_TROUBLE;
            }
            o->variant_set = true;
            break;
        }
        case OPT_TOLERANCE: {
            char *end;
            errno = 0;
            o->tolerance = strtod(value, &end);
            if (*value == '\0' || *end != '\0' || errno != 0 || !(o->tolerance >= 0) || isinf(o->tolerance)) {
                usage_error(err, "invalid tolerance '%s'", value);
                return EXIT_TROUBLE;
            }
            o->tolerance_set = true;
            break;
        }
        }
    }
    if (o->count_set && o->input) {
        usage_error(err, "%s", "--count and --input exclude each other");
        return EXIT_TROUBLE;
    }
    return -1;
}

/* ---- the input file ---------------------------------------------------------------------- */

bool tool_read_input_stream(FILE *f, const char *path, clscan_op op, clscan_type type, unsigned char **data,
                            size_t *count, FILE *err)
{
    const size_t element_size = sup_element_size(op, type);
    size_t cap = 1 << 16, len = 0;
    if (cap < element_size)
        cap = element_size;
    unsigned char *buf = malloc(cap);
    bool ok = buf != NULL;
    while (ok) {
        if (len == cap) {
            unsigned char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                ok = false;
                fprintf(err, "clscan: '%s': out of memory\n", path);
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) {
                fprintf(err, "clscan: cannot read '%s': %s\n", path, strerror(errno));
                ok = false;
            }
            break;
        }
    }
    if (!buf)
        fprintf(err, "clscan: '%s': out of memory\n", path);
    if (ok && len % element_size != 0) {
        if (op == CLSCAN_AFFINE)
            fprintf(err, "clscan: '%s': %zu bytes is not a whole number of affine %s elements:\n"
                         "  each element is a pair a, b of %zu bytes each, %zu bytes in all\n",
                    path, len, sup_type_name(type), sup_scalar_size(type), element_size);
        else
            fprintf(err, "clscan: '%s': %zu bytes is not a whole number of %s elements of %zu bytes\n",
                    path, len, sup_type_name(type), element_size);
        ok = false;
    }
    if (!ok) {
        free(buf);
        return false;
    }
    *data = buf;
    *count = len / element_size;
    return true;
}

bool tool_read_input(const char *path, clscan_op op, clscan_type type, unsigned char **data, size_t *count,
                     FILE *err)
{
    const bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(err, "clscan: cannot open '%s': %s\n", path, strerror(errno));
        return false;
    }
    const bool ok = tool_read_input_stream(f, path, op, type, data, count, err);
    if (!is_stdin)
        fclose(f);
    return ok;
}
