/* The queue layout compiled as C99 (-std=c99 -pedantic-errors): the header must build as C, and C must see the same
 * sizes and offsets as C++ (test_proxy_queue.cpp compares them). */
#include <stddef.h>

#include "portshmem/transport/proxy_queue.h"

/* out[0..]: sizes and offsets in a fixed order; returns how many were written. */
size_t portshmem_proxy_c_layout(size_t* out) {
  size_t n = 0;
  out[n++] = sizeof(portshmem_proxy_cmd_t);
  out[n++] = offsetof(portshmem_proxy_cmd_t, op);
  out[n++] = offsetof(portshmem_proxy_cmd_t, kind);
  out[n++] = offsetof(portshmem_proxy_cmd_t, width);
  out[n++] = offsetof(portshmem_proxy_cmd_t, flags);
  out[n++] = offsetof(portshmem_proxy_cmd_t, pe);
  out[n++] = offsetof(portshmem_proxy_cmd_t, value);
  out[n++] = offsetof(portshmem_proxy_cmd_t, call);
  out[n++] = sizeof(portshmem_proxy_result_t);
  out[n++] = sizeof(portshmem_proxy_ring_state_t);
  out[n++] = offsetof(portshmem_proxy_ring_state_t, consumed);
  out[n++] = offsetof(portshmem_proxy_ring_state_t, completed);
  out[n++] = offsetof(portshmem_proxy_ring_state_t, error_count);
  out[n++] = sizeof(portshmem_proxy_ring_t);
  out[n++] = offsetof(portshmem_proxy_ring_t, capacity);
  out[n++] = offsetof(portshmem_proxy_ring_t, version);
  out[n++] = PORTSHMEM_PROXY_QUEUE_VERSION;
  return n;
}

/* The shared predicate, evaluated by C for the C++ side to compare. */
int portshmem_proxy_c_uses_cell(int op, int kind, unsigned long long local) {
  return PORTSHMEM_PROXY_USES_CELL(op, kind, local);
}
