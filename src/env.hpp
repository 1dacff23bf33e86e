// Environment registry: every PORTSHMEM_* variable is declared once (env.cpp) and read here into a config.
#pragma once

#include "log.hpp"
#include "portshmem/status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace portshmem::detail {

/// PORTSHMEM_TRANSPORT: which transport reaches every peer (automatic picks per peer at init).
enum class transport_choice { automatic, ipc, rdma };

/// PORTSHMEM_RUN_MPS: whether the launcher starts CUDA MPS (the library only validates it).
enum class mps_choice { automatic, on, off };

/// PORTSHMEM_RELAXED: whether device code may use the relaxed lowering (src/gpu/premises.hpp decides at init).
enum class relaxed_choice { automatic, on, off };

/// PORTSHMEM_RDMA_NET: the network behind the RDMA proxy (automatic: ibverbs when a usable device is found, else MPI).
enum class rdma_net_choice { automatic, ibverbs, mpi };

/// PORTSHMEM_HEAP_MEMORY: where GPU platforms put the symmetric heap (automatic: device memory, except for rocSHMEM
/// programs on NVIDIA, which touch the heap from the host: docs/rocshmem.md).
enum class heap_memory_choice { automatic, device, host };

/// PORTSHMEM_SYMMETRIC_RANGE: whether the node's heaps are mapped into one address range at a fixed stride (automatic:
/// where the platform allows it; off: each heap where its mapping lands, reached through the per-PE table).
enum class symmetric_range_choice { automatic, off };

/// PORTSHMEM_BOOTSTRAP_ADDR: where the unique-ID start listens (automatic: the host's first non-loopback IPv4 address,
/// any free port).
struct bootstrap_address {
  bool automatic = true;
  std::uint32_t ipv4 = 0; ///< host byte order
  std::uint16_t port = 0; ///< 0: any free port
  bool operator==(const bootstrap_address&) const = default;
};
/// Parses "auto", "A.B.C.D" or "A.B.C.D:PORT" (PORT 0: any free port) into out: nullptr, or why the text was refused
/// ("is not ...").
const char* read_bootstrap_address(std::string_view text, bootstrap_address& out);
/// The spelling read_bootstrap_address accepts back ("auto", "10.0.0.2", "10.0.0.2:5000").
std::string format_bootstrap_address(const bootstrap_address& a);

/// The runtime's settings, one field per registered variable; default_config() gives the documented defaults.
struct config {
  std::size_t heap_size;          ///< PORTSHMEM_HEAP_SIZE: symmetric heap bytes per PE
  log_level debug;                ///< PORTSHMEM_DEBUG
  transport_choice transport;     ///< PORTSHMEM_TRANSPORT
  std::uint64_t timeout_ns;       ///< PORTSHMEM_TIMEOUT: bound on waits in nanoseconds (60s by default); 0 means none
  int device;                     ///< PORTSHMEM_DEVICE: GPU index; -1 means chosen by local rank
  mps_choice run_mps;             ///< PORTSHMEM_RUN_MPS: read by scripts/portshmem-run
  bool info;                      ///< PORTSHMEM_INFO: PE 0 prints the configuration and transport table at init
  relaxed_choice relaxed;         ///< PORTSHMEM_RELAXED: relaxed lowering where its premises hold (auto), always, never
  rdma_net_choice rdma_net;       ///< PORTSHMEM_RDMA_NET: the RDMA proxy's network
  int node_groups;                ///< PORTSHMEM_NODE_GROUPS: PEs split into this many emulated nodes (a testing aid)
  std::uint32_t proxy_slots;      ///< PORTSHMEM_PROXY_RING_SLOTS: commands per proxy ring
  int max_teams;                  ///< PORTSHMEM_MAX_TEAMS: team slots, world and shared included
  std::size_t team_scratch;       ///< PORTSHMEM_TEAM_SCRATCH: collective scratch bytes per team slot
  heap_memory_choice heap_memory; ///< PORTSHMEM_HEAP_MEMORY: device or host memory behind the heap (GPU platforms)
  symmetric_range_choice symmetric_range; ///< PORTSHMEM_SYMMETRIC_RANGE: one range for the node's heaps, or a table
  bootstrap_address bootstrap_addr;       ///< PORTSHMEM_BOOTSTRAP_ADDR: the unique-ID start's listening address
  bool operator==(const config&) const = default;
};

/// Returns the value of a variable or nullptr when it is unset (getenv's contract).
using env_lookup = std::function<const char*(const char* name)>;

/// One registered variable. Defaults are spelled as a user would write them and go through the same parser.
struct env_entry {
  const char* name;          ///< "PORTSHMEM_HEAP_SIZE"
  const char* type;          ///< "size", "enum", "duration", "int" or "bool"
  const char* default_value; ///< "1G"
  const char* accepted;      ///< what values parse, completing "accepted: ..." in error messages
  const char* help;          ///< one line for docs/env.md and portshmem-info
  /// Parses trimmed, non-empty text into its field of out; returns nullptr, or why the text was refused
  /// (a phrase completing "PORTSHMEM_X=\"text\" ...", e.g. "is too large").
  const char* (*parse)(std::string_view text, config& out);
  /// Formats the field of c in a spelling that parse accepts (round trip).
  std::string (*show)(const config& c);
  /// Whether every PE must have the same value (init compares them and fails on every PE otherwise): true where PEs
  /// that differ would break each other (heap size, transport, timeouts, lowering); false, the default, where a value
  /// per PE is meaningful (log level, GPU index, which PE prints, the launcher's MPS choice).
  bool job_wide = false;
};

/// At most this many variables are registered (a fixed bound lets init exchange them in one fixed-size message).
inline constexpr std::size_t kMaxEnvVariables = 16;

/// Every registered variable, in a fixed order.
std::span<const env_entry> env_registry();

/// The entry named name, or nullptr when it is not registered.
const env_entry* find_env_entry(std::string_view name);

/// The lookup the runtime uses: the process environment through std::getenv.
env_lookup process_env();

/// The configuration with every variable unset.
config default_config();

/// Reads every registered variable through lookup into *out; unset or blank (all whitespace) means the default,
/// surrounding whitespace is ignored. On the first bad value returns PORTSHMEM_ERR_ENV, leaves *out unchanged and
/// sets *error (when not null) to one sentence naming the variable, the value and what is accepted.
/// PORTSHMEM_ERR_INVALID_ARG when out is null or lookup is empty.
portshmem_status_t load_config(const env_lookup& lookup, config* out, std::string* error);

/// One line per registered variable, "NAME=value (default D)\n", for PORTSHMEM_INFO and portshmem-info.
std::string describe_config(const config& c);

/// PORTSHMEM_* names in envp (a NULL-terminated "NAME=value" array such as environ) that are not registered,
/// so the runtime can warn about a misspelled variable instead of silently using the default.
std::vector<std::string> unknown_env_names(const char* const* envp);

/// Parses a byte count: digits, then optionally K, M, G, T, P or E (binary multiples, case-insensitive) and
/// optionally B or iB ("512M", "512MiB", "64kb", "4096", "4096B"); nullopt for anything else or above 2^64-1.
std::optional<std::uint64_t> parse_size(std::string_view text);

/// Parses a duration into nanoseconds: digits, then optionally ns, us, ms, s, m or h (case-insensitive; none means
/// seconds); nullopt for anything else or above 2^64-1 ns.
std::optional<std::uint64_t> parse_duration_ns(std::string_view text);

/// Parses 0/1/true/false/yes/no/on/off (case-insensitive).
std::optional<bool> parse_bool(std::string_view text);

/// Formats bytes with the largest exact binary suffix ("1G", "1536K", "1000"); parse_size reads it back.
std::string format_size(std::uint64_t bytes);

/// Formats nanoseconds with the largest exact unit ("30s", "500ms", "0"); parse_duration_ns reads it back.
std::string format_duration_ns(std::uint64_t ns);

} // namespace portshmem::detail
