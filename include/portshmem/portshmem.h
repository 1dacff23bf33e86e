/* portshmem host API (C). Every call that can fail returns a portshmem_status_t and logs one sentence saying what
 * went wrong (PORTSHMEM_DEBUG sets how much else is logged). The allocation calls return NULL on failure;
 * portshmem_last_status() then says why. Collective calls must be made by every PE in the same order. */
#ifndef PORTSHMEM_H
#define PORTSHMEM_H

#include <stddef.h>

#include "portshmem/config.h"
#include "portshmem/ctx.h"
#include "portshmem/status.h"
#include "portshmem/team.h"
#include "portshmem/stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How this PE reaches another: itself, load/store through a mapped heap, the RDMA proxy, or not at all. */
typedef enum portshmem_transport {
  PORTSHMEM_TRANSPORT_NONE = 0,
  PORTSHMEM_TRANSPORT_SELF,
  PORTSHMEM_TRANSPORT_IPC,
  PORTSHMEM_TRANSPORT_RDMA
} portshmem_transport_t;

/** Collective: joins every process of MPI_COMM_WORLD (initializing MPI when the application has not), reserves and
 *  maps the symmetric heaps. portshmem_init_comm (portshmem/mpi.h) takes an application communicator instead. */
portshmem_status_t portshmem_init(void);
/** The unique-ID start, for jobs that mpirun does not launch (or that want no MPI): one process calls
 *  portshmem_get_uniqueid and hands the bytes to every process by any means (a file, a socket, a framework's store,
 *  MPI_Bcast); each calls portshmem_set_attr_uniqueid_args(rank, nranks, &uid, &attr) and then
 *  portshmem_init_attr(PORTSHMEM_INIT_WITH_UNIQUEID, &attr). The PEs then talk over TCP (src/bootstrap_tcp.cpp). */
#define PORTSHMEM_UNIQUE_ID_BYTES 128
typedef struct portshmem_uniqueid {
  unsigned char bytes[PORTSHMEM_UNIQUE_ID_BYTES];
} portshmem_uniqueid_t;
/** What portshmem_init_attr starts from. rank/nranks/uid: PORTSHMEM_INIT_WITH_UNIQUEID; mpi_comm (an MPI_Comm*):
 *  PORTSHMEM_INIT_WITH_MPI_COMM. */
typedef struct portshmem_init_attr {
  int rank;
  int nranks;
  portshmem_uniqueid_t uid;
  void* mpi_comm;
} portshmem_init_attr_t;
/** portshmem_init_attr's flags: exactly one. */
enum { PORTSHMEM_INIT_WITH_MPI_COMM = 1u << 0, PORTSHMEM_INIT_WITH_UNIQUEID = 1u << 1 };
/** Makes a unique ID naming a TCP listening socket of this process, which must then start as rank 0 (once: an ID
 *  starts one job). The address is PORTSHMEM_BOOTSTRAP_ADDR's when set, else this host's first non-loopback IPv4
 *  address (loopback when it has none). */
portshmem_status_t portshmem_get_uniqueid(portshmem_uniqueid_t* uid);
/** Fills attr for the unique-ID start: this process's rank in [0, nranks) and the job's ID. */
portshmem_status_t portshmem_set_attr_uniqueid_args(int rank, int nranks, const portshmem_uniqueid_t* uid,
                                                    portshmem_init_attr_t* attr);
/** Collective: portshmem_init through the bootstrap flags names (PORTSHMEM_INIT_WITH_UNIQUEID: TCP between the
 *  nranks processes, rank 0 the ID's maker; PORTSHMEM_INIT_WITH_MPI_COMM: portshmem_init_comm(*attr->mpi_comm)). */
portshmem_status_t portshmem_init_attr(unsigned flags, portshmem_init_attr_t* attr);
/** Collective: unmaps and frees everything init made; finalizes MPI only if portshmem_init initialized it. */
portshmem_status_t portshmem_finalize(void);
/** Whether init has completed and finalize has not. */
int portshmem_initialized(void);

/** This PE's number in [0, n_pes), or -1 before init. */
int portshmem_my_pe(void);
/** The number of PEs, or -1 before init. */
int portshmem_n_pes(void);

/** Collective: size bytes of symmetric memory at the same offset on every PE, aligned to 256 bytes. NULL for size 0
 *  or on failure (heap exhausted, or PEs asked for different sizes: then every PE fails). Memory is not cleared. */
void* portshmem_malloc(size_t size);
/** Collective: count * size zeroed bytes (an overflowing product fails with PORTSHMEM_ERR_OVERFLOW). */
void* portshmem_calloc(size_t count, size_t size);
/** Collective: like malloc with the given power-of-two alignment. */
void* portshmem_align(size_t alignment, size_t size);
/** Collective: frees a block from malloc/calloc/align; NULL is a no-op. Every PE must free the same block. */
portshmem_status_t portshmem_free(void* ptr);
/** Why the last allocation or portshmem_ptr call of this thread returned NULL (PORTSHMEM_SUCCESS if it did not). */
portshmem_status_t portshmem_last_status(void);

/** A pointer through which this process can load/store pe's copy of the symmetric object at addr, or NULL when pe
 *  is not reachable by load/store (or addr is not symmetric). On GPU platforms the pointer is a device pointer. */
void* portshmem_ptr(const void* addr, int pe);
/** How this PE reaches pe. */
portshmem_transport_t portshmem_transport(int pe);
/** A short name of a transport ("ipc"). */
const char* portshmem_transport_string(portshmem_transport_t transport);

/** Collective: waits for all device work of this PE, completes every operation it issued (quiet) and synchronizes
 *  all PEs: on return every PE's earlier puts and stores to symmetric memory are visible to all. */
portshmem_status_t portshmem_barrier_all(void);

/** The device handle (default context) to pass to kernels by value. */
portshmem_status_t portshmem_get_ctx(portshmem_ctx_t* ctx);
/** Reports (logs) and clears errors that device code recorded: PORTSHMEM_ERR_TIMEOUT when the first is a wait that
 * timed out (its kernel was stopped), else PORTSHMEM_ERR_DEVICE if there were any. */
portshmem_status_t portshmem_check_device_errors(void);

/** "portshmem 0.1.0 (host platform)". */
const char* portshmem_version_string(void);
void portshmem_info_get_version(int* major, int* minor);
/** The platform this library was built for: "host", "nvidia" or "amd". */
const char* portshmem_platform(void);

#ifdef __cplusplus
}
#endif

#endif /* PORTSHMEM_H */
