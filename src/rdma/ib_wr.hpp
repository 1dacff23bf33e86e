// Work requests of the ibverbs network: RDMA write, read and the two atomics verbs has (8-byte fetch-and-add and
// compare-and-swap), and how every atomic of the proxy's vocabulary is built from those.
#pragma once

#include <cstdint>

#include "rdma/network.hpp"
#include "rdma/verbs_api.hpp"

namespace portshmem::rdma {

struct ib_local {
  std::uint64_t addr;
  std::uint32_t length;
  std::uint32_t lkey; ///< ignored for an inline write
};
struct ib_remote {
  std::uint64_t addr;
  std::uint32_t rkey;
};

/// A work request with its one scatter/gather entry (wr.sg_list points at sge: keep them together, do not copy).
struct ib_request {
  ibv_send_wr wr;
  ibv_sge sge;
};

/// flags: IBV_SEND_SIGNALED, IBV_SEND_FENCE, IBV_SEND_INLINE (write only).
void encode_write(ib_request* r, const ib_local& from, const ib_remote& to, std::uint64_t wr_id, unsigned flags);
void encode_read(ib_request* r, const ib_local& into, const ib_remote& from, std::uint64_t wr_id, unsigned flags);
/// result: 8 bytes that receive the previous value.
void encode_fetch_add(ib_request* r, const ib_local& result, const ib_remote& at, std::uint64_t add,
                      std::uint64_t wr_id, unsigned flags);
void encode_compare_swap(ib_request* r, const ib_local& result, const ib_remote& at, std::uint64_t compare,
                         std::uint64_t swap, std::uint64_t wr_id, unsigned flags);

/// How one atomic runs: one fetch-and-add, one compare-and-swap, or a compare-and-swap loop on the aligned 8-byte
/// word that holds the operand (verbs has no 4-byte atomics and no set, swap, and, or, xor). NIC atomics work on the
/// word in host byte order (a device reporting IBV_ATOMIC_NONE is refused), so a 4-byte operand at word + 4 is the
/// high half on little-endian hosts.
struct amo_plan {
  enum method { fetch_add, compare_swap, cas_loop } how;
  std::uint64_t word; ///< heap offset of the aligned 8-byte word
  unsigned shift;     ///< the operand's bit position in the word
  std::uint64_t mask; ///< the operand's bits in the word
  std::uint64_t add;  ///< fetch_add: the addend
};
amo_plan plan_amo(const amo_request& op, std::uint64_t remote);

/// A cas_loop step: the word to swap in when the word holds current; false when the loop ends without a swap (a
/// compare_swap whose compare fails, a fetch).
bool amo_next_word(const amo_request& op, const amo_plan& plan, std::uint64_t current, std::uint64_t* next);

/// The operation's fetched value (width bytes, zero-extended) from the word's previous value.
inline std::uint64_t amo_old_value(const amo_plan& plan, std::uint64_t previous_word) {
  return (previous_word & plan.mask) >> plan.shift;
}

} // namespace portshmem::rdma
