// Host-side argument checks of the on-stream calls (portshmem/stream.h), made before anything is enqueued: each
// returns PORTSHMEM_SUCCESS or logs one sentence naming the call and the argument and returns the status. They judge
// what the device calls would record as bad calls (docs/api.md), and refuse the heap's reserved areas too: no
// allocation returns them, and a kernel writing there would corrupt the runtime's own words.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/status.h"
#include "portshmem/team.h"

namespace portshmem::detail {

struct runtime;

namespace on_stream {

/// The live runtime, or nullptr after logging PORTSHMEM_ERR_NOT_INITIALIZED for call into *status.
runtime* live_runtime(const char* call, portshmem_status_t* status);

/// pe is a PE of the job that some transport reaches.
portshmem_status_t check_pe(const runtime& rt, int pe, const char* call);

/// [addr, addr + nbytes) lies in the part of the symmetric heap allocations come from (what: the argument's name).
portshmem_status_t check_symmetric(const runtime& rt, const void* addr, std::size_t nbytes, const char* call,
                                   const char* what);

/// addr is a local buffer of nbytes: not NULL, and not wrapping around the address space.
portshmem_status_t check_local(const void* addr, std::size_t nbytes, const char* call, const char* what);

/// sig_addr is a symmetric, 8-byte aligned signal word.
portshmem_status_t check_signal(const runtime& rt, const std::uint64_t* sig_addr, const char* call);

/// sig_op is PORTSHMEM_SIGNAL_SET or PORTSHMEM_SIGNAL_ADD.
portshmem_status_t check_sig_op(int sig_op, const char* call);

/// cmp is one of PORTSHMEM_CMP_*.
portshmem_status_t check_cmp(int cmp, const char* call);

/// team is a team this PE is a member of; its device handle is then in *handle.
portshmem_status_t check_team(portshmem_team_t team, const char* call, portshmem_team_handle_t* handle);

/// root is a member index of t.
portshmem_status_t check_root(const portshmem_team_handle_t& t, int root, const char* call);

/// *product = a * b when it fits a size_t (what: what the product counts, for the message).
portshmem_status_t checked_product(std::size_t a, std::size_t b, std::size_t* product, const char* call,
                                   const char* what);

/// type is a portshmem_datatype_t and op a portshmem_reduce_op_t that takes it; *size is then type's element size.
portshmem_status_t check_reduction(int type, int op, const char* call, std::size_t* size);

} // namespace on_stream
} // namespace portshmem::detail
