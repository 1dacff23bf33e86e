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
  /// Host-side quiet (portshmem_barrier_all): every command published before the call is executed and complete at its
  /// target (the network's flush_all) when it returns — done by the progress thread while it runs, else here.
  /// PORTSHMEM_ERR_TIMEOUT after timeout_ns (0: no bound); otherwise the flush's status.
  portshmem_status_t quiet(std::uint64_t timeout_ns);
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
  /// The progress thread's part of a host-side quiet: flush what it executed, answer request `asked`.
  void serve_quiet(std::uint64_t asked);
  /// Completes at their targets the commands executed since the last flush: an idle proxy does it, so a network
  /// that may hold operations back until a flush (MPI passive target does not promise progress otherwise) delivers
  /// everything without waiting for a device-side quiet that may never come (a lone signal, a barrier arrival).
  void flush_executed();

  network& net_;
  std::unique_ptr<ring_set> rings_;
  std::vector<cursor> cursors_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::atomic<std::uint64_t> executed_{0};
  portshmem_status_t first_error_ = PORTSHMEM_SUCCESS;
  unsigned logged_errors_ = 0;
  bool unflushed_ = false; // commands executed since the last flush_all (progress thread only)
  std::atomic<std::uint64_t> quiet_asked_{0}, quiet_done_{0}; // host-side quiet requests, and the last one answered
  std::atomic<portshmem_status_t> quiet_status_{PORTSHMEM_SUCCESS};
};

/// Executes one command through net: the network calls its op needs, with the completion its op promises
/// (portshmem/transport/proxy_queue.h). A fetched value goes to *fetched, or to cmd.local when that is set. On failure
/// *why says what failed (the network's last_error, or what is malformed about the command).
portshmem_status_t execute_command(network& net, const portshmem_proxy_cmd_t& cmd, std::uint64_t* fetched,
                                   std::string* why);

/// Short name of an op for messages ("put", "compare_swap", "quiet").
const char* command_name(const portshmem_proxy_cmd_t& cmd);

} // namespace portshmem::rdma
