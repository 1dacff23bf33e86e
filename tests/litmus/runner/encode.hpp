// Host side of the litmus runner: from a parsed litmus test (model/litmus.hpp) to what the kernels run — the choice of
// real PEs for the test's PEs, and each thread's ops encoded as DevOps (program.hpp) for one such choice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus.hpp"
#include "program.hpp"

namespace litmus_runner {

namespace model = portshmem::model;

/// Where a real PE runs: the runtime's placement value (node * 65536 + GPU; the host platform puts every PE of a node
/// on one "device").
struct RealPlace {
  std::int32_t device = 0; // unique across nodes
  std::int32_t node = 0;
};

/// The assignments of the test's PEs to distinct real PEs that keep every "same device" and "same node" of the test
/// on the hardware (otherwise a device- or node-scoped call would be a broken promise the test did not make), and,
/// among those, realize as many of its "different device / node" pairs as possible. A test placed on PEs that are
/// closer than declared may be run: closer PEs only add synchronization, so what is observed must lie within the
/// outcomes allowed for the real placement, which the model allows for the declared one too. Empty when no
/// assignment exists (too few PEs, a "same device" the hardware cannot give, or no load/store path where the test
/// needs one). load_store[a][b]: real PE a reaches real PE b's heap by loads and stores (not through the RDMA proxy);
/// a thread's ordinary store or load to another PE's copy needs it. Empty: every PE reaches every PE.
std::vector<std::vector<int>> candidate_maps(const model::LitmusTest& t, const std::vector<RealPlace>& places,
                                             const std::vector<std::vector<char>>& load_store = {},
                                             std::size_t limit = 4096);

/// The test with its placement lines replaced by where `map` puts its PEs on the hardware.
model::LitmusTest realized_test(const model::LitmusTest& t, const std::vector<int>& map,
                                const std::vector<RealPlace>& places);

/// True when the realized placement differs from the declared one (some declared-apart PEs share a device or node).
bool placement_differs(const model::LitmusTest& t, const model::LitmusTest& realized);

/// Per thread and op, how a wait is run (kWaitStable or kWaitByTest, program.hpp): stable when no write of the test can
/// take the awaited location from satisfying the wait's condition back to failing it.
std::vector<std::vector<std::uint8_t>> wait_modes(const model::LitmusTest& t);

/// Why the test cannot be run through the real API in this build ("" when it can).
std::string unrunnable_reason(const model::LitmusTest& t, const std::vector<std::vector<std::uint8_t>>& modes);

/// True when the test calls barrier_all or sync_all: such tests run one instance at a time on every PE, since the
/// API's barrier spans every PE of the job.
bool needs_serial(const model::LitmusTest& t);

/// Layout of the test's locations in the runner's symmetric buffer: location array of symbol s starts at word
/// s * capacity * stride; instance i of it is word i * stride of that array.
struct Layout {
  std::uint64_t capacity = 0; // instances per batch at most
  std::uint32_t stride = 1;
  std::uint64_t offset(int sym) const { return std::uint64_t(sym) * capacity * stride; }
  std::uint64_t words(int nsyms) const { return std::uint64_t(nsyms) * capacity * stride; }
};

/// Thread `thread`'s ops with the test's PEs mapped to real PEs by `map`.
std::vector<DevOp> encode_thread(const model::LitmusTest& t, int thread, const std::vector<int>& map,
                                 const Layout& layout, const std::vector<std::vector<std::uint8_t>>& modes);

/// The barrier_all / sync_all calls of the test, in order (thread 0's), for PEs that play no thread in serial mode.
std::vector<DevOp> encode_barriers_only(const model::LitmusTest& t);

} // namespace litmus_runner
