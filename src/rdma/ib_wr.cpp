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

amo_plan plan_amo(const amo_request& op, std::uint64_t remote) {
  amo_plan p{amo_plan::cas_loop, remote & ~std::uint64_t(7), unsigned(remote & 7) * 8, 0, 0};
  p.mask = op.width == 8 ? ~std::uint64_t(0) : std::uint64_t(0xffffffffu) << p.shift;
  if (op.width == 8) {
    if (op.kind == PORTSHMEM_PROXY_AMO_FETCH) {
      p.how = amo_plan::fetch_add; // adding 0 reads the word atomically with the other NIC atomics
    } else if (op.kind == PORTSHMEM_PROXY_AMO_FETCH_ADD || op.kind == PORTSHMEM_PROXY_AMO_ADD) {
      p.how = amo_plan::fetch_add;
      p.add = op.value;
    } else if (op.kind == PORTSHMEM_PROXY_AMO_COMPARE_SWAP) {
      p.how = amo_plan::compare_swap;
    }
  } else if (op.kind == PORTSHMEM_PROXY_AMO_FETCH) {
    p.how = amo_plan::fetch_add; // the whole word, then the half is taken out
  }
  return p;
}

bool amo_next_word(const amo_request& op, const amo_plan& plan, std::uint64_t current, std::uint64_t* next) {
  const std::uint64_t width_mask = plan.mask >> plan.shift;
  const std::uint64_t old = (current & plan.mask) >> plan.shift, v = op.value & width_mask;
  std::uint64_t value = old;
  switch (op.kind) {
  case PORTSHMEM_PROXY_AMO_FETCH:
    return false;
  case PORTSHMEM_PROXY_AMO_COMPARE_SWAP:
    if (old != (op.compare & width_mask)) return false;
    value = v;
    break;
  case PORTSHMEM_PROXY_AMO_SET:
  case PORTSHMEM_PROXY_AMO_SWAP:
    value = v;
    break;
  case PORTSHMEM_PROXY_AMO_FETCH_ADD:
  case PORTSHMEM_PROXY_AMO_ADD:
    value = (old + v) & width_mask; // the carry stays inside the operand
    break;
  case PORTSHMEM_PROXY_AMO_FETCH_AND:
  case PORTSHMEM_PROXY_AMO_AND:
    value = old & v;
    break;
  case PORTSHMEM_PROXY_AMO_FETCH_OR:
  case PORTSHMEM_PROXY_AMO_OR:
    value = old | v;
    break;
  default:
    value = old ^ v;
    break;
  }
  *next = (current & ~plan.mask) | (value << plan.shift);
  return true;
}

} // namespace portshmem::rdma
