/* The clscan tool's command line (clscan(1)) and its input file: parsed and read without any
 * OpenCL call, shared by the tool and its fuzz targets (tests/fuzz/). */
#ifndef CLSCAN_TOOLS_OPTIONS_H
#define CLSCAN_TOOLS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <clscan.h>

/* The tool's exit statuses. */
enum { EXIT_MATCHED = 0, EXIT_MISMATCH = 1, EXIT_TROUBLE = 2 };

#define DEFAULT_COUNT 1000000u

typedef struct tool_options {
    bool help, version, list_devices;
    const char *device;          /* NULL: CLSCAN_DEVICE or the library's default */
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    bool count_set;
    size_t count;
    const char *input;           /* NULL: random input */
    const char *output;          /* NULL: no output file */
    unsigned long repeat;
    uint64_t seed;
    bool tuning_set;
    size_t work_group_size, items_per_work_item;
    bool tolerance_set;
    double tolerance;
    bool algorithm_set;
    clscan_algorithm algorithm;
    bool accuracy_set;
    clscan_accuracy accuracy;
    bool variant_set;
    clscan_tiles tiles;
    clscan_primitive primitive;
} tool_options;

/* Parses argv[1 ... argc - 1] into *o (the defaults first; the strings of *o point into argv).
 * Returns -1 when the options are fine, else the exit status, after a usage message on err. */
int tool_parse_options(int argc, char **argv, tool_options *o, FILE *err);

/* The text of --help. */
void tool_print_help(FILE *f);

/* Reads all of the input file path ('-': stdin) into a malloc'ed buffer of at least one
 * element, and checks that it holds a whole number of elements of op and type.  On success
 * stores the buffer and the number of elements; otherwise writes a message naming path on err
 * and returns false. */
bool tool_read_input(const char *path, clscan_op op, clscan_type type, unsigned char **data, size_t *count,
                     FILE *err);
/* The same from the open stream f (not closed), named path in the messages. */
bool tool_read_input_stream(FILE *f, const char *path, clscan_op op, clscan_type type, unsigned char **data,
                            size_t *count, FILE *err);

#endif /* CLSCAN_TOOLS_OPTIONS_H */
