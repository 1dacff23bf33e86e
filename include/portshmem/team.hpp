// A team in device code (portshmem/team.h): the handle kernels take by value, what a member asks about it, and the
// translation between team indices and world PEs. A team's members are world PEs start, start + stride, ...
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/team.h"

namespace portshmem {

/// A team's device handle (portshmem_team_get_handle on the host), by value to kernels.
using team = portshmem_team_handle_t;

/// This PE's index in t, or -1 when it is not a member.
PORTSHMEM_DEVICE int team_my_pe(const team& t) {
  return t.my_index;
}

/// The number of members of t.
PORTSHMEM_DEVICE int team_n_pes(const team& t) {
  return t.size;
}

/// The world PE of t's member index, or -1 for an index outside [0, team_n_pes(t)).
PORTSHMEM_DEVICE int team_world_pe(const team& t, int index) {
  return index < 0 || index >= t.size ? -1 : t.start + index * t.stride;
}

/// The index in dest of src's member src_pe, or -1 when that PE is not a member of dest.
PORTSHMEM_DEVICE int team_translate_pe(const team& src, int src_pe, const team& dest) {
  const int world = team_world_pe(src, src_pe);
  if (world < 0 || world < dest.start || (world - dest.start) % dest.stride != 0) return -1;
  const int index = (world - dest.start) / dest.stride;
  return index < dest.size ? index : -1;
}

} // namespace portshmem
