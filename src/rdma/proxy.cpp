#include "rdma/proxy.hpp"

#include <chrono>
#include <cstring>

#include "log.hpp"

namespace portshmem::rdma {
namespace {

/// Error lines logged per proxy before it only counts them: a dead network fails every later command too.
constexpr unsigned kLoggedErrors = 16;

/// Empty passes the progress thread polls hot before it yields the core between passes.
constexpr unsigned kHotPasses = 1024;

template <class T>
T load(const T& v, std::memory_order o) {
  return std::atomic_ref<T>(const_cast<T&>(v)).load(o);
}
template <class T>
void store(T& v, T value, std::memory_order o) {
  std::atomic_ref<T>(v).store(value, o);
}

} // namespace

portshmem_status_t proxy::create(network& net, const options& o, std::unique_ptr<proxy>* out) {
  std::unique_ptr<ring_set> rings;
  if (auto s = ring_set::create(o.rings, o.capacity, o.counters_on_device, &rings); s != PORTSHMEM_SUCCESS) return s;
  out->reset(new proxy(net, std::move(rings)));
  return PORTSHMEM_SUCCESS;
}

proxy::proxy(network& net, std::unique_ptr<ring_set> rings)
    : net_(net), rings_(std::move(rings)), cursors_(rings_->count()) {}

proxy::~proxy() {
  if (thread_.joinable()) (void)stop();
}

portshmem_status_t proxy::start() {
  if (thread_.joinable()) return PORTSHMEM_SUCCESS;
  running_.store(true, std::memory_order_release);
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error& e) {
    running_.store(false, std::memory_order_release);
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "could not start the proxy's progress thread: %s", e.what());
  }
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t proxy::stop() {
  running_.store(false, std::memory_order_release);
  if (thread_.joinable()) thread_.join();
  while (poll() != 0) {
  } // what was published before the producers stopped
  if (auto s = net_.flush_all(); s != PORTSHMEM_SUCCESS) {
    PORTSHMEM_LOG(error, "proxy (%s network): the final flush failed: %s", net_.name(), net_.last_error().c_str());
    if (first_error_ == PORTSHMEM_SUCCESS) first_error_ = s;
  }
  return first_error_;
}

void proxy::run() {
  unsigned idle = 0;
  while (running_.load(std::memory_order_acquire)) {
    // Read before the pass: a request asked after the commands it covers were published, so a pass that starts
    // after this load and finds nothing has executed all of them.
    const std::uint64_t asked = quiet_asked_.load(std::memory_order_acquire);
    if (poll() != 0) {
      idle = 0;
      unflushed_ = net_.needs_flush_to_deliver();
      continue;
    }
    if (asked != quiet_done_.load(std::memory_order_relaxed)) {
      serve_quiet(asked);
      continue;
    }
    if (unflushed_) flush_executed();
    net_.progress();
    if (++idle > kHotPasses) std::this_thread::yield(); // PEs' proxies and kernels may share few cores
  }
}

void proxy::flush_executed() {
  unflushed_ = false;
  if (net_.flush_all() == PORTSHMEM_SUCCESS) return;
  // The commands themselves succeeded (each was completed as its op promises); a failure to complete them at their
  // targets is the network's, reported once like the final flush's.
  PORTSHMEM_LOG(error, "proxy (%s network): flushing executed commands failed: %s", net_.name(),
                net_.last_error().c_str());
  if (first_error_ == PORTSHMEM_SUCCESS) first_error_ = kNetworkError;
}

void proxy::serve_quiet(std::uint64_t asked) {
  unflushed_ = false;
  portshmem_status_t s = net_.flush_all();
  if (s != PORTSHMEM_SUCCESS) {
    PORTSHMEM_LOG(error, "proxy (%s network): a host-side quiet's flush failed: %s", net_.name(),
                  net_.last_error().c_str());
  }
  quiet_status_.store(s, std::memory_order_relaxed);
  quiet_done_.store(asked, std::memory_order_release);
}

portshmem_status_t proxy::quiet(std::uint64_t timeout_ns) {
  if (!running_.load(std::memory_order_acquire)) { // no thread: this caller is the only user of the network
    while (poll() != 0) {
    }
    unflushed_ = false;
    return net_.flush_all();
  }
  const std::uint64_t asked = quiet_asked_.fetch_add(1, std::memory_order_release) + 1;
  const auto start = std::chrono::steady_clock::now();
  while (quiet_done_.load(std::memory_order_acquire) < asked) {
    if (timeout_ns && std::chrono::steady_clock::now() - start > std::chrono::nanoseconds(timeout_ns)) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_TIMEOUT,
                            "host-side quiet of the RDMA proxy (%s network) gave up after PORTSHMEM_TIMEOUT: its "
                            "progress thread did not finish the commands device code posted (a network operation "
                            "that never completes?)",
                            net_.name());
    }
    std::this_thread::yield();
  }
  return quiet_status_.load(std::memory_order_relaxed);
}

std::size_t proxy::poll(std::size_t budget) {
  std::size_t done = 0;
  for (unsigned i = 0; i < rings_->count(); ++i) done += drain(i, budget);
  return done;
}

void proxy::release_slots(const portshmem_proxy_ring_t& r, cursor& cur) {
  const std::uint64_t mask = r.capacity - 1;
  while (!cur.awaiting_ack.empty()) {
    const std::uint64_t t = cur.awaiting_ack.front();
    if (load(r.results[t & mask].ack, std::memory_order_acquire) != t + 1) break;
    cur.awaiting_ack.pop_front();
  }
  const std::uint64_t consumed = cur.awaiting_ack.empty() ? cur.head : cur.awaiting_ack.front();
  if (consumed != cur.consumed) {
    cur.consumed = consumed;
    store(r.state->consumed, consumed, std::memory_order_release); // protocol step 4
  }
}

std::size_t proxy::drain(unsigned index, std::size_t budget) {
  const portshmem_proxy_ring_t& r = rings_->ring(index);
  cursor& cur = cursors_[index];
  const std::uint64_t mask = r.capacity - 1;
  std::size_t done = 0;
  for (; done < budget; ++done) {
    const std::uint64_t t = cur.head;
    const auto* words = reinterpret_cast<const std::uint64_t*>(r.slots + (t & mask));
    if (load(words[0], std::memory_order_acquire) != t + 1) break; // not yet published
    std::uint64_t copy[PORTSHMEM_PROXY_CMD_BYTES / 8] = {t + 1};
    for (unsigned i = 1; i < PORTSHMEM_PROXY_CMD_BYTES / 8; ++i) copy[i] = load(words[i], std::memory_order_relaxed);
    portshmem_proxy_cmd_t cmd;
    std::memcpy(&cmd, copy, sizeof cmd);
    const bool uses_cell = PORTSHMEM_PROXY_USES_CELL(cmd.op, cmd.kind, cmd.local);
    cur.head = t + 1;
    if (uses_cell) cur.awaiting_ack.push_back(t);
    release_slots(r, cur); // the slot is copied out: producers may reuse it while the command executes

    std::uint64_t fetched = 0;
    std::string why;
    const portshmem_status_t status = execute_command(net_, cmd, &fetched, &why);
    if (uses_cell) store(r.results[t & mask].value, fetched, std::memory_order_relaxed); // published by step 6
    if (status != PORTSHMEM_SUCCESS) record_failure(index, cmd, t, status, why);
    store(r.state->completed, t + 1, std::memory_order_release); // protocol step 6
    executed_.fetch_add(1, std::memory_order_relaxed);
  }
  if (done == 0) release_slots(r, cur); // acks may have come in
  return done;
}

void proxy::record_failure(unsigned index, const portshmem_proxy_cmd_t& cmd, std::uint64_t ticket,
                           portshmem_status_t status, const std::string& why) {
  portshmem_proxy_ring_state_t& s = *rings_->ring(index).state;
  const std::uint64_t count = load(s.error_count, std::memory_order_relaxed);
  if (count == 0) {
    store(s.error_ticket, ticket, std::memory_order_relaxed);
    store(s.error_remote, cmd.remote, std::memory_order_relaxed);
    store(s.error_status, std::uint32_t(status), std::memory_order_relaxed);
    store(s.error_op, std::uint32_t(cmd.op), std::memory_order_relaxed);
    store(s.error_pe, cmd.pe, std::memory_order_relaxed);
  }
  store(s.error_count, count + 1, std::memory_order_relaxed); // the completion's release store publishes these
  if (first_error_ == PORTSHMEM_SUCCESS) first_error_ = status;
  if (logged_errors_ < kLoggedErrors) {
    ++logged_errors_;
    (void)PORTSHMEM_FAIL(status,
                         "proxy (%s network): %s to PE %d at heap offset 0x%llx (local address 0x%llx, %llu bytes) "
                         "failed: %s. The calls waiting on ring %u from ticket %llu on report this status%s",
                         net_.name(), command_name(cmd), cmd.pe, static_cast<unsigned long long>(cmd.remote),
                         static_cast<unsigned long long>(cmd.local), static_cast<unsigned long long>(cmd.size),
                         why.empty() ? "no reason given" : why.c_str(), index, static_cast<unsigned long long>(ticket),
                         logged_errors_ == kLoggedErrors ? " (later proxy errors are counted, not logged)" : "");
  }
}

} // namespace portshmem::rdma
