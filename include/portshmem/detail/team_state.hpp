// The layout of a team's slot in the runtime's reserved area (the end of every PE's heap; portshmem/team.h): the
// same offsets on every PE, so a member names another member's words by the symmetric address of its own.
//   [ header: this PE's round counters ][ one word per member, written by that member ][ collective scratch ]
// Every step of a team's synchronization is a numbered round: the team's members run the same rounds in the same order
// (collectives are called alike everywhere), so round numbers agree without communication. A member that sends this
// PE something in round r then writes r into its word here with a strong signal: "word[s] >= r" means everything s
// sent here up to round r has arrived. Words only grow while the team lives, so nothing is reset between rounds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace portshmem::detail {

struct team_header {
  std::uint64_t round;        // the last round this PE has started on the team (only the collective's leader)
  std::uint64_t scratch_uses; // scratch-using rounds so far: their parity picks the scratch half (collectives.hpp)
};

/// Bytes of a slot's header and of each part's alignment: the words a member writes start on their own cache lines.
inline constexpr std::size_t kTeamHeaderBytes = 256;
inline constexpr std::size_t kTeamAlign = 256;
static_assert(sizeof(team_header) <= kTeamHeaderBytes, "team header outgrew its reservation");

inline constexpr std::size_t team_align_up(std::size_t n) {
  return (n + kTeamAlign - 1) / kTeamAlign * kTeamAlign;
}

/// Bytes of a slot's header and member words, for a job of n_pes PEs (a team has at most n_pes members).
inline constexpr std::size_t team_state_bytes(int n_pes) {
  return kTeamHeaderBytes + team_align_up(std::size_t(n_pes) * sizeof(std::uint64_t));
}

/// Bytes of one slot with scratch_bytes of scratch.
inline constexpr std::size_t team_slot_bytes(int n_pes, std::size_t scratch_bytes) {
  return team_state_bytes(n_pes) + team_align_up(scratch_bytes);
}

} // namespace portshmem::detail
