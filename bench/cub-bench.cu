// cub-bench: the CUB peer of clscan-bench.  Scans the benchmark's cases with cub::DeviceScan on
// one CUDA device, checks every timed run against the sequential reference (support/reference.h,
// on bench_common.h's inputs, the same as clscan-bench's) and prints
//   result CASE COUNT DEVICE_MS HOST_MS COPY_MS yes|no
// (medians; "no": a result differed from the reference).  Lines starting with '#' are notes.
//
// usage: cub-bench [--pci BUS:SLOT | --cuda-device N] [--cases a,b] [--min LOG2] [--max LOG2] [--reps N]
// (--pci picks the CUDA device on that PCI bus and slot: clscan-bench passes the OpenCL device's.)
//
// Device time: like clscan-bench, the stream is held while the work is enqueued, here by a kernel
// that spins for 0.5 ms; then CUDA event 1, the CUB call (temporary storage allocated before),
// CUDA event 2, and the time is event 2 - event 1: the scan's kernels back to back, without the
// host's launch time.  Host time: the call to cudaStreamSynchronize, without the hold.  The copy
// floor: cudaMemcpyAsync device to device of the same bytes, timed like the scan.
//
// The segmented cases run CUB's scans by key (uint32 keys, bench_generate_segments' segments):
// key-int-max-incl with InclusiveScanByKey on clscan's keys; seg-float-sum-excl, given to clscan
// as head flags, with ExclusiveSumByKey on keys made from the heads on the host before timing
// (CUB has no scan by head flags), checked against the reference restarted at the heads.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_common.h"
#include "support/compare.h"
#include "support/reference.h"

#define CK(x)                                                                                    \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess)                                                                   \
            throw std::runtime_error(std::string(#x) + ": " + cudaGetErrorString(e_));          \
    } while (0)

struct KeyEqual {   // the segments: runs of equal keys
    __device__ __host__ bool operator()(unsigned a, unsigned b) const { return a == b; }
};
struct MaxOp {
    __device__ __host__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct LastNonzeroOp {
    __device__ __host__ int operator()(int p, int c) const { return c != 0 ? c : p; }
};
struct AffineOp {   // comb(p, c): x -> c.x * (p.x * x + p.y) + c.y
    __device__ __host__ float2 operator()(const float2 &p, const float2 &c) const
    {
        return make_float2(c.x * p.x, c.x * p.y + c.y);
    }
};

__global__ void hold(long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while ((long long)(t - t0) < ns);
}

static double wall_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct timer {
    cudaStream_t s;
    cudaEvent_t e1, e2;
    timer()
    {
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CK(cudaEventCreate(&e1));
        CK(cudaEventCreate(&e2));
    }
    ~timer()
    {
        cudaEventDestroy(e1);
        cudaEventDestroy(e2);
        cudaStreamDestroy(s);
    }
    template <class F> double device_ms(F f)
    {
        hold<<<1, 1, 0, s>>>(500000);
        CK(cudaGetLastError());
        CK(cudaEventRecord(e1, s));
        f();
        CK(cudaEventRecord(e2, s));
        CK(cudaEventSynchronize(e2));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e1, e2));
        return ms;
    }
    template <class F> double host_ms(F f)
    {
        const double t0 = wall_ms();
        f();
        CK(cudaStreamSynchronize(s));
        return wall_ms() - t0;
    }
};

static double median(std::vector<double> v) { return bench_median(v.data(), (int)v.size()); }

// One case at one count: scan(temp, temp_bytes, keys, in, out, n, stream) is the CUB call (keys:
// the segments' uint32 keys for the segmented cases, else nullptr).
template <class T, class Scan> static void run(timer &tm, int c, size_t n, int reps, Scan scan)
{
    const size_t bytes = n * bench_case_esize[c];
    if (sizeof(T) != bench_case_esize[c])
        throw std::runtime_error("element size mismatch");
    std::vector<unsigned char> in(bytes), ref(bytes), out(bytes), segs;
    std::vector<unsigned> keys;
    bench_generate(bench_base_case(c), n, in.data());
    if (bench_segmented_case(c)) {   // clscan's heads or keys for the reference, keys for CUB
        segs.resize(n * bench_segs_esize(c));
        keys.resize(n);
        bench_generate_segments(c, n, segs.data(), keys.data());
        sup_reference_segmented(bench_case_op[c], bench_case_type[c], bench_case_kind[c],
                                bench_by_key_case(c) ? SUP_KEYS32 : SUP_HEADS, segs.data(), in.data(), ref.data(), n);
    } else {
        sup_reference(bench_case_op[c], bench_case_type[c], bench_case_kind[c], in.data(), ref.data(), n);
    }
    T *src = nullptr, *dst = nullptr;
    unsigned *d_keys = nullptr;
    void *temp = nullptr;
    size_t temp_bytes = 0;
    bool ok = true;
    try {
        CK(cudaMalloc(&src, bytes));
        CK(cudaMalloc(&dst, bytes));
        CK(cudaMemcpy(src, in.data(), bytes, cudaMemcpyHostToDevice));
        if (!keys.empty()) {
            CK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
            CK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
        }
        CK(scan(nullptr, temp_bytes, d_keys, src, dst, (int)n, tm.s));
        CK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
        auto call = [&] { CK(scan(temp, temp_bytes, d_keys, src, dst, (int)n, tm.s)); };
        auto poison = [&] {
            CK(cudaMemsetAsync(dst, 0xff, bytes, tm.s));
            CK(cudaStreamSynchronize(tm.s));
        };
        auto check = [&] {
            CK(cudaMemcpy(out.data(), dst, bytes, cudaMemcpyDeviceToHost));
            sup_compare_result res;
            if (!sup_compare(bench_case_op[c], bench_case_type[c], SUP_MATCH_VALUES, ref.data(), out.data(), n, &res))
                ok = false;
        };
        poison();
        tm.host_ms(call);   // warm-up
        check();
        std::vector<double> dev, host, copy;
        for (int r = 0; r < reps; ++r) {
            poison();
            dev.push_back(tm.device_ms(call));
            check();
        }
        for (int r = 0; r < reps; ++r) {
            poison();
            host.push_back(tm.host_ms(call));
            check();
        }
        auto copy_call = [&] { CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, tm.s)); };
        tm.device_ms(copy_call);
        for (int r = 0; r < reps; ++r)
            copy.push_back(tm.device_ms(copy_call));
        std::printf("result %s %zu %.6f %.6f %.6f %s\n", bench_case_names[c], n, median(dev), median(host),
                    median(copy), ok ? "yes" : "no");
    } catch (const std::exception &e) {
        std::printf("# %s %zu failed: %s\n", bench_case_names[c], n, e.what());
    }
    std::fflush(stdout);
    cudaFree(src);
    cudaFree(dst);
    cudaFree(d_keys);
    cudaFree(temp);
}

int main(int argc, char **argv)
{
    int min_log2 = 10, max_log2 = 28, reps = 10, cuda_device = -1, bus = -1, slot = -1;
    std::vector<int> cases;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: cub-bench [--pci BUS:SLOT | --cuda-device N] [--cases a,b] [--min LOG2] "
                        "[--max LOG2] [--reps N]\n");
            return 0;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "cub-bench: %s needs a value\n", a.c_str());
            return 2;
        }
        const char *v = argv[++i];
        if (a == "--min") min_log2 = std::atoi(v);
        else if (a == "--max") max_log2 = std::atoi(v);
        else if (a == "--reps") reps = std::max(1, std::atoi(v));
        else if (a == "--cuda-device") cuda_device = std::atoi(v);
        else if (a == "--pci") {
            if (std::sscanf(v, "%d:%d", &bus, &slot) != 2) {
                std::fprintf(stderr, "cub-bench: --pci wants BUS:SLOT\n");
                return 2;
            }
        } else if (a == "--cases") {
            std::string s = v;
            size_t pos = 0;
            while (pos <= s.size()) {
                const size_t e = std::min(s.find(',', pos), s.size());
                const int c = bench_case_find(s.substr(pos, e - pos).c_str());
                if (c < 0) {
                    std::fprintf(stderr, "cub-bench: unknown case %s\n", s.substr(pos, e - pos).c_str());
                    return 2;
                }
                cases.push_back(c);
                pos = e + 1;
            }
        } else {
            std::fprintf(stderr, "cub-bench: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (cases.empty())
        for (int c = 0; c < BENCH_NCASES; ++c)
            if (bench_peer_runs(c, 1))
                cases.push_back(c);
    try {
        int ndev = 0;
        CK(cudaGetDeviceCount(&ndev));
        if (cuda_device < 0 && bus >= 0) {
            for (int d = 0; d < ndev; ++d) {
                cudaDeviceProp p;
                CK(cudaGetDeviceProperties(&p, d));
                if (p.pciBusID == bus && p.pciDeviceID == slot)
                    cuda_device = d;
            }
            if (cuda_device < 0)
                std::printf("# no CUDA device on PCI bus %d slot %d; using device 0\n", bus, slot);
        }
        if (cuda_device < 0)
            cuda_device = 0;
        CK(cudaSetDevice(cuda_device));
        cudaDeviceProp p;
        CK(cudaGetDeviceProperties(&p, cuda_device));
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        std::printf("# cub-bench device: %s (CUDA device %d, PCI %d:%d); driver %d, runtime %d, CUB %d\n", p.name,
                    cuda_device, p.pciBusID, p.pciDeviceID, driver, runtime, (int)CUB_VERSION);
        timer tm;
        for (int c : cases) {
            for (int lg = min_log2; lg <= max_log2; lg += 2) {
                const size_t n = (size_t)1 << lg, bytes = n * bench_case_esize[c];
                size_t free_b = 0, total_b = 0;
                CK(cudaMemGetInfo(&free_b, &total_b));
                const size_t keys_bytes = bench_segmented_case(c) ? n * sizeof(unsigned) : 0;
                if ((bytes + keys_bytes) / 2 * 5 > free_b / 4 * 3 || n > (size_t)INT32_MAX) {
                    std::printf("# %s %zu skipped: too large for the device\n", bench_case_names[c], n);
                    continue;
                }
                switch (c) {
                case BENCH_FSUM:
                    run<float>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *, float *x, float *y, int k,
                                                  cudaStream_t s) {
                        return cub::DeviceScan::ExclusiveSum(t, tb, x, y, k, s);
                    });
                    break;
                case BENCH_IMAX:
                    run<int>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *, int *x, int *y, int k,
                                                cudaStream_t s) {
                        return cub::DeviceScan::InclusiveScan(t, tb, x, y, MaxOp(), k, s);
                    });
                    break;
                case BENCH_ILNZ:
                    run<int>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *, int *x, int *y, int k,
                                                cudaStream_t s) {
                        return cub::DeviceScan::InclusiveScan(t, tb, x, y, LastNonzeroOp(), k, s);
                    });
                    break;
                case BENCH_FAFF:
                    run<float2>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *, float2 *x, float2 *y, int k,
                                                   cudaStream_t s) {
                        return cub::DeviceScan::InclusiveScan(t, tb, x, y, AffineOp(), k, s);
                    });
                    break;
                case BENCH_DSUM:
                    run<double>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *, double *x, double *y, int k,
                                                   cudaStream_t s) {
                        return cub::DeviceScan::ExclusiveSum(t, tb, x, y, k, s);
                    });
                    break;
                case BENCH_SFSUM:   // heads given as keys (CUB has no head flags)
                    run<float>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *key, float *x, float *y, int k,
                                                  cudaStream_t s) {
                        return cub::DeviceScan::ExclusiveSumByKey(t, tb, key, x, y, k, KeyEqual(), s);
                    });
                    break;
                case BENCH_KIMAX:
                    run<int>(tm, c, n, reps, [](void *t, size_t &tb, const unsigned *key, int *x, int *y, int k,
                                                cudaStream_t s) {
                        return cub::DeviceScan::InclusiveScanByKey(t, tb, key, x, y, MaxOp(), k, KeyEqual(), s);
                    });
                    break;
                default:
                    std::printf("# %s: not a case of cub-bench\n", bench_case_names[c]);
                    break;
                }
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cub-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
