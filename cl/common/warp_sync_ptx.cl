/* warp_sync(): orders the local memory accesses of the 32 work-items of a warp (work-items
 * 32 w ... 32 w + 31 of a work-group), which all call it.  NVIDIA GPUs through NVIDIA's own
 * OpenCL platform (it compiles inline PTX): bar.warp.sync waits for the warp's lanes only and
 * orders their memory accesses, where a work-group barrier would also wait for the other warps.
 * cl/common/warp_sync_barrier.cl is the same contract for every other device. */
inline void warp_sync(void)
{
    asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
}
