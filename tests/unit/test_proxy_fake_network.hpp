// A network for the proxy's unit tests: every PE's heap is a byte array here, operations apply at once in issue
// order, and every call is recorded as an event; a call can be made to fail.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "rdma/network.hpp"

namespace proxy_test {

struct event {
  enum kind { put, put_inline, get, atomic, order, order_all, complete_local, flush, flush_all } what;
  int pe = -1;
  std::uint64_t remote = 0, size = 0, value = 0;
  portshmem_proxy_amo_t amo = PORTSHMEM_PROXY_AMO_FETCH;
};

class fake_network final : public portshmem::rdma::network {
 public:
  fake_network(int pes, std::size_t heap_bytes) : heaps(std::size_t(pes), std::vector<std::uint8_t>(heap_bytes)) {}

  std::vector<std::vector<std::uint8_t>> heaps;
  /// The event index (0-based, counting every call) that fails, and how; -1: none fails.
  long fail_at = -1;
  portshmem_status_t fail_status = portshmem::rdma::kNetworkError;
  /// Called for every event after it is recorded, on the proxy's thread.
  std::function<void(const event&)> on_event;

  std::vector<event> events() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  std::uint64_t word(int pe, std::uint64_t remote) const {
    std::uint64_t v;
    std::memcpy(&v, heaps[pe].data() + remote, 8);
    return v;
  }

  const char* name() const override { return "fake"; }
  portshmem_status_t put(int pe, std::uint64_t remote, const void* local, std::size_t bytes, std::uint32_t) override {
    if (auto s = record({event::put, pe, remote, bytes, first_word(local, bytes)}); s) return s;
    std::memcpy(heaps[pe].data() + remote, local, bytes);
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t put_inline(int pe, std::uint64_t remote, const void* local, std::size_t bytes,
                                std::uint32_t) override {
    if (auto s = record({event::put_inline, pe, remote, bytes, first_word(local, bytes)}); s) return s;
    std::memcpy(heaps[pe].data() + remote, local, bytes);
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t get(int pe, std::uint64_t remote, void* local, std::size_t bytes, std::uint32_t) override {
    if (auto s = record({event::get, pe, remote, bytes, 0}); s) return s;
    std::memcpy(local, heaps[pe].data() + remote, bytes);
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t atomic(int pe, std::uint64_t remote, const portshmem::rdma::amo_request& op,
                            std::uint64_t* fetched, std::uint32_t) override {
    if (auto s = record({event::atomic, pe, remote, op.width, op.value, op.kind}); s) return s;
    std::uint8_t* p = heaps[pe].data() + remote;
    const std::uint64_t mask = op.width == 8 ? ~0ull : 0xffffffffull;
    std::uint64_t old = 0;
    std::memcpy(&old, p, op.width);
    const std::uint64_t v = op.value & mask;
    std::uint64_t next = old;
    switch (op.kind) {
    case PORTSHMEM_PROXY_AMO_FETCH:
      break;
    case PORTSHMEM_PROXY_AMO_SET:
    case PORTSHMEM_PROXY_AMO_SWAP:
      next = v;
      break;
    case PORTSHMEM_PROXY_AMO_COMPARE_SWAP:
      next = old == (op.compare & mask) ? v : old;
      break;
    case PORTSHMEM_PROXY_AMO_FETCH_ADD:
    case PORTSHMEM_PROXY_AMO_ADD:
      next = (old + v) & mask;
      break;
    case PORTSHMEM_PROXY_AMO_FETCH_AND:
    case PORTSHMEM_PROXY_AMO_AND:
      next = old & v;
      break;
    case PORTSHMEM_PROXY_AMO_FETCH_OR:
    case PORTSHMEM_PROXY_AMO_OR:
      next = old | v;
      break;
    default:
      next = old ^ v;
      break;
    }
    std::memcpy(p, &next, op.width);
    if (fetched) *fetched = old;
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t order(int pe) override { return record({event::order, pe}); }
  portshmem_status_t order_all() override { return record({event::order_all}); }
  portshmem_status_t complete_local(int pe) override { return record({event::complete_local, pe}); }
  portshmem_status_t flush(int pe) override { return record({event::flush, pe}); }
  portshmem_status_t flush_all() override { return record({event::flush_all}); }
  bool needs_flush_to_deliver() const override { return flush_to_deliver; }
  /// What needs_flush_to_deliver answers (an MPI-like network: true).
  bool flush_to_deliver = false;

 private:
  static std::uint64_t first_word(const void* p, std::size_t bytes) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, bytes < 8 ? bytes : 8);
    return v;
  }
  portshmem_status_t record(const event& e) {
    long index;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      index = long(events_.size());
      events_.push_back(e);
    }
    if (on_event) on_event(e);
    if (index == fail_at) return fail(fail_status, "fake: link down at event " + std::to_string(index));
    return PORTSHMEM_SUCCESS;
  }

  mutable std::mutex mutex_;
  std::vector<event> events_;
};

} // namespace proxy_test
