/* Host-initiated communication on a GPU stream, for applications that write no kernels (NVSHMEM's *_on_stream). Each
 * call checks its arguments on the host; a bad one returns an error status, logs one sentence and enqueues nothing.
 * Otherwise it launches one small library kernel on the stream that runs the block form of the device call (rma.hpp,
 * signal.hpp, sync.hpp, collectives.hpp), with its default qualifiers and its guarantee, after the stream's earlier
 * work and before its later work; the call returns once the kernel is enqueued (PORTSHMEM_ERR_GPU if the launch fails).
 * Errors the kernel itself meets (a wait past PORTSHMEM_TIMEOUT) are reported by portshmem_check_device_errors.
 * docs/on_stream.md. */
#ifndef PORTSHMEM_STREAM_H
#define PORTSHMEM_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "portshmem/status.h"
#include "portshmem/team.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A GPU stream: a cudaStream_t (nvidia) or hipStream_t (amd) passed as void*; NULL is the default stream. The host
 *  platform ignores it: there every call has run to completion when it returns. */
typedef void* portshmem_stream_t;

/* The signal operations (sig_op), as the device API's portshmem::signal_update (OpenSHMEM's SHMEM_SIGNAL_*). */
#define PORTSHMEM_SIGNAL_SET 0
#define PORTSHMEM_SIGNAL_ADD 1

/* The comparisons of the waits (cmp), in the order of the device API's portshmem::cmp (OpenSHMEM's SHMEM_CMP_*). */
#define PORTSHMEM_CMP_EQ 0
#define PORTSHMEM_CMP_NE 1
#define PORTSHMEM_CMP_GT 2
#define PORTSHMEM_CMP_GE 3
#define PORTSHMEM_CMP_LT 4
#define PORTSHMEM_CMP_LE 5

/** Copies nbytes from src (memory the GPU reads) to the symmetric dest on PE pe; later stream work may reuse src, and
 *  the data is delivered at pe by a later portshmem_quiet_on_stream or portshmem_barrier_all_on_stream. */
portshmem_status_t portshmem_putmem_on_stream(void* dest, const void* src, size_t nbytes, int pe,
                                              portshmem_stream_t stream);
/** Copies nbytes of the symmetric src on PE pe into dest (memory the GPU writes); later stream work sees the data. */
portshmem_status_t portshmem_getmem_on_stream(void* dest, const void* src, size_t nbytes, int pe,
                                              portshmem_stream_t stream);
/** putmem_on_stream, then updates the symmetric sig_addr on PE pe with signal (sig_op PORTSHMEM_SIGNAL_SET or _ADD):
 *  the signal becomes visible there only after the data. */
portshmem_status_t portshmem_putmem_signal_on_stream(void* dest, const void* src, size_t nbytes, uint64_t* sig_addr,
                                                     uint64_t signal, int sig_op, int pe, portshmem_stream_t stream);
/** Updates the symmetric sig_addr on PE pe atomically (set or add) after the stream's earlier stores to symmetric
 *  memory; it does not wait for earlier puts (a quiet or putmem_signal does). */
portshmem_status_t portshmem_signal_op_on_stream(uint64_t* sig_addr, uint64_t signal, int sig_op, int pe,
                                                 portshmem_stream_t stream);
/** Holds the stream until this PE's symmetric sig_addr compares (cmp: PORTSHMEM_CMP_*) to value as true; later stream
 *  work sees what the satisfying signal published. */
portshmem_status_t portshmem_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t value,
                                                         portshmem_stream_t stream);
/** Every operation the on-stream calls enqueued earlier on this stream is complete and visible at its target before
 *  later stream work runs. */
portshmem_status_t portshmem_quiet_on_stream(portshmem_stream_t stream);
/** Collective: quiet_on_stream, then holds the stream until every PE's stream has reached its barrier_all_on_stream
 *  (or a device barrier_all); every PE's operations before it are then visible. */
portshmem_status_t portshmem_barrier_all_on_stream(portshmem_stream_t stream);

/* ---- team collectives (collectives.hpp): every member of the team makes the same call, with the same arguments, in
 * the same order as the team's other collectives, each on its own stream. As there, every member's dest must be ready
 * to receive when the call runs, and after it this PE's dest holds the result for later stream work. dest is
 * symmetric; src may be any memory the GPU reads. A PE that is not a member gets PORTSHMEM_ERR_INVALID_ARG. */

/** The element types of the reductions (OpenSHMEM's reduction types; half and bfloat16 are stored as their bits). */
typedef enum portshmem_datatype {
  PORTSHMEM_DATATYPE_CHAR = 0,
  PORTSHMEM_DATATYPE_SCHAR,
  PORTSHMEM_DATATYPE_SHORT,
  PORTSHMEM_DATATYPE_INT,
  PORTSHMEM_DATATYPE_LONG,
  PORTSHMEM_DATATYPE_LONGLONG,
  PORTSHMEM_DATATYPE_PTRDIFF,
  PORTSHMEM_DATATYPE_UCHAR,
  PORTSHMEM_DATATYPE_USHORT,
  PORTSHMEM_DATATYPE_UINT,
  PORTSHMEM_DATATYPE_ULONG,
  PORTSHMEM_DATATYPE_ULONGLONG,
  PORTSHMEM_DATATYPE_SIZE,
  PORTSHMEM_DATATYPE_INT8,
  PORTSHMEM_DATATYPE_INT16,
  PORTSHMEM_DATATYPE_INT32,
  PORTSHMEM_DATATYPE_INT64,
  PORTSHMEM_DATATYPE_UINT8,
  PORTSHMEM_DATATYPE_UINT16,
  PORTSHMEM_DATATYPE_UINT32,
  PORTSHMEM_DATATYPE_UINT64,
  PORTSHMEM_DATATYPE_FLOAT,
  PORTSHMEM_DATATYPE_DOUBLE,
  PORTSHMEM_DATATYPE_HALF,    /* IEEE binary16: computed in float, rounded to nearest-even */
  PORTSHMEM_DATATYPE_BFLOAT16 /* bfloat16: computed in float, rounded to nearest-even */
} portshmem_datatype_t;

/** The reduction operators; and, or and xor take integer types only. */
typedef enum portshmem_reduce_op {
  PORTSHMEM_REDUCE_SUM = 0,
  PORTSHMEM_REDUCE_PROD,
  PORTSHMEM_REDUCE_MIN,
  PORTSHMEM_REDUCE_MAX,
  PORTSHMEM_REDUCE_AND,
  PORTSHMEM_REDUCE_OR,
  PORTSHMEM_REDUCE_XOR
} portshmem_reduce_op_t;

/** Collective: a quiet, then holds the stream until every member of team has reached this barrier (barrier_block). */
portshmem_status_t portshmem_team_barrier_on_stream(portshmem_team_t team, portshmem_stream_t stream);
/** Collective: holds the stream until every member of team has reached this sync; completes nothing (team_sync_block).
 */
portshmem_status_t portshmem_team_sync_on_stream(portshmem_team_t team, portshmem_stream_t stream);
/** Collective: root's src (nbytes; read on the root only) into dest on every member, the root included. */
portshmem_status_t portshmem_broadcastmem_on_stream(portshmem_team_t team, void* dest, const void* src, size_t nbytes,
                                                    int root, portshmem_stream_t stream);
/** Collective: member i's src (nbytes, the same on every member) into dest + i * nbytes on every member. */
portshmem_status_t portshmem_fcollectmem_on_stream(portshmem_team_t team, void* dest, const void* src, size_t nbytes,
                                                   portshmem_stream_t stream);
/** Collective: member i's src + j * nbytes into member j's dest + i * nbytes, for every pair of members. */
portshmem_status_t portshmem_alltoallmem_on_stream(portshmem_team_t team, void* dest, const void* src, size_t nbytes,
                                                   portshmem_stream_t stream);
/** Collective: dest[k] = op over the members, in member order, of their src[k], for count elements of type (dest may
 *  be src); every member gets the same bits. */
portshmem_status_t portshmem_reduce_on_stream(portshmem_team_t team, void* dest, const void* src, size_t count,
                                              portshmem_datatype_t type, portshmem_reduce_op_t op,
                                              portshmem_stream_t stream);
/** Collective: member j's dest (count elements) = op over the members of their src + j * count (src holds team size
 *  times count elements). */
portshmem_status_t portshmem_reduce_scatter_on_stream(portshmem_team_t team, void* dest, const void* src, size_t count,
                                                      portshmem_datatype_t type, portshmem_reduce_op_t op,
                                                      portshmem_stream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* PORTSHMEM_STREAM_H */
