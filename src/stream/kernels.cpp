// The kernels of the on-stream calls (kernels.hpp): one block each, running the device call with its default
// qualifiers, so an on-stream call promises exactly what that device call promises, in stream order. The single-thread
// calls (signal_op, signal_wait_until, quiet) run in a block of one thread. Every kernel runs in block 0, so what the
// RDMA proxy carries for them shares ring 0 and a later quiet_on_stream's QUIET covers it. Compiled by the platform's
// device compiler (cmake/stream.cmake), as are the other *kernels* sources of src/stream.
#include "stream/kernels.hpp"

#include "portshmem/device.hpp"
#include "portshmem/stream.h"

namespace portshmem::detail::on_stream {
namespace {

static_assert(PORTSHMEM_CMP_EQ == int(portshmem::cmp::eq) && PORTSHMEM_CMP_NE == int(portshmem::cmp::ne) &&
                  PORTSHMEM_CMP_GT == int(portshmem::cmp::gt) && PORTSHMEM_CMP_GE == int(portshmem::cmp::ge) &&
                  PORTSHMEM_CMP_LT == int(portshmem::cmp::lt) && PORTSHMEM_CMP_LE == int(portshmem::cmp::le),
              "PORTSHMEM_CMP_* (stream.h) must follow portshmem::cmp");
static_assert(PORTSHMEM_SIGNAL_SET == int(portshmem::signal_set) && PORTSHMEM_SIGNAL_ADD == int(portshmem::signal_add),
              "PORTSHMEM_SIGNAL_* (stream.h) must follow portshmem::signal_update");

PORTSHMEM_GLOBAL void putmem_kernel(portshmem::ctx c, void* dest, const void* src, std::size_t nbytes, int pe) {
  portshmem::putmem_block(c, dest, src, nbytes, pe);
}

PORTSHMEM_GLOBAL void getmem_kernel(portshmem::ctx c, void* dest, const void* src, std::size_t nbytes, int pe) {
  portshmem::getmem_block(c, dest, src, nbytes, pe);
}

PORTSHMEM_GLOBAL void putmem_signal_kernel(portshmem::ctx c, void* dest, const void* src, std::size_t nbytes,
                                           std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe) {
  portshmem::putmem_signal_block(c, dest, src, nbytes, sig_addr, signal, portshmem::signal_update(sig_op), pe);
}

PORTSHMEM_GLOBAL void signal_op_kernel(portshmem::ctx c, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op,
                                       int pe) {
  portshmem::signal_op(c, sig_addr, signal, portshmem::signal_update(sig_op), pe);
}

PORTSHMEM_GLOBAL void signal_wait_until_kernel(portshmem::ctx c, std::uint64_t* sig_addr, int op, std::uint64_t value) {
  portshmem::signal_wait_until(c, sig_addr, portshmem::cmp(op), value);
}

PORTSHMEM_GLOBAL void quiet_kernel(portshmem::ctx c) {
  portshmem::quiet(c);
}

PORTSHMEM_GLOBAL void barrier_all_kernel(portshmem::ctx c) {
  portshmem::barrier_all_block(c);
}
// The host AMOs' kernel: one per word size, the operation chosen at run time (the order of rocshmem's
// detail::host::amo_op: fetch, set, swap, cswap, add, and, or, xor).
template <class U>
PORTSHMEM_GLOBAL void amo_kernel(portshmem::ctx c, U* dest, int op, U value, U cond, int pe, std::uint64_t* result) {
  U old = 0;
  switch (op) {
  case 0:
    old = portshmem::atomic_fetch(c, dest, pe);
    break;
  case 1:
    portshmem::atomic_set(c, dest, value, pe);
    break;
  case 2:
    old = portshmem::atomic_swap(c, dest, value, pe);
    break;
  case 3:
    old = portshmem::atomic_compare_swap(c, dest, cond, value, pe);
    break;
  case 4:
    old = portshmem::atomic_fetch_add(c, dest, value, pe);
    break;
  case 5:
    old = portshmem::atomic_fetch_and(c, dest, value, pe);
    break;
  case 6:
    old = portshmem::atomic_fetch_or(c, dest, value, pe);
    break;
  default:
    old = portshmem::atomic_fetch_xor(c, dest, value, pe);
    break;
  }
  *result = old;
}

} // namespace

hipError_t launch_putmem(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t nbytes, int pe,
                         hipStream_t stream) {
  return arch::launch(putmem_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, dest, src, nbytes, pe);
}

hipError_t launch_getmem(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t nbytes, int pe,
                         hipStream_t stream) {
  return arch::launch(getmem_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, dest, src, nbytes, pe);
}

hipError_t launch_putmem_signal(const portshmem_ctx_t& c, void* dest, const void* src, std::size_t nbytes,
                                std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe, hipStream_t stream) {
  return arch::launch(putmem_signal_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c, dest, src, nbytes, sig_addr,
                      signal, sig_op, pe);
}

hipError_t launch_signal_op(const portshmem_ctx_t& c, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe,
                            hipStream_t stream) {
  return arch::launch(signal_op_kernel, dim3(1), dim3(1), 0, stream, c, sig_addr, signal, sig_op, pe);
}

hipError_t launch_signal_wait_until(const portshmem_ctx_t& c, std::uint64_t* sig_addr, int cmp, std::uint64_t value,
                                    hipStream_t stream) {
  return arch::launch(signal_wait_until_kernel, dim3(1), dim3(1), 0, stream, c, sig_addr, cmp, value);
}

hipError_t launch_quiet(const portshmem_ctx_t& c, hipStream_t stream) {
  return arch::launch(quiet_kernel, dim3(1), dim3(1), 0, stream, c);
}

hipError_t launch_barrier_all(const portshmem_ctx_t& c, hipStream_t stream) {
  return arch::launch(barrier_all_kernel, dim3(1), dim3(kBlockThreads), 0, stream, c);
}
hipError_t launch_amo(const portshmem_ctx_t& c, void* dest, int op, std::uint64_t value, std::uint64_t cond,
                      std::size_t bytes, int pe, std::uint64_t* result, hipStream_t stream) {
  if (bytes == 4) {
    return arch::launch(amo_kernel<std::uint32_t>, dim3(1), dim3(1), 0, stream, c, static_cast<std::uint32_t*>(dest),
                        op, std::uint32_t(value), std::uint32_t(cond), pe, result);
  }
  return arch::launch(amo_kernel<std::uint64_t>, dim3(1), dim3(1), 0, stream, c, static_cast<std::uint64_t*>(dest), op,
                      value, cond, pe, result);
}

} // namespace portshmem::detail::on_stream
