#include "rdma/amo_word.hpp"

namespace portshmem::rdma {

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
