// A fake NIC behind the verbs table: devices, contexts, PDs, CQs, RC queue pairs with the ibv_modify_qp state machine
// (each transition checks the attribute mask ibv_modify_qp(3) requires), memory regions with keys and access rights,
// and a fabric that executes every posted request at once on the target's memory and queues its completion. Faults
// can be injected: an error completion, a failing transition, a word changed under a compare-and-swap.
#pragma once

#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rdma/verbs_api.hpp"

namespace fake_nic {

struct device_spec {
  std::string name = "mlx5_0";
  std::string ibdev_path = "/sys/class/infiniband/mlx5_0";
  bool port_active = true;
  std::uint8_t link_layer = IBV_LINK_LAYER_INFINIBAND;
  ibv_atomic_cap atomic_cap = IBV_ATOMIC_HCA;
  ibv_mtu mtu = IBV_MTU_4096;
};

/// A request as posted (its scatter/gather entry copied out).
struct posted {
  std::uint32_t qpn;
  ibv_wr_opcode opcode;
  unsigned flags;
  std::uint64_t wr_id, remote_addr, compare_add, swap;
  std::uint32_t rkey;
  std::uint64_t addr;
  std::uint32_t length, lkey;
};

struct qp_rec {
  ibv_qp qp{};
  ibv_context* context = nullptr;
  ibv_cq* cq = nullptr;
  ibv_qp_state state = IBV_QPS_RESET;
  std::vector<std::pair<int, ibv_qp_attr>> modifies; // (mask, attr) of every successful transition
};

struct mr_rec {
  ibv_mr mr{};
  char* memory = nullptr; ///< what iova maps to
  std::uint64_t iova = 0;
  std::size_t length = 0;
  int access = 0;
  int dmabuf_fd = -1;
};

struct context_rec {
  ibv_context context{};
  const device_spec* spec = nullptr;
  std::uint16_t lid = 0;
  std::uint8_t gid_last = 0;
  bool closed = false;
};

class fabric {
 public:
  std::vector<device_spec> specs{device_spec{}};
  /// Status the request gets (IBV_WC_SUCCESS: executes).
  std::function<ibv_wc_status(const posted&)> fault;
  /// Called before a compare-and-swap executes, with the target word: a test may change it (contention).
  std::function<void(std::uint64_t* word)> before_cas;
  /// A transition (to this state) that fails with EINVAL on the QPs of context number fail_context (-1: any).
  int fail_to_state = -1, fail_context = -1;

  static fabric*& current() {
    static fabric* f = nullptr;
    return f;
  }
  static const portshmem::rdma::verbs_api& api();

  std::vector<posted> posts() {
    std::lock_guard<std::mutex> lock(m_);
    return posts_;
  }
  std::vector<qp_rec*> qps() {
    std::lock_guard<std::mutex> lock(m_);
    std::vector<qp_rec*> out;
    for (auto& q : qps_) out.push_back(q.get());
    return out;
  }
  std::vector<mr_rec*> mrs() {
    std::lock_guard<std::mutex> lock(m_);
    std::vector<mr_rec*> out;
    for (auto& r : mrs_) out.push_back(r.get());
    return out;
  }
  /// Device names of the contexts still open.
  std::vector<std::string> open_devices() {
    std::lock_guard<std::mutex> lock(m_);
    std::vector<std::string> names;
    for (auto& c : contexts_)
      if (!c->closed) names.push_back(c->spec->name);
    return names;
  }
  qp_rec* qp_by_num(std::uint32_t qpn) {
    std::lock_guard<std::mutex> lock(m_);
    for (auto& q : qps_)
      if (q->qp.qp_num == qpn) return q.get();
    return nullptr;
  }
  /// The number (order of opening) of a context.
  int index_of(const ibv_context* c) {
    std::lock_guard<std::mutex> lock(m_);
    return context_index(c);
  }
  /// The memory region over memory (the first registered there).
  mr_rec* mr_of(const void* memory) {
    std::lock_guard<std::mutex> lock(m_);
    for (auto& r : mrs_)
      if (r->memory == memory) return r.get();
    return nullptr;
  }

  // ---- the verbs calls -----------------------------------------------------------------------------------------
  ibv_device** get_device_list(int* count) {
    std::lock_guard<std::mutex> lock(m_);
    if (devices_.size() != specs.size()) { // built once: other threads may be reading them
      devices_.assign(specs.size(), ibv_device{});
      for (std::size_t i = 0; i < specs.size(); ++i) {
        std::snprintf(devices_[i].name, sizeof devices_[i].name, "%s", specs[i].name.c_str());
        std::snprintf(devices_[i].ibdev_path, sizeof devices_[i].ibdev_path, "%s", specs[i].ibdev_path.c_str());
      }
    }
    auto** list = new ibv_device*[specs.size() + 1];
    for (std::size_t i = 0; i < specs.size(); ++i) list[i] = &devices_[i];
    list[specs.size()] = nullptr;
    *count = int(specs.size());
    return list;
  }
  ibv_context* open_device(ibv_device* device) {
    std::lock_guard<std::mutex> lock(m_);
    auto c = std::make_unique<context_rec>();
    c->context.device = device;
    c->spec = &specs[std::size_t(device - devices_.data())];
    c->lid = std::uint16_t(100 + contexts_.size());
    c->gid_last = std::uint8_t(contexts_.size() + 1);
    contexts_.push_back(std::move(c));
    return &contexts_.back()->context;
  }
  int close_device(ibv_context* context) {
    std::lock_guard<std::mutex> lock(m_);
    ctx(context)->closed = true;
    return 0;
  }
  int query_device(ibv_context* context, ibv_device_attr* attr) {
    std::lock_guard<std::mutex> lock(m_);
    *attr = {};
    attr->phys_port_cnt = 1;
    attr->atomic_cap = ctx(context)->spec->atomic_cap;
    attr->max_qp_rd_atom = 16;
    attr->max_qp_init_rd_atom = 8;
    return 0;
  }
  int query_port(ibv_context* context, std::uint8_t port, ibv_port_attr* attr) {
    std::lock_guard<std::mutex> lock(m_);
    const context_rec* c = ctx(context);
    *attr = {};
    if (port != 1) return EINVAL;
    attr->state = c->spec->port_active ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
    attr->active_mtu = c->spec->mtu;
    attr->lid = c->spec->link_layer == IBV_LINK_LAYER_ETHERNET ? 0 : c->lid;
    attr->link_layer = c->spec->link_layer;
    return 0;
  }
  int query_gid(ibv_context* context, std::uint8_t, int index, ibv_gid* gid) {
    std::lock_guard<std::mutex> lock(m_);
    *gid = {};
    gid->raw[0] = 0xfe;
    gid->raw[14] = std::uint8_t(index);
    gid->raw[15] = ctx(context)->gid_last;
    return 0;
  }
  ibv_pd* alloc_pd(ibv_context* context) {
    std::lock_guard<std::mutex> lock(m_);
    pds_.push_back(std::make_unique<ibv_pd>());
    pds_.back()->context = context;
    return pds_.back().get();
  }
  ibv_cq* create_cq(ibv_context* context, int entries) {
    std::lock_guard<std::mutex> lock(m_);
    cqs_.push_back(std::make_unique<ibv_cq>());
    cqs_.back()->context = context;
    cqs_.back()->cqe = entries;
    return cqs_.back().get();
  }
  ibv_qp* create_qp(ibv_pd* pd, ibv_qp_init_attr* attr) {
    std::lock_guard<std::mutex> lock(m_);
    auto q = std::make_unique<qp_rec>();
    q->qp.qp_num = 0x100 + std::uint32_t(qps_.size());
    q->qp.pd = pd;
    q->qp.context = pd->context;
    q->qp.send_cq = attr->send_cq;
    q->qp.qp_type = attr->qp_type;
    q->context = pd->context;
    q->cq = attr->send_cq;
    attr->cap.max_inline_data = 32; // grants less than asked
    qps_.push_back(std::move(q));
    return &qps_.back()->qp;
  }
  int modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int mask) {
    std::lock_guard<std::mutex> lock(m_);
    qp_rec* q = rec(qp);
    static const std::map<int, std::pair<ibv_qp_state, int>> kNeeds = {
        {IBV_QPS_INIT, {IBV_QPS_RESET, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS}},
        {IBV_QPS_RTR,
         {IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                            IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER}},
        {IBV_QPS_RTS,
         {IBV_QPS_RTR, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                           IBV_QP_MAX_QP_RD_ATOMIC}}};
    const auto need = kNeeds.find(attr->qp_state);
    if (!(mask & IBV_QP_STATE) || need == kNeeds.end() || need->second.first != q->state ||
        (mask & need->second.second) != need->second.second) {
      return EINVAL;
    }
    if (attr->qp_state == fail_to_state && (fail_context < 0 || context_index(q->context) == fail_context)) {
      return EINVAL;
    }
    q->state = attr->qp_state;
    q->modifies.emplace_back(mask, *attr);
    return 0;
  }
  ibv_mr* reg_mr(ibv_pd* pd, void* addr, std::size_t length, int access) {
    std::lock_guard<std::mutex> lock(m_);
    return &add_mr(pd, static_cast<char*>(addr), std::uint64_t(std::uintptr_t(addr)), length, access, -1)->mr;
  }
  ibv_mr* reg_dmabuf_mr(ibv_pd* pd, std::uint64_t offset, std::size_t length, std::uint64_t iova, int fd, int access) {
    // No dma-buf here: the test's "GPU heap" is host memory at iova, and offset is recorded.
    std::lock_guard<std::mutex> lock(m_);
    mr_rec* r = add_mr(pd, reinterpret_cast<char*>(iova), iova, length, access, fd);
    r->mr.handle = std::uint32_t(offset);
    return &r->mr;
  }
  int post_send(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
    std::lock_guard<std::mutex> lock(m_);
    qp_rec* q = rec(qp);
    for (; wr; wr = wr->next) {
      if (q->state != IBV_QPS_RTS && q->state != IBV_QPS_ERR) {
        *bad = wr;
        return EINVAL;
      }
      posted p{qp->qp_num, wr->opcode, wr->send_flags, wr->wr_id, 0, 0, 0, 0, 0, 0, 0};
      if (wr->num_sge) {
        p.addr = wr->sg_list[0].addr;
        p.length = wr->sg_list[0].length;
        p.lkey = wr->sg_list[0].lkey;
      }
      if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
        p.remote_addr = wr->wr.atomic.remote_addr;
        p.rkey = wr->wr.atomic.rkey;
        p.compare_add = wr->wr.atomic.compare_add;
        p.swap = wr->wr.atomic.swap;
      } else {
        p.remote_addr = wr->wr.rdma.remote_addr;
        p.rkey = wr->wr.rdma.rkey;
      }
      posts_.push_back(p);
      execute(q, p, wr);
    }
    return 0;
  }
  int poll_cq(ibv_cq* cq, int entries, ibv_wc* wc) {
    std::lock_guard<std::mutex> lock(m_);
    auto& queue = completions_[cq];
    int n = 0;
    for (; n < entries && !queue.empty(); ++n) {
      wc[n] = queue.front();
      queue.pop_front();
    }
    return n;
  }

 private:
  context_rec* ctx(ibv_context* c) {
    for (auto& r : contexts_)
      if (&r->context == c) return r.get();
    return nullptr;
  }
  int context_index(const ibv_context* c) {
    for (std::size_t i = 0; i < contexts_.size(); ++i)
      if (&contexts_[i]->context == c) return int(i);
    return -1;
  }
  qp_rec* rec(ibv_qp* qp) {
    for (auto& q : qps_)
      if (&q->qp == qp) return q.get();
    return nullptr;
  }
  /// A new memory region's record (m_ held: the ranks' threads register at once).
  mr_rec* add_mr(ibv_pd* pd, char* memory, std::uint64_t iova, std::size_t length, int access, int fd) {
    auto r = std::make_unique<mr_rec>();
    r->mr.pd = pd;
    r->mr.context = pd->context;
    r->mr.addr = memory;
    r->mr.length = length;
    r->mr.lkey = 0x1000 + std::uint32_t(mrs_.size());
    r->mr.rkey = 0x2000 + std::uint32_t(mrs_.size());
    r->memory = memory;
    r->iova = iova;
    r->length = length;
    r->access = access;
    r->dmabuf_fd = fd;
    mrs_.push_back(std::move(r));
    return mrs_.back().get();
  }
  /// The memory of [addr, addr + len) under key (an rkey when remote) in pd, with access; null if not allowed.
  char* resolve(ibv_pd* pd, std::uint32_t key, bool remote, std::uint64_t addr, std::size_t len, int access) {
    for (auto& r : mrs_) {
      if ((remote ? r->mr.rkey : r->mr.lkey) != key || r->mr.pd != pd) continue;
      if (addr < r->iova || addr + len > r->iova + r->length || (r->access & access) != access) return nullptr;
      return r->memory + (addr - r->iova);
    }
    return nullptr;
  }
  void execute(qp_rec* q, const posted& p, const ibv_send_wr* wr) {
    ibv_wc wc{};
    wc.wr_id = p.wr_id;
    wc.qp_num = p.qpn;
    wc.status = q->state == IBV_QPS_ERR ? IBV_WC_WR_FLUSH_ERR : fault ? fault(p) : IBV_WC_SUCCESS;
    qp_rec* target = nullptr;
    if (wc.status == IBV_WC_SUCCESS) {
      const std::uint32_t dest = q->modifies.size() >= 2 ? q->modifies[1].second.dest_qp_num : 0;
      for (auto& t : qps_)
        if (t->qp.qp_num == dest) target = t.get();
      if (!target) wc.status = IBV_WC_RETRY_EXC_ERR; // nobody answers
    }
    if (wc.status == IBV_WC_SUCCESS) wc.status = apply(q, target, p, wr);
    if (wc.status != IBV_WC_SUCCESS) q->state = IBV_QPS_ERR;
    if (wc.status != IBV_WC_SUCCESS || (p.flags & IBV_SEND_SIGNALED)) completions_[q->cq].push_back(wc);
  }
  ibv_wc_status apply(qp_rec* q, qp_rec* target, const posted& p, const ibv_send_wr* wr) {
    ibv_pd* here = q->qp.pd;
    ibv_pd* there = target->qp.pd;
    switch (p.opcode) {
    case IBV_WR_RDMA_WRITE: {
      char* dst = resolve(there, p.rkey, true, p.remote_addr, p.length, IBV_ACCESS_REMOTE_WRITE);
      if (!dst) return IBV_WC_REM_ACCESS_ERR;
      const char* src = (p.flags & IBV_SEND_INLINE) ? reinterpret_cast<const char*>(wr->sg_list[0].addr)
                                                    : resolve(here, p.lkey, false, p.addr, p.length, 0);
      if (!src) return IBV_WC_LOC_PROT_ERR;
      std::memcpy(dst, src, p.length);
      return IBV_WC_SUCCESS;
    }
    case IBV_WR_RDMA_READ: {
      const char* src = resolve(there, p.rkey, true, p.remote_addr, p.length, IBV_ACCESS_REMOTE_READ);
      if (!src) return IBV_WC_REM_ACCESS_ERR;
      char* dst = resolve(here, p.lkey, false, p.addr, p.length, IBV_ACCESS_LOCAL_WRITE);
      if (!dst) return IBV_WC_LOC_PROT_ERR;
      std::memcpy(dst, src, p.length);
      return IBV_WC_SUCCESS;
    }
    default: {
      if (p.remote_addr % 8) return IBV_WC_REM_INV_REQ_ERR;
      auto* word =
          reinterpret_cast<std::uint64_t*>(resolve(there, p.rkey, true, p.remote_addr, 8, IBV_ACCESS_REMOTE_ATOMIC));
      if (!word) return IBV_WC_REM_ACCESS_ERR;
      auto* result = reinterpret_cast<std::uint64_t*>(resolve(here, p.lkey, false, p.addr, 8, IBV_ACCESS_LOCAL_WRITE));
      if (!result || p.length != 8) return IBV_WC_LOC_PROT_ERR;
      if (p.opcode == IBV_WR_ATOMIC_CMP_AND_SWP && before_cas) before_cas(word);
      *result = *word;
      if (p.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) *word += p.compare_add;
      if (p.opcode == IBV_WR_ATOMIC_CMP_AND_SWP && *word == p.compare_add) *word = p.swap;
      return IBV_WC_SUCCESS;
    }
    }
  }

  std::mutex m_;
  std::vector<ibv_device> devices_;
  std::vector<std::unique_ptr<context_rec>> contexts_;
  std::vector<std::unique_ptr<ibv_pd>> pds_;
  std::vector<std::unique_ptr<ibv_cq>> cqs_;
  std::vector<std::unique_ptr<qp_rec>> qps_;
  std::vector<std::unique_ptr<mr_rec>> mrs_;
  std::map<ibv_cq*, std::deque<ibv_wc>> completions_;
  std::vector<posted> posts_;
};

inline const portshmem::rdma::verbs_api& fabric::api() {
  static const portshmem::rdma::verbs_api table = {
      [](int* count) { return current()->get_device_list(count); },
      [](ibv_device** list) { delete[] list; },
      [](ibv_device* device) -> const char* { return device->name; },
      [](ibv_device* device) { return current()->open_device(device); },
      [](ibv_context* context) { return current()->close_device(context); },
      [](ibv_context* context, ibv_device_attr* attr) { return current()->query_device(context, attr); },
      [](ibv_context* context, std::uint8_t port, ibv_port_attr* attr) {
        return current()->query_port(context, port, attr);
      },
      [](ibv_context* context, std::uint8_t port, int index, ibv_gid* gid) {
        return current()->query_gid(context, port, index, gid);
      },
      [](ibv_context* context) { return current()->alloc_pd(context); },
      [](ibv_pd*) { return 0; },
      [](ibv_context* context, int entries) { return current()->create_cq(context, entries); },
      [](ibv_cq*) { return 0; },
      [](ibv_pd* pd, ibv_qp_init_attr* attr) { return current()->create_qp(pd, attr); },
      [](ibv_qp* qp, ibv_qp_attr* attr, int mask) { return current()->modify_qp(qp, attr, mask); },
      [](ibv_qp*) { return 0; },
      [](ibv_pd* pd, void* addr, std::size_t length, int access) {
        return current()->reg_mr(pd, addr, length, access);
      },
      [](ibv_pd* pd, std::uint64_t offset, std::size_t length, std::uint64_t iova, int fd, int access) {
        return current()->reg_dmabuf_mr(pd, offset, length, iova, fd, access);
      },
      [](ibv_mr*) { return 0; },
      [](ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) { return current()->post_send(qp, wr, bad); },
      [](ibv_cq* cq, int entries, ibv_wc* wc) { return current()->poll_cq(cq, entries, wc); },
      [](ibv_wc_status status) -> const char* {
        switch (status) {
        case IBV_WC_REM_ACCESS_ERR:
          return "remote access error";
        case IBV_WC_WR_FLUSH_ERR:
          return "Work Request Flushed Error";
        case IBV_WC_RETRY_EXC_ERR:
          return "transport retry counter exceeded";
        default:
          return "fake status";
        }
      },
  };
  return table;
}

} // namespace fake_nic
