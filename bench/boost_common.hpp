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

// The device "P:D" (platform and device indices), or Boost's default device.
static inline bc::device pick_device(const std::string &spec)
{
    unsigned p = 0, d = 0;
    if (spec.empty() || std::sscanf(spec.c_str(), "%u:%u", &p, &d) != 2)
        return bc::system::default_device();
    cl_uint np = 0;
    clGetPlatformIDs(0, nullptr, &np);
    std::vector<cl_platform_id> ps(np);
    if (np)
        clGetPlatformIDs(np, ps.data(), nullptr);
    if (p >= np)
        throw std::runtime_error("no OpenCL platform " + std::to_string(p));
    cl_uint nd = 0;
    clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
    std::vector<cl_device_id> ds(nd);
    if (nd)
        clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
    if (d >= nd)
        throw std::runtime_error("no OpenCL device " + spec);
    return bc::device(ds[d]);
}

static inline double median(std::vector<double> v) { return bench_median(v.data(), (int)v.size()); }

#endif
