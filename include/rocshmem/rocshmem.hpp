// rocSHMEM's API on portshmem: a rocSHMEM program builds against this header by changing only its include path and
// link line (docs/rocshmem.md is the migration guide: what maps, what differs, what is missing). Everything is in
// namespace rocshmem, as rocSHMEM has it. Device calls without a context use the default context,
// ROCSHMEM_CTX_DEFAULT, of which each translation unit holds its own copy (detail/common.hpp): no relocatable device
// code is needed.
#pragma once

#include "rocshmem/detail/common.hpp"    // types, ROCSHMEM_* constants, the implicit device handle
#include "rocshmem/detail/host.hpp"      // init, finalize, malloc, barriers, teams
#include "rocshmem/detail/both.hpp"      // my_pe, n_pes, ptr, fence, quiet, team queries: host and device
#include "rocshmem/detail/stream.hpp"    // the *_on_stream calls
#include "rocshmem/detail/host_coll.hpp" // host broadcast, reduce, reduce-scatter, reduce_on_stream (generated)

#if PORTSHMEM_HAS_DEVICE_API
#include "rocshmem/detail/device.hpp" // wg_init, contexts, device barriers
#include "rocshmem/detail/rma.hpp"    // putmem/getmem, typed put/get/p/g (generated)
#include "rocshmem/detail/amo.hpp"    // atomics (generated)
#include "rocshmem/detail/signal.hpp" // put-with-signal, signal_fetch (generated)
#include "rocshmem/detail/wait.hpp"   // wait_until, test and their array forms (generated)
#include "rocshmem/detail/coll.hpp"   // broadcast, alltoall, fcollect, reductions (generated)
#endif
