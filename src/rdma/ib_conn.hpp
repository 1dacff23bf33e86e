// Connecting reliable-connected queue pairs: what each PE publishes about a queue pair and its heap, and the
// RESET -> INIT -> RTR -> RTS transitions (attributes and masks as ibv_modify_qp(3) requires for RC).
#pragma once

#include <cstdint>
#include <string>

#include "portshmem/status.h"
#include "rdma/verbs_api.hpp"

namespace portshmem::rdma {

/// One PE's side of one connection, exchanged raw through the bootstrap's allgather (fixed layout, no pointers).
struct ib_endpoint {
  std::uint8_t gid[16];   ///< the port's GID (RoCE, or routed IB)
  std::uint64_t heap;     ///< the heap's address in the MR (the iova the peer puts in remote_addr)
  std::uint32_t rkey;     ///< the heap MR's remote key
  std::uint32_t qpn;      ///< this PE's queue pair for the peer
  std::uint32_t psn;      ///< its first packet sequence number (24 bits)
  std::uint16_t lid;      ///< the port's LID (InfiniBand)
  std::uint8_t mtu;       ///< the port's active MTU (an ibv_mtu)
  std::uint8_t global;    ///< 1: address by GID (RoCE, or a GID-routed fabric)
  std::uint32_t ok;       ///< 1: this PE set everything up (0 makes every PE fail together)
  std::uint32_t reserved; ///< zero
};
static_assert(sizeof(ib_endpoint) == 48, "ib_endpoint travels as raw bytes");

/// The local port a queue pair uses.
struct ib_port {
  std::uint8_t num = 1;
  int gid_index = 0;
  ibv_port_attr attr{};
};

/// The attributes of each transition; rd_atomic is how many RDMA reads/atomics may be in flight each way.
void qp_init_attr(const ib_port& port, ibv_qp_attr* attr, int* mask);
void qp_rtr_attr(const ib_port& port, const ib_endpoint& remote, unsigned rd_atomic, ibv_qp_attr* attr, int* mask);
void qp_rts_attr(const ib_endpoint& local, unsigned rd_atomic, ibv_qp_attr* attr, int* mask);

/// Moves qp from RESET through INIT and RTR to RTS, connected to remote (PE pe). On failure *why names the
/// transition, the PE and errno's text.
portshmem_status_t connect_qp(const verbs_api& api, ibv_qp* qp, const ib_port& port, const ib_endpoint& local,
                              const ib_endpoint& remote, unsigned rd_atomic, int pe, std::string* why);

/// "2048" for IBV_MTU_2048, for messages.
const char* mtu_name(std::uint8_t mtu);

} // namespace portshmem::rdma
