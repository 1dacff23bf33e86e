// The small host calls: barrier, transports, the device handle, device error reports, version.
#include <atomic>
#include <cstring>
#include <vector>

#include "log.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "runtime.hpp"

using namespace portshmem::detail;

namespace {

const char* call_name(std::uint32_t call) {
  switch (call) {
  case PORTSHMEM_CALL_PUT:
    return "put";
  case PORTSHMEM_CALL_GET:
    return "get";
  case PORTSHMEM_CALL_P:
    return "p";
  case PORTSHMEM_CALL_G:
    return "g";
  case PORTSHMEM_CALL_PTR:
    return "ptr";
  case PORTSHMEM_CALL_WAIT:
    return "wait_until";
  case PORTSHMEM_CALL_BARRIER:
    return "barrier";
  case PORTSHMEM_CALL_AMO:
    return "atomic";
  case PORTSHMEM_CALL_SIGNAL:
    return "signal";
  case PORTSHMEM_CALL_FENCE:
    return "fence";
  case PORTSHMEM_CALL_QUIET:
    return "quiet";
  case PORTSHMEM_CALL_COLLECTIVE:
    return "team collective";
  default:
    return "device call";
  }
}

} // namespace

extern "C" {

portshmem_status_t portshmem_barrier_all(void) {
  runtime* rt = current();
  if (!rt) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_INITIALIZED,
                          "portshmem_barrier_all called before portshmem_init or after portshmem_finalize");
  }
  // Device work of this PE first (its puts are then complete), then the stores of host threads, then everyone.
  if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "portshmem_barrier_all: device synchronization failed: %s",
                          hipGetErrorString(e));
  }
  // Then what device code posted to a transport (nbi puts through the proxy): complete at its targets. A failure is
  // returned after the barrier, which the other PEs are entering.
  portshmem_status_t quieted = PORTSHMEM_SUCCESS;
  for (auto& link : rt->links) {
    if (auto s = link->quiet(); s != PORTSHMEM_SUCCESS && quieted == PORTSHMEM_SUCCESS) {
      quieted = PORTSHMEM_FAIL(s,
                               "portshmem_barrier_all: completing what device code sent through the %s transport "
                               "failed (%s; the line above says what); its operations may not have arrived",
                               portshmem_transport_string(link->kind()), portshmem_status_string(s));
    }
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (rt->cfg.timeout_ns == 0) {
    const portshmem_status_t s = rt->boot->barrier();
    return s != PORTSHMEM_SUCCESS ? s : quieted;
  }
  std::vector<int> late;
  const portshmem_status_t s = rt->boot->bounded_barrier(rt->cfg.timeout_ns, &late);
  if (s != PORTSHMEM_ERR_TIMEOUT) return s != PORTSHMEM_SUCCESS ? s : quieted;
  return PORTSHMEM_FAIL(PORTSHMEM_ERR_TIMEOUT,
                        "portshmem_barrier_all gave up after %s (PORTSHMEM_TIMEOUT): %s did not arrive (stuck, dead, "
                        "or skipped the call); the barrier stays open, the next portshmem_barrier_all waits for it "
                        "first, and a call that contains one (free, finalize) did nothing else: end the job",
                        format_duration_ns(rt->cfg.timeout_ns).c_str(), describe_pes(late).c_str());
}

portshmem_transport_t portshmem_transport(int pe) {
  runtime* rt = current();
  if (!rt || pe < 0 || pe >= rt->boot->size()) return PORTSHMEM_TRANSPORT_NONE;
  return rt->transports[pe];
}

const char* portshmem_transport_string(portshmem_transport_t transport) {
  switch (transport) {
  case PORTSHMEM_TRANSPORT_SELF:
    return "self";
  case PORTSHMEM_TRANSPORT_IPC:
    return "ipc";
  case PORTSHMEM_TRANSPORT_RDMA:
    return "rdma";
  default:
    return "none";
  }
}

portshmem_status_t portshmem_get_ctx(portshmem_ctx_t* ctx) {
  runtime* rt = current();
  if (!rt) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_INITIALIZED,
                          "portshmem_get_ctx called before portshmem_init or after portshmem_finalize");
  }
  if (!ctx) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_get_ctx: ctx is NULL");
  *ctx = rt->ctx;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t portshmem_check_device_errors(void) {
  runtime* rt = current();
  if (!rt) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_INITIALIZED,
                          "portshmem_check_device_errors called before portshmem_init or after portshmem_finalize");
  }
  (void)hipDeviceSynchronize(); // a trapped kernel fails here; the record is in host memory and still readable
  portshmem_device_error_t e;
  std::memcpy(&e, rt->device_error, sizeof e);
  if (e.count == 0) return PORTSHMEM_SUCCESS;
  std::memset(rt->device_error, 0, sizeof e);
  PORTSHMEM_LOG(error,
                "device code made %llu bad call(s); the first: %s by PE %d naming PE %d, address %p, %llu bytes: %s",
                (unsigned long long)e.count, call_name(e.call), e.pe, e.target_pe,
                reinterpret_cast<void*>(std::uintptr_t(e.address)), (unsigned long long)e.size,
                portshmem_status_string(portshmem_status_t(e.status)));
  return PORTSHMEM_ERR_DEVICE;
}

const char* portshmem_version_string(void) {
  return "portshmem " PORTSHMEM_VERSION_STRING " (" PORTSHMEM_PLATFORM_NAME " platform)";
}

void portshmem_info_get_version(int* major, int* minor) {
  if (major) *major = PORTSHMEM_VERSION_MAJOR;
  if (minor) *minor = PORTSHMEM_VERSION_MINOR;
}

const char* portshmem_platform(void) {
  return PORTSHMEM_PLATFORM_NAME;
}

} // extern "C"
