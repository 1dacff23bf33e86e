// The runtime's only way to talk to other PEs before the heaps are mapped: a small collective interface, so a
// TCP or unique-id bootstrap can replace MPI later without touching the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "portshmem/portshmem.h"
#include "portshmem/status.h"

namespace portshmem::detail {

/// A set of ranks that runs collectives among itself: a team's members (src/team.cpp). Made from the bootstrap's world
/// and split further; destroying one releases it (not collective).
class group {
 public:
  virtual ~group() = default;
  /// This rank's index in the group, and the number of members.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Collective: (*min)[i] and (*max)[i] over the members' mine[i], for i < n.
  virtual portshmem_status_t min_max(const std::int64_t* mine, std::int64_t* min, std::int64_t* max, int n) = 0;
  /// Collective: the members that pass one color >= 0 form a new group, ranked by key, ties by rank in this group; a
  /// member that passes a negative color gets nullptr.
  virtual portshmem_status_t split(int color, int key, std::unique_ptr<group>* out) = 0;
  virtual portshmem_status_t barrier() = 0;
};

class bootstrap {
 public:
  virtual ~bootstrap() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Ranks on this node (processes that can share memory), in rank order; node_rank() indexes it.
  const std::vector<int>& node_ranks() const { return node_ranks_; }
  int node_rank() const { return node_rank_; }
  /// Every rank's node index (node 0 holds rank 0): which PEs may share memory with which.
  const std::vector<int>& node_of() const { return node_of_; }
  /// Splits the ranks into `groups` contiguous groups (rank r in group r * groups / size) and treats each node's ranks
  /// of one group as a node of their own from now on (node_ranks, node_rank, node_of): PORTSHMEM_NODE_GROUPS, which
  /// emulates several nodes on one machine. groups <= 1 changes nothing.
  void split_nodes(int groups);
  /// The MPI communicator of the PEs (an MPI_Comm*, as void* so this header does not need mpi.h), or nullptr when the
  /// bootstrap is not MPI. The MPI network duplicates it.
  virtual const void* mpi_comm() const { return nullptr; }
  /// The thread level MPI provides (MPI_THREAD_*), or -1 when the bootstrap is not MPI.
  virtual int mpi_thread_level() const { return -1; }

  /// all[r * bytes .. ) receives rank r's `mine`.
  virtual portshmem_status_t allgather(const void* mine, void* all, std::size_t bytes) = 0;
  virtual portshmem_status_t barrier() = 0;
  /// A barrier that gives up after timeout_ns: PORTSHMEM_ERR_TIMEOUT (nothing logged) with *late set to the ranks
  /// whose arrival this rank has not seen. A barrier that timed out stays open: the next call first waits for it
  /// (within its own timeout), so a late rank's call still pairs with the one the others gave up on.
  virtual portshmem_status_t bounded_barrier(std::uint64_t timeout_ns, std::vector<int>* late) = 0;
  /// Minimum and maximum of v over all ranks, and the ranks holding them (for mismatch messages).
  virtual portshmem_status_t min_max(std::uint64_t v, std::uint64_t* min, int* min_rank, std::uint64_t* max,
                                     int* max_rank) = 0;
  /// Collective: a new group of every rank, ranked as here (the world team's).
  virtual portshmem_status_t world_group(std::unique_ptr<group>* out) = 0;

 protected:
  /// The node tables, as the implementation fills them from the machine and split_nodes rewrites them.
  std::vector<int> node_ranks_, node_of_;
  int node_rank_ = 0;
};

/// Collective: the worst status any rank passes (so all ranks fail together instead of some waiting forever on the
/// others); logs which rank failed on the ranks that did not.
portshmem_status_t agree_status(bootstrap& boot, portshmem_status_t mine);

/// Collective: the worst status any rank passes, without a word (for a step whose failure has a fallback).
portshmem_status_t worst_status(bootstrap& boot, portshmem_status_t mine);

/// Collective: a number every rank of the job gets alike and another job on the machine almost surely does not (rank
/// 0's random draw), to name the job's shared resources (shared-memory segments, sockets).
portshmem_status_t job_key(bootstrap& boot, std::uint64_t* key);

/// "PE 3" or "PEs 0-2, 5, 7" (ranks in increasing order, runs folded, the first eight runs shown), for messages.
std::string describe_pes(const std::vector<int>& pes);

/// MPI bootstrap over a duplicate of comm (an MPI_Comm passed as void*, so this header does not need mpi.h).
/// Initializes MPI first when owns_mpi; finalizes it on destruction then.
portshmem_status_t make_mpi_bootstrap(const void* comm, bool init_mpi, std::unique_ptr<bootstrap>* out);

/// The unique-ID bootstrap (src/bootstrap_tcp.cpp): TCP between the ranks, no MPI. make_unique_id opens this
/// process's listening socket (kept until the bootstrap of rank 0 takes it over) and names it in *uid; every rank
/// then calls make_tcp_bootstrap with the same uid and nranks, rank 0 in the process that made the ID. Connecting
/// gives up after timeout_ns (0: never) naming the ranks that did not come.
portshmem_status_t make_unique_id(portshmem_uniqueid_t* uid);
portshmem_status_t make_tcp_bootstrap(const portshmem_uniqueid_t& uid, int rank, int nranks, std::uint64_t timeout_ns,
                                      std::unique_ptr<bootstrap>* out);

} // namespace portshmem::detail
