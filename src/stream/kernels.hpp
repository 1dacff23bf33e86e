// The library's own kernels behind portshmem/stream.h, as launch functions host code can call: each enqueues one
// single-block kernel running one device call on the stream, and returns the launch's error. Arguments must already
// have been checked (arg_checks.hpp); the kernels do what the device call does with them. Declared in plain C++ so
// the host-compiled entry points (on_stream.cpp) can call them; defined in kernels.cpp, built by the platform's device
// compiler.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/ctx.h"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::detail::on_stream {

/// Threads of the block that runs a block-form call: on the host platform every one is a CPU thread; on GPUs 256,
/// which fits a kernel that uses all 255 registers a thread may have (the reductions do on sm_90).
inline constexpr unsigned kBlockThreads = PORTSHMEM_PLATFORM_HOST ? 16 : 256;

/// putmem_block(c, dest, src, nbytes, pe).
hipError_t launch_putmem(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t nbytes, int pe,
                         hipStream_t stream);
/// getmem_block(c, dest, src, nbytes, pe).
hipError_t launch_getmem(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t nbytes, int pe,
                         hipStream_t stream);
/// putmem_signal_block(c, dest, src, nbytes, sig_addr, signal, sig_op, pe); sig_op is PORTSHMEM_SIGNAL_SET or _ADD.
hipError_t launch_putmem_signal(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t nbytes,
                                std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe, hipStream_t stream);
/// signal_op(c, sig_addr, signal, sig_op, pe) by one thread.
hipError_t launch_signal_op(const portshmem_ctx_t& c, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe,
                            hipStream_t stream);
/// signal_wait_until(c, sig_addr, cmp, value) by one thread; cmp is a PORTSHMEM_CMP_* value.
hipError_t launch_signal_wait_until(const portshmem_ctx_t& c, std::uint64_t* sig_addr, int cmp, std::uint64_t value,
                                    hipStream_t stream);
/// quiet(c) by one thread.
hipError_t launch_quiet(const portshmem_ctx_t& c, hipStream_t stream);
/// barrier_all_block(c).
hipError_t launch_barrier_all(const portshmem_ctx_t& c, hipStream_t stream);
/// One AMO by one thread on the word of bytes (4 or 8) at dest on pe, as the unsigned integer of that size: op is a
/// rocshmem::detail::host::amo_op (fetch, set, swap, cswap, add, and, or, xor; fetch_* results for all but set), value
/// and cond its operands' bits; the old value's bits go to *result (device memory, 8 bytes). The host AMOs of the
/// rocSHMEM compatibility header (include/rocshmem/detail/host_ops.hpp) run on it.
hipError_t launch_amo(const portshmem_ctx_t& c, void* dest, int op, std::uint64_t value, std::uint64_t cond,
                      std::size_t bytes, int pe, std::uint64_t* result, hipStream_t stream);

} // namespace portshmem::detail::on_stream
