/* The ranks' agreement on one status before any of them enqueues: a rejected call must leave
 * every buffer of every rank untouched, so each rank checks all its arguments first, and one
 * reduction tells every rank whether any rank failed. */
#include "internal.h"

cl_int clscan_mpi_comm(const char *fn, MPI_Comm comm, int *rank, int *size)
{
    int up = 0, down = 0, rc;
    if (comm == MPI_COMM_NULL)
        return clscan_mpi_fail(CL_INVALID_VALUE, "%s: comm is MPI_COMM_NULL", fn);
    if (MPI_Initialized(&up) != MPI_SUCCESS || !up || MPI_Finalized(&down) != MPI_SUCCESS || down)
        return clscan_mpi_fail(CLSCAN_MPI_FAILED, "%s: MPI is not initialised, or finalised", fn);
    if ((rc = MPI_Comm_rank(comm, rank)) != MPI_SUCCESS)
        return clscan_mpi_fail_mpi(fn, "MPI_Comm_rank", rc);
    if ((rc = MPI_Comm_size(comm, size)) != MPI_SUCCESS)
        return clscan_mpi_fail_mpi(fn, "MPI_Comm_size", rc);
    return CL_SUCCESS;
}

cl_int clscan_mpi_agree(const char *fn, MPI_Comm comm, cl_int local, long same)
{
    /* One MPI_MIN gives the minimum and (negated) the maximum of each. */
    long v[3] = {local == CL_SUCCESS, same, -same}, r[3];
    const int rc = MPI_Allreduce(v, r, 3, MPI_LONG, MPI_MIN, comm);
    if (rc != MPI_SUCCESS)
        return clscan_mpi_fail_mpi(fn, "MPI_Allreduce", rc);
    if (local != CL_SUCCESS)
        return local;
    if (r[0] == 0)
        return clscan_mpi_fail(CLSCAN_MPI_REMOTE_ERROR, "%s: another rank rejected its arguments", fn);
    if (r[1] != -r[2])
        return clscan_mpi_fail(CL_INVALID_VALUE, "%s: the ranks' plans differ (element sizes %ld to %ld bytes)", fn,
                               r[1], -r[2]);
    return CL_SUCCESS;
}
