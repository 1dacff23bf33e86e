#include "rdma/ib_conn.hpp"

#include <cerrno>
#include <cstring>

namespace portshmem::rdma {
namespace {

// Retry settings of the RC transport: a 4.096 us * 2^14 (~67 ms) ack timeout, 7 retries, and infinite retries on
// receiver-not-ready (the network never posts receives, so RNR cannot occur; 7 means "retry forever").
constexpr std::uint8_t kAckTimeout = 14, kRetries = 7, kRnrRetries = 7, kMinRnrTimer = 12;

} // namespace

void qp_init_attr(const ib_port& port, ibv_qp_attr* attr, int* mask) {
  *attr = {};
  attr->qp_state = IBV_QPS_INIT;
  attr->pkey_index = 0;
  attr->port_num = port.num;
  attr->qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
  *mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
}

void qp_rtr_attr(const ib_port& port, const ib_endpoint& remote, unsigned rd_atomic, ibv_qp_attr* attr, int* mask) {
  *attr = {};
  attr->qp_state = IBV_QPS_RTR;
  // The smaller of the two ports' MTUs: a packet must fit both ends.
  const auto mine = std::uint8_t(port.attr.active_mtu);
  attr->path_mtu = ibv_mtu(mine < remote.mtu ? mine : remote.mtu);
  attr->dest_qp_num = remote.qpn;
  attr->rq_psn = remote.psn;
  attr->max_dest_rd_atomic = std::uint8_t(rd_atomic);
  attr->min_rnr_timer = kMinRnrTimer;
  attr->ah_attr.dlid = remote.lid;
  attr->ah_attr.sl = 0;
  attr->ah_attr.src_path_bits = 0;
  attr->ah_attr.port_num = port.num;
  if (remote.global) {
    attr->ah_attr.is_global = 1;
    std::memcpy(attr->ah_attr.grh.dgid.raw, remote.gid, sizeof remote.gid);
    attr->ah_attr.grh.sgid_index = std::uint8_t(port.gid_index);
    attr->ah_attr.grh.hop_limit = 64;
  }
  *mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
          IBV_QP_MIN_RNR_TIMER;
}

void qp_rts_attr(const ib_endpoint& local, unsigned rd_atomic, ibv_qp_attr* attr, int* mask) {
  *attr = {};
  attr->qp_state = IBV_QPS_RTS;
  attr->timeout = kAckTimeout;
  attr->retry_cnt = kRetries;
  attr->rnr_retry = kRnrRetries;
  attr->sq_psn = local.psn;
  attr->max_rd_atomic = std::uint8_t(rd_atomic);
  *mask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
}

portshmem_status_t connect_qp(const verbs_api& api, ibv_qp* qp, const ib_port& port, const ib_endpoint& local,
                              const ib_endpoint& remote, unsigned rd_atomic, int pe, std::string* why) {
  ibv_qp_attr attr;
  int mask = 0;
  const char* step = "INIT";
  qp_init_attr(port, &attr, &mask);
  int rc = api.modify_qp(qp, &attr, mask);
  if (rc == 0) {
    step = "RTR";
    qp_rtr_attr(port, remote, rd_atomic, &attr, &mask);
    rc = api.modify_qp(qp, &attr, mask);
  }
  if (rc == 0) {
    step = "RTS";
    qp_rts_attr(local, rd_atomic, &attr, &mask);
    rc = api.modify_qp(qp, &attr, mask);
  }
  if (rc == 0) return PORTSHMEM_SUCCESS;
  // ibv_modify_qp returns an errno value (or -1 with errno set, in older providers).
  const int err = rc > 0 ? rc : errno;
  *why = std::string("ibv_modify_qp to ") + step + " for the queue pair to PE " + std::to_string(pe) +
         " failed: " + std::strerror(err) + " (path MTU " + mtu_name(remote.mtu) + ", remote QPN " +
         std::to_string(remote.qpn) + ", LID " + std::to_string(remote.lid) + (remote.global ? ", by GID" : "") + ")";
  return PORTSHMEM_ERR_SYSTEM;
}

const char* mtu_name(std::uint8_t mtu) {
  switch (mtu) {
  case IBV_MTU_256:
    return "256";
  case IBV_MTU_512:
    return "512";
  case IBV_MTU_1024:
    return "1024";
  case IBV_MTU_2048:
    return "2048";
  case IBV_MTU_4096:
    return "4096";
  default:
    return "unknown";
  }
}

} // namespace portshmem::rdma
