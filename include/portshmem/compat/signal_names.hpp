// rocSHMEM-style names for the signaling and array-wait calls: portshmem_putmem_signal_nbi_wg,
// portshmem_ctx_int_put_signal_wave, portshmem_signal_fetch, portshmem_signal_wait_until,
// portshmem_int_wait_until_all, portshmem_long_test_some_vector, ... Each is a one-line forward to the C++ API
// (signal.hpp, wait_vector.hpp) with the same semantics and the default qualifiers; the device handle is the
// explicit first argument in both the plain and the ctx_ spelling. sig_op is PORTSHMEM_SIGNAL_SET or _ADD, cmp one of
// PORTSHMEM_CMP_*. Group suffixes: _wave (a wavefront/warp calls together) and _wg (a workgroup/block calls together).
#pragma once

#include "portshmem/compat/amo_names.hpp"
#include "portshmem/signal.hpp"
#include "portshmem/types.hpp"
#include "portshmem/wait_vector.hpp"

/// The comparisons of the waits as plain constants (OpenSHMEM's SHMEM_CMP_*), in the order of portshmem::cmp.
#define PORTSHMEM_CMP_EQ 0
#define PORTSHMEM_CMP_NE 1
#define PORTSHMEM_CMP_GT 2
#define PORTSHMEM_CMP_GE 3
#define PORTSHMEM_CMP_LT 4
#define PORTSHMEM_CMP_LE 5
static_assert(int(portshmem::cmp::eq) == PORTSHMEM_CMP_EQ && int(portshmem::cmp::ne) == PORTSHMEM_CMP_NE &&
                  int(portshmem::cmp::gt) == PORTSHMEM_CMP_GT && int(portshmem::cmp::ge) == PORTSHMEM_CMP_GE &&
                  int(portshmem::cmp::lt) == PORTSHMEM_CMP_LT && int(portshmem::cmp::le) == PORTSHMEM_CMP_LE,
              "PORTSHMEM_CMP_* must follow portshmem::cmp");

// ---- put-with-signal: untyped and typed, blocking and nbi, thread / _wave / _wg -------------------------------------
#define PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, SUFFIX, CXX)                                                            \
  PORTSHMEM_DEVICE void PREFIX##putmem_signal##SUFFIX(const portshmem::ctx& c, void* d, const void* s, std::size_t n,  \
                                                      std::uint64_t* sig, std::uint64_t signal, int sig_op, int pe) {  \
    portshmem::CXX(c, d, s, n, sig, signal, portshmem::signal_update(sig_op), pe);                                     \
  }
#define PORTSHMEM_DETAIL_PUTMEM_SIGNAL_NAMES(PREFIX)                                                                   \
  PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, , putmem_signal)                                                              \
  PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, _wave, putmem_signal_wave)                                                    \
  PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, _wg, putmem_signal_block)                                                     \
  PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, _nbi, putmem_signal_nbi)                                                      \
  PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, _nbi_wave, putmem_signal_nbi_wave)                                            \
  PORTSHMEM_DETAIL_PUTMEM_SIGNAL(PREFIX, _nbi_wg, putmem_signal_nbi_block)

#define PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, SUFFIX, CXX)                                                   \
  PORTSHMEM_DEVICE void PREFIX##NAME##_put_signal##SUFFIX(const portshmem::ctx& c, TYPE* d, const TYPE* s,             \
                                                          std::size_t n, std::uint64_t* sig, std::uint64_t signal,     \
                                                          int sig_op, int pe) {                                        \
    portshmem::CXX(c, d, s, n, sig, signal, portshmem::signal_update(sig_op), pe);                                     \
  }
#define PORTSHMEM_DETAIL_PUT_SIGNAL_NAMES(PREFIX, NAME, TYPE)                                                          \
  PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, , put_signal)                                                        \
  PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, _wave, put_signal_wave)                                              \
  PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, _wg, put_signal_block)                                               \
  PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, _nbi, put_signal_nbi)                                                \
  PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, _nbi_wave, put_signal_nbi_wave)                                      \
  PORTSHMEM_DETAIL_PUT_SIGNAL(PREFIX, NAME, TYPE, _nbi_wg, put_signal_nbi_block)

// ---- signal_set / signal_add / signal_fetch / signal_wait_until -----------------------------------------------------
#define PORTSHMEM_DETAIL_SIGNAL_NAMES(PREFIX)                                                                          \
  PORTSHMEM_DEVICE void PREFIX##signal_set(const portshmem::ctx& c, std::uint64_t* sig, std::uint64_t signal,          \
                                           int pe) {                                                                   \
    portshmem::signal_op(c, sig, signal, portshmem::signal_set, pe);                                                   \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##signal_add(const portshmem::ctx& c, std::uint64_t* sig, std::uint64_t signal,          \
                                           int pe) {                                                                   \
    portshmem::signal_op(c, sig, signal, portshmem::signal_add, pe);                                                   \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##signal_op(const portshmem::ctx& c, std::uint64_t* sig, std::uint64_t signal,           \
                                          int sig_op, int pe) {                                                        \
    portshmem::signal_op(c, sig, signal, portshmem::signal_update(sig_op), pe);                                        \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::uint64_t PREFIX##signal_fetch(const portshmem::ctx& c, const std::uint64_t* sig) {             \
    return portshmem::signal_fetch(c, sig);                                                                            \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::uint64_t PREFIX##signal_wait_until(const portshmem::ctx& c, std::uint64_t* sig, int op,        \
                                                           std::uint64_t value) {                                      \
    return portshmem::signal_wait_until(c, sig, portshmem::cmp(op), value);                                            \
  }

// ---- waits on arrays: all / any / some, their _vector forms and the test_ forms, over the standard AMO types --------
#define PORTSHMEM_DETAIL_WAIT_NAMES(PREFIX, NAME, TYPE)                                                                \
  PORTSHMEM_DEVICE void PREFIX##NAME##_wait_until_all(const portshmem::ctx& c, TYPE* ivars, std::size_t n,             \
                                                      const int* status, int op, TYPE value) {                         \
    portshmem::wait_until_all(c, ivars, n, status, portshmem::cmp(op), value);                                         \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_wait_until_any(const portshmem::ctx& c, TYPE* ivars, std::size_t n,      \
                                                             const int* status, int op, TYPE value) {                  \
    return portshmem::wait_until_any(c, ivars, n, status, portshmem::cmp(op), value);                                  \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_wait_until_some(const portshmem::ctx& c, TYPE* ivars, std::size_t n,     \
                                                              std::size_t* indices, const int* status, int op,         \
                                                              TYPE value) {                                            \
    return portshmem::wait_until_some(c, ivars, n, indices, status, portshmem::cmp(op), value);                        \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_wait_until_all_vector(const portshmem::ctx& c, TYPE* ivars, std::size_t n,      \
                                                             const int* status, int op, const TYPE* values) {          \
    portshmem::wait_until_all_vector(c, ivars, n, status, portshmem::cmp(op), values);                                 \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_wait_until_any_vector(                                                   \
      const portshmem::ctx& c, TYPE* ivars, std::size_t n, const int* status, int op, const TYPE* values) {            \
    return portshmem::wait_until_any_vector(c, ivars, n, status, portshmem::cmp(op), values);                          \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_wait_until_some_vector(const portshmem::ctx& c, TYPE* ivars,             \
                                                                     std::size_t n, std::size_t* indices,              \
                                                                     const int* status, int op, const TYPE* values) {  \
    return portshmem::wait_until_some_vector(c, ivars, n, indices, status, portshmem::cmp(op), values);                \
  }                                                                                                                    \
  PORTSHMEM_DEVICE int PREFIX##NAME##_test_all(const portshmem::ctx& c, TYPE* ivars, std::size_t n, const int* status, \
                                               int op, TYPE value) {                                                   \
    return portshmem::test_all(c, ivars, n, status, portshmem::cmp(op), value);                                        \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_test_any(const portshmem::ctx& c, TYPE* ivars, std::size_t n,            \
                                                       const int* status, int op, TYPE value) {                        \
    return portshmem::test_any(c, ivars, n, status, portshmem::cmp(op), value);                                        \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_test_some(const portshmem::ctx& c, TYPE* ivars, std::size_t n,           \
                                                        std::size_t* indices, const int* status, int op, TYPE value) { \
    return portshmem::test_some(c, ivars, n, indices, status, portshmem::cmp(op), value);                              \
  }                                                                                                                    \
  PORTSHMEM_DEVICE int PREFIX##NAME##_test_all_vector(const portshmem::ctx& c, TYPE* ivars, std::size_t n,             \
                                                      const int* status, int op, const TYPE* values) {                 \
    return portshmem::test_all_vector(c, ivars, n, status, portshmem::cmp(op), values);                                \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_test_any_vector(const portshmem::ctx& c, TYPE* ivars, std::size_t n,     \
                                                              const int* status, int op, const TYPE* values) {         \
    return portshmem::test_any_vector(c, ivars, n, status, portshmem::cmp(op), values);                                \
  }                                                                                                                    \
  PORTSHMEM_DEVICE std::size_t PREFIX##NAME##_test_some_vector(const portshmem::ctx& c, TYPE* ivars, std::size_t n,    \
                                                               std::size_t* indices, const int* status, int op,        \
                                                               const TYPE* values) {                                   \
    return portshmem::test_some_vector(c, ivars, n, indices, status, portshmem::cmp(op), values);                      \
  }

#define PORTSHMEM_DETAIL_PLAIN_PUT_SIGNAL(NAME, TYPE) PORTSHMEM_DETAIL_PUT_SIGNAL_NAMES(portshmem_, NAME, TYPE)
#define PORTSHMEM_DETAIL_CTX_PUT_SIGNAL(NAME, TYPE) PORTSHMEM_DETAIL_PUT_SIGNAL_NAMES(portshmem_ctx_, NAME, TYPE)
#define PORTSHMEM_DETAIL_PLAIN_WAIT(NAME, TYPE) PORTSHMEM_DETAIL_WAIT_NAMES(portshmem_, NAME, TYPE)
#define PORTSHMEM_DETAIL_CTX_WAIT(NAME, TYPE) PORTSHMEM_DETAIL_WAIT_NAMES(portshmem_ctx_, NAME, TYPE)

PORTSHMEM_DETAIL_PUTMEM_SIGNAL_NAMES(portshmem_)
PORTSHMEM_DETAIL_PUTMEM_SIGNAL_NAMES(portshmem_ctx_)
PORTSHMEM_RMA_TYPES(PORTSHMEM_DETAIL_PLAIN_PUT_SIGNAL)
PORTSHMEM_RMA_TYPES(PORTSHMEM_DETAIL_CTX_PUT_SIGNAL)
PORTSHMEM_DETAIL_SIGNAL_NAMES(portshmem_)
PORTSHMEM_DETAIL_SIGNAL_NAMES(portshmem_ctx_)
PORTSHMEM_AMO_STANDARD_TYPES(PORTSHMEM_DETAIL_PLAIN_WAIT)
PORTSHMEM_AMO_STANDARD_TYPES(PORTSHMEM_DETAIL_CTX_WAIT)

#undef PORTSHMEM_DETAIL_PLAIN_PUT_SIGNAL
#undef PORTSHMEM_DETAIL_CTX_PUT_SIGNAL
#undef PORTSHMEM_DETAIL_PLAIN_WAIT
#undef PORTSHMEM_DETAIL_CTX_WAIT
#undef PORTSHMEM_DETAIL_WAIT_NAMES
#undef PORTSHMEM_DETAIL_SIGNAL_NAMES
#undef PORTSHMEM_DETAIL_PUT_SIGNAL_NAMES
#undef PORTSHMEM_DETAIL_PUT_SIGNAL
#undef PORTSHMEM_DETAIL_PUTMEM_SIGNAL_NAMES
#undef PORTSHMEM_DETAIL_PUTMEM_SIGNAL
