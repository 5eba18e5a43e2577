/* Replays inputs through a fuzz target without libFuzzer: the test suite's check that every
 * file of the target's seed corpus (tests/fuzz/corpus/NAME) and of its regressions
 * (tests/fuzz/regressions/NAME: inputs that once crashed it) passes.  Built with each target's
 * source; NAME and the source directory are compiled in (FUZZ_NAME, FUZZ_SRCDIR), and
 * CLSCAN_SRCDIR overrides the latter.  Arguments, if any, are files or directories to replay
 * instead.  Exit status 0 when every input passed (a broken invariant aborts). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

static unsigned long replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(1);
    }
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory for %s\n", path);
        exit(1);
    }
    /* A copy of exactly len bytes, so that reading past the input is an error under ASan. */
    unsigned char *exact = malloc(len ? len : 1);
    if (!exact)
        exit(1);
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    replayed++;
}

/* Replays path: a file, or every file of a directory (sorted, for a stable order); a missing
 * directory is no input. */
static void replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path);
        return;
    }
    struct dirent **names;
    const int n = scandir(path, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            char file[4096];
            snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
            replay_path(file);
        }
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            replay_path(argv[i]);
    } else {
        const char *env = getenv("CLSCAN_SRCDIR");
        const char *srcdir = env && *env ? env : FUZZ_SRCDIR;
        static const char *const kinds[] = {"corpus", "regressions"};
        for (int k = 0; k < 2; k++) {
            char dir[4096];
            snprintf(dir, sizeof dir, "%s/tests/fuzz/%s/%s", srcdir, kinds[k], FUZZ_NAME);
            replay_path(dir);
        }
        if (replayed == 0) {
            fprintf(stderr, "replay %s: no inputs below %s/tests/fuzz\n", FUZZ_NAME, srcdir);
            return 1;
        }
    }
    printf("replay %s: %lu inputs passed\n", FUZZ_NAME, replayed);
    return 0;
}
