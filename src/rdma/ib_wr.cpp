#include "rdma/ib_wr.hpp"

namespace portshmem::rdma {
namespace {

void encode(ib_request* r, ibv_wr_opcode opcode, const ib_local& local, std::uint64_t wr_id, unsigned flags) {
  *r = {};
  r->sge.addr = local.addr;
  r->sge.length = local.length;
  r->sge.lkey = local.lkey;
  r->wr.wr_id = wr_id;
  r->wr.sg_list = &r->sge;
  r->wr.num_sge = local.length ? 1 : 0;
  r->wr.opcode = opcode;
  r->wr.send_flags = flags;
}

} // namespace

void encode_write(ib_request* r, const ib_local& from, const ib_remote& to, std::uint64_t wr_id, unsigned flags) {
  encode(r, IBV_WR_RDMA_WRITE, from, wr_id, flags);
  r->wr.wr.rdma.remote_addr = to.addr;
  r->wr.wr.rdma.rkey = to.rkey;
}

void encode_read(ib_request* r, const ib_local& into, const ib_remote& from, std::uint64_t wr_id, unsigned flags) {
  encode(r, IBV_WR_RDMA_READ, into, wr_id, flags & ~unsigned(IBV_SEND_INLINE));
  r->wr.wr.rdma.remote_addr = from.addr;
  r->wr.wr.rdma.rkey = from.rkey;
}

void encode_fetch_add(ib_request* r, const ib_local& result, const ib_remote& at, std::uint64_t add,
                      std::uint64_t wr_id, unsigned flags) {
  encode(r, IBV_WR_ATOMIC_FETCH_AND_ADD, {result.addr, 8, result.lkey}, wr_id, flags & ~unsigned(IBV_SEND_INLINE));
  r->wr.wr.atomic.remote_addr = at.addr;
  r->wr.wr.atomic.rkey = at.rkey;
  r->wr.wr.atomic.compare_add = add;
}

void encode_compare_swap(ib_request* r, const ib_local& result, const ib_remote& at, std::uint64_t compare,
                         std::uint64_t swap, std::uint64_t wr_id, unsigned flags) {
  encode(r, IBV_WR_ATOMIC_CMP_AND_SWP, {result.addr, 8, result.lkey}, wr_id, flags & ~unsigned(IBV_SEND_INLINE));
  r->wr.wr.atomic.remote_addr = at.addr;
  r->wr.wr.atomic.rkey = at.rkey;
  r->wr.wr.atomic.compare_add = compare;
  r->wr.wr.atomic.swap = swap;
}

} // namespace portshmem::rdma
