// The small host calls: barrier, transports, the device handle, device error reports, version.
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
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

/// The call a timed-out wait on memory was made in (the call ids are coarse: a signal call that waits is the wait).
const char* waiting_call_name(std::uint32_t call) {
  switch (call) {
  case PORTSHMEM_CALL_SIGNAL:
    return "signal_wait_until";
  case PORTSHMEM_CALL_BARRIER:
    return "device barrier (barrier_all/sync_all)";
  default:
    return call_name(call);
  }
}

const char* cmp_symbol(std::uint8_t cmp) {
  static const char* const kSymbols[] = {"==", "!=", ">", ">=", "<", "<="}; // portshmem::cmp's order, + 1
  return cmp >= 1 && cmp <= 6 ? kSymbols[cmp - 1] : "(compared)";
}

/// A waited-on value as its type prints it (size and seen hold it converted to uint64_t).
std::string value_text(std::uint64_t v, bool is_signed) {
  char text[32];
  if (is_signed) {
    std::snprintf(text, sizeof text, "%" PRId64, std::int64_t(v));
  } else {
    std::snprintf(text, sizeof text, "%" PRIu64, v);
  }
  return text;
}

/// Logs the first record of a wait that timed out (one line: PE, call, address, awaited and seen values, the PE
/// that should have written the word) and returns PORTSHMEM_ERR_TIMEOUT.
portshmem_status_t report_timeout(const runtime& rt, const portshmem_device_error_t& e) {
  const std::string after = format_duration_ns(rt.cfg.timeout_ns);
  const std::string awaited = value_text(e.size, e.value_signed), seen = value_text(e.seen, e.value_signed);
  const void* address = reinterpret_cast<void*>(std::uintptr_t(e.address));
  const std::string more = e.count > 1 ? "; " + std::to_string(e.count - 1) + " more device error(s) after it" : "";
  if (e.wait_kind == PORTSHMEM_WAIT_PROXY_SLOT || e.wait_kind == PORTSHMEM_WAIT_PROXY_COMPLETED) {
    const bool slot = e.wait_kind == PORTSHMEM_WAIT_PROXY_SLOT;
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_TIMEOUT,
                          "PE %d: %s naming PE %d at %p gave up after %s (PORTSHMEM_TIMEOUT) waiting for %s (its %s "
                          "count to reach %s, last seen %s): this PE's RDMA proxy thread is stuck, or a network "
                          "operation to PE %d never completed; the kernel was stopped%s",
                          e.pe, call_name(e.call), e.target_pe, address, after.c_str(),
                          slot ? "a free slot in the RDMA proxy's ring" : "the RDMA proxy to complete it",
                          slot ? "consumed" : "completed", awaited.c_str(), seen.c_str(), e.target_pe, more.c_str());
  }
  const std::string writer = e.awaited_pe >= 0 ? "PE " + std::to_string(e.awaited_pe) +
                                                     " should have written it (stuck, dead, or skipped the call)"
                                               : "no PE wrote it (a wait on a variable cannot know which PE should)";
  return PORTSHMEM_FAIL(
      PORTSHMEM_ERR_TIMEOUT,
      "PE %d: %s gave up after %s (PORTSHMEM_TIMEOUT) waiting at %p for a value %s %s (last seen %s); "
      "%s; the kernel was stopped%s",
      e.pe, waiting_call_name(e.call), after.c_str(), address, cmp_symbol(e.cmp), awaited.c_str(), seen.c_str(),
      writer.c_str(), more.c_str());
}

/// Where a bad call's address lies in this PE's heap, and why it was refused there, as the end of the report line:
/// the reserved areas, the block it is in (and how far the range runs past it), free space; a misaligned word. Empty
/// for an address outside the heap.
std::string place_of(runtime& rt, const portshmem_device_error_t& e) {
  if (e.status != PORTSHMEM_ERR_NOT_SYMMETRIC && e.status != PORTSHMEM_ERR_OVERFLOW &&
      e.status != PORTSHMEM_ERR_INVALID_ARG) {
    return "";
  }
  char text[256];
  const std::uint64_t size = e.size;
  if (e.status == PORTSHMEM_ERR_INVALID_ARG && (size == 2 || size == 4 || size == 8) && e.address % size != 0) {
    std::snprintf(text, sizeof text, "; the address is not aligned to the %llu-byte word it names",
                  (unsigned long long)size);
    return text;
  }
  const std::uint64_t offset = e.address - std::uint64_t(reinterpret_cast<std::uintptr_t>(rt.heap->local()));
  if (e.address == 0 || offset >= rt.cfg.heap_size) return "";
  if (offset < kInternalHeapBytes) {
    return "; the address is in the runtime's reserved area at the heap start (its first 64 KiB), which no "
           "allocation returns";
  }
  if (offset >= rt.teams.area_offset) {
    return "; the address is in the runtime's team area at the heap end, which no allocation returns";
  }
  std::lock_guard<std::mutex> lock(rt.published_mutex);
  const auto& blocks = rt.published_blocks;
  auto after = std::upper_bound(blocks.begin(), blocks.end(), std::make_pair(std::size_t(offset), ~std::size_t(0)));
  if (after != blocks.begin() && offset - std::prev(after)->first < std::prev(after)->second) {
    const auto [start, bytes] = *std::prev(after);
    const std::uint64_t into = offset - start, left = bytes - into;
    const int n = std::snprintf(text, sizeof text, "; the address is %llu bytes into the %zu-byte block at %p",
                                (unsigned long long)into, bytes, static_cast<void*>(rt.heap->local() + start));
    if (size > left && n > 0 && std::size_t(n) < sizeof text) {
      if (size - left < rt.cfg.heap_size) {
        std::snprintf(text + n, sizeof text - std::size_t(n), ", and the range runs %llu bytes past its end",
                      (unsigned long long)(size - left));
      } else {
        std::snprintf(text + n, sizeof text - std::size_t(n),
                      ", and the range runs past its end (a size larger than "
                      "the heap: a negative size converted?)");
      }
    }
    return text;
  }
  if (size > rt.teams.area_offset - offset) {
    return "; the address is in free heap space (no live allocation) and the range runs into the runtime's team area "
           "at the heap end";
  }
  return "; the address is in free heap space (no live allocation: freed, or never allocated)";
}

/// Logs and clears what device code recorded: PORTSHMEM_SUCCESS when nothing, PORTSHMEM_ERR_TIMEOUT when the first
/// record is a wait that timed out, PORTSHMEM_ERR_DEVICE for a bad call.
portshmem_status_t report_device_errors(runtime& rt) {
  portshmem_device_error_t e;
  std::memcpy(&e, rt.device_error, sizeof e);
  if (e.count == 0) return PORTSHMEM_SUCCESS;
  std::memset(rt.device_error, 0, sizeof e);
  if (e.status == PORTSHMEM_ERR_TIMEOUT && e.wait_kind != PORTSHMEM_WAIT_NONE) return report_timeout(rt, e);
  PORTSHMEM_LOG(error,
                "device code made %llu bad call(s); the first: %s by PE %d naming PE %d, address %p, %llu bytes: %s%s",
                (unsigned long long)e.count, call_name(e.call), e.pe, e.target_pe,
                reinterpret_cast<void*>(std::uintptr_t(e.address)), (unsigned long long)e.size,
                portshmem_status_string(portshmem_status_t(e.status)), place_of(rt, e).c_str());
  return PORTSHMEM_ERR_DEVICE;
}

} // namespace

bool portshmem::detail::device_wait_timed_out(const runtime& rt) {
  portshmem_device_error_t e;
  std::memcpy(&e, rt.device_error, sizeof e);
  return e.count != 0 && e.status == PORTSHMEM_ERR_TIMEOUT;
}

extern "C" {

portshmem_status_t portshmem_barrier_all(void) {
  runtime* rt = current();
  if (!rt) {
    return PORTSHMEM_FAIL_NOT_RUNNING("portshmem_barrier_all");
  }
  // Device work of this PE first (its puts are then complete), then the stores of host threads, then everyone.
  // A kernel that trapped on a timed-out wait fails the synchronization on a GPU (and leaves the device unusable):
  // its record says why, so it is printed here too, for a program that did not check. This PE then does not enter
  // the barrier (the others give up on it within PORTSHMEM_TIMEOUT): the job should end.
  if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess) {
    (void)report_device_errors(*rt);
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "portshmem_barrier_all: device synchronization failed: %s",
                          hipGetErrorString(e));
  }
  if (device_wait_timed_out(*rt)) { // the host platform: its trapped kernel's launch failed; synchronization cannot
    const portshmem_status_t s = report_device_errors(*rt);
    PORTSHMEM_LOG(error, "portshmem_barrier_all: a kernel of this PE was stopped (the line above), so this PE does "
                         "not enter the barrier: end the job");
    return s;
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
                        "first, and a portshmem_free that contains it did nothing else: end the job",
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
    return PORTSHMEM_FAIL_NOT_RUNNING("portshmem_get_ctx");
  }
  if (!ctx) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_get_ctx: ctx is NULL");
  *ctx = rt->ctx;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t portshmem_check_device_errors(void) {
  runtime* rt = current();
  if (!rt) {
    return PORTSHMEM_FAIL_NOT_RUNNING("portshmem_check_device_errors");
  }
  (void)hipDeviceSynchronize(); // a trapped kernel fails here; the record is in host memory and still readable
  return report_device_errors(*rt);
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
