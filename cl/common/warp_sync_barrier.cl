/* warp_sync(): orders the local memory accesses of the 32 work-items of a warp (work-items
 * 32 w ... 32 w + 31 of a work-group), which all call it.  Devices without NVIDIA's inline PTX:
 * a work-group barrier, which every work-item of the work-group must reach, so every work-item
 * calls it (the contract of cl/common/warp_sync_ptx.cl, which needs only the warp). */
inline void warp_sync(void)
{
    barrier(CLK_LOCAL_MEM_FENCE);
}
