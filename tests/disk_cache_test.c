/* The on-disk program cache (lib/disk_cache.c): a second process takes the binary the first one
 * stored; damaged, foreign or unusable files cost a build and nothing else; an empty
 * CLSCAN_CACHE_DIR turns the cache off; processes at once leave one whole file.
 *
 * The library reads the cache's directory once per process, so each case runs the scans in
 * child processes (this program again, "--child sum|custom", through /proc/self/exe) with the
 * environment the case sets; the parent never calls OpenCL.  Whether a child took the stored
 * file or built and stored a new one shows in the file's inode: a store renames a new file
 * over the old one. */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- The child: scans checked against the sequential reference ------------------------------ */

/* A custom operator that is the built-in uint32 SUM, so that the reference is testutil's. */
static const clscan_custom custom_sum = {"uint", 4, "0u", "a + b", NULL};

static int child_main(const char *mode)
{
    tu_open("disk_cache_test (child)");
    const bool custom = strcmp(mode, "custom") == 0;
    if (!custom && strcmp(mode, "sum") != 0)
        return 99;
    cl_int err = CL_SUCCESS;
    clscan_plan *plan = custom ? clscan_plan_create_custom(tu.context, tu.device, &custom_sum, CLSCAN_INCLUSIVE, &err)
                               : clscan_plan_create(tu.context, tu.device, CLSCAN_SUM, CLSCAN_FLOAT,
                                                    CLSCAN_INCLUSIVE, &err);
    if (!plan) {
        printf("disk_cache_test (child): plan creation failed: %s: %s\n", clscan_error_string(err),
               clscan_last_error());
        tu_close();
        return 1;
    }
    static const size_t counts[] = {1, 1000, 300007};
    int status = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        char msg[2048];
        const tu_case c = {.op = CLSCAN_SUM, .type = custom ? CLSCAN_UINT32 : CLSCAN_FLOAT,
                           .kind = CLSCAN_INCLUSIVE, .count = counts[i], .salt = (unsigned)i};
        if (!tu_check_scan(plan, &c, msg, sizeof msg)) {
            printf("disk_cache_test (child %s): %s\n", mode, msg);
            status = 1;
        }
    }
    clscan_plan_release(plan);
    tu_close();
    return status;
}

/* ---- The parent: files and processes -------------------------------------------------------- */

static char root[1024];   /* this run's temporary directory */

static void fresh_dir(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/%s", root, name);
    ck_assert_msg(mkdir(path, 0700) == 0, "mkdir %s: %s", path, strerror(errno));
}

/* Starts this program as a child in mode; its pid. */
static pid_t start_child(const char *mode)
{
    fflush(NULL);
    const pid_t pid = fork();
    ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        execl("/proc/self/exe", "disk_cache_test", "--child", mode, (char *)NULL);
        perror("disk_cache_test: exec /proc/self/exe");
        _exit(99);
    }
    return pid;
}

/* The child's exit status (128 + the signal if it died of one); 77 (no device) skips all. */
static int wait_child(pid_t pid)
{
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));
    const int rc = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    if (rc == 77) {
        printf("disk_cache_test: SKIP: no OpenCL device\n");
        exit(77);
    }
    return rc;
}

static void run_child(const char *mode, const char *what)
{
    const int rc = wait_child(start_child(mode));
    ck_assert_msg(rc == 0, "%s: the child (%s) exited with %d (its output is above)", what, mode, rc);
}

/* The regular files of a directory, sorted by name; temporary files counted apart. */
#define MAX_FILES 16
typedef struct listing {
    int n, temporary, others;
    char name[MAX_FILES][64];
    ino_t ino[MAX_FILES];
    off_t size[MAX_FILES];
} listing;

static listing list_dir(const char *dir)
{
    listing l;
    memset(&l, 0, sizeof l);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "opendir %s: %s", dir, strerror(errno));
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        ck_assert_msg(lstat(path, &st) == 0, "stat %s: %s", path, strerror(errno));
        if (strstr(e->d_name, ".tmp")) {
            ++l.temporary;
        } else if (!S_ISREG(st.st_mode) || l.n == MAX_FILES || strlen(e->d_name) >= sizeof l.name[0]) {
            ++l.others;
        } else {
            int i = l.n++;
            for (; i > 0 && strcmp(l.name[i - 1], e->d_name) > 0; --i) {
                memcpy(l.name[i], l.name[i - 1], sizeof l.name[i]);
                l.ino[i] = l.ino[i - 1];
                l.size[i] = l.size[i - 1];
            }
            snprintf(l.name[i], sizeof l.name[i], "%s", e->d_name);
            l.ino[i] = st.st_ino;
            l.size[i] = st.st_size;
        }
    }
    closedir(d);
    return l;
}

/* Whether listing b has the same files as a, each the same file (inode) if same_files. */
static bool same_listing(const listing *a, const listing *b, bool same_files)
{
    if (a->n != b->n || a->temporary != b->temporary || a->others != b->others)
        return false;
    for (int i = 0; i < a->n; ++i)
        if (strcmp(a->name[i], b->name[i]) != 0 || (same_files && a->ino[i] != b->ino[i]))
            return false;
    return true;
}

static int count_entries(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path, (void)st, (void)flag;
    return ftw->level > 0;   /* stops at the first entry below the top */
}

/* Whether the tree at dir holds nothing. */
static bool empty_tree(const char *dir)
{
    return nftw(dir, count_entries, 16, FTW_PHYS) == 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    chmod(path, 0700);
    return remove(path) == 0 || errno == ENOENT ? 0 : 0;
}

static void set_cache_dir(const char *dir)
{
    if (dir)
        setenv("CLSCAN_CACHE_DIR", dir, 1);
    else
        unsetenv("CLSCAN_CACHE_DIR");
}

/* The directory of test 1, shared with the damage tests: the float SUM program's files (sum)
 * and the custom operator's (custom). */
static char shared_dir[4096];
static listing sum_files, all_files;

START_TEST(a_second_process_takes_the_stored_binary)
{
    char top[2048];
    fresh_dir(top, sizeof top, "first");
    /* Two directories that do not exist yet: created as mkdir -p does, private to the user. */
    snprintf(shared_dir, sizeof shared_dir, "%s/a/b", top);
    set_cache_dir(shared_dir);
    run_child("sum", "a first process");
    struct stat st;
    ck_assert_msg(stat(shared_dir, &st) == 0 && S_ISDIR(st.st_mode), "no directory %s", shared_dir);
    ck_assert_msg((st.st_mode & 0777) == 0700, "%s has mode %o, not 0700", shared_dir, (unsigned)(st.st_mode & 0777));
    sum_files = list_dir(shared_dir);
    ck_assert_msg(sum_files.n >= 1, "the first process stored no file in %s", shared_dir);
    ck_assert_int_eq(sum_files.temporary, 0);
    ck_assert_int_eq(sum_files.others, 0);
    for (int i = 0; i < sum_files.n; ++i)
        ck_assert_msg(sum_files.size[i] > 0, "%s is empty", sum_files.name[i]);

    run_child("sum", "a second process");
    listing again = list_dir(shared_dir);
    ck_assert_msg(same_listing(&sum_files, &again, true), "the second process rewrote the cache's files");

    /* A custom operator's program is stored under a key of its own. */
    run_child("custom", "a custom operator");
    all_files = list_dir(shared_dir);
    ck_assert_msg(all_files.n > sum_files.n, "the custom operator's program was not stored");
    run_child("custom", "a custom operator again");
    again = list_dir(shared_dir);
    ck_assert_msg(same_listing(&all_files, &again, true), "the custom operator's file was rewritten");
}
END_TEST

/* ---- Damaged files ---- */

enum { FLIP_BINARY, FLIP_KEY, HALF, EMPTY, GARBAGE, FOREIGN, DIRECTORY, NDAMAGES };
static const char *const damage_names[] = {"a byte of the binary flipped", "a byte of the key flipped",
                                           "truncated to half", "zero length", "garbage",
                                           "another program's file", "a directory in its place"};

static void read_file(const char *path, unsigned char **data, size_t *size)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "stat %s: %s", path, strerror(errno));
    *size = (size_t)st.st_size;
    *data = malloc(*size + 1);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(*data && f && fread(*data, 1, *size, f) == *size, "cannot read %s", path);
    fclose(f);
}

static void write_file(const char *path, const unsigned char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
}

/* A file of the custom operator's program (in all_files, not in sum_files). */
static const char *foreign_name(void)
{
    for (int i = 0; i < all_files.n; ++i) {
        bool sum = false;
        for (int j = 0; j < sum_files.n; ++j)
            sum |= strcmp(all_files.name[i], sum_files.name[j]) == 0;
        if (!sum)
            return all_files.name[i];
    }
    return NULL;
}

static void damage(const char *path, int how)
{
    unsigned char *data;
    size_t size;
    read_file(path, &data, &size);
    ck_assert_msg(size > 64, "%s has %zu bytes", path, size);
    /* The format (lib/disk_cache.c): a header of 32 bytes with the key's length at 16 and the
     * binary's at 24 (little-endian), the key, the binary, a checksum of 8 bytes. */
    uint64_t key_len = 0, bin_len = 0;
    for (int i = 7; i >= 0; --i) {
        key_len = key_len << 8 | data[16 + i];
        bin_len = bin_len << 8 | data[24 + i];
    }
    ck_assert_msg(key_len > 0 && bin_len > 0 && 32 + key_len + bin_len + 8 == size,
                  "%s: lengths %llu and %llu in a file of %zu bytes", path, (unsigned long long)key_len,
                  (unsigned long long)bin_len, size);
    switch (how) {
    case FLIP_BINARY:
        data[32 + key_len + tu_rand_below(bin_len)] ^= (unsigned char)(1u << tu_rand_below(8));
        write_file(path, data, size);
        break;
    case FLIP_KEY:
        data[32 + tu_rand_below(key_len)] ^= (unsigned char)(1u << tu_rand_below(8));
        write_file(path, data, size);
        break;
    case HALF:
        ck_assert_int_eq(truncate(path, (off_t)(size / 2)), 0);
        break;
    case EMPTY:
        ck_assert_int_eq(truncate(path, 0), 0);
        break;
    case GARBAGE:
        tu_fill_bytes(data, size);
        write_file(path, data, size);
        break;
    case FOREIGN: {
        const char *other = foreign_name();
        ck_assert_ptr_nonnull(other);
        char opath[8192];
        snprintf(opath, sizeof opath, "%s/%s", shared_dir, other);
        unsigned char *odata;
        size_t osize;
        read_file(opath, &odata, &osize);
        write_file(path, odata, osize);
        free(odata);
        break;
    }
    case DIRECTORY:
        ck_assert_int_eq(unlink(path), 0);
        ck_assert_int_eq(mkdir(path, 0700), 0);
        break;
    }
    free(data);
}

START_TEST(damaged_files_cost_a_build)
{
    const int how = _i;
    ck_assert_msg(sum_files.n > 0, "the first test stored no file");
    char paths[MAX_FILES][8192];
    ino_t damaged[MAX_FILES];
    for (int i = 0; i < sum_files.n; ++i) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", shared_dir, sum_files.name[i]);
        damage(paths[i], how);
        struct stat st;
        ck_assert_int_eq(stat(paths[i], &st), 0);
        damaged[i] = st.st_ino;
    }
    set_cache_dir(shared_dir);
    run_child("sum", damage_names[how]);   /* the right results: the child checks them */
    listing after = list_dir(shared_dir);
    ck_assert_msg(after.temporary == 0, "%s: %d temporary files left", damage_names[how], after.temporary);
    if (how == DIRECTORY) {   /* nothing can replace it: the cache is of no use, and harmless */
        for (int i = 0; i < sum_files.n; ++i)
            ck_assert_int_eq(rmdir(paths[i]), 0);
        run_child("sum", "after the directory");
        return;
    }
    for (int i = 0; i < sum_files.n; ++i) {
        struct stat st;
        ck_assert_msg(stat(paths[i], &st) == 0 && S_ISREG(st.st_mode), "%s: %s is gone", damage_names[how],
                      paths[i]);
        ck_assert_msg(st.st_ino != damaged[i], "%s: %s was not rebuilt", damage_names[how], paths[i]);
    }
    /* The rebuilt file is whole: the next process takes it. */
    listing rebuilt = list_dir(shared_dir);
    run_child("sum", "after the rebuild");
    listing again = list_dir(shared_dir);
    ck_assert_msg(same_listing(&rebuilt, &again, true), "%s: the rebuilt file was not taken", damage_names[how]);
}
END_TEST

/* ---- Where the cache is, and where it cannot be ---- */

START_TEST(an_empty_CLSCAN_CACHE_DIR_turns_the_cache_off)
{
    char home[2048], xdg[4096];
    fresh_dir(home, sizeof home, "off");
    snprintf(xdg, sizeof xdg, "%s/xdg", home);
    setenv("HOME", home, 1);
    setenv("XDG_CACHE_HOME", xdg, 1);
    set_cache_dir("");
    run_child("sum", "CLSCAN_CACHE_DIR empty");
    /* (Only clscan's directories: the OpenCL implementation may keep a cache of its own there.) */
    char path[8192];
    struct stat st;
    snprintf(path, sizeof path, "%s/clscan", xdg);
    ck_assert_msg(stat(path, &st) != 0, "with CLSCAN_CACHE_DIR empty, %s was made", path);
    snprintf(path, sizeof path, "%s/.cache/clscan", home);
    ck_assert_msg(stat(path, &st) != 0, "with CLSCAN_CACHE_DIR empty, %s was made", path);
}
END_TEST

START_TEST(the_default_directories)
{
    char home[2048], xdg[4096], path[8192];
    fresh_dir(home, sizeof home, "default");
    snprintf(xdg, sizeof xdg, "%s/xdg", home);
    setenv("HOME", home, 1);
    setenv("XDG_CACHE_HOME", xdg, 1);
    set_cache_dir(NULL);
    run_child("sum", "XDG_CACHE_HOME");
    snprintf(path, sizeof path, "%s/clscan", xdg);
    listing l = list_dir(path);
    ck_assert_msg(l.n == sum_files.n, "%d files in $XDG_CACHE_HOME/clscan, not %d", l.n, sum_files.n);
    unsetenv("XDG_CACHE_HOME");
    run_child("sum", "HOME");
    snprintf(path, sizeof path, "%s/.cache/clscan", home);
    l = list_dir(path);
    ck_assert_msg(l.n == sum_files.n, "%d files in $HOME/.cache/clscan, not %d", l.n, sum_files.n);
}
END_TEST

START_TEST(an_unusable_directory_costs_only_the_build)
{
    char top[2048], file[4096], below[8192];
    fresh_dir(top, sizeof top, "unusable");
    /* A directory below a regular file cannot be made, whoever runs the test. */
    snprintf(file, sizeof file, "%s/file", top);
    write_file(file, (const unsigned char *)"x", 1);
    snprintf(below, sizeof below, "%s/cache", file);
    set_cache_dir(below);
    run_child("sum", "a directory below a file");
    struct stat st;
    ck_assert_msg(stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 1, "%s changed", file);
    /* A directory without write permission (root writes anyway: not checked then). */
    if (geteuid() != 0) {
        char ro[4096];
        snprintf(ro, sizeof ro, "%s/read-only", top);
        ck_assert_int_eq(mkdir(ro, 0500), 0);
        set_cache_dir(ro);
        run_child("sum", "a read-only directory");
        ck_assert_msg(empty_tree(ro), "something was written in the read-only %s", ro);
    }
}
END_TEST

START_TEST(processes_at_once_leave_one_whole_file)
{
    char dir[2048];
    fresh_dir(dir, sizeof dir, "together");
    set_cache_dir(dir);
    enum { NCHILDREN = 4 };
    pid_t pids[NCHILDREN];
    for (int i = 0; i < NCHILDREN; ++i)
        pids[i] = start_child("sum");
    int failed = 0;
    for (int i = 0; i < NCHILDREN; ++i)
        failed += wait_child(pids[i]) != 0;
    ck_assert_msg(failed == 0, "%d of %d processes at once failed (their output is above)", failed, NCHILDREN);
    listing l = list_dir(dir);
    ck_assert_msg(same_listing(&sum_files, &l, false), "%d files, %d temporary, %d others after processes at once; "
                  "%d files expected", l.n, l.temporary, l.others, sum_files.n);
    run_child("sum", "after the processes at once");
    listing again = list_dir(dir);
    ck_assert_msg(same_listing(&l, &again, true), "the file the processes left was not taken");
}
END_TEST

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main(argv[2]);
    tu_watchdog(900);
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/clscan-disk-cache-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("disk_cache_test: mkdtemp");
        return 99;
    }
    printf("disk_cache_test: working in %s\n", root);
    const char *seed = getenv("CLSCAN_TEST_SEED");
    tu_seed = seed && *seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    printf("disk_cache_test: seed %llu (set CLSCAN_TEST_SEED=%llu to repeat)\n", (unsigned long long)tu_seed,
           (unsigned long long)tu_seed);
    Suite *s = suite_create("disk_cache");
    TCase *tc = tcase_create("disk_cache");
    tcase_add_test(tc, a_second_process_takes_the_stored_binary);
    tcase_add_loop_test(tc, damaged_files_cost_a_build, 0, NDAMAGES);
    tcase_add_test(tc, an_empty_CLSCAN_CACHE_DIR_turns_the_cache_off);
    tcase_add_test(tc, the_default_directories);
    tcase_add_test(tc, an_unusable_directory_costs_only_the_build);
    tcase_add_test(tc, processes_at_once_leave_one_whole_file);
    suite_add_tcase(s, tc);
    const int rc = tu_run(s);
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}
