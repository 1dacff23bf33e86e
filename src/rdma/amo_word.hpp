// Every atomic of the proxy's vocabulary as 8-byte fetch-and-add, compare-and-swap, or a compare-and-swap loop on
// the aligned word that holds the operand: what a network with only 8-byte hardware atomics (verbs; MPI where its
// narrow atomics are emulated) needs to stay atomic with the owner's own atomics.
#pragma once

#include <cstdint>

#include "rdma/network.hpp"

namespace portshmem::rdma {

/// How one atomic runs: one fetch-and-add, one compare-and-swap, or a compare-and-swap loop on the aligned 8-byte
/// word that holds the operand (verbs has no 4-byte atomics and no set, swap, and, or, xor; MPI's 4-byte atomics are
/// not atomic with the CPU's or GPU's on the owner). The word is in host byte order, so a 4-byte operand at word + 4
/// is the high half on little-endian hosts.
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
