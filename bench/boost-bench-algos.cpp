// boost-bench-algos: the Boost.Compute peer of clscan-bench-algos.  Runs its cases with
// Boost.Compute on one OpenCL device, checks every timed run against the sequential reference
// (bench_algos.h: the same inputs) and prints
//   result CASE COUNT DEVICE_MS HOST_MS COPY_MS yes|no
// (medians; "no": a result differed from the reference).  Lines starting with '#' are notes.
//
// usage: boost-bench-algos [--device P:D] [--device-name NAME] [--cases a,b] [--min LOG2] [--max LOG2] [--reps N]
//
// The calls:
//   compact-50, compact-1  copy_if of the indices whose flag is set (a counting iterator and a
//                          closure over the flags), then gather of those elements: Boost's
//                          copy_if has no stencil
//   bucket-65536           sort_by_key of the keys and values (all 32 bits; no offsets)
//   sort-u32, sort-f32     sort (Boost's radix sort), in place on a copy of the input
//   sort-u32-pairs         sort_by_key
//   sort-u32-pairs-desc    stable_sort_by_key with greater<uint_>
//   select-if              copy_if with the predicate (a function: even)
//   partition              stable_partition in place on a copy of the input (Boost copies the
//                          input into a temporary vector, then two copy_ifs)
//   unique                 unique_copy
//   reduce-by-key          reduce_by_key (plus, equal_to)
//   sort-u8, sort-u16      sort (Boost's radix sort of uchar_, ushort_ keys), in place on a copy
// (segsort-u32: Boost.Compute has no segmented sort; clscan-bench-algos does not ask for it.)
// Device time: a marker before the call and one after it, on an in-order profiling queue: the
// second marker's end minus the first one's end.  Boost's copy_if reads its count back to the
// host, so its time includes that round trip; the sorts' calls return without waiting.  The copy
// of the input into the sorted vector is not timed.
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/copy_if.hpp>
#include <boost/compute/algorithm/gather.hpp>
#include <boost/compute/algorithm/reduce_by_key.hpp>
#include <boost/compute/algorithm/stable_partition.hpp>
#include <boost/compute/algorithm/unique_copy.hpp>
#include <boost/compute/function.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/algorithm/stable_sort_by_key.hpp>
#include <boost/compute/functional/operator.hpp>
#include <boost/compute/closure.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/iterator/counting_iterator.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_algos.h"
#include "boost_common.hpp"

namespace bc = boost::compute;

template <class F> static double device_ms(bc::command_queue &q, F f) { return marker_span_ms(q, f); }

static void run(bc::command_queue &q, int c, size_t n, int reps)
{
    bc::context ctx = q.get_context();
    if (alg_is_segmented(c)) {
        std::printf("# %s: Boost.Compute has no segmented sort\n", alg_case_names[c]);
        return;
    }
    std::vector<uint32_t> keys(n), values(n), ref_keys(n), ref_values(n), tmp(2 * n), got(n);
    std::vector<unsigned char> flags(n), narrow(n * 4);
    alg_generate(c, n, keys.data(), alg_has_values(c) ? values.data() : nullptr, flags.data());
    const size_t m = alg_sequential(c, n, keys.data(), alg_has_values(c) ? values.data() : nullptr, flags.data(),
                                    nullptr, 0, ref_keys.data(), ref_values.data(), tmp.data());
    const size_t kbytes = alg_key_size(c);   // sort-u8, sort-u16: 1 or 2 bytes a key on the device
    bc::vector<bc::uint_> k_in(n, ctx), v_in(n, ctx), k(n, ctx), v(n, ctx), idx(n, ctx);
    bc::vector<bc::uchar_> f(n, ctx);
    bc::vector<float> fk(c == ALG_SORT_F32 ? n : 1, ctx);
    bc::vector<bc::uchar_> k8_in(c == ALG_SORT_U8 ? n : 1, ctx), k8(c == ALG_SORT_U8 ? n : 1, ctx);
    bc::vector<bc::ushort_> k16_in(c == ALG_SORT_U16 ? n : 1, ctx), k16(c == ALG_SORT_U16 ? n : 1, ctx);
    bc::buffer narrow_in = c == ALG_SORT_U8 ? k8_in.get_buffer() : k16_in.get_buffer();
    bc::buffer narrow_out = c == ALG_SORT_U8 ? k8.get_buffer() : k16.get_buffer();
    if (kbytes < 4) {
        alg_pack(c, n, keys.data(), narrow.data());
        q.enqueue_write_buffer(narrow_in, 0, n * kbytes, narrow.data());
    }
    q.enqueue_write_buffer(k_in.get_buffer(), 0, n * 4, keys.data());
    q.enqueue_write_buffer(v_in.get_buffer(), 0, n * 4, values.data());
    q.enqueue_write_buffer(f.get_buffer(), 0, n, flags.data());
    BOOST_COMPUTE_CLOSURE(bool, is_kept, (bc::uint_ i), (f), { return f[i] != 0; });
    BOOST_COMPUTE_FUNCTION(bool, is_even, (bc::uint_ x), { return (x & 1) == 0; });   // alg_kept

    size_t kept = 0;
    // Untimed preparation (a fresh copy of the input for the in-place sorts), then the call.
    auto prepare = [&] {
        if (kbytes < 4)
            q.enqueue_copy_buffer(narrow_in, narrow_out, 0, 0, n * kbytes);
        else if (c == ALG_SORT_F32)
            q.enqueue_copy_buffer(k_in.get_buffer(), fk.get_buffer(), 0, 0, n * 4);
        else if (!alg_is_compaction(c))
            q.enqueue_copy_buffer(k_in.get_buffer(), k.get_buffer(), 0, 0, n * 4);
        if (alg_has_values(c))
            q.enqueue_copy_buffer(v_in.get_buffer(), v.get_buffer(), 0, 0, n * 4);
        q.finish();
    };
    auto call = [&] {
        if (alg_is_compaction(c)) {
            auto end = bc::copy_if(bc::make_counting_iterator<bc::uint_>(0),
                                   bc::make_counting_iterator<bc::uint_>((bc::uint_)n), idx.begin(), is_kept, q);
            kept = (size_t)(end - idx.begin());
            bc::gather(idx.begin(), idx.begin() + kept, k_in.begin(), k.begin(), q);
        } else if (c == ALG_SELECT_IF) {
            kept = (size_t)(bc::copy_if(k_in.begin(), k_in.end(), k.begin(), is_even, q) - k.begin());
        } else if (c == ALG_PARTITION) {
            kept = (size_t)(bc::stable_partition(k.begin(), k.end(), is_even, q) - k.begin());
        } else if (c == ALG_UNIQUE) {
            kept = (size_t)(bc::unique_copy(k_in.begin(), k_in.end(), k.begin(), q) - k.begin());
        } else if (c == ALG_REDUCE_BY_KEY) {
            auto ends = bc::reduce_by_key(k_in.begin(), k_in.end(), v_in.begin(), k.begin(), v.begin(), q);
            kept = (size_t)(ends.first - k.begin());
        } else if (c == ALG_SORT_F32) {
            bc::sort(fk.begin(), fk.end(), q);
        } else if (c == ALG_SORT_U8) {
            bc::sort(k8.begin(), k8.end(), q);
        } else if (c == ALG_SORT_U16) {
            bc::sort(k16.begin(), k16.end(), q);
        } else if (c == ALG_SORT_PAIRS_DESC) {
            bc::stable_sort_by_key(k.begin(), k.end(), v.begin(), bc::greater<bc::uint_>(), q);
        } else if (alg_has_values(c)) {
            bc::sort_by_key(k.begin(), k.end(), v.begin(), q);
        } else {
            bc::sort(k.begin(), k.end(), q);
        }
    };
    bool ok = true;
    auto check = [&] {
        size_t want = m;   // partition: the number of the kept ones, before the others
        for (size_t i = 0; i < n && c == ALG_PARTITION; ++i)
            want -= !alg_kept(keys[i]);
        if (alg_writes_count(c) && kept != want)
            ok = false;
        if (kbytes < 4) {
            q.enqueue_read_buffer(narrow_out, 0, m * kbytes, narrow.data());
            alg_unpack(c, m, narrow.data(), got.data());
        } else {
            q.enqueue_read_buffer(c == ALG_SORT_F32 ? fk.get_buffer() : k.get_buffer(), 0, m * 4, got.data());
        }
        size_t first;
        if (alg_check(m, got.data(), ref_keys.data(), &first))
            ok = false;
        if (alg_has_values(c)) {
            q.enqueue_read_buffer(v.get_buffer(), 0, m * 4, got.data());
            if (alg_check(m, got.data(), ref_values.data(), &first))
                ok = false;
        }
    };
    prepare();
    call();   // warm-up (builds the programs)
    q.finish();
    check();
    std::vector<double> dev, host, copy;
    for (int r = 0; r < reps; ++r) {
        prepare();
        dev.push_back(device_ms(q, call));
        check();
    }
    for (int r = 0; r < reps; ++r) {
        prepare();
        const double t0 = wall_ms();
        call();
        q.finish();
        host.push_back(wall_ms() - t0);
        check();
    }
    // The floor: a copy of the input's bytes (keys, and values or flags).
    const size_t bytes = alg_input_bytes(c, n);
    bc::buffer a(ctx, bytes), b(ctx, bytes);
    auto copy_call = [&] { q.enqueue_copy_buffer(a, b, 0, 0, bytes); };
    device_ms(q, copy_call);
    for (int r = 0; r < reps; ++r)
        copy.push_back(device_ms(q, copy_call));
    std::printf("result %s %zu %.6f %.6f %.6f %s\n", alg_case_names[c], n, median(dev), median(host), median(copy),
                ok ? "yes" : "no");
    std::fflush(stdout);
}

int main(int argc, char **argv)
{
    std::string device, device_name;
    std::vector<int> cases;
    int min_log2 = 16, max_log2 = 26, reps = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: boost-bench-algos [--device P:D] [--device-name NAME] [--cases a,b] [--min LOG2] [--max LOG2] [--reps N]\n");
            return 0;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "boost-bench-algos: %s needs a value\n", a.c_str());
            return 2;
        }
        const char *v = argv[++i];
        if (a == "--device") device = v;
        else if (a == "--device-name") device_name = v;
        else if (a == "--min") min_log2 = std::atoi(v);
        else if (a == "--max") max_log2 = std::atoi(v);
        else if (a == "--reps") reps = std::max(1, std::atoi(v));
        else if (a == "--cases") {
            std::string s = v;
            size_t pos = 0;
            while (pos <= s.size()) {
                const size_t e = std::min(s.find(',', pos), s.size());
                const int c = alg_case_find(s.substr(pos, e - pos).c_str());
                if (c < 0) {
                    std::fprintf(stderr, "boost-bench-algos: unknown case %s\n", s.substr(pos, e - pos).c_str());
                    return 2;
                }
                cases.push_back(c);
                pos = e + 1;
            }
        } else {
            std::fprintf(stderr, "boost-bench-algos: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (cases.empty())
        for (int c = 0; c < ALG_NCASES; ++c)
            cases.push_back(c);
    try {
        bc::device dev = pick_device(device, device_name);
        bc::context ctx(dev);
        bc::command_queue q(ctx, dev, bc::command_queue::enable_profiling);
        std::printf("# boost-bench-algos device: %s; driver %s; Boost %d.%d\n", dev.name().c_str(),
                    dev.driver_version().c_str(), BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000);
        const cl_ulong max_alloc = dev.get_info<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        const cl_ulong global = dev.global_memory_size();
        for (int c : cases) {
            for (int lg = min_log2; lg <= max_log2; lg += 2) {
                const size_t n = (size_t)1 << lg, bytes = alg_input_bytes(c, n);
                if (bytes > max_alloc || bytes * 5 > global / 4 * 3) {
                    std::printf("# %s %zu skipped: too large for the device\n", alg_case_names[c], n);
                    continue;
                }
                try {
                    run(q, c, n, reps);
                } catch (const std::exception &e) {
                    std::printf("# %s %zu failed: %s\n", alg_case_names[c], n, e.what());
                    std::fflush(stdout);
                }
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "boost-bench-algos: %s\n", e.what());
        return 1;
    }
    return 0;
}
