#include "rdma/net_ibverbs.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "log.hpp"
#include "rdma/ib_conn.hpp"
#include "rdma/ib_device.hpp"
#include "rdma/ib_wr.hpp"
#include "rdma/nic_locality.hpp"
#include "rdma/staging.hpp"

namespace portshmem::rdma {
namespace {

/// Largest RDMA message a transfer is cut into (verbs lengths are 32-bit).
constexpr std::size_t kMaxMessage = std::size_t(1) << 30;
/// Inline data asked of each queue pair (the provider may grant less; the granted size is used).
constexpr std::uint32_t kInline = 64;
/// RDMA reads and atomics in flight per queue pair, before the device's own limits.
constexpr unsigned kRdAtomic = 16;
/// Completions taken per ibv_poll_cq.
constexpr int kPollBatch = 16;

constexpr int kHeapAccess =
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

/// What a posted work request was, for its completion.
struct inflight {
  enum kind { write, read, atomic, flush_read } what = write;
  int pe = -1;
  std::uint64_t remote = 0;
  std::size_t bytes = 0;
  void* copy_from = nullptr; ///< a staged get: copied to copy_to on completion
  void* copy_to = nullptr;
  std::uint64_t* fetched = nullptr; ///< an atomic's fetched value goes here (extracted by plan)
  const std::uint64_t* result = nullptr;
  amo_plan plan{};
  bool waited = false; ///< a step of a CAS loop: its poster reads the result, then frees the slot
  bool done = false;
  bool in_use = false;
};

const char* kind_name(inflight::kind k) {
  switch (k) {
  case inflight::write:
    return "RDMA write";
  case inflight::read:
    return "RDMA read";
  case inflight::atomic:
    return "RDMA atomic";
  default:
    return "flushing RDMA read";
  }
}

class ib_network final : public network {
 public:
  explicit ib_network(const verbs_api& api) : api_(api) {}

  ~ib_network() override {
    // Teardown: a failing destroy has nothing left to protect.
    for (ibv_qp* qp : qps_)
      if (qp) api_.destroy_qp(qp);
    if (heap_mr_) api_.dereg_mr(heap_mr_);
    if (bounce_mr_) api_.dereg_mr(bounce_mr_);
    if (cq_) api_.destroy_cq(cq_);
    if (pd_) api_.dealloc_pd(pd_);
    if (dev_.context) api_.close_device(dev_.context);
  }

  /// This PE's resources and its side of every connection; on failure *why says what failed.
  portshmem_status_t open(const ibverbs_options& o, std::vector<ib_endpoint>* mine, std::string* why) {
    n_ = o.n_pes;
    heap_ = static_cast<char*>(o.heap);
    heap_size_ = o.heap_size;
    if (auto s = open_ib_device(api_, o.device, o.near_pci_bus_id, o.sysfs_root, &dev_, why); s != PORTSHMEM_SUCCESS) {
      return s;
    }
    rd_atomic_ = kRdAtomic;
    if (unsigned(dev_.attr.max_qp_rd_atom) < rd_atomic_) rd_atomic_ = unsigned(dev_.attr.max_qp_rd_atom);
    if (unsigned(dev_.attr.max_qp_init_rd_atom) < rd_atomic_) rd_atomic_ = unsigned(dev_.attr.max_qp_init_rd_atom);
    depth_ = o.queue_depth;
    if (!(pd_ = api_.alloc_pd(dev_.context))) return failed(why, "ibv_alloc_pd");
    if (!(cq_ = api_.create_cq(dev_.context, int(depth_) * n_))) return failed(why, "ibv_create_cq");
    if (o.heap_dmabuf_fd >= 0) {
      heap_mr_ = api_.reg_dmabuf_mr(pd_, o.heap_dmabuf_offset, o.heap_size, std::uint64_t(std::uintptr_t(o.heap)),
                                    o.heap_dmabuf_fd, kHeapAccess);
      if (!heap_mr_) return failed(why, "ibv_reg_dmabuf_mr of the GPU heap");
    } else if (!(heap_mr_ = api_.reg_mr(pd_, o.heap, o.heap_size, kHeapAccess))) {
      return failed(why, "ibv_reg_mr of the heap");
    }
    if (auto s = bounce_pool::create(o.bounce_bytes, &pool_); s != PORTSHMEM_SUCCESS) {
      *why = "no pinned memory for the bounce buffers";
      return s;
    }
    if (!(bounce_mr_ = api_.reg_mr(pd_, pool_->base(), pool_->capacity(), IBV_ACCESS_LOCAL_WRITE))) {
      return failed(why, "ibv_reg_mr of the bounce buffers");
    }
    std::random_device seed;
    std::mt19937 psns(seed());
    qps_.assign(std::size_t(n_), nullptr);
    mine->assign(std::size_t(n_), ib_endpoint{});
    for (int pe = 0; pe < n_; ++pe) {
      ibv_qp_init_attr init{};
      init.send_cq = cq_;
      init.recv_cq = cq_;
      init.qp_type = IBV_QPT_RC;
      init.sq_sig_all = 0;
      init.cap.max_send_wr = depth_;
      init.cap.max_recv_wr = 1;
      init.cap.max_send_sge = 1;
      init.cap.max_recv_sge = 1;
      init.cap.max_inline_data = kInline;
      if (!(qps_[std::size_t(pe)] = api_.create_qp(pd_, &init))) return failed(why, "ibv_create_qp");
      max_inline_ = pe == 0 || init.cap.max_inline_data < max_inline_ ? init.cap.max_inline_data : max_inline_;
      ib_endpoint& e = (*mine)[std::size_t(pe)];
      std::memcpy(e.gid, dev_.gid.raw, sizeof e.gid);
      e.heap = std::uint64_t(std::uintptr_t(o.heap));
      e.rkey = heap_mr_->rkey;
      e.qpn = qps_[std::size_t(pe)]->qp_num;
      e.psn = psns() & 0xffffff;
      e.lid = dev_.port.attr.lid;
      e.mtu = std::uint8_t(dev_.port.attr.active_mtu);
      e.global = dev_.global;
      e.ok = 1;
    }
    outstanding_.assign(std::size_t(n_), 0);
    unordered_.assign(std::size_t(n_), 0);
    fence_next_.assign(std::size_t(n_), 0);
    written_.assign(std::size_t(n_), 0);
    broken_.assign(std::size_t(n_), 0);
    remote_.assign(std::size_t(n_), ib_remote{});
    PORTSHMEM_LOG(info, "ibverbs network: %s port %u (%s, MTU %s)%s", dev_.name.c_str(), unsigned(dev_.port.num),
                  dev_.global ? "RoCE" : "InfiniBand", mtu_name(std::uint8_t(dev_.port.attr.active_mtu)),
                  o.near_pci_bus_id.empty() ? ""
                  : dev_.distance >= kFar   ? ", not on the GPU's PCI tree"
                                            : ", the nearest to the GPU");
    return PORTSHMEM_SUCCESS;
  }

  /// Connects queue pair pe to what PE pe published for this PE.
  portshmem_status_t connect(int pe, const ib_endpoint& local, const ib_endpoint& remote, std::string* why) {
    remote_[std::size_t(pe)] = {remote.heap, remote.rkey};
    return connect_qp(api_, qps_[std::size_t(pe)], dev_.port, local, remote, rd_atomic_, pe, why);
  }

  const char* name() const override { return "ibverbs"; }

  portshmem_status_t put(int pe, std::uint64_t remote, const void* local, std::size_t bytes, std::uint32_t) override {
    return transfer(inflight::write, pe, remote, const_cast<void*>(local), bytes);
  }

  portshmem_status_t put_inline(int pe, std::uint64_t remote, const void* local, std::size_t bytes,
                                std::uint32_t) override {
    if (bytes > max_inline_) return transfer(inflight::write, pe, remote, const_cast<void*>(local), bytes);
    if (auto s = check(pe, remote, bytes); s != PORTSHMEM_SUCCESS) return s;
    ib_request r;
    const std::uint64_t id = open_slot({inflight::write, pe, remote, bytes});
    encode_write(&r, {std::uint64_t(std::uintptr_t(local)), std::uint32_t(bytes), 0}, at(pe, remote), id,
                 IBV_SEND_SIGNALED | IBV_SEND_INLINE); // the provider copies the bytes while posting
    return post(pe, id, &r);
  }

  portshmem_status_t get(int pe, std::uint64_t remote, void* local, std::size_t bytes, std::uint32_t) override {
    return transfer(inflight::read, pe, remote, local, bytes);
  }

  portshmem_status_t atomic(int pe, std::uint64_t remote, const amo_request& op, std::uint64_t* fetched,
                            std::uint32_t) override {
    if (auto s = check(pe, remote, op.width); s != PORTSHMEM_SUCCESS) return s;
    if (op.width != 4 && op.width != 8) return fail(PORTSHMEM_ERR_INVALID_ARG, "an atomic of neither 4 nor 8 bytes");
    if (remote % op.width != 0) return fail(PORTSHMEM_ERR_INVALID_ARG, "an atomic on a misaligned address");
    const amo_plan plan = plan_amo(op, remote);
    if (plan.how == amo_plan::cas_loop) return cas_loop(pe, op, plan, fetched);
    std::uint64_t* result = nullptr;
    if (auto s = take(8, reinterpret_cast<void**>(&result)); s != PORTSHMEM_SUCCESS) return s;
    inflight f{inflight::atomic, pe, remote, op.width};
    f.fetched = fetched;
    f.result = result;
    f.plan = plan;
    const std::uint64_t id = open_slot(f);
    ib_request r;
    if (plan.how == amo_plan::fetch_add) {
      encode_fetch_add(&r, local_of(result, 8), at(pe, plan.word), plan.add, id, IBV_SEND_SIGNALED);
    } else {
      encode_compare_swap(&r, local_of(result, 8), at(pe, plan.word), op.compare, op.value, id, IBV_SEND_SIGNALED);
    }
    return post(pe, id, &r);
  }

  // RC executes a queue pair's requests in order, except that a later request may pass an earlier RDMA read or
  // atomic that has not completed: fencing the next request closes that gap, and only when one is in flight.
  portshmem_status_t order(int pe) override {
    if (auto s = check(pe, 0, 0); s != PORTSHMEM_SUCCESS) return s;
    if (unordered_[std::size_t(pe)]) fence_next_[std::size_t(pe)] = 1;
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t order_all() override {
    for (int pe = 0; pe < n_; ++pe)
      if (unordered_[std::size_t(pe)]) fence_next_[std::size_t(pe)] = 1;
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t complete_local(int pe) override {
    if (auto s = check(pe, 0, 0); s != PORTSHMEM_SUCCESS) return s;
    return wait_until([&] { return outstanding_[std::size_t(pe)] == 0; });
  }

  // A write's completion says the responder received it; a read that follows it on the same queue pair returns only
  // after the writes before it are placed in the target's memory (GPU memory included: the read flushes PCIe).
  portshmem_status_t flush(int pe) override {
    if (auto s = check(pe, 0, 0); s != PORTSHMEM_SUCCESS) return s;
    if (auto s = flushing_read(pe); s != PORTSHMEM_SUCCESS) return s;
    return complete_local(pe);
  }
  portshmem_status_t flush_all() override {
    for (int pe = 0; pe < n_; ++pe)
      if (auto s = flushing_read(pe); s != PORTSHMEM_SUCCESS) return s;
    return wait_until([&] { return total_outstanding_ == 0; });
  }

 private:
  portshmem_status_t failed(std::string* why, const char* call) {
    *why = std::string(call) + " failed on " + dev_.name + ": " + std::strerror(errno);
    return PORTSHMEM_ERR_SYSTEM;
  }

  portshmem_status_t check(int pe, std::uint64_t remote, std::size_t bytes) {
    if (pe < 0 || pe >= n_) {
      return fail(PORTSHMEM_ERR_INVALID_PE,
                  "PE " + std::to_string(pe) + " is outside [0, " + std::to_string(n_) + ") of the ibverbs network");
    }
    if (remote > heap_size_ || bytes > heap_size_ - remote) {
      return fail(PORTSHMEM_ERR_OVERFLOW, std::to_string(bytes) + " bytes at heap offset " + std::to_string(remote) +
                                              " run past the " + std::to_string(heap_size_) + "-byte heap");
    }
    if (broken_[std::size_t(pe)]) {
      return fail(kNetworkError, "the queue pair to PE " + std::to_string(pe) +
                                     " is in the error state after an earlier failure: " + first_failure_);
    }
    return PORTSHMEM_SUCCESS;
  }

  ib_remote at(int pe, std::uint64_t remote) const {
    return {remote_[std::size_t(pe)].addr + remote, remote_[std::size_t(pe)].rkey};
  }

  /// The local side of a transfer: the heap's or the bounce buffers' key (the caller put the bytes there).
  ib_local local_of(const void* p, std::size_t bytes) const {
    const char* c = static_cast<const char*>(p);
    const bool in_heap = c >= heap_ && c + bytes <= heap_ + heap_size_;
    return {std::uint64_t(std::uintptr_t(p)), std::uint32_t(bytes), in_heap ? heap_mr_->lkey : bounce_mr_->lkey};
  }

  bool in_heap(const void* p, std::size_t bytes) const {
    const char* c = static_cast<const char*>(p);
    return c >= heap_ && c <= heap_ + heap_size_ && bytes <= std::size_t(heap_ + heap_size_ - c);
  }

  /// A put or get in messages of at most kMaxMessage bytes (and of the bounce buffers' size, for a local buffer
  /// outside the heap, which is copied through them).
  portshmem_status_t transfer(inflight::kind what, int pe, std::uint64_t remote, void* local, std::size_t bytes) {
    if (auto s = check(pe, remote, bytes); s != PORTSHMEM_SUCCESS) return s;
    if (bytes == 0) return PORTSHMEM_SUCCESS;
    const bool direct = in_heap(local, bytes);
    const std::size_t piece = direct ? kMaxMessage : pool_->capacity() / 4;
    for (std::size_t done = 0; done < bytes; done += piece) {
      const std::size_t n = bytes - done < piece ? bytes - done : piece;
      char* mine = static_cast<char*>(local) + done;
      void* buffer = mine;
      if (!direct) {
        if (auto s = take(n, &buffer); s != PORTSHMEM_SUCCESS) return s;
        if (what == inflight::write && bounce_pool::copy(buffer, mine, n) != PORTSHMEM_SUCCESS) {
          return fail(PORTSHMEM_ERR_GPU, "could not copy a put's source into the bounce buffers");
        }
      }
      inflight f{what, pe, remote + done, n};
      if (!direct && what == inflight::read) {
        f.copy_from = buffer;
        f.copy_to = mine;
      }
      const std::uint64_t id = open_slot(f);
      ib_request r;
      if (what == inflight::write) {
        encode_write(&r, local_of(buffer, n), at(pe, remote + done), id, IBV_SEND_SIGNALED);
      } else {
        encode_read(&r, local_of(buffer, n), at(pe, remote + done), id, IBV_SEND_SIGNALED);
      }
      if (auto s = post(pe, id, &r); s != PORTSHMEM_SUCCESS) return s;
    }
    return PORTSHMEM_SUCCESS;
  }

  /// An atomic verbs lacks, as compare-and-swaps of its 8-byte word: guess the word, swap in what the operation makes
  /// of the guess; the swap returns the word's real value, which is the next guess until a swap succeeds.
  portshmem_status_t cas_loop(int pe, const amo_request& op, const amo_plan& plan, std::uint64_t* fetched) {
    std::uint64_t* result = nullptr;
    if (auto s = take(8, reinterpret_cast<void**>(&result)); s != PORTSHMEM_SUCCESS) return s;
    inflight f{inflight::atomic, pe, plan.word, 8};
    f.result = result;
    f.waited = true;
    const std::uint64_t id = open_slot(f); // one slot for every step: it keeps result's memory taken
    std::uint64_t current = 0;             // a guess until known
    bool known = false;
    for (;;) {
      std::uint64_t next = 0;
      const bool swaps = amo_next_word(op, plan, current, &next);
      if (!swaps && known) break; // nothing to write: a failed compare
      ib_request r;
      if (swaps) {
        encode_compare_swap(&r, local_of(result, 8), at(pe, plan.word), current, next, id, IBV_SEND_SIGNALED);
      } else {
        encode_fetch_add(&r, local_of(result, 8), at(pe, plan.word), 0, id, IBV_SEND_SIGNALED); // learn the word
      }
      slots_[id].done = false;
      if (auto s = post(pe, id, &r); s != PORTSHMEM_SUCCESS) return s; // post freed the slot
      if (auto s = wait_until([&] { return slots_[id].done; }); s != PORTSHMEM_SUCCESS) {
        free_slot(id);
        return s;
      }
      const std::uint64_t seen = *result;
      if (swaps && seen == current) break; // swapped: current was the word
      current = seen;
      known = true;
    }
    free_slot(id);
    if (fetched) *fetched = amo_old_value(plan, current);
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t flushing_read(int pe) {
    if (!written_[std::size_t(pe)] || broken_[std::size_t(pe)]) return PORTSHMEM_SUCCESS;
    void* into = nullptr;
    if (auto s = take(8, &into); s != PORTSHMEM_SUCCESS) return s;
    const std::uint64_t id = open_slot({inflight::flush_read, pe, 0, 8});
    ib_request r;
    encode_read(&r, local_of(into, 8), at(pe, 0), id, IBV_SEND_SIGNALED);
    written_[std::size_t(pe)] = 0;
    return post(pe, id, &r);
  }

  /// bytes of the registered bounce buffers; when they are full, waits for everything to complete first.
  portshmem_status_t take(std::size_t bytes, void** out) {
    if (!(*out = pool_->take(bytes))) {
      // Full: once every request has completed, the pool is empty again (free_slot).
      if (auto s = wait_until([&] { return slots_in_use_ == 0; }); s != PORTSHMEM_SUCCESS) return s;
      *out = pool_->take(bytes);
    }
    return *out ? PORTSHMEM_SUCCESS : fail(PORTSHMEM_ERR_INVALID_ARG, "an operation larger than the bounce buffers");
  }

  /// A slot for a request about to be posted; wr_id is its index.
  std::uint64_t open_slot(const inflight& f) {
    std::size_t i = 0;
    while (i < slots_.size() && slots_[i].in_use) ++i;
    if (i == slots_.size()) slots_.emplace_back();
    slots_[i] = f;
    slots_[i].in_use = true;
    slots_[i].done = false;
    ++slots_in_use_;
    return i;
  }

  /// Once no request is in flight, nothing uses the bounce buffers (their users take them before opening a slot).
  void free_slot(std::uint64_t id) {
    slots_[id].in_use = false;
    if (--slots_in_use_ == 0) pool_->reset();
  }

  portshmem_status_t post(int pe, std::uint64_t id, ib_request* r) {
    const std::size_t p = std::size_t(pe);
    if (auto s = wait_until([&] { return outstanding_[p] < depth_; }); s != PORTSHMEM_SUCCESS) {
      free_slot(id);
      return s;
    }
    if (fence_next_[p]) {
      r->wr.send_flags |= IBV_SEND_FENCE; // waits for every earlier read and atomic on this queue pair
      fence_next_[p] = 0;
      unordered_[p] = 0;
    }
    ibv_send_wr* bad = nullptr;
    if (int rc = api_.post_send(qps_[p], &r->wr, &bad); rc != 0) {
      const inflight::kind what = slots_[id].what;
      free_slot(id);
      return fail(kNetworkError, std::string("ibv_post_send of an ") + kind_name(what) + " to PE " +
                                     std::to_string(pe) + " failed: " + std::strerror(rc > 0 ? rc : errno));
    }
    ++outstanding_[p];
    ++total_outstanding_;
    if (slots_[id].what == inflight::write) {
      written_[p] = 1;
    } else {
      unordered_[p] = 1;
    }
    return PORTSHMEM_SUCCESS;
  }

  /// Polls completions until ready() holds; an error completion on the way is returned (once) with its sentence.
  template <class Ready>
  portshmem_status_t wait_until(const Ready& ready) {
    while (!ready()) {
      if (auto s = poll(); s != PORTSHMEM_SUCCESS) return s;
    }
    if (pending_ != PORTSHMEM_SUCCESS) {
      const portshmem_status_t s = pending_;
      pending_ = PORTSHMEM_SUCCESS;
      return fail(s, pending_why_);
    }
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t poll() {
    ibv_wc wc[kPollBatch];
    const int n = api_.poll_cq(cq_, kPollBatch, wc);
    if (n < 0) return fail(kNetworkError, "ibv_poll_cq failed on " + dev_.name);
    for (int i = 0; i < n; ++i) complete(wc[i]);
    return PORTSHMEM_SUCCESS;
  }

  void complete(const ibv_wc& wc) {
    if (wc.wr_id >= slots_.size() || !slots_[wc.wr_id].in_use) return; // not ours
    inflight& f = slots_[wc.wr_id];
    const std::size_t p = std::size_t(f.pe);
    --outstanding_[p];
    --total_outstanding_;
    f.done = true;
    if (wc.status != IBV_WC_SUCCESS) {
      // The queue pair is now in the error state: every later request on it completes flushed.
      broken_[p] = 1;
      const std::string why = std::string(kind_name(f.what)) + " to PE " + std::to_string(f.pe) + " (heap offset " +
                              std::to_string(f.remote) + ", " + std::to_string(f.bytes) + " bytes) completed with " +
                              api_.wc_status_str(wc.status) + " (status " + std::to_string(int(wc.status)) +
                              ", vendor error 0x" + to_hex(wc.vendor_err) + ")";
      if (first_failure_.empty()) first_failure_ = why;
      if (pending_ == PORTSHMEM_SUCCESS && wc.status != IBV_WC_WR_FLUSH_ERR) {
        pending_ = kNetworkError;
        pending_why_ = why;
      }
    } else if (f.copy_to && bounce_pool::copy(f.copy_to, f.copy_from, f.bytes) != PORTSHMEM_SUCCESS) {
      if (pending_ == PORTSHMEM_SUCCESS) {
        pending_ = PORTSHMEM_ERR_GPU;
        pending_why_ = "could not copy a get from the bounce buffers to its destination";
      }
    } else if (f.fetched) {
      *f.fetched = amo_old_value(f.plan, *f.result);
    }
    if (!f.waited) free_slot(wc.wr_id);
  }

  static std::string to_hex(std::uint32_t v) {
    char text[16];
    std::snprintf(text, sizeof text, "%x", v);
    return text;
  }

  const verbs_api& api_;
  ib_device_choice dev_;
  ibv_pd* pd_ = nullptr;
  ibv_cq* cq_ = nullptr;
  ibv_mr* heap_mr_ = nullptr;
  ibv_mr* bounce_mr_ = nullptr;
  std::unique_ptr<bounce_pool> pool_;
  std::vector<ibv_qp*> qps_;
  std::vector<ib_remote> remote_;
  std::vector<inflight> slots_;
  std::vector<unsigned> outstanding_;
  std::vector<char> unordered_, fence_next_, written_, broken_;
  unsigned total_outstanding_ = 0, slots_in_use_ = 0, depth_ = 128, rd_atomic_ = kRdAtomic;
  std::uint32_t max_inline_ = 0;
  int n_ = 0;
  char* heap_ = nullptr;
  std::size_t heap_size_ = 0;
  portshmem_status_t pending_ = PORTSHMEM_SUCCESS;
  std::string pending_why_, first_failure_;
};

/// Agreement through the allgather: the worst of every PE's ok flag.
portshmem_status_t agree(const allgather_fn& allgather, int n, bool ok, bool* all_ok, int* first_bad) {
  std::vector<std::uint32_t> flags(static_cast<std::size_t>(n));
  const std::uint32_t mine = ok;
  if (auto s = allgather(&mine, flags.data(), sizeof mine); s != PORTSHMEM_SUCCESS) return s;
  *all_ok = true;
  for (int pe = n - 1; pe >= 0; --pe) {
    if (!flags[std::size_t(pe)]) {
      *all_ok = false;
      *first_bad = pe;
    }
  }
  return PORTSHMEM_SUCCESS;
}

} // namespace

portshmem_status_t make_ibverbs_network(const ibverbs_options& o, std::unique_ptr<network>* out) {
  if (!o.allgather || o.n_pes < 1 || o.my_pe < 0 || o.my_pe >= o.n_pes || !o.heap || o.heap_size == 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "the ibverbs network needs an allgather, a PE in [0, n) and a heap");
  }
  const verbs_api& api = o.api ? *o.api : system_verbs();
  auto net = std::make_unique<ib_network>(api);
  const std::size_t n = std::size_t(o.n_pes);
  std::vector<ib_endpoint> mine(n), all(n * n);
  std::string why;
  // Every PE contributes to the exchange even after a local failure (ok = 0), so no PE waits for it forever.
  const portshmem_status_t opened = net->open(o, &mine, &why);
  if (opened != PORTSHMEM_SUCCESS) {
    (void)PORTSHMEM_FAIL(opened, "ibverbs network: %s", why.c_str());
    mine.assign(n, ib_endpoint{});
  }
  if (auto s = o.allgather(mine.data(), all.data(), n * sizeof(ib_endpoint)); s != PORTSHMEM_SUCCESS) return s;
  if (opened != PORTSHMEM_SUCCESS) return opened;
  for (int pe = 0; pe < o.n_pes; ++pe) {
    if (!all[std::size_t(pe) * n].ok) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                            "ibverbs network: PE %d could not set up its RDMA device (its "
                            "log says why)",
                            pe);
    }
  }
  // Queue pair pe here connects to the one PE pe made for this PE: all[pe][my_pe].
  portshmem_status_t connected = PORTSHMEM_SUCCESS;
  for (int pe = 0; pe < o.n_pes && connected == PORTSHMEM_SUCCESS; ++pe) {
    connected = net->connect(pe, mine[std::size_t(pe)], all[std::size_t(pe) * n + std::size_t(o.my_pe)], &why);
  }
  if (connected != PORTSHMEM_SUCCESS) (void)PORTSHMEM_FAIL(connected, "ibverbs network: %s", why.c_str());
  bool all_ok = false;
  int first_bad = -1;
  if (auto s = agree(o.allgather, o.n_pes, connected == PORTSHMEM_SUCCESS, &all_ok, &first_bad);
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  if (connected != PORTSHMEM_SUCCESS) return connected;
  if (!all_ok) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_UNREACHABLE,
                          "ibverbs network: PE %d could not connect its queue pairs (its log says why)", first_bad);
  }
  *out = std::move(net);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::rdma
