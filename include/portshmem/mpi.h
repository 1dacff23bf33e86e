/* Initialization on an application communicator (needs MPI's header, so kept apart from portshmem.h). */
#ifndef PORTSHMEM_MPI_H
#define PORTSHMEM_MPI_H

#include <mpi.h>

#include "portshmem/portshmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Collective over comm: like portshmem_init, with comm's ranks as the PEs (PE = rank in comm). MPI must already be
 *  initialized; portshmem duplicates comm and never finalizes MPI. */
portshmem_status_t portshmem_init_comm(MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* PORTSHMEM_MPI_H */
