// boost-bench: the Boost.Compute peer of clscan-bench.  Scans the benchmark's cases with
// boost::compute::inclusive_scan / exclusive_scan on one OpenCL device, checks every timed run
// against the sequential reference (support/reference.h, on bench_common.h's inputs, the same as
// clscan-bench's) and prints
//   result CASE COUNT DEVICE_MS HOST_MS COPY_MS yes|no
// (medians; "no": a result differed from the reference).  Lines starting with '#' are notes.
//
// usage: boost-bench [--device P:D] [--device-name NAME] [--cases a,b] [--min LOG2] [--max LOG2] [--reps N]
//
// Device time: like clscan-bench --hold, the queue is held by a user event while a marker, the
// Boost call and a second marker are enqueued; then everything runs back to back and the time is
// the second marker's start minus the first one's end.  On PoCL Boost's calls never wait for the
// device in these cases; on a GPU some do (Boost.Compute's GPU scan reads back inside the call).
// Then a watchdog opens the gate after 1 s, that run is repeated without the gate, and so are
// all later runs (host enqueue time included; noted in the output).
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/exclusive_scan.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/function.hpp>
#include <boost/compute/functional.hpp>
#include <boost/compute/types.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "support/compare.h"
#include "support/reference.h"
#include "boost_common.hpp"

namespace bc = boost::compute;

BOOST_COMPUTE_FUNCTION(bc::float2_, affine_comb, (bc::float2_ p, bc::float2_ c), {
    return (float2)(c.x * p.x, c.x * p.y + c.y);
});
BOOST_COMPUTE_FUNCTION(int, last_nonzero, (int p, int c), { return c != 0 ? c : p; });

static bool gate_ever_failed = false;

// Device time of f() (see the top of the file).
template <class F> static double device_ms(bc::command_queue &q, F f)
{
    if (gate_ever_failed)   // the gate would only cost the watchdog's second each time
        return marker_span_ms(q, f);
    cl_int err;
    cl_event gate = clCreateUserEvent(q.get_context().get(), &err), m1 = nullptr, m2 = nullptr;
    std::atomic<bool> opened(false);
    std::mutex mu;
    std::condition_variable cv;
    bool done = false, forced = false;
    auto open = [&] {
        bool no = false;
        if (opened.compare_exchange_strong(no, true))
            clSetUserEventStatus(gate, CL_COMPLETE);
    };
    std::thread dog([&] {
        std::unique_lock<std::mutex> lock(mu);
        if (!cv.wait_for(lock, std::chrono::seconds(1), [&] { return done; })) {
            forced = !opened.load();
            open();
        }
    });
    clEnqueueMarkerWithWaitList(q.get(), 1, &gate, &m1);
    f();
    clEnqueueMarkerWithWaitList(q.get(), 0, nullptr, &m2);
    clFlush(q.get());
    open();
    {
        std::lock_guard<std::mutex> lock(mu);
        done = true;
    }
    cv.notify_all();
    dog.join();
    q.finish();
    double ms = (double)(profile(m2, CL_PROFILING_COMMAND_START) - profile(m1, CL_PROFILING_COMMAND_END)) / 1e6;
    clReleaseEvent(m1);
    clReleaseEvent(m2);
    clReleaseEvent(gate);
    if (forced) {   // f() waited for the device: time it again without the gate
        gate_ever_failed = true;
        ms = marker_span_ms(q, f);
    }
    return ms;
}

struct options {
    std::string device, device_name;
    std::vector<int> cases;
    int min_log2 = 10, max_log2 = 28, reps = 10;
};

// One case at one count.  T: Boost's element type; scan(in, out): the Boost call.
template <class T, class Scan>
static void run(bc::command_queue &q, int c, size_t n, int reps, Scan scan)
{
    const size_t bytes = n * bench_case_esize[c];
    static_assert(sizeof(T) > 0, "");
    if (sizeof(T) != bench_case_esize[c])
        throw std::runtime_error("element size mismatch");
    std::vector<unsigned char> in(bytes), ref(bytes), out(bytes);
    bench_generate(c, n, in.data());
    sup_reference(bench_case_op[c], bench_case_type[c], bench_case_kind[c], in.data(), ref.data(), n);
    bc::context ctx = q.get_context();
    bc::vector<T> src(n, ctx), dst(n, ctx);
    q.enqueue_write_buffer(src.get_buffer(), 0, bytes, in.data());
    bool ok = true;
    const cl_uint ff = 0xffffffffu;
    auto poison = [&] { q.enqueue_fill_buffer(dst.get_buffer(), &ff, bytes % 4 ? 1 : 4, 0, bytes); q.finish(); };
    auto check = [&] {
        q.enqueue_read_buffer(dst.get_buffer(), 0, bytes, out.data());
        sup_compare_result res;
        if (!sup_compare(bench_case_op[c], bench_case_type[c], SUP_MATCH_VALUES, ref.data(), out.data(), n, &res))
            ok = false;
    };
    auto call = [&] { scan(src, dst); };
    poison();
    call();
    q.finish();
    check();
    std::vector<double> dev, host, copy;
    for (int r = 0; r < reps; ++r) {
        poison();
        dev.push_back(device_ms(q, call));
        check();
    }
    for (int r = 0; r < reps; ++r) {
        poison();
        const double t0 = wall_ms();
        call();
        q.finish();
        host.push_back(wall_ms() - t0);
        check();
    }
    auto copy_call = [&] { q.enqueue_copy_buffer(src.get_buffer(), dst.get_buffer(), 0, 0, bytes); };
    device_ms(q, copy_call);
    for (int r = 0; r < reps; ++r)
        copy.push_back(device_ms(q, copy_call));
    std::printf("result %s %zu %.6f %.6f %.6f %s\n", bench_case_names[c], n, median(dev), median(host),
                median(copy), ok ? "yes" : "no");
    std::fflush(stdout);
}

int main(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--help") {
            std::printf("usage: boost-bench [--device P:D] [--device-name NAME] [--cases a,b] [--min LOG2] [--max LOG2] [--reps N]\n");
            return 0;
        }
        if (!v) {
            std::fprintf(stderr, "boost-bench: %s needs a value\n", a.c_str());
            return 2;
        }
        ++i;
        if (a == "--device") o.device = v;
        else if (a == "--device-name") o.device_name = v;
        else if (a == "--min") o.min_log2 = std::atoi(v);
        else if (a == "--max") o.max_log2 = std::atoi(v);
        else if (a == "--reps") o.reps = std::max(1, std::atoi(v));
        else if (a == "--cases") {
            std::string s = v;
            size_t pos = 0;
            while (pos <= s.size()) {
                const size_t e = std::min(s.find(',', pos), s.size());
                const int c = bench_case_find(s.substr(pos, e - pos).c_str());
                if (c < 0) {
                    std::fprintf(stderr, "boost-bench: unknown case %s\n", s.substr(pos, e - pos).c_str());
                    return 2;
                }
                o.cases.push_back(c);
                pos = e + 1;
            }
        } else {
            std::fprintf(stderr, "boost-bench: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (o.cases.empty())
        for (int c = 0; c < BENCH_NPEER_CASES; ++c)
            o.cases.push_back(c);
    try {
        bc::device dev = pick_device(o.device, o.device_name);
        bc::context ctx(dev);
        bc::command_queue q(ctx, dev, bc::command_queue::enable_profiling);
        std::printf("# boost-bench device: %s; driver %s; Boost %d.%d\n", dev.name().c_str(),
                    dev.driver_version().c_str(), BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000);
        const cl_ulong max_alloc = dev.get_info<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        const cl_ulong global = dev.global_memory_size();
        for (int c : o.cases) {
            if (c == BENCH_DSUM && !dev.supports_extension("cl_khr_fp64")) {
                std::printf("# %s skipped: no fp64\n", bench_case_names[c]);
                continue;
            }
            for (int lg = o.min_log2; lg <= o.max_log2; lg += 2) {
                const size_t n = (size_t)1 << lg, bytes = n * bench_case_esize[c];
                if (bytes > max_alloc || bytes / 2 * 5 > global / 4 * 3) {
                    std::printf("# %s %zu skipped: too large for the device\n", bench_case_names[c], n);
                    continue;
                }
                try {
                    switch (c) {
                    case BENCH_FSUM:
                        run<float>(q, c, n, o.reps, [&](bc::vector<float> &x, bc::vector<float> &y) {
                            bc::exclusive_scan(x.begin(), x.end(), y.begin(), q);
                        });
                        break;
                    case BENCH_IMAX:
                        run<int>(q, c, n, o.reps, [&](bc::vector<int> &x, bc::vector<int> &y) {
                            bc::inclusive_scan(x.begin(), x.end(), y.begin(), bc::max<int>(), q);
                        });
                        break;
                    case BENCH_ILNZ:
                        run<int>(q, c, n, o.reps, [&](bc::vector<int> &x, bc::vector<int> &y) {
                            bc::inclusive_scan(x.begin(), x.end(), y.begin(), last_nonzero, q);
                        });
                        break;
                    case BENCH_FAFF:
                        run<bc::float2_>(q, c, n, o.reps, [&](bc::vector<bc::float2_> &x, bc::vector<bc::float2_> &y) {
                            bc::inclusive_scan(x.begin(), x.end(), y.begin(), affine_comb, q);
                        });
                        break;
                    case BENCH_DSUM:
                        run<double>(q, c, n, o.reps, [&](bc::vector<double> &x, bc::vector<double> &y) {
                            bc::exclusive_scan(x.begin(), x.end(), y.begin(), q);
                        });
                        break;
                    }
                } catch (const std::exception &e) {
                    std::printf("# %s %zu failed: %s\n", bench_case_names[c], n, e.what());
                    std::fflush(stdout);
                }
            }
        }
        if (gate_ever_failed)
            std::printf("# note: a Boost call waited for the device; some runs were timed with the host's enqueue time\n");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "boost-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
