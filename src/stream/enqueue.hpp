// What every on-stream entry point does last (on_stream.cpp, collectives_on_stream.cpp): turn the caller's stream into
// the runtime's type and a launch's error into a status.
#pragma once

#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "portshmem/stream.h"

namespace portshmem::detail::on_stream {

/// The GPU runtime's stream behind a portshmem_stream_t (NULL: the default stream).
inline hipStream_t to_stream(portshmem_stream_t stream) {
  return static_cast<hipStream_t>(stream);
}

/// PORTSHMEM_SUCCESS for a launch that succeeded, PORTSHMEM_ERR_GPU (logged) otherwise.
inline portshmem_status_t launched(hipError_t e, const char* call) {
  if (e == hipSuccess) return PORTSHMEM_SUCCESS;
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "%s: launching the library's kernel on the stream failed: %s", call,
                        hipGetErrorString(e));
}

} // namespace portshmem::detail::on_stream
