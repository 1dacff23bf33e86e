// The consumer side of the reverse-offload queue (protocol: portshmem/transport/proxy_queue.h): one progress thread
// per PE drains every ring in ticket order, executes each command through the network and publishes completions.
// A network failure becomes the ring's error status (which the waiting producers return) and one log line naming
// the target PE, the call and the address; it never leaves a producer spinning.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "portshmem/status.h"
#include "portshmem/transport/proxy_queue.h"
#include "rdma/network.hpp"
#include "rdma/rings.hpp"

namespace portshmem::rdma {

class proxy {
 public:
  struct options {
    unsigned rings = 1;              ///< rings to drain (one per issuing block, or a fixed number per PE)
    std::uint32_t capacity = 256;    ///< slots per ring: a power of two, at least 2
    bool counters_on_device = false; ///< ticket counters in device memory (only kernels post)
  };

  /// Makes the rings and a proxy that executes their commands through net (which must outlive it). Not started.
  static portshmem_status_t create(network& net, const options& o, std::unique_ptr<proxy>* out);
  ~proxy();
  proxy(const proxy&) = delete;
  proxy& operator=(const proxy&) = delete;

  const ring_set& rings() const { return *rings_; }

  /// Starts the progress thread.
  portshmem_status_t start();
  /// Executes what is published, completes it at its targets (flush_all) and joins the thread. Producers must have
  /// stopped posting. Returns the first failure the proxy saw, or success.
  portshmem_status_t stop();
  /// One pass over every ring without the thread (tests, and a host-side quiet): executes up to `budget` published
  /// commands per ring; returns how many it executed.
  std::size_t poll(std::size_t budget = 64);
  /// Commands executed so far.
  std::uint64_t executed() const { return executed_.load(std::memory_order_relaxed); }

 private:
  /// What the proxy knows of one ring besides the shared memory.
  struct cursor {
    std::uint64_t head = 0;                 // next ticket to execute
    std::uint64_t consumed = 0;             // last value stored to state.consumed
    std::deque<std::uint64_t> awaiting_ack; // tickets whose result cell the producer has not yet read
  };

  proxy(network& net, std::unique_ptr<ring_set> rings);
  std::size_t drain(unsigned index, std::size_t budget);
  void release_slots(const portshmem_proxy_ring_t& r, cursor& cur);
  void record_failure(unsigned index, const portshmem_proxy_cmd_t& cmd, std::uint64_t ticket, portshmem_status_t status,
                      const std::string& why);
  void run();

  network& net_;
  std::unique_ptr<ring_set> rings_;
  std::vector<cursor> cursors_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::atomic<std::uint64_t> executed_{0};
  portshmem_status_t first_error_ = PORTSHMEM_SUCCESS;
  unsigned logged_errors_ = 0;
};

/// Executes one command through net: the network calls its op needs, with the completion its op promises
/// (portshmem/transport/proxy_queue.h). A fetched value goes to *fetched, or to cmd.local when that is set. On failure
/// *why says what failed (the network's last_error, or what is malformed about the command).
portshmem_status_t execute_command(network& net, const portshmem_proxy_cmd_t& cmd, std::uint64_t* fetched,
                                   std::string* why);

/// Short name of an op for messages ("put", "compare_swap", "quiet").
const char* command_name(const portshmem_proxy_cmd_t& cmd);

} // namespace portshmem::rdma
