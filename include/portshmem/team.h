/* Teams (OpenSHMEM 1.5 semantics): ordered subsets of the PEs that collectives run on. The host creates and destroys
 * them (collective over the parent team); kernels take a team's device handle by value, next to the context.
 * A team's members are an arithmetic progression of world PEs (start, stride, size), as every split of the world
 * yields. Each team holds one of PORTSHMEM_MAX_TEAMS slots of the runtime's reserved area at the end of every PE's
 * heap: its synchronization words and PORTSHMEM_TEAM_SCRATCH bytes of collective scratch (docs/api.md, "Teams"). */
#ifndef PORTSHMEM_TEAM_H
#define PORTSHMEM_TEAM_H

#include <stdint.h>

#include "portshmem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A team on the host: its slot number, the same on every member. */
typedef int32_t portshmem_team_t;

#define PORTSHMEM_TEAM_INVALID ((portshmem_team_t)-1) /* no team (a PE outside a split's new team gets this) */
#define PORTSHMEM_TEAM_WORLD ((portshmem_team_t)0)    /* every PE, in PE order */
#define PORTSHMEM_TEAM_SHARED ((portshmem_team_t)1)   /* the PEs of this PE's node (see portshmem_team_get_handle) */

/** Creation options (OpenSHMEM's shmem_team_config_t). portshmem contexts are per kernel launch, so num_contexts is
 *  accepted and recorded but reserves nothing. */
typedef struct portshmem_team_config {
  int32_t num_contexts;
} portshmem_team_config_t;

#define PORTSHMEM_TEAM_NUM_CONTEXTS (1L << 0) /* config_mask bit: num_contexts is set */

/** A team's device handle: passed to kernels by value, read by the device team and collective calls. */
typedef struct portshmem_team_handle {
  int32_t start;           /* world PE of team index 0 */
  int32_t stride;          /* world-PE distance between consecutive team indices (1 for a team of one) */
  int32_t size;            /* number of members */
  int32_t my_index;        /* this PE's index in the team, or -1 when it is not a member */
  int32_t slot;            /* the team's slot (its portshmem_team_t): which sync words and scratch it uses */
  int32_t reserved;        /* zero */
  uint64_t state_offset;   /* heap offset of the slot's words: this PE's round counters, then one word per member
                              that member writes (its latest round), the same offset on every PE */
  uint64_t scratch_offset; /* heap offset of the slot's collective scratch, the same on every PE */
  uint64_t scratch_bytes;  /* bytes of scratch per PE (PORTSHMEM_TEAM_SCRATCH) */
} portshmem_team_handle_t;

/** This PE's index in team, or -1 when it is not a member (or team is invalid). */
int portshmem_team_my_pe(portshmem_team_t team);
/** The number of members of team, or -1 for an invalid team. */
int portshmem_team_n_pes(portshmem_team_t team);
/** The index in dest_team of src_team's member src_pe, or -1 when that PE is not in dest_team (or an argument is
 *  invalid). */
int portshmem_team_translate_pe(portshmem_team_t src_team, int src_pe, portshmem_team_t dest_team);
/** The device handle of team (a member's or not) for kernels. */
portshmem_status_t portshmem_team_get_handle(portshmem_team_t team, portshmem_team_handle_t* handle);
/** team's creation options (only the bits of mask are written). */
portshmem_status_t portshmem_team_get_config(portshmem_team_t team, long mask, portshmem_team_config_t* config);

/** Collective over parent: the members of parent with indices start, start + stride, ... (size of them) form a new
 *  team, in that order. Every member of parent calls it with the same arguments; *new_team is the new team on its
 *  members and PORTSHMEM_TEAM_INVALID elsewhere. stride >= 1 (any stride for size 1). Fails on every PE of parent
 *  alike: PORTSHMEM_ERR_INVALID_ARG (a range outside parent), PORTSHMEM_ERR_MISMATCH (PEs passed different
 *  arguments), PORTSHMEM_ERR_OUT_OF_MEMORY (no slot free on every member: PORTSHMEM_MAX_TEAMS). */
portshmem_status_t portshmem_team_split_strided(portshmem_team_t parent, int start, int stride, int size,
                                                const portshmem_team_config_t* config, long config_mask,
                                                portshmem_team_t* new_team);
/** Collective over parent: parent's members as a grid of rows of xrange (the last row may be short); *xaxis_team is
 *  this PE's row (index = column), *yaxis_team its column (index = row). xrange larger than parent is clipped to it. */
portshmem_status_t portshmem_team_split_2d(portshmem_team_t parent, int xrange,
                                           const portshmem_team_config_t* xaxis_config, long xaxis_mask,
                                           portshmem_team_t* xaxis_team, const portshmem_team_config_t* yaxis_config,
                                           long yaxis_mask, portshmem_team_t* yaxis_team);
/** Collective over team: frees its slot. World and shared cannot be destroyed (PORTSHMEM_ERR_INVALID_ARG); the
 *  team's device handles must not be used afterwards. */
portshmem_status_t portshmem_team_destroy(portshmem_team_t team);
/** Collective over team, from the host: waits for this PE's device work, then for every member (no quiet). */
portshmem_status_t portshmem_team_sync(portshmem_team_t team);

#ifdef __cplusplus
}
#endif

#endif /* PORTSHMEM_TEAM_H */
