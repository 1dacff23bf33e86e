#include "gpu/premise_facts.hpp"

#include "portshmem/gpu_runtime.hpp"
#include "portshmem/platform.hpp"

#if PORTSHMEM_PLATFORM_AMD
#include <sys/utsname.h>

#include <cstdint>
#include <cstring>
#include <string>
#endif

namespace portshmem::detail {
namespace {

#if PORTSHMEM_PLATFORM_AMD

/// "hipErrorInvalidValue (invalid argument)" for a failed query. The failed call also set HIP's last error, which
/// is cleared so the application's next hipGetLastError does not report portshmem's probe.
std::string failure(const char* call, hipError_t e) {
  (void)hipGetLastError();
  return std::string(call) + " failed: " + hipGetErrorName(e) + " (" + hipGetErrorString(e) + ")";
}

/// The architecture name, e.g. "gfx90a:sramecc+:xnack-"; empty when it cannot be read.
std::string gcn_arch_name(int device) {
  hipDeviceProp_t prop;
  std::memset(&prop, 0, sizeof prop);
  if (hipGetDeviceProperties(&prop, device) != hipSuccess) {
    (void)hipGetLastError();
    return {};
  }
  return std::string(prop.gcnArchName, strnlen(prop.gcnArchName, sizeof prop.gcnArchName));
}

/// What HIP reports about the coherence of [base, base + bytes) in this process: yes (fine-grained), no (coarse or
/// mixed) or unknown (the query failed), and the answer in words. HIP 5.2's only coherence query is
/// hipMemRangeGetAttribute(hipMemRangeAttributeCoherencyMode) (hip_runtime_api.h).
fact query_coherence(const void* base, std::size_t bytes, std::string* observed) {
  std::uint32_t mode = 0xffffffffu; // a hipMemRangeCoherencyMode; left alone by runtimes that have no answer
  const hipError_t e = hipMemRangeGetAttribute(&mode, sizeof mode, hipMemRangeAttributeCoherencyMode, base, bytes);
  if (e != hipSuccess) {
    *observed = failure("hipMemRangeGetAttribute(hipMemRangeAttributeCoherencyMode)", e);
    return fact::unknown;
  }
  switch (mode) {
  case hipMemRangeCoherencyModeFineGrain:
    *observed = "HIP reports fine-grained";
    return fact::yes;
  case hipMemRangeCoherencyModeCoarseGrain:
    *observed = "HIP reports coarse-grained";
    return fact::no;
  case hipMemRangeCoherencyModeIndeterminate:
    *observed = "HIP reports both fine- and coarse-grained pages in it";
    return fact::no;
  default:
    *observed = "HIP returned no coherency mode (" + std::to_string(mode) + ")";
    return fact::unknown;
  }
}

/// Whether the coherence query tells fine from coarse here: it must call a plain hipMalloc block (coarse-grained
/// device memory) coarse-grained. Some runtimes answer it from the kernel driver's defaults for managed (SVM)
/// memory — fine-grained — whatever the allocation, and then a "fine-grained" about the heap is no evidence.
fact check_coherence_query(std::string* observed) {
  constexpr std::size_t kControlBytes = 4096;
  void* control = nullptr;
  if (const hipError_t e = hipMalloc(&control, kControlBytes); e != hipSuccess) {
    *observed = failure("hipMalloc of a 4096-byte control block", e);
    return fact::unknown;
  }
  std::string answer;
  const fact fine = query_coherence(control, kControlBytes, &answer);
  (void)hipFree(control); // a failed free of the probe leaves nothing to protect
  *observed = "of a coarse-grained hipMalloc block, " + answer;
  return fine == fact::no ? fact::yes : fact::unknown;
}

mapping_fact query_mapping(int pe, bool own, const char* base, std::size_t bytes) {
  mapping_fact m;
  m.pe = pe;
  m.own = own;
  m.fine_grained = query_coherence(base, bytes, &m.observed);
  return m;
}

/// "HIP runtime 50221153, HIP driver 50221153, Linux 6.1.0-18-amd64, headers HIP 5.2".
std::string versions() {
  int runtime_version = 0, driver_version = 0;
  std::string text = "HIP runtime ";
  text += hipRuntimeGetVersion(&runtime_version) == hipSuccess ? std::to_string(runtime_version) : "unknown";
  text += ", HIP driver ";
  text += hipDriverGetVersion(&driver_version) == hipSuccess ? std::to_string(driver_version) : "unknown";
  (void)hipGetLastError();
  utsname host;
  text += ", Linux ";
  text += uname(&host) == 0 ? host.release : "unknown";
  text += ", headers HIP " + std::to_string(HIP_VERSION_MAJOR) + "." + std::to_string(HIP_VERSION_MINOR);
  return text;
}

premise_facts gather_amd(const runtime& rt) {
  premise_facts facts;
  facts.platform = platform_family::amd;
  facts.gpu_arch = gcn_arch_name(rt.heap->device());
  // By construction: portshmem_malloc_heap (portshmem/gpu_runtime.hpp) allocates the heap with
  // hipExtMallocWithFlags(..., hipDeviceMallocFinegrained). No HIP 5.2 query reads the flag back:
  // hipPointerGetAttributes' allocationFlags carries hipHostMalloc flags only. The coherence queries below check it.
  facts.heap_allocated_fine_grained = fact::yes;
  facts.coherence_query_trusted = check_coherence_query(&facts.coherence_query_observed);
  const int me = rt.boot->rank();
  for (int pe = 0; pe < int(rt.peer_heaps.size()); ++pe) {
    if (rt.peer_heaps[pe] == nullptr) continue; // no load/store path: no mapping to hold a premise about
    facts.mappings.push_back(query_mapping(pe, pe == me, rt.peer_heaps[pe], rt.cfg.heap_size));
  }
  facts.versions = versions();
  return facts;
}

#endif

} // namespace

premise_facts gather_premise_facts(const runtime& rt) {
#if PORTSHMEM_PLATFORM_AMD
  return gather_amd(rt);
#else
  (void)rt; // host and nvidia: the relaxed lowering rests on the C++ / PTX memory models, nothing to gather
  premise_facts facts;
  facts.platform = PORTSHMEM_PLATFORM_NVIDIA ? platform_family::nvidia : platform_family::host;
  return facts;
#endif
}

} // namespace portshmem::detail
