// The load/store transport's host side: the table of mapped heaps, in device memory, that device code reads
// (ctx::peer_heaps; transport/ipc.hpp). The heaps themselves are the heap backend's (src/ipc/).
#include <vector>

#include "log.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "runtime.hpp"
#include "transport.hpp"

namespace portshmem::detail {
namespace {

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
