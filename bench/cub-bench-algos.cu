// cub-bench-algos: the CUB peer of clscan-bench-algos.  Runs its cases with CUB on one CUDA
// device, checks every timed run against the sequential reference (bench_algos.h: the same
// inputs) and prints
//   result CASE COUNT DEVICE_MS HOST_MS COPY_MS yes|no
// (medians; "no": a result differed from the reference).  Lines starting with '#' are notes.
//
// usage: cub-bench-algos [--pci BUS:SLOT | --cuda-device N] [--cases a,b] [--min LOG2] [--max LOG2] [--reps N]
//
// The calls (temporary storage allocated once per count, before timing):
//   compact-50, compact-1  cub::DeviceSelect::Flagged (the count stays on the device)
//   bucket-65536           cub::DeviceRadixSort::SortPairs over bits 0 ... 15 (no offsets)
//   sort-u32, sort-f32     cub::DeviceRadixSort::SortKeys
//   sort-u32-pairs         cub::DeviceRadixSort::SortPairs
//   sort-u32-pairs-desc    cub::DeviceRadixSort::SortPairsDescending
//   select-if              cub::DeviceSelect::If (even)
//   partition              cub::DevicePartition::If (even; CUB writes the rejected ones in reverse
//                          order from the end: the check reverses them back)
//   unique                 cub::DeviceSelect::Unique
//   reduce-by-key          cub::DeviceReduce::ReduceByKey (sum)
//   segsort-u32            cub::DeviceSegmentedRadixSort::SortKeys (begin offsets: the offsets,
//                          end offsets: the offsets from the second one)
//   sort-u8, sort-u16      cub::DeviceRadixSort::SortKeys on uint8_t, uint16_t keys
// Device time as in cub-bench: the stream is held by a 0.5 ms spin kernel while CUDA event 1,
// the call and CUDA event 2 are enqueued; the time is event 2 - event 1.  The floor:
// cudaMemcpyAsync device to device of the input's bytes, timed the same way.
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

#include "bench_algos.h"

#define CK(x)                                                                                    \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess)                                                                   \
            throw std::runtime_error(std::string(#x) + ": " + cudaGetErrorString(e_));          \
    } while (0)

__global__ void hold(long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while ((long long)(t - t0) < ns);
}

__global__ void nothing() {}

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

// The device buffers of one count.
struct buffers {
    uint32_t *k_in = nullptr, *v_in = nullptr, *k_out = nullptr, *v_out = nullptr;   // keys: alg_key_size bytes each
    uint32_t *offsets = nullptr;   // segsort-u32: nsegments + 1
    int nsegments = 0;
    unsigned char *flags = nullptr;
    int *selected = nullptr;
    void *temp = nullptr;
    size_t temp_bytes = 0;
    ~buffers()
    {
        cudaFree(k_in);
        cudaFree(v_in);
        cudaFree(k_out);
        cudaFree(v_out);
        cudaFree(flags);
        cudaFree(selected);
        cudaFree(offsets);
        cudaFree(temp);
    }
};

// The selections' predicate (alg_kept) and the sum of reduce-by-key.
struct even_op {
    __host__ __device__ bool operator()(const uint32_t &x) const { return (x & 1u) == 0; }
};
struct sum_op {
    __host__ __device__ uint32_t operator()(const uint32_t &a, const uint32_t &b) const { return a + b; }
};

// CUB's call of case c (with temp == nullptr: asks for temp_bytes).
static cudaError_t cub_call(int c, buffers &b, int n, cudaStream_t s)
{
    switch (c) {
    case ALG_COMPACT50:
    case ALG_COMPACT1:
        return cub::DeviceSelect::Flagged(b.temp, b.temp_bytes, b.k_in, b.flags, b.k_out, b.selected, n, s);
    case ALG_BUCKET:
        return cub::DeviceRadixSort::SortPairs(b.temp, b.temp_bytes, b.k_in, b.k_out, b.v_in, b.v_out, n, 0, 16, s);
    case ALG_SORT_PAIRS:
        return cub::DeviceRadixSort::SortPairs(b.temp, b.temp_bytes, b.k_in, b.k_out, b.v_in, b.v_out, n, 0, 32, s);
    case ALG_SORT_PAIRS_DESC:
        return cub::DeviceRadixSort::SortPairsDescending(b.temp, b.temp_bytes, b.k_in, b.k_out, b.v_in, b.v_out, n,
                                                         0, 32, s);
    case ALG_SELECT_IF:
        return cub::DeviceSelect::If(b.temp, b.temp_bytes, b.k_in, b.k_out, b.selected, n, even_op(), s);
    case ALG_PARTITION:
        return cub::DevicePartition::If(b.temp, b.temp_bytes, b.k_in, b.k_out, b.selected, n, even_op(), s);
    case ALG_UNIQUE:
        return cub::DeviceSelect::Unique(b.temp, b.temp_bytes, b.k_in, b.k_out, b.selected, n, s);
    case ALG_REDUCE_BY_KEY:
        return cub::DeviceReduce::ReduceByKey(b.temp, b.temp_bytes, b.k_in, b.k_out, b.v_in, b.v_out, b.selected,
                                              sum_op(), n, s);
    case ALG_SORT_F32:
        return cub::DeviceRadixSort::SortKeys(b.temp, b.temp_bytes, reinterpret_cast<const float *>(b.k_in),
                                              reinterpret_cast<float *>(b.k_out), n, 0, 32, s);
    case ALG_SORT_U8:
        return cub::DeviceRadixSort::SortKeys(b.temp, b.temp_bytes, reinterpret_cast<const uint8_t *>(b.k_in),
                                              reinterpret_cast<uint8_t *>(b.k_out), n, 0, 8, s);
    case ALG_SORT_U16:
        return cub::DeviceRadixSort::SortKeys(b.temp, b.temp_bytes, reinterpret_cast<const uint16_t *>(b.k_in),
                                              reinterpret_cast<uint16_t *>(b.k_out), n, 0, 16, s);
    case ALG_SEGSORT_U32:
    case ALG_SEGSORT_LONG:
        return cub::DeviceSegmentedRadixSort::SortKeys(b.temp, b.temp_bytes, b.k_in, b.k_out, n, b.nsegments,
                                                       b.offsets, b.offsets + 1, 0, 32, s);
    default:
        return cub::DeviceRadixSort::SortKeys(b.temp, b.temp_bytes, b.k_in, b.k_out, n, 0, 32, s);
    }
}

static void run(timer &tm, int c, size_t n, int reps)
{
    std::vector<uint32_t> keys(n), values(n), ref_keys(n), ref_values(n), tmp(2 * n), got(n), offsets(n + 1);
    std::vector<unsigned char> flags(n), narrow(n * 4);
    alg_generate(c, n, keys.data(), alg_has_values(c) ? values.data() : nullptr, flags.data());
    const size_t nsegments = alg_generate_segments(c, n, offsets.data());
    const size_t m = alg_sequential(c, n, keys.data(), alg_has_values(c) ? values.data() : nullptr, flags.data(),
                                    offsets.data(), nsegments, ref_keys.data(), ref_values.data(), tmp.data());
    const size_t kbytes = alg_key_size(c);   // the device's keys: 1, 2 or 4 bytes
    bool ok = true;
    try {
        buffers b;
        CK(cudaMalloc(&b.k_in, n * 4));
        CK(cudaMalloc(&b.v_in, n * 4));
        CK(cudaMalloc(&b.k_out, n * 4));
        CK(cudaMalloc(&b.v_out, n * 4));
        CK(cudaMalloc(&b.flags, n));
        CK(cudaMalloc(&b.selected, sizeof(int)));
        alg_pack(c, n, keys.data(), narrow.data());
        CK(cudaMemcpy(b.k_in, narrow.data(), n * kbytes, cudaMemcpyHostToDevice));
        if (alg_is_segmented(c)) {
            b.nsegments = (int)nsegments;
            CK(cudaMalloc(&b.offsets, (nsegments + 1) * 4));
            CK(cudaMemcpy(b.offsets, offsets.data(), (nsegments + 1) * 4, cudaMemcpyHostToDevice));
        }
        CK(cudaMemcpy(b.v_in, values.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b.flags, flags.data(), n, cudaMemcpyHostToDevice));
        CK(cub_call(c, b, (int)n, tm.s));
        CK(cudaMalloc(&b.temp, b.temp_bytes ? b.temp_bytes : 1));
        auto call = [&] { CK(cub_call(c, b, (int)n, tm.s)); };
        auto poison = [&] {
            CK(cudaMemsetAsync(b.k_out, 0xff, n * 4, tm.s));
            CK(cudaMemsetAsync(b.v_out, 0xff, n * 4, tm.s));
            CK(cudaMemsetAsync(b.selected, 0xff, sizeof(int), tm.s));
            CK(cudaStreamSynchronize(tm.s));
        };
        size_t kept = m;   // partition: the kept ones come first, the count says where they end
        if (c == ALG_PARTITION)
            kept = (size_t)std::count_if(keys.begin(), keys.end(), [](uint32_t x) { return alg_kept(x) != 0; });
        auto check = [&] {
            if (alg_writes_count(c)) {
                int selected = -1;
                CK(cudaMemcpy(&selected, b.selected, sizeof selected, cudaMemcpyDeviceToHost));
                if ((size_t)selected != kept)
                    ok = false;
            }
            size_t first;
            CK(cudaMemcpy(narrow.data(), b.k_out, m * kbytes, cudaMemcpyDeviceToHost));
            alg_unpack(c, m, narrow.data(), got.data());
            if (c == ALG_PARTITION)
                std::reverse(got.begin() + (std::ptrdiff_t)kept, got.begin() + (std::ptrdiff_t)m);
            if (alg_check(m, got.data(), ref_keys.data(), &first))
                ok = false;
            if (alg_has_values(c)) {
                CK(cudaMemcpy(got.data(), b.v_out, m * 4, cudaMemcpyDeviceToHost));
                if (alg_check(m, got.data(), ref_values.data(), &first))
                    ok = false;
            }
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
        // The floor: the input's bytes (keys, and values or flags), from the inputs to the outputs.
        auto copy_call = [&] {
            CK(cudaMemcpyAsync(b.k_out, b.k_in, n * kbytes, cudaMemcpyDeviceToDevice, tm.s));
            if (alg_has_values(c))
                CK(cudaMemcpyAsync(b.v_out, b.v_in, n * 4, cudaMemcpyDeviceToDevice, tm.s));
            else if (alg_is_compaction(c))
                CK(cudaMemcpyAsync(b.v_out, b.flags, n, cudaMemcpyDeviceToDevice, tm.s));
        };
        tm.device_ms(copy_call);
        for (int r = 0; r < reps; ++r)
            copy.push_back(tm.device_ms(copy_call));
        std::printf("result %s %zu %.6f %.6f %.6f %s\n", alg_case_names[c], n, median(dev), median(host),
                    median(copy), ok ? "yes" : "no");
    } catch (const std::exception &e) {
        std::printf("# %s %zu failed: %s\n", alg_case_names[c], n, e.what());
    }
    std::fflush(stdout);
}

int main(int argc, char **argv)
{
    int min_log2 = 16, max_log2 = 26, reps = 10, cuda_device = -1, bus = -1, slot = -1;
    std::vector<int> cases;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: cub-bench-algos [--pci BUS:SLOT | --cuda-device N] [--cases a,b] [--min LOG2] "
                        "[--max LOG2] [--reps N]\n");
            return 0;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "cub-bench-algos: %s needs a value\n", a.c_str());
            return 2;
        }
        const char *v = argv[++i];
        if (a == "--min") min_log2 = std::atoi(v);
        else if (a == "--max") max_log2 = std::atoi(v);
        else if (a == "--reps") reps = std::max(1, std::atoi(v));
        else if (a == "--cuda-device") cuda_device = std::atoi(v);
        else if (a == "--pci") {
            if (std::sscanf(v, "%d:%d", &bus, &slot) != 2) {
                std::fprintf(stderr, "cub-bench-algos: --pci wants BUS:SLOT\n");
                return 2;
            }
        } else if (a == "--cases") {
            std::string s = v;
            size_t pos = 0;
            while (pos <= s.size()) {
                const size_t e = std::min(s.find(',', pos), s.size());
                const int c = alg_case_find(s.substr(pos, e - pos).c_str());
                if (c < 0) {
                    std::fprintf(stderr, "cub-bench-algos: unknown case %s\n", s.substr(pos, e - pos).c_str());
                    return 2;
                }
                cases.push_back(c);
                pos = e + 1;
            }
        } else {
            std::fprintf(stderr, "cub-bench-algos: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (cases.empty())
        for (int c = 0; c < ALG_NCASES; ++c)
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
        std::printf("# cub-bench-algos device: %s (CUDA device %d, PCI %d:%d); driver %d, runtime %d, CUB %d\n",
                    p.name, cuda_device, p.pciBusID, p.pciDeviceID, driver, runtime, (int)CUB_VERSION);
        timer tm;
        {   // the span of a kernel doing nothing, timed as the cases are (after one warm-up)
            std::vector<double> spans;
            for (int r = 0; r <= reps; ++r) {
                const double ms = tm.device_ms([&] { nothing<<<1, 1, 0, tm.s>>>(); });
                if (r > 0)
                    spans.push_back(ms);
            }
            std::printf("# cub-bench-algos: a kernel doing nothing: %.4f ms (behind a busy kernel, as the cases)\n",
                        median(spans));
        }
        for (int c : cases) {
            for (int lg = min_log2; lg <= max_log2; lg += 2) {
                const size_t n = (size_t)1 << lg, bytes = alg_input_bytes(c, n);
                size_t free_b = 0, total_b = 0;
                CK(cudaMemGetInfo(&free_b, &total_b));
                if (bytes * 5 > free_b / 4 * 3 || n > (size_t)INT32_MAX) {
                    std::printf("# %s %zu skipped: too large for the device\n", alg_case_names[c], n);
                    continue;
                }
                run(tm, c, n, reps);
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cub-bench-algos: %s\n", e.what());
        return 1;
    }
    return 0;
}
