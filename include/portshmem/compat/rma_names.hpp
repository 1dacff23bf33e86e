// rocSHMEM-style names for the RMA calls, for code coming from rocSHMEM/OpenSHMEM: portshmem_int_put,
// portshmem_ctx_putmem_nbi_wg, ... Each is a one-line forward to the C++ API (rma.hpp) with the same semantics; the
// device handle is the explicit first argument in both the plain and the ctx_ spelling. Group suffixes: _wave (a
// wavefront/warp calls together) and _wg (a workgroup/block calls together).
#pragma once

#include "portshmem/rma.hpp"

#define PORTSHMEM_DETAIL_MEM_NAMES(PREFIX)                                                                             \
  PORTSHMEM_DEVICE void PREFIX##putmem(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {       \
    portshmem::putmem(c, d, s, n, pe);                                                                                 \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##putmem_wave(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {  \
    portshmem::putmem_wave(c, d, s, n, pe);                                                                            \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##putmem_wg(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {    \
    portshmem::putmem_block(c, d, s, n, pe);                                                                           \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##putmem_nbi(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {   \
    portshmem::putmem_nbi(c, d, s, n, pe);                                                                             \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##putmem_nbi_wave(const portshmem::ctx& c, void* d, const void* s, std::size_t n,        \
                                                int pe) {                                                              \
    portshmem::putmem_nbi_wave(c, d, s, n, pe);                                                                        \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##putmem_nbi_wg(const portshmem::ctx& c, void* d, const void* s, std::size_t n,          \
                                              int pe) {                                                                \
    portshmem::putmem_nbi_block(c, d, s, n, pe);                                                                       \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##getmem(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {       \
    portshmem::getmem(c, d, s, n, pe);                                                                                 \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##getmem_wave(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {  \
    portshmem::getmem_wave(c, d, s, n, pe);                                                                            \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##getmem_wg(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {    \
    portshmem::getmem_block(c, d, s, n, pe);                                                                           \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##getmem_nbi(const portshmem::ctx& c, void* d, const void* s, std::size_t n, int pe) {   \
    portshmem::getmem_nbi(c, d, s, n, pe);                                                                             \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##getmem_nbi_wave(const portshmem::ctx& c, void* d, const void* s, std::size_t n,        \
                                                int pe) {                                                              \
    portshmem::getmem_nbi_wave(c, d, s, n, pe);                                                                        \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##getmem_nbi_wg(const portshmem::ctx& c, void* d, const void* s, std::size_t n,          \
                                              int pe) {                                                                \
    portshmem::getmem_nbi_block(c, d, s, n, pe);                                                                       \
  }

// One typed family: put/get (+ nbi) in thread, _wave and _wg forms, plus p and g.
#define PORTSHMEM_DETAIL_TYPED_ARRAY(PREFIX, NAME, TYPE, OP, CXX)                                                      \
  PORTSHMEM_DEVICE void PREFIX##NAME##_##OP(const portshmem::ctx& c, TYPE* d, const TYPE* s, std::size_t n, int pe) {  \
    portshmem::CXX(c, d, s, n, pe);                                                                                    \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_##OP##_wave(const portshmem::ctx& c, TYPE* d, const TYPE* s, std::size_t n,     \
                                                   int pe) {                                                           \
    portshmem::CXX##_wave(c, d, s, n, pe);                                                                             \
  }                                                                                                                    \
  PORTSHMEM_DEVICE void PREFIX##NAME##_##OP##_wg(const portshmem::ctx& c, TYPE* d, const TYPE* s, std::size_t n,       \
                                                 int pe) {                                                             \
    portshmem::CXX##_block(c, d, s, n, pe);                                                                            \
  }
#define PORTSHMEM_DETAIL_TYPED_NAMES(PREFIX, NAME, TYPE)                                                               \
  PORTSHMEM_DETAIL_TYPED_ARRAY(PREFIX, NAME, TYPE, put, put)                                                           \
  PORTSHMEM_DETAIL_TYPED_ARRAY(PREFIX, NAME, TYPE, put_nbi, put_nbi)                                                   \
  PORTSHMEM_DETAIL_TYPED_ARRAY(PREFIX, NAME, TYPE, get, get)                                                           \
  PORTSHMEM_DETAIL_TYPED_ARRAY(PREFIX, NAME, TYPE, get_nbi, get_nbi)                                                   \
  PORTSHMEM_DEVICE void PREFIX##NAME##_p(const portshmem::ctx& c, TYPE* d, TYPE v, int pe) {                           \
    portshmem::p(c, d, v, pe);                                                                                         \
  }                                                                                                                    \
  PORTSHMEM_DEVICE TYPE PREFIX##NAME##_g(const portshmem::ctx& c, const TYPE* s, int pe) {                             \
    return portshmem::g(c, s, pe);                                                                                     \
  }

#define PORTSHMEM_DETAIL_PLAIN_TYPED(NAME, TYPE) PORTSHMEM_DETAIL_TYPED_NAMES(portshmem_, NAME, TYPE)
#define PORTSHMEM_DETAIL_CTX_TYPED(NAME, TYPE) PORTSHMEM_DETAIL_TYPED_NAMES(portshmem_ctx_, NAME, TYPE)

PORTSHMEM_DETAIL_MEM_NAMES(portshmem_)
PORTSHMEM_DETAIL_MEM_NAMES(portshmem_ctx_)
PORTSHMEM_RMA_TYPES(PORTSHMEM_DETAIL_PLAIN_TYPED)
PORTSHMEM_RMA_TYPES(PORTSHMEM_DETAIL_CTX_TYPED)

#undef PORTSHMEM_DETAIL_PLAIN_TYPED
#undef PORTSHMEM_DETAIL_CTX_TYPED
#undef PORTSHMEM_DETAIL_TYPED_NAMES
#undef PORTSHMEM_DETAIL_TYPED_ARRAY
#undef PORTSHMEM_DETAIL_MEM_NAMES
