// The host's record of the teams this PE belongs to (portshmem/team.h): one entry per slot of the reserved team area,
// with the team's device handle and a bootstrap group of its members for the host-side team calls.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "bootstrap.hpp"
#include "portshmem/status.h"
#include "portshmem/team.h"

namespace portshmem::detail {

struct runtime;

struct team_record {
  bool live = false;
  portshmem_team_handle_t handle{};
  portshmem_team_config_t config{};
  std::shared_ptr<group> members; // ranked by team index (shared: records are copied while a split runs)
};

struct team_table {
  std::size_t area_offset = 0; // heap offset of slot 0 (the reserved team area runs to the heap's end)
  std::size_t slot_bytes = 0;
  std::size_t scratch_bytes = 0;
  std::vector<team_record> slots; // PORTSHMEM_MAX_TEAMS of them
};

/// Bytes the reserved team area takes at the end of every heap, for the job's configuration.
std::size_t team_area_bytes(int n_pes, int max_teams, std::size_t scratch_bytes);

/// The live runtime's number of team slots (PORTSHMEM_MAX_TEAMS; every portshmem_team_t is below it), 0 when none.
int team_slot_count();

/// Collective (init): lays out the team area and creates the world and shared teams.
portshmem_status_t create_initial_teams(runtime& rt);

/// Frees every team's group (finalize, or a failed init).
void release_teams(runtime& rt);

} // namespace portshmem::detail
