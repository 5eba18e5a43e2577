/* The on-disk cache of program binaries (disk_cache.h says what and why).
 *
 * A file is, in this order:
 *   magic "CLSCNBIN" (8 bytes), the format version (4 bytes), 4 bytes of zeros,
 *   the key's length, the binary's length (8 bytes each),
 *   the key, the binary,
 *   a checksum of everything before it (8 bytes).
 * Numbers are little-endian.  The checksum, and the hash of the key that names the file, is
 * FNV-1a (Fowler, Noll, Vo) taken over 64-bit words instead of bytes (eight times fewer
 * multiplications: a binary of several MiB is hashed in a millisecond), mixed (hash_words); it
 * catches torn and damaged files, not attacks: the directory is the user's own (created 0700,
 * files 0600). */
#include "disk_cache.h"
#include "environment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FORMAT_VERSION 1u
#define HEADER_BYTES 32u
#define CHECKSUM_BYTES 8u
static const char magic[8] = {'C', 'L', 'S', 'C', 'N', 'B', 'I', 'N'};

struct clscan_disk_key {
    char *text;          /* the key: length-prefixed fields, see clscan_disk_key_make */
    size_t length;
    const char *dir;
    char name[32];       /* the file's name in dir: the key's hash */
};

/* ---- Hashing and numbers -------------------------------------------------------------------- */

#define FNV_OFFSET 0xcbf29ce484222325u
#define FNV_PRIME 0x100000001b3u

/* Each step is a bijection of h for a given word (xor, an odd multiplier, a xorshift), so two
 * inputs that differ in one word always hash differently.  The xorshift folds the high bits
 * down, since a multiplication only carries upwards; MurmurHash3's finaliser (Appleby) mixes the
 * end, so that every bit of the file's name depends on every byte of the key. */
static uint64_t hash_words(uint64_t h, const unsigned char *p, size_t n)
{
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * FNV_PRIME;
        h ^= h >> 29;
    }
    for (; n; ++p, --n)
        h = (h ^ *p) * FNV_PRIME;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 33);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = (unsigned char)(v >> 8 * i);
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        p[i] = (unsigned char)(v >> 8 * i);
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

/* ---- The key -------------------------------------------------------------------------------- */

/* A growing string; on failure of an allocation ok turns 0 and stays so. */
typedef struct text {
    char *s;
    size_t n, cap;
    int ok;
} text;

static void append(text *t, const char *s, size_t n)
{
    if (!t->ok)
        return;
    if (t->n + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->n + n + 1)
            cap *= 2;
        char *s2 = realloc(t->s, cap);
        if (!s2) {
            t->ok = 0;
            return;
        }
        t->s = s2;
        t->cap = cap;
    }
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

/* A field "<length>:<value>\n": its length makes the key unambiguous whatever the values hold. */
static void append_field(text *t, const char *value, size_t n)
{
    char len[32];
    const int k = snprintf(len, sizeof len, "%zu:", n);
    append(t, len, (size_t)k);
    append(t, value, n);
    append(t, "\n", 1);
}

/* Appends a string property of the device (platform 0) or of the platform. */
static void append_info(text *t, cl_device_id device, cl_platform_id platform, cl_uint param)
{
    char buf[1024];
    size_t n = 0;
    const cl_int err = platform ? clGetPlatformInfo(platform, param, sizeof buf, buf, &n)
                                : clGetDeviceInfo(device, param, sizeof buf, buf, &n);
    if (err != CL_SUCCESS || n == 0 || n > sizeof buf) {
        t->ok = 0;
        return;
    }
    append_field(t, buf, strnlen(buf, n));
}

clscan_disk_key *clscan_disk_key_make(cl_device_id device, const char *source, const char *options)
{
    const char *dir = clscan_env_cache_dir();
    if (!dir)
        return NULL;
    cl_platform_id platform = NULL;
    if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) != CL_SUCCESS || !platform)
        return NULL;
    text t = {.ok = 1};
    append(&t, "clscan program\n", strlen("clscan program\n"));
    append_info(&t, device, platform, CL_PLATFORM_NAME);
    append_info(&t, device, platform, CL_PLATFORM_VERSION);
    append_info(&t, device, NULL, CL_DEVICE_NAME);
    append_info(&t, device, NULL, CL_DEVICE_VENDOR);
    append_info(&t, device, NULL, CL_DRIVER_VERSION);
    append_info(&t, device, NULL, CL_DEVICE_VERSION);
    append_field(&t, options, strlen(options));
    append_field(&t, source, strlen(source));
    clscan_disk_key *key = t.ok ? malloc(sizeof *key) : NULL;
    if (!key) {
        free(t.s);
        return NULL;
    }
    key->text = t.s;
    key->length = t.n;
    key->dir = dir;
    snprintf(key->name, sizeof key->name, "%016llx.clbin",
             (unsigned long long)hash_words(FNV_OFFSET, (const unsigned char *)t.s, t.n));
    return key;
}

void clscan_disk_key_free(clscan_disk_key *key)
{
    if (key) {
        free(key->text);
        free(key);
    }
}

/* ---- Reading -------------------------------------------------------------------------------- */

/* The file at path, whole, if it is a regular file of a plausible size: malloc'd, or NULL. */
static unsigned char *read_whole(const char *path, size_t *size)
{
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    unsigned char *buf = NULL;
    size_t len = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)(HEADER_BYTES + CHECKSUM_BYTES) &&
        (uintmax_t)st.st_size <= CLSCAN_DISK_CACHE_MAX_FILE && (buf = malloc((size_t)st.st_size))) {
        while (len < (size_t)st.st_size) {
            const ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            len += (size_t)n;
        }
    }
    close(fd);
    if (buf && len != (size_t)st.st_size) {
        free(buf);
        buf = NULL;
    }
    *size = len;
    return buf;
}

/* The binary inside file (size bytes) if the file is whole and holds key's binary, else NULL. */
static const unsigned char *binary_of(const clscan_disk_key *key, const unsigned char *file, size_t size,
                                      size_t *binary_size)
{
    if (memcmp(file, magic, sizeof magic) != 0 || get_u32(file + 8) != FORMAT_VERSION)
        return NULL;
    const uint64_t key_len = get_u64(file + 16), bin_len = get_u64(file + 24);
    const size_t room = size - HEADER_BYTES - CHECKSUM_BYTES;
    if (key_len != key->length || bin_len == 0 || key_len > room || bin_len != room - key_len)
        return NULL;
    if (memcmp(file + HEADER_BYTES, key->text, key->length) != 0)
        return NULL;
    if (get_u64(file + size - CHECKSUM_BYTES) != hash_words(FNV_OFFSET, file, size - CHECKSUM_BYTES))
        return NULL;
    *binary_size = (size_t)bin_len;
    return file + HEADER_BYTES + key_len;
}

static int file_path(const clscan_disk_key *key, char *path, size_t size)
{
    const int n = snprintf(path, size, "%s/%s", key->dir, key->name);
    return n > 0 && (size_t)n < size;
}

cl_program clscan_disk_cache_load(const clscan_disk_key *key, cl_context context, cl_device_id device,
                                  const char *options)
{
    char path[4096 + 64];
    size_t size = 0, binary_size = 0;
    unsigned char *file = key && file_path(key, path, sizeof path) ? read_whole(path, &size) : NULL;
    const unsigned char *binary = file ? binary_of(key, file, size, &binary_size) : NULL;
    if (!binary) {
        free(file);
        return NULL;
    }
    cl_int err = CL_SUCCESS, status = CL_INVALID_BINARY;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &binary_size, &binary, &status, &err);
    free(file);
    if (err != CL_SUCCESS)
        return NULL;
    if (status != CL_SUCCESS || clBuildProgram(p, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* ---- Writing -------------------------------------------------------------------------------- */

/* mkdir -p dir, the directories it creates private to the user. */
static int make_dirs(const char *dir)
{
    char path[4096];
    const size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path)
        return 0;
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; ++i) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        const char c = path[i];
        path[i] = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            return 0;
        path[i] = c;
    }
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        const ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

/* Writes the file through a temporary file of a name no other writer uses (the process, a
 * counter, the clock), renamed over the file: a reader sees the old file or the new one. */
static void write_file(const clscan_disk_key *key, const unsigned char *file, size_t size)
{
    static atomic_ulong counter;
    char path[4096 + 64], tmp[4096 + 128];
    if (!file_path(key, path, sizeof path) || !make_dirs(key->dir))
        return;
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_REALTIME, &ts);
    const unsigned long salt = (unsigned long)(ts.tv_nsec ^ ts.tv_sec * 1000003L) ^ (unsigned long)(uintptr_t)&ts;
    const int n = snprintf(tmp, sizeof tmp, "%s/.%s.%ld.%lu.%08lx.tmp", key->dir, key->name, (long)getpid(),
                           (unsigned long)atomic_fetch_add(&counter, 1), salt & 0xffffffffUL);
    if (n <= 0 || (size_t)n >= sizeof tmp)
        return;
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    int ok = write_all(fd, file, size);
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

#define MAX_DEVICES 64

void clscan_disk_cache_store(const clscan_disk_key *key, cl_program program, cl_device_id device)
{
    if (!key)
        return;
    cl_uint ndev = 0;
    cl_device_id devices[MAX_DEVICES];
    size_t sizes[MAX_DEVICES];
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) != CL_SUCCESS || ndev == 0 ||
        ndev > MAX_DEVICES ||
        clGetProgramInfo(program, CL_PROGRAM_DEVICES, ndev * sizeof *devices, devices, NULL) != CL_SUCCESS ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, ndev * sizeof *sizes, sizes, NULL) != CL_SUCCESS)
        return;
    cl_uint mine = 0;
    while (mine < ndev && devices[mine] != device)
        ++mine;
    const size_t limit = CLSCAN_DISK_CACHE_MAX_FILE - HEADER_BYTES - CHECKSUM_BYTES;
    if (mine == ndev || sizes[mine] == 0 || key->length > limit || sizes[mine] > limit - key->length)
        return;
    /* Every device's binary is asked for (drivers before OpenCL 1.2 may not skip a NULL entry);
     * only the context's other devices need room of their own. */
    size_t others = 0;
    for (cl_uint i = 0; i < ndev; ++i)
        others += i == mine ? 0 : sizes[i];
    const size_t size = HEADER_BYTES + key->length + sizes[mine] + CHECKSUM_BYTES;
    unsigned char *file = malloc(size);
    unsigned char *spare = others ? malloc(others) : NULL;
    unsigned char *binaries[MAX_DEVICES];
    if (file && (spare || !others)) {
        size_t at = 0;
        for (cl_uint i = 0; i < ndev; ++i) {
            binaries[i] = i == mine ? file + HEADER_BYTES + key->length : sizes[i] ? spare + at : NULL;
            at += i == mine ? 0 : sizes[i];
        }
        if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, ndev * sizeof *binaries, binaries, NULL) == CL_SUCCESS) {
            memcpy(file, magic, sizeof magic);
            put_u32(file + 8, FORMAT_VERSION);
            put_u32(file + 12, 0);
            put_u64(file + 16, key->length);
            put_u64(file + 24, sizes[mine]);
            memcpy(file + HEADER_BYTES, key->text, key->length);
            put_u64(file + size - CHECKSUM_BYTES, hash_words(FNV_OFFSET, file, size - CHECKSUM_BYTES));
            write_file(key, file, size);
        }
    }
    free(spare);
    free(file);
}
