// What the two Boost.Compute peers (boost-bench, boost-bench-algos) share: the clock, event
// profiling, the device from a "P:D" spec and the median.  Include after bench_common.h.
#ifndef CLSCAN_BOOST_COMMON_HPP
#define CLSCAN_BOOST_COMMON_HPP

#include <boost/compute/core.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace bc = boost::compute;

static inline double wall_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static inline cl_ulong profile(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr);
    return t;
}

static inline std::string device_name_of(cl_device_id d)
{
    char name[256] = "";
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    return name;
}

// The device "P:D" (platform and device indices), or Boost's default device.  With a name (the
// caller's device): P:D if that device has the name, else the first device that has it (a
// process may see other platforms than its caller: an ICD that fails to load in one of them).
static inline bc::device pick_device(const std::string &spec, const std::string &name = "")
{
    unsigned p = 0, d = 0;
    if (spec.empty() || std::sscanf(spec.c_str(), "%u:%u", &p, &d) != 2)
        return bc::system::default_device();
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS)
        np = 0;
    std::vector<cl_platform_id> ps(np);
    if (np)
        clGetPlatformIDs(np, ps.data(), nullptr);
    std::string seen;
    cl_device_id by_name = nullptr;
    for (cl_uint i = 0; i < np; ++i) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS)
            nd = 0;
        std::vector<cl_device_id> ds(nd);
        if (nd)
            clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
        for (cl_uint j = 0; j < nd; ++j) {
            const std::string n = device_name_of(ds[j]);
            if (i == p && j == d && (name.empty() || n == name))
                return bc::device(ds[j]);
            if (!by_name && !name.empty() && n == name)
                by_name = ds[j];
            seen += " " + std::to_string(i) + ":" + std::to_string(j) + " '" + n + "'";
        }
    }
    if (by_name)
        return bc::device(by_name);
    throw std::runtime_error("no OpenCL device " + spec + (name.empty() ? "" : " named '" + name + "'") +
                             "; devices seen:" + (seen.empty() ? " none" : seen));
}

static inline double median(std::vector<double> v) { return bench_median(v.data(), (int)v.size()); }

// Device time of f() between two markers: the first one's end to the second one's end (the host's
// enqueue time in between counts if the device runs dry).
template <class F> static double marker_span_ms(bc::command_queue &q, F f)
{
    cl_event m1 = nullptr, m2 = nullptr;
    clEnqueueMarkerWithWaitList(q.get(), 0, nullptr, &m1);
    f();
    clEnqueueMarkerWithWaitList(q.get(), 0, nullptr, &m2);
    q.finish();
    const double ms = (double)(profile(m2, CL_PROFILING_COMMAND_END) - profile(m1, CL_PROFILING_COMMAND_END)) / 1e6;
    clReleaseEvent(m1);
    clReleaseEvent(m2);
    return ms;
}

#endif
