// The network behind the proxy: one-sided operations on the other PEs' symmetric heaps, addressed by heap offset,
// with explicit ordering and completion. One object per job, used by the proxy thread only. Implementations: MPI
// one-sided (net_mpi.cpp) and ibverbs (net_ibverbs.cpp); tests use fakes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "portshmem/status.h"
#include "portshmem/transport/proxy_queue.h"

namespace portshmem::rdma {

/// The status a failed network operation reports.
inline constexpr portshmem_status_t kNetworkError = PORTSHMEM_ERR_NETWORK;

/// One atomic: kind on width (4 or 8) bytes; value is the operand (compare_swap: the new value), compare the
/// compare_swap's expected value. Only the low width bytes of value and compare count.
struct amo_request {
  portshmem_proxy_amo_t kind;
  unsigned width;
  std::uint64_t value;
  std::uint64_t compare;
};

/// Whether kind returns the previous value.
constexpr bool amo_fetches(portshmem_proxy_amo_t kind) {
  return kind == PORTSHMEM_PROXY_AMO_FETCH ||
         (kind >= PORTSHMEM_PROXY_AMO_SWAP && kind <= PORTSHMEM_PROXY_AMO_FETCH_XOR);
}

class network {
 public:
  virtual ~network() = default;
  network() = default;
  network(const network&) = delete;
  network& operator=(const network&) = delete;

  /// "mpi", "ibverbs", ... for logs.
  virtual const char* name() const = 0;

  // ---- issue: each returns once the operation is handed to the network; none orders against another ----------
  // qualifier: the call's memory-model bits (portshmem_proxy_cmd_t.qualifier), for networks that can use them.

  /// bytes from local to pe's heap at offset remote; local may be reused after complete_local(pe).
  virtual portshmem_status_t put(int pe, std::uint64_t remote, const void* local, std::size_t bytes,
                                 std::uint32_t qualifier) = 0;
  /// The same with bytes (at most 8) the network copies before returning: local may be reused at once.
  virtual portshmem_status_t put_inline(int pe, std::uint64_t remote, const void* local, std::size_t bytes,
                                        std::uint32_t qualifier) = 0;
  /// bytes from pe's heap at offset remote to local; they have arrived after complete_local(pe).
  virtual portshmem_status_t get(int pe, std::uint64_t remote, void* local, std::size_t bytes,
                                 std::uint32_t qualifier) = 0;
  /// An atomic on pe's heap at offset remote, atomic with every other atomic of this network on that location. A
  /// fetching kind's previous value, zero-extended, is in *fetched after complete_local(pe) (fetched may be null
  /// otherwise).
  virtual portshmem_status_t atomic(int pe, std::uint64_t remote, const amo_request& op, std::uint64_t* fetched,
                                    std::uint32_t qualifier) = 0;

  // ---- ordering and completion ---------------------------------------------------------------------------------
  /// Operations issued to pe after this call are delivered after those issued before (put-with-signal).
  virtual portshmem_status_t order(int pe) = 0;
  /// The same for every PE (fence).
  virtual portshmem_status_t order_all() = 0;
  /// Operations issued to pe are complete here: sources may be reused, get data and fetched values have arrived.
  virtual portshmem_status_t complete_local(int pe) = 0;
  /// Operations issued to pe are complete at pe: visible to its loads and its later operations (pe_quiet).
  virtual portshmem_status_t flush(int pe) = 0;
  /// flush for every PE (quiet).
  virtual portshmem_status_t flush_all() = 0;
  /// Called while the proxy has nothing to do, for networks that need the CPU to make progress.
  virtual void progress() {}
  /// Whether issued operations may wait for a flush to reach their targets (MPI passive target promises no progress
  /// otherwise): then an idle proxy flushes what it executed, so a lone signal or barrier arrival is delivered.
  virtual bool needs_flush_to_deliver() const { return false; }

  /// Why the last failed call failed, one clause naming the network call ("MPI_Put: MPI_ERR_RANK: invalid rank").
  const std::string& last_error() const { return error_; }

 protected:
  /// Records why and returns status, so an implementation fails in one statement.
  portshmem_status_t fail(portshmem_status_t status, std::string why) {
    error_ = std::move(why);
    return status;
  }

 private:
  std::string error_;
};

} // namespace portshmem::rdma
