// The load/store transport's host side: where device code finds the mapped heaps (transport/ipc.hpp): a table in
// device memory (ctx::peer_heaps) and, when the heaps lie in one symmetric range, the range's description. The heaps
// themselves are the heap backend's (src/ipc/).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "runtime.hpp"
#include "transport.hpp"

namespace portshmem::detail {
namespace {

/// Fills ctx's symmetric-range fields when the mapped heaps (user_parts) are those of consecutive PEs at one fixed
/// stride, as the heap backends lay them out under PORTSHMEM_SYMMETRIC_RANGE=auto; leaves them 0 (the table)
/// otherwise. Judged from the addresses themselves, so device code's arithmetic always agrees with the table.
void describe_range(const config& cfg, const std::vector<char*>& user_parts, portshmem_ctx_t& ctx) {
  ctx.peer_stride = 0;
  ctx.mapped_first = ctx.mapped_count = 0;
  // AMD's device code is built without the range (portshmem/platform.hpp): nothing to describe.
  if (!PORTSHMEM_HAS_SYMMETRIC_RANGE || cfg.symmetric_range == symmetric_range_choice::off) return;
  int first = -1, last = -1;
  for (int pe = 0; pe < int(user_parts.size()); ++pe) {
    if (!user_parts[std::size_t(pe)]) continue;
    if (first < 0) first = pe;
    last = pe;
  }
  if (first < 0) return;
  // Every PE from first to last mapped, each one stride past the one before (a hole or another spacing: the table).
  const char* const base = user_parts[std::size_t(first)];
  const char* const next = last > first ? user_parts[std::size_t(first) + 1] : nullptr;
  const std::ptrdiff_t stride = next ? next - base : 0;
  for (int pe = first + 1; pe <= last; ++pe) {
    const char* const at = user_parts[std::size_t(pe)];
    if (!at || at != base + std::ptrdiff_t(pe - first) * stride) {
      PORTSHMEM_LOG(info,
                    "the mapped heaps are not consecutive PEs at one stride (PE %d's %s): device code looks peers "
                    "up in the table",
                    pe, at ? "breaks the stride" : "is not mapped");
      return;
    }
  }
  // A range of one heap (this PE's own: every peer is proxied) works with any stride but 0.
  ctx.peer_stride = stride != 0 ? std::int64_t(stride) : std::int64_t(kHeapBaseAlignment);
  ctx.mapped_first = first;
  ctx.mapped_count = last - first + 1;
  PORTSHMEM_LOG(info, "PEs %d-%d: heaps in one symmetric range, %lld bytes apart (device code loads no peer table)",
                first, last, static_cast<long long>(ctx.peer_stride));
}

class ipc_transport final : public transport {
 public:
  explicit ipc_transport(runtime& rt) : rt_(rt) {}
  ~ipc_transport() override {
    if (table_) (void)hipFree(table_); // teardown: nothing left to protect if it fails
  }

  portshmem_transport_t kind() const override { return PORTSHMEM_TRANSPORT_IPC; }
  bool reaches(int pe) const override { return rt_.peer_heaps[std::size_t(pe)] != nullptr; }

  portshmem_status_t fill_handle(portshmem_ctx_t& ctx) override {
    // Each mapped heap at the point that matches ctx.heap: the start of its user part, past the reserved area.
    std::vector<char*> user_parts(rt_.peer_heaps.size(), nullptr);
    for (std::size_t pe = 0; pe < user_parts.size(); ++pe) {
      if (rt_.peer_heaps[pe]) user_parts[pe] = rt_.peer_heaps[pe] + kInternalHeapBytes;
    }
    const std::size_t bytes = user_parts.size() * sizeof(char*);
    if (hipMalloc(&table_, bytes) != hipSuccess ||
        hipMemcpy(table_, user_parts.data(), bytes, hipMemcpyHostToDevice) != hipSuccess) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "could not place the %zu-byte peer table in device memory", bytes);
    }
    ctx.peer_heaps = table_;
    describe_range(rt_.cfg, user_parts, ctx);
    return PORTSHMEM_SUCCESS;
  }

 private:
  runtime& rt_;
  char** table_ = nullptr;
};

} // namespace

std::unique_ptr<transport> make_ipc_transport(runtime& rt) {
  return std::make_unique<ipc_transport>(rt);
}

} // namespace portshmem::detail
