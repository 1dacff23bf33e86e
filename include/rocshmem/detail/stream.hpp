// rocSHMEM's stream-ordered host calls (*_on_stream), each a forward to portshmem's (portshmem/stream.h; bodies in
// src/compat_rocshmem.cpp): the operation is enqueued on stream after the stream's earlier work and before its later
// work, and the call returns once it is enqueued (synchronize the stream to wait for it). The host platform ignores
// the stream: there every call has run to completion when it returns. A call portshmem refuses (a PE, buffer or team
// argument out of range; portshmem logs why) ends the job, as a failed host call of this header does. The typed
// reductions on a stream (rocshmem_ctx_<T>_<op>_reduce_on_stream) are generated with the host collectives
// (detail/host_coll.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/gpu_runtime.hpp" // hipStream_t
#include "rocshmem/detail/common.hpp"

namespace rocshmem {

/// nelems bytes from source (memory the GPU reads) to the symmetric dest on pe (portshmem_putmem_on_stream); the data
/// is delivered by a later rocshmem_quiet_on_stream or rocshmem_barrier_all_on_stream on the stream.
void rocshmem_putmem_on_stream(void* dest, const void* source, std::size_t nelems, int pe, hipStream_t stream);
/// nelems bytes of the symmetric source on pe into dest (memory the GPU writes); later stream work sees them
/// (portshmem_getmem_on_stream).
void rocshmem_getmem_on_stream(void* dest, const void* source, std::size_t nelems, int pe, hipStream_t stream);
/// putmem_on_stream, then sig_addr on pe updated with signal (sig_op ROCSHMEM_SIGNAL_SET or _ADD), visible there only
/// after the data (portshmem_putmem_signal_on_stream).
void rocshmem_putmem_signal_on_stream(void* dest, const void* source, std::size_t nelems, uint64_t* sig_addr,
                                      uint64_t signal, int sig_op, int pe, hipStream_t stream);
/// Holds the stream until this PE's symmetric sig_addr compares (cmp: ROCSHMEM_CMP_*) to cmp_value as true; later
/// stream work sees what the satisfying signal published (portshmem_signal_wait_until_on_stream).
void rocshmem_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t cmp_value, hipStream_t stream);
/// Every operation enqueued earlier on stream by these calls is complete and visible at its target before later
/// stream work runs (portshmem_quiet_on_stream).
void rocshmem_quiet_on_stream(hipStream_t stream);
/// Collective: a quiet of the stream, then every PE's stream has reached the barrier (portshmem_barrier_all_on_stream).
void rocshmem_barrier_all_on_stream(hipStream_t stream);
/// Collective over team: a quiet of the stream, then every member's stream has reached the barrier
/// (portshmem_team_barrier_on_stream). ROCSHMEM_TEAM_INVALID: nothing is enqueued.
void rocshmem_barrier_on_stream(rocshmem_team_t team, hipStream_t stream);
/// Collective: every PE's stream has reached the sync; completes nothing (portshmem_team_sync_on_stream on the world).
void rocshmem_sync_all_on_stream(hipStream_t stream);
/// Collective over team: every member's stream has reached the sync; completes nothing
/// (portshmem_team_sync_on_stream). ROCSHMEM_TEAM_INVALID: nothing is enqueued.
void rocshmem_team_sync_on_stream(rocshmem_team_t team, hipStream_t stream);
/// Collective over team: member i's source + j * size bytes into member j's dest + i * size
/// (portshmem_alltoallmem_on_stream). ROCSHMEM_TEAM_INVALID: nothing is enqueued.
void rocshmem_alltoallmem_on_stream(rocshmem_team_t team, void* dest, const void* source, std::size_t size,
                                    hipStream_t stream);
/// Collective over team: member pe_root's source (nelems bytes) into dest on every member, the root included
/// (portshmem_broadcastmem_on_stream). ROCSHMEM_TEAM_INVALID: nothing is enqueued.
void rocshmem_broadcastmem_on_stream(rocshmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                     int pe_root, hipStream_t stream);

} // namespace rocshmem
