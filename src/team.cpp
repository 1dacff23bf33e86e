// Teams on the host (portshmem/team.h): the reserved team area's layout, the world and shared teams made at init, and
// the collective splits, which agree on the arguments and on one slot free on every PE of the parent before any PE
// uses it. A new slot's words are zeroed by each member and the parent synchronizes before the team is returned, so
// no member's first signal can land before another member has cleared its words.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "log.hpp"
#include "portshmem/detail/team_state.hpp"
#include "portshmem/gpu_runtime.hpp"
#include "runtime.hpp"
#include "team_table.hpp"

namespace portshmem::detail {

int team_slot_count() {
  const runtime* rt = current();
  return rt ? rt->cfg.max_teams : 0;
}

std::size_t team_area_bytes(int n_pes, int max_teams, std::size_t scratch_bytes) {
  return std::size_t(max_teams) * team_slot_bytes(n_pes, scratch_bytes);
}

namespace {

/// A new team as one PE sees it: its members' indices in the parent; size 0 when this PE is not a member.
struct membership {
  int start = 0, stride = 1, size = 0, my_index = -1;
};

/// The worst status of the group's members (PORTSHMEM_ERR_BOOTSTRAP if even that cannot be learned).
portshmem_status_t agree_on(group& g, portshmem_status_t mine) {
  const std::int64_t v = mine;
  std::int64_t lo = 0, worst = 0;
  if (g.min_max(&v, &lo, &worst, 1) != PORTSHMEM_SUCCESS) return PORTSHMEM_ERR_BOOTSTRAP;
  return portshmem_status_t(worst);
}

portshmem_team_handle_t make_handle(const team_table& t, int slot, int start, int stride, int size, int my_index) {
  portshmem_team_handle_t h{};
  h.start = start;
  h.stride = size > 1 ? stride : 1;
  h.size = size;
  h.my_index = my_index;
  h.slot = slot;
  h.state_offset = t.area_offset + std::size_t(slot) * t.slot_bytes;
  h.scratch_offset = h.state_offset + (t.slot_bytes - team_align_up(t.scratch_bytes));
  h.scratch_bytes = t.scratch_bytes;
  return h;
}

/// Zeroes this PE's words of a slot (its counters and the words members write here) before the team is used.
portshmem_status_t clear_slot(runtime& rt, const portshmem_team_handle_t& h, const char* call) {
  char* words = rt.heap->local() + h.state_offset;
  if (hipMemset(words, 0, team_state_bytes(rt.boot->size())) != hipSuccess || hipDeviceSynchronize() != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "%s: clearing the team's synchronization words failed", call);
  }
  return PORTSHMEM_SUCCESS;
}

/// Records a team this PE is a member of in slot, with its group.
void record(runtime& rt, int slot, const membership& m, int world_start, int world_stride,
            std::shared_ptr<group> members, const portshmem_team_config_t& config) {
  team_record& r = rt.teams.slots[std::size_t(slot)];
  r.live = true;
  r.handle = make_handle(rt.teams, slot, world_start, world_stride, m.size, m.my_index);
  r.config = config;
  r.members = std::move(members);
}

team_record* find(runtime* rt, portshmem_team_t team) {
  if (!rt || team < 0 || std::size_t(team) >= rt->teams.slots.size()) return nullptr;
  team_record& r = rt->teams.slots[std::size_t(team)];
  return r.live ? &r : nullptr;
}

/// Collective over parent's members: agrees on args (every PE must pass the same), on the local verdict, and on a
/// slot free everywhere; then this PE joins the team `mine` (if a member) in that slot.
portshmem_status_t split(runtime& rt, const team_record& parent, const char* call,
                         const std::vector<std::int64_t>& args, portshmem_status_t verdict, const membership& mine,
                         const portshmem_team_config_t& config, portshmem_team_t* out) {
  group& pc = *parent.members;
  const int n = int(args.size());
  std::vector<std::int64_t> lo(args.size()), hi(args.size());
  if (auto s = pc.min_max(args.data(), lo.data(), hi.data(), n); s != PORTSHMEM_SUCCESS) return s;
  if (lo != hi) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_MISMATCH,
                          "%s: the PEs of the parent team passed different arguments (every member must pass the "
                          "same start, stride, size / xrange); no team was made",
                          call);
  }
  if (verdict = agree_on(pc, verdict); verdict != PORTSHMEM_SUCCESS) return verdict; // logged where it was found
  // A slot is free when no member uses it: the maximum of the members' 0/1 flags.
  std::vector<std::int64_t> used(rt.teams.slots.size()), unused_somewhere(used.size()), used_anywhere(used.size());
  for (std::size_t s = 0; s < used.size(); ++s) used[s] = rt.teams.slots[s].live ? 1 : 0;
  if (auto s = pc.min_max(used.data(), unused_somewhere.data(), used_anywhere.data(), int(used.size()));
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  const auto free_slot = std::find(used_anywhere.begin(), used_anywhere.end(), 0);
  if (free_slot == used_anywhere.end()) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_OUT_OF_MEMORY,
                          "%s: no team slot is free on every PE of the parent team (PORTSHMEM_MAX_TEAMS=%zu, "
                          "world and shared included): destroy a team or raise the limit",
                          call, rt.teams.slots.size());
  }
  const int slot = int(free_slot - used_anywhere.begin());
  std::unique_ptr<group> members;
  if (auto s = pc.split(mine.size > 0 ? mine.start : -1, std::max(mine.my_index, 0), &members);
      s != PORTSHMEM_SUCCESS) {
    return s;
  }
  const int pstart = parent.handle.start, pstride = parent.handle.stride;
  const portshmem_team_handle_t probe = make_handle(rt.teams, slot, 0, 1, 0, -1);
  portshmem_status_t status = mine.size > 0 ? clear_slot(rt, probe, call) : PORTSHMEM_SUCCESS;
  if (status = agree_on(pc, status); status != PORTSHMEM_SUCCESS) return status;
  if (mine.size > 0) {
    record(rt, slot, mine, pstart + mine.start * pstride, pstride * mine.stride, std::move(members), config);
    *out = slot;
  } else {
    *out = PORTSHMEM_TEAM_INVALID;
  }
  // Every member's words are clear before any member's first round (agree_on above was that barrier).
  return PORTSHMEM_SUCCESS;
}

portshmem_team_config_t config_of(const portshmem_team_config_t* config, long mask) {
  portshmem_team_config_t c{1};
  if (config && (mask & PORTSHMEM_TEAM_NUM_CONTEXTS)) c.num_contexts = config->num_contexts;
  return c;
}

} // namespace

portshmem_status_t create_initial_teams(runtime& rt) {
  const int n = rt.boot->size(), me = rt.boot->rank();
  team_table& t = rt.teams;
  t.scratch_bytes = rt.cfg.team_scratch;
  t.slot_bytes = team_slot_bytes(n, t.scratch_bytes);
  t.area_offset = rt.cfg.heap_size - team_area_bytes(n, rt.cfg.max_teams, t.scratch_bytes);
  t.slots.assign(std::size_t(rt.cfg.max_teams), team_record{});
  // Shared: this PE's node, when its PEs form an arithmetic progression (a handle holds start and stride); else this
  // PE alone, which OpenSHMEM allows. Nodes of consecutive ranks (mpirun's default placement) always qualify.
  const std::vector<int>& node = rt.boot->node_ranks();
  bool progression = node.size() >= 1;
  for (std::size_t i = 2; i < node.size(); ++i) progression = progression && node[i] - node[i - 1] == node[1] - node[0];
  membership world_m{0, 1, n, me}, shared_m{};
  if (progression) {
    shared_m = {node[0], node.size() > 1 ? node[1] - node[0] : 1, int(node.size()), rt.boot->node_rank()};
  } else {
    PORTSHMEM_LOG(info, "the PEs of this node (%s) are not evenly spaced: PORTSHMEM_TEAM_SHARED is this PE alone",
                  describe_pes(node).c_str());
    shared_m = {me, 1, 1, 0};
  }
  std::unique_ptr<group> world, shared;
  if (auto s = rt.boot->world_group(&world); s != PORTSHMEM_SUCCESS) return s;
  if (auto s = world->split(progression ? node[0] : n + me, me, &shared); s != PORTSHMEM_SUCCESS) return s;
  // The heap is zeroed at creation: the two slots' words start clear.
  record(rt, PORTSHMEM_TEAM_WORLD, world_m, 0, 1, std::move(world), portshmem_team_config_t{1});
  record(rt, PORTSHMEM_TEAM_SHARED, shared_m, shared_m.start, shared_m.stride, std::move(shared),
         portshmem_team_config_t{1});
  return PORTSHMEM_SUCCESS;
}

void release_teams(runtime& rt) {
  for (team_record& r : rt.teams.slots) {
    r.members.reset();
    r.live = false;
  }
}

} // namespace portshmem::detail

using namespace portshmem::detail;

extern "C" {

int portshmem_team_my_pe(portshmem_team_t team) {
  const team_record* r = find(current(), team);
  return r ? r->handle.my_index : -1;
}

int portshmem_team_n_pes(portshmem_team_t team) {
  const team_record* r = find(current(), team);
  return r ? r->handle.size : -1;
}

int portshmem_team_translate_pe(portshmem_team_t src_team, int src_pe, portshmem_team_t dest_team) {
  runtime* rt = current();
  const team_record* src = find(rt, src_team);
  const team_record* dest = find(rt, dest_team);
  if (!src || !dest || src_pe < 0 || src_pe >= src->handle.size) return -1;
  const std::int64_t world = std::int64_t(src->handle.start) + std::int64_t(src_pe) * src->handle.stride;
  const std::int64_t from_start = world - dest->handle.start;
  if (from_start < 0 || from_start % dest->handle.stride != 0) return -1;
  const std::int64_t index = from_start / dest->handle.stride;
  return index < dest->handle.size ? int(index) : -1;
}

portshmem_status_t portshmem_team_get_handle(portshmem_team_t team, portshmem_team_handle_t* handle) {
  runtime* rt = current();
  if (!rt) return PORTSHMEM_FAIL_NOT_RUNNING("portshmem_team_get_handle");
  if (!handle) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_team_get_handle: handle is NULL");
  const team_record* r = find(rt, team);
  if (!r) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_team_get_handle: team %d is not a team of PE %d",
                          int(team), rt->boot->rank());
  }
  *handle = r->handle;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t portshmem_team_get_config(portshmem_team_t team, long mask, portshmem_team_config_t* config) {
  runtime* rt = current();
  if (!rt) return PORTSHMEM_FAIL_NOT_RUNNING("portshmem_team_get_config");
  const team_record* r = find(rt, team);
  if (!r || !config) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_team_get_config: %s",
                          !r ? "not a team of this PE" : "config is NULL");
  }
  if (mask & PORTSHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = r->config.num_contexts;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t portshmem_team_split_strided(portshmem_team_t parent, int start, int stride, int size,
                                                const portshmem_team_config_t* config, long config_mask,
                                                portshmem_team_t* new_team) {
  constexpr const char* call = "portshmem_team_split_strided";
  runtime* rt = current();
  if (!rt) return PORTSHMEM_FAIL_NOT_RUNNING(call);
  if (!new_team) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: new_team is NULL", call);
  *new_team = PORTSHMEM_TEAM_INVALID;
  std::lock_guard<std::mutex> lock(rt->mutex);
  const team_record* p = find(rt, parent);
  if (!p || p->handle.my_index < 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: parent %d is not a team of PE %d", call, int(parent),
                          rt->boot->rank());
  }
  const team_record parent_copy = *p;
  const std::int64_t last = std::int64_t(start) + std::int64_t(size - 1) * stride;
  portshmem_status_t verdict = PORTSHMEM_SUCCESS;
  if (size < 1 || start < 0 || (size > 1 && stride < 1) || last >= parent_copy.handle.size) {
    verdict =
        PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                       "%s: start %d, stride %d, size %d does not name members of a %d-PE parent team (size >= 1, "
                       "stride >= 1, every index below the parent's size)",
                       call, start, stride, size, parent_copy.handle.size);
  }
  membership m;
  const int me = parent_copy.handle.my_index;
  if (verdict == PORTSHMEM_SUCCESS && me >= start && (size == 1 ? me == start : (me - start) % stride == 0) &&
      (me - start) / std::max(stride, 1) < size) {
    m = {start, size > 1 ? stride : 1, size, size == 1 ? 0 : (me - start) / stride};
  }
  return split(*rt, parent_copy, call, {start, stride, size}, verdict, m, config_of(config, config_mask), new_team);
}

portshmem_status_t portshmem_team_split_2d(portshmem_team_t parent, int xrange,
                                           const portshmem_team_config_t* xaxis_config, long xaxis_mask,
                                           portshmem_team_t* xaxis_team, const portshmem_team_config_t* yaxis_config,
                                           long yaxis_mask, portshmem_team_t* yaxis_team) {
  constexpr const char* call = "portshmem_team_split_2d";
  runtime* rt = current();
  if (!rt) return PORTSHMEM_FAIL_NOT_RUNNING(call);
  if (!xaxis_team || !yaxis_team) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: a team pointer is NULL", call);
  *xaxis_team = *yaxis_team = PORTSHMEM_TEAM_INVALID;
  std::lock_guard<std::mutex> lock(rt->mutex);
  const team_record* p = find(rt, parent);
  if (!p || p->handle.my_index < 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: parent %d is not a team of PE %d", call, int(parent),
                          rt->boot->rank());
  }
  const team_record parent_copy = *p;
  const int n = parent_copy.handle.size, me = parent_copy.handle.my_index;
  portshmem_status_t verdict = PORTSHMEM_SUCCESS;
  if (xrange < 1) {
    verdict = PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: xrange %d is not positive", call, xrange);
  }
  const int x = std::min(std::max(xrange, 1), n), row = me / x, col = me % x;
  const membership xm{row * x, 1, std::min(x, n - row * x), col};
  const membership ym{col, x, (n - col + x - 1) / x, row};
  const std::vector<std::int64_t> args{xrange};
  portshmem_status_t s =
      split(*rt, parent_copy, call, args, verdict, xm, config_of(xaxis_config, xaxis_mask), xaxis_team);
  if (s != PORTSHMEM_SUCCESS) return s;
  s = split(*rt, parent_copy, call, args, PORTSHMEM_SUCCESS, ym, config_of(yaxis_config, yaxis_mask), yaxis_team);
  if (s != PORTSHMEM_SUCCESS) { // the x-axis team goes too: the call made nothing (collective over the same PEs)
    team_record& xr = rt->teams.slots[std::size_t(*xaxis_team)];
    xr.members.reset();
    xr.live = false;
    *xaxis_team = PORTSHMEM_TEAM_INVALID;
  }
  return s;
}

portshmem_status_t portshmem_team_destroy(portshmem_team_t team) {
  constexpr const char* call = "portshmem_team_destroy";
  runtime* rt = current();
  if (!rt) return PORTSHMEM_FAIL_NOT_RUNNING(call);
  std::lock_guard<std::mutex> lock(rt->mutex);
  team_record* r = find(rt, team);
  if (!r || team == PORTSHMEM_TEAM_WORLD || team == PORTSHMEM_TEAM_SHARED) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: team %d %s", call, int(team),
                          r ? "is predefined and cannot be destroyed" : "is not a team of this PE");
  }
  // Nothing of the team's may still be on the way into any member's slot when it is reused.
  portshmem_status_t status = PORTSHMEM_SUCCESS;
  if (hipDeviceSynchronize() != hipSuccess) {
    status = PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "%s: device synchronization failed", call);
  }
  for (auto& link : rt->links) {
    if (auto s = link->quiet(); s != PORTSHMEM_SUCCESS && status == PORTSHMEM_SUCCESS) status = s;
  }
  if (auto s = r->members->barrier(); s != PORTSHMEM_SUCCESS && status == PORTSHMEM_SUCCESS) status = s;
  r->members.reset();
  r->live = false;
  return status;
}

portshmem_status_t portshmem_team_sync(portshmem_team_t team) {
  constexpr const char* call = "portshmem_team_sync";
  runtime* rt = current();
  if (!rt) return PORTSHMEM_FAIL_NOT_RUNNING(call);
  const team_record* r = find(rt, team);
  if (!r || r->handle.my_index < 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "%s: team %d is not a team of this PE", call, int(team));
  }
  if (hipDeviceSynchronize() != hipSuccess) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_GPU, "%s: device synchronization failed", call);
  }
  return r->members->barrier();
}

} // extern "C"
