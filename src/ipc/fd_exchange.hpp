// Passing file descriptors between the processes of a node: the GPU heaps exported as file descriptors
// (gpu_vmm_heap.cpp) travel this way, since a descriptor is only meaningful inside the kernel that issued it and MPI
// cannot carry one. Unix datagram sockets in the abstract namespace (nothing on the file system to clean up), with
// SCM_RIGHTS messages.
#pragma once

#include <cstdint>
#include <vector>

#include "bootstrap.hpp"
#include "portshmem/status.h"

namespace portshmem::detail {

/// Collective over boot (every rank calls it; each node's ranks exchange among themselves): sends mine, a file
/// descriptor, to every other rank of this node and receives theirs: (*theirs)[r] is rank r's, as a descriptor of
/// this process, for every node rank r but this one, -1 elsewhere; the caller closes them. job names the sockets
/// (job_key). Gives up after timeout_ns without all of them, closing what it received. Every rank returns the same
/// status; failures are logged at WARN (the caller has a fallback).
portshmem_status_t exchange_fds(bootstrap& boot, std::uint64_t job, int mine, std::uint64_t timeout_ns,
                                std::vector<int>* theirs);

} // namespace portshmem::detail
