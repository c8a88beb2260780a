/*
 * sweep_mpi_none.c - hes_sweep_run_mpi in a build without MPI (configure
 * found no OpenMPI; sweep_mpi.c otherwise): this process is the only rank,
 * and the sweep is its own.
 */
#include <stdlib.h>

#include "hes.h"

int hes_sweep_mpi_rank(int *size)
{
    if (size)
        *size = 1;
    return 0;
}

hes_status hes_sweep_run_mpi(const hes_system *proto, const hes_sweep_options *o,
                             const hes_sweep_file_options *fo, hes_sweep_file_report *rep,
                             hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    return fo ? hes_sweep_run_file(proto, o, fo, rep, err)
              : hes_sweep_run_system(proto, o, err);
}
