// The team collectives of portshmem/stream.h: each checks its arguments on this PE (arg_checks.hpp), then enqueues its
// library kernel (collective_kernels.hpp) with the runtime's device handle and the team's. What every member passes
// alike (team, root, sizes, type, op) is refused alike; a buffer refused on some members only leaves the others'
// kernels waiting for them (until PORTSHMEM_TIMEOUT). Zero-byte calls still run (each takes its rounds, as on the
// device) but look at no buffer.
#include "log.hpp"
#include "portshmem/stream.h"
#include "runtime.hpp"
#include "stream/arg_checks.hpp"
#include "stream/enqueue.hpp"
#include "stream/collective_kernels.hpp"
#include "stream/datatypes.hpp"

using namespace portshmem::detail;
using namespace portshmem::detail::on_stream;

namespace {

/// launch_reduction<Which, Size> for type's size, with the kind of its bits; type and op have been checked.
template <reduction Which>
portshmem_status_t enqueue_reduction(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest,
                                     const void* src, std::size_t count, int type, int op, hipStream_t stream,
                                     const char* call) {
  const element_kind kind = datatype_kind(type);
  switch (datatype_size(type)) {
  case 1:
    return launched(launch_reduction<Which, 1>(c, t, dest, src, count, kind, op, stream), call);
  case 2:
    return launched(launch_reduction<Which, 2>(c, t, dest, src, count, kind, op, stream), call);
  case 4:
    return launched(launch_reduction<Which, 4>(c, t, dest, src, count, kind, op, stream), call);
  case 8:
    return launched(launch_reduction<Which, 8>(c, t, dest, src, count, kind, op, stream), call);
  default: // no portshmem_datatype_t has another size (check_reduction refuses one that did)
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: no kernel reduces %zu-byte elements; nothing was enqueued",
                          call, datatype_size(type));
  }
}

/// The checks every collective starts with: a live runtime and a team of this PE (its handle into *t).
runtime* start(const char* call, portshmem_team_t team, portshmem_team_handle_t* t, portshmem_status_t* s) {
  runtime* rt = live_runtime(call, s);
  if (!rt) return nullptr;
  if (*s = check_team(team, call, t); *s != PORTSHMEM_SUCCESS) return nullptr;
  return rt;
}

/// dest (symmetric, dest_bytes) and src (local, src_bytes) of a data collective, looked at only when they hold bytes.
portshmem_status_t check_buffers(const runtime& rt, void* dest, std::size_t dest_bytes, const void* src,
                                 std::size_t src_bytes, const char* call) {
  if (dest_bytes != 0) {
    if (auto s = check_symmetric(rt, dest, dest_bytes, call, "dest"); s != PORTSHMEM_SUCCESS) return s;
  }
  if (src_bytes != 0) return check_local(src, src_bytes, call, "src");
  return PORTSHMEM_SUCCESS;
}

} // namespace

extern "C" {

portshmem_status_t portshmem_team_barrier_on_stream(portshmem_team_t team, portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_team_barrier_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  return launched(launch_team_barrier(rt->ctx, t, to_stream(stream)), call);
}

portshmem_status_t portshmem_team_sync_on_stream(portshmem_team_t team, portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_team_sync_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  return launched(launch_team_sync(rt->ctx, t, to_stream(stream)), call);
}

portshmem_status_t portshmem_broadcastmem_on_stream(portshmem_team_t team, void* dest, const void* src, size_t nbytes,
                                                    int root, portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_broadcastmem_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  if (s = check_root(t, root, call); s != PORTSHMEM_SUCCESS) return s;
  // Only the root's src is read.
  const std::size_t src_bytes = t.my_index == root ? nbytes : 0;
  if (s = check_buffers(*rt, dest, nbytes, src, src_bytes, call); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_broadcast(rt->ctx, t, dest, src, nbytes, root, to_stream(stream)), call);
}

portshmem_status_t portshmem_fcollectmem_on_stream(portshmem_team_t team, void* dest, const void* src, size_t nbytes,
                                                   portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_fcollectmem_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  std::size_t dest_bytes = 0;
  if (s = checked_product(nbytes, std::size_t(t.size), &dest_bytes, call, "dest's bytes (nbytes times the team size)");
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (s = check_buffers(*rt, dest, dest_bytes, src, nbytes, call); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_fcollect(rt->ctx, t, dest, src, nbytes, to_stream(stream)), call);
}

portshmem_status_t portshmem_alltoallmem_on_stream(portshmem_team_t team, void* dest, const void* src, size_t nbytes,
                                                   portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_alltoallmem_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  std::size_t bytes = 0;
  if (s = checked_product(nbytes, std::size_t(t.size), &bytes, call,
                          "the bytes of dest and src (nbytes times the "
                          "team size)");
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (s = check_buffers(*rt, dest, bytes, src, bytes, call); s != PORTSHMEM_SUCCESS) return s;
  return launched(launch_alltoall(rt->ctx, t, dest, src, nbytes, to_stream(stream)), call);
}

portshmem_status_t portshmem_reduce_on_stream(portshmem_team_t team, void* dest, const void* src, size_t count,
                                              portshmem_datatype_t type, portshmem_reduce_op_t op,
                                              portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_reduce_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  std::size_t element = 0, bytes = 0;
  if (s = check_reduction(type, op, call, &element); s != PORTSHMEM_SUCCESS) return s;
  if (s = checked_product(count, element, &bytes, call, "the bytes of dest and src (count times the element size)");
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (s = check_buffers(*rt, dest, bytes, src, bytes, call); s != PORTSHMEM_SUCCESS) return s;
  return enqueue_reduction<reduction::reduce>(rt->ctx, t, dest, src, count, type, op, to_stream(stream), call);
}

portshmem_status_t portshmem_reduce_scatter_on_stream(portshmem_team_t team, void* dest, const void* src, size_t count,
                                                      portshmem_datatype_t type, portshmem_reduce_op_t op,
                                                      portshmem_stream_t stream) {
  constexpr const char* call = "portshmem_reduce_scatter_on_stream";
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  portshmem_team_handle_t t{};
  runtime* rt = start(call, team, &t, &s);
  if (!rt) return s;
  std::size_t element = 0, dest_bytes = 0, src_bytes = 0;
  if (s = check_reduction(type, op, call, &element); s != PORTSHMEM_SUCCESS) return s;
  if (s = checked_product(count, element, &dest_bytes, call, "dest's bytes (count times the element size)");
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (s = checked_product(dest_bytes, std::size_t(t.size), &src_bytes, call,
                          "src's bytes (count times the element size times the team size)");
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (s = check_buffers(*rt, dest, dest_bytes, src, src_bytes, call); s != PORTSHMEM_SUCCESS) return s;
  return enqueue_reduction<reduction::reduce_scatter>(rt->ctx, t, dest, src, count, type, op, to_stream(stream), call);
}

} // extern "C"
