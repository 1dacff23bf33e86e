// The on-stream calls of portshmem/stream.h: each checks its arguments (arg_checks.hpp), then enqueues its library
// kernel (kernels.hpp) with the runtime's device handle. Zero-byte puts and gets move nothing, so they check only the
// PE and enqueue nothing; a zero-byte put-with-signal still signals.
#include "portshmem/stream.h"

#include "log.hpp"
#include "runtime.hpp"
#include "stream/arg_checks.hpp"
#include "stream/enqueue.hpp"
#include "stream/kernels.hpp"

using namespace portshmem::detail;
using namespace portshmem::detail::on_stream;

extern "C" {

portshmem_status_t portshmem_putmem_on_stream(void* dest, const void* src, size_t nbytes, int pe,
                                              portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_putmem_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  if (s = check_pe(*rt, pe, call); s != PORTSHMEM_SUCCESS || nbytes == 0) return s;
  if (s = check_symmetric(*rt, dest, nbytes, call, "dest"); s != PORTSHMEM_SUCCESS) return s;
  if (s = check_local(src, nbytes, call, "src"); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_putmem(rt->ctx, dest, src, nbytes, pe, to_stream(stream)), call);
}

portshmem_status_t portshmem_getmem_on_stream(void* dest, const void* src, size_t nbytes, int pe,
                                              portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_getmem_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  if (s = check_pe(*rt, pe, call); s != PORTSHMEM_SUCCESS || nbytes == 0) return s;
  if (s = check_symmetric(*rt, src, nbytes, call, "src"); s != PORTSHMEM_SUCCESS) return s;
  if (s = check_local(dest, nbytes, call, "dest"); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_getmem(rt->ctx, dest, src, nbytes, pe, to_stream(stream)), call);
}

portshmem_status_t portshmem_putmem_signal_on_stream(void* dest, const void* src, size_t nbytes, uint64_t* sig_addr,
                                                     uint64_t signal, int sig_op, int pe, portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_putmem_signal_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  if (s = check_pe(*rt, pe, call); s != PORTSHMEM_SUCCESS) return s;
  if (nbytes != 0) {
    if (s = check_symmetric(*rt, dest, nbytes, call, "dest"); s != PORTSHMEM_SUCCESS) return s;
    if (s = check_local(src, nbytes, call, "src"); s != PORTSHMEM_SUCCESS) return s;
  }
  if (s = check_signal(*rt, sig_addr, call); s != PORTSHMEM_SUCCESS) return s;
  if (s = check_sig_op(sig_op, call); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_putmem_signal(rt->ctx, dest, src, nbytes, sig_addr, signal, sig_op, pe, to_stream(stream)),
                  call);
}

portshmem_status_t portshmem_signal_op_on_stream(uint64_t* sig_addr, uint64_t signal, int sig_op, int pe,
                                                 portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_signal_op_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  if (s = check_pe(*rt, pe, call); s != PORTSHMEM_SUCCESS) return s;
  if (s = check_signal(*rt, sig_addr, call); s != PORTSHMEM_SUCCESS) return s;
  if (s = check_sig_op(sig_op, call); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_signal_op(rt->ctx, sig_addr, signal, sig_op, pe, to_stream(stream)), call);
}

portshmem_status_t portshmem_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t value,
                                                         portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_signal_wait_until_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  if (s = check_signal(*rt, sig_addr, call); s != PORTSHMEM_SUCCESS) return s;
  if (s = check_cmp(cmp, call); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_signal_wait_until(rt->ctx, sig_addr, cmp, value, to_stream(stream)), call);
}

portshmem_status_t portshmem_quiet_on_stream(portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_quiet_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  return launched(launch_quiet(rt->ctx, to_stream(stream)), call);
}

portshmem_status_t portshmem_barrier_all_on_stream(portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_barrier_all_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  runtime* rt = live_runtime(call, &s);
  if (!rt) return s;
  return launched(launch_barrier_all(rt->ctx, to_stream(stream)), call);
}

} // extern "C"
