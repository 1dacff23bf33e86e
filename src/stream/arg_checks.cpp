// The on-stream calls' argument checks (arg_checks.hpp).
#include "stream/arg_checks.hpp"

#include "log.hpp"
#include "portshmem/stream.h"
#include "runtime.hpp"
#include "stream/datatypes.hpp"

namespace portshmem::detail::on_stream {

runtime* live_runtime(const char* call, portshmem_status_t* status) {
  runtime* rt = current();
  if (!rt) {
    *status = PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_INITIALIZED,
                             "%s called before portshmem_init or after portshmem_finalize; nothing was enqueued", call);
  }
  return rt;
}

portshmem_status_t check_pe(const runtime& rt, int pe, const char* call) {
  const int n = rt.boot->size();
  if (pe < 0 || pe >= n) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_PE, "%s: pe %d is outside [0, %d); nothing was enqueued", call, pe, n);
  }
  if (rt.transports[pe] == PORTSHMEM_TRANSPORT_NONE) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE, "%s: no transport reaches PE %d; nothing was enqueued", call, pe);
  }
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t check_symmetric(const runtime& rt, const void* addr, std::size_t nbytes, const char* call,
                                   const char* what) {
  if (!addr) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: %s is NULL; nothing was enqueued", call, what);
  // Offsets from the heap base; an address below the heap wraps to a huge offset.
  const std::uintptr_t offset =
      reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(rt.heap->local());
  const std::size_t begin = rt.allocator.begin(), end = begin + rt.allocator.capacity();
  if (offset >= rt.cfg.heap_size) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_SYMMETRIC,
                          "%s: %s %p is not in the symmetric heap (pass memory from portshmem_malloc, this PE's copy); "
                          "nothing was enqueued",
                          call, what, addr);
  }
  if (offset < begin || offset >= end) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_SYMMETRIC,
                          "%s: %s %p is in a part of the symmetric heap portshmem reserves for itself, which no "
                          "allocation returns; nothing was enqueued",
                          call, what, addr);
  }
  if (nbytes > end - offset) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_OVERFLOW,
                          "%s: %s %p plus %zu bytes runs past the end of the heap's allocations (%zu bytes left from "
                          "%s); nothing was enqueued",
                          call, what, addr, nbytes, end - std::size_t(offset), what);
  }
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t check_local(const void* addr, std::size_t nbytes, const char* call, const char* what) {
  if (!addr) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: %s is NULL; nothing was enqueued", call, what);
  if (nbytes > UINTPTR_MAX - reinterpret_cast<std::uintptr_t>(addr)) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_OVERFLOW,
                          "%s: %s %p plus %zu bytes wraps around the address space (a negative size converted to "
                          "size_t?); nothing was enqueued",
                          call, what, addr, nbytes);
  }
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t check_signal(const runtime& rt, const std::uint64_t* sig_addr, const char* call) {
  if (sig_addr && reinterpret_cast<std::uintptr_t>(sig_addr) % alignof(std::uint64_t) != 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "%s: sig_addr %p is not 8-byte aligned (a signal is one uint64_t); nothing was enqueued",
                          call, static_cast<const void*>(sig_addr));
  }
  return check_symmetric(rt, sig_addr, sizeof(std::uint64_t), call, "sig_addr");
}

portshmem_status_t check_sig_op(int sig_op, const char* call) {
  if (sig_op == PORTSHMEM_SIGNAL_SET || sig_op == PORTSHMEM_SIGNAL_ADD) return PORTSHMEM_SUCCESS;
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                        "%s: sig_op %d is neither PORTSHMEM_SIGNAL_SET (%d) nor PORTSHMEM_SIGNAL_ADD (%d); nothing was "
                        "enqueued",
                        call, sig_op, PORTSHMEM_SIGNAL_SET, PORTSHMEM_SIGNAL_ADD);
}

portshmem_status_t check_cmp(int cmp, const char* call) {
  if (cmp >= PORTSHMEM_CMP_EQ && cmp <= PORTSHMEM_CMP_LE) return PORTSHMEM_SUCCESS;
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                        "%s: cmp %d is not one of PORTSHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE (%d to %d); nothing was "
                        "enqueued",
                        call, cmp, PORTSHMEM_CMP_EQ, PORTSHMEM_CMP_LE);
}

portshmem_status_t check_team(portshmem_team_t team, const char* call, portshmem_team_handle_t* handle) {
  if (portshmem_team_my_pe(team) < 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "%s: team %d is not a team of this PE (PORTSHMEM_TEAM_INVALID, a destroyed team, or one "
                          "this PE is not a member of); nothing was enqueued",
                          call, int(team));
  }
  return portshmem_team_get_handle(team, handle);
}

portshmem_status_t check_root(const portshmem_team_handle_t& t, int root, const char* call) {
  if (root >= 0 && root < t.size) return PORTSHMEM_SUCCESS;
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_PE,
                        "%s: root %d is outside the team's indices [0, %d); nothing was enqueued", call, root, t.size);
}

portshmem_status_t checked_product(std::size_t a, std::size_t b, std::size_t* product, const char* call,
                                   const char* what) {
  if (b != 0 && a > SIZE_MAX / b) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_OVERFLOW, "%s: %s, %zu times %zu, overflows size_t; nothing was enqueued", call,
                          what, a, b);
  }
  *product = a * b;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t check_reduction(int type, int op, const char* call, std::size_t* size) {
  *size = datatype_size(type);
  if (*size == 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: type %d is not a portshmem_datatype_t; nothing was enqueued",
                          call, type);
  }
  if (!reduce_op_valid(op)) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: op %d is not a portshmem_reduce_op_t; nothing was enqueued",
                          call, op);
  }
  // What the kernels combine (element_kind.hpp): with valid type and op, only a bitwise op on a float is left out.
  if (!combination_valid(datatype_kind(type), *size, op)) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "%s: PORTSHMEM_REDUCE_%s takes integer types only, not PORTSHMEM_DATATYPE_%s; nothing was "
                          "enqueued",
                          call, reduce_op_name(op), datatype_name(type));
  }
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail::on_stream
