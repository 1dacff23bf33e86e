#include "env.hpp"

#include <arpa/inet.h>

#include <array>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace portshmem::detail {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

enum class outcome { ok, junk, overflow };

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// Reads the leading decimal digits of text (at least one; no sign) and leaves the rest in text.
outcome take_digits(std::string_view& text, std::uint64_t& value) {
  std::size_t count = 0;
  value = 0;
  bool overflow = false;
  for (; count < text.size() && text[count] >= '0' && text[count] <= '9'; ++count) {
    const auto digit = static_cast<std::uint64_t>(text[count] - '0');
    if (value > (kU64Max - digit) / 10) overflow = true; // keep consuming, so "99...9x" still reads as junk
    value = value * 10 + digit;
  }
  if (count == 0) return outcome::junk;
  text.remove_prefix(count);
  return overflow ? outcome::overflow : outcome::ok;
}

outcome scale(std::uint64_t value, std::uint64_t unit, std::uint64_t& out) {
  if (value != 0 && unit > kU64Max / value) return outcome::overflow;
  out = value * unit;
  return outcome::ok;
}

constexpr std::array<char, 6> kSizeSuffixes = {'k', 'm', 'g', 't', 'p', 'e'}; // 2^10, 2^20, ... 2^60

outcome read_size(std::string_view text, std::uint64_t& bytes) {
  std::uint64_t value = 0;
  const outcome digits = take_digits(text, value);
  std::uint64_t unit = 1;
  if (!text.empty() && !iequals(text, "b")) {
    std::size_t index = 0;
    while (index < kSizeSuffixes.size() && kSizeSuffixes[index] != lower(text.front())) ++index;
    if (index == kSizeSuffixes.size()) return outcome::junk;
    const std::string_view tail = text.substr(1);
    if (!tail.empty() && !iequals(tail, "b") && !iequals(tail, "ib")) return outcome::junk;
    unit = std::uint64_t{1} << (10 * (index + 1));
  }
  if (digits != outcome::ok) return digits;
  return scale(value, unit, bytes);
}

struct time_unit {
  std::string_view name;
  std::uint64_t ns;
};
// Ordered largest first so format_duration_ns picks the coarsest exact unit.
constexpr std::array<time_unit, 6> kTimeUnits = {{{"h", 3'600'000'000'000},
                                                  {"m", 60'000'000'000},
                                                  {"s", 1'000'000'000},
                                                  {"ms", 1'000'000},
                                                  {"us", 1'000},
                                                  {"ns", 1}}};

outcome read_duration(std::string_view text, std::uint64_t& ns) {
  std::uint64_t value = 0;
  const outcome digits = take_digits(text, value);
  std::uint64_t unit = 1'000'000'000; // a plain number is seconds
  if (!text.empty()) {
    unit = 0;
    for (const auto& candidate : kTimeUnits)
      if (iequals(text, candidate.name)) unit = candidate.ns;
    if (unit == 0) return outcome::junk;
  }
  if (digits != outcome::ok) return digits;
  return scale(value, unit, ns);
}

const char* read_bool(std::string_view text, bool& out) {
  for (std::string_view yes : {"1", "true", "yes", "on"}) {
    if (iequals(text, yes)) {
      out = true;
      return nullptr;
    }
  }
  for (std::string_view no : {"0", "false", "no", "off"}) {
    if (iequals(text, no)) {
      out = false;
      return nullptr;
    }
  }
  return "is not a boolean";
}

constexpr std::array<std::string_view, 4> kLevelNames = {"ERROR", "WARN", "INFO", "TRACE"}; // log_level order
constexpr std::array<std::string_view, 3> kTransportNames = {"auto", "ipc", "rdma"};        // transport_choice order
constexpr std::array<std::string_view, 3> kAutoOnOff = {"auto", "on", "off"}; // mps_choice, relaxed_choice order
constexpr std::array<std::string_view, 3> kRdmaNetNames = {"auto", "ibverbs", "mpi"};    // rdma_net_choice order
constexpr std::array<std::string_view, 3> kHeapMemoryNames = {"auto", "device", "host"}; // heap_memory_choice
constexpr std::array<std::string_view, 2> kAutoOff = {"auto", "off"};                    // symmetric_range_choice order

template <typename Enum, std::size_t N>
const char* read_enum(std::string_view text, const std::array<std::string_view, N>& names, Enum& out,
                      const char* refusal) {
  for (std::size_t i = 0; i < N; ++i) {
    if (iequals(text, names[i])) {
      out = static_cast<Enum>(i);
      return nullptr;
    }
  }
  return refusal;
}

/// A whole number (all of text) in [lo, hi] into out; nullptr, or the refusal: "is too large" past T's range, else
/// refusal.
template <typename T>
const char* read_whole(std::string_view text, T lo, T hi, T& out, const char* refusal) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) return "is too large";
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return refusal;
  out = value;
  return nullptr;
}

const char* refusal_of(outcome result, const char* junk) {
  return result == outcome::ok ? nullptr : result == outcome::overflow ? "is too large" : junk;
}

} // namespace

const char* read_bootstrap_address(std::string_view text, bootstrap_address& out) {
  if (iequals(text, "auto")) {
    out = bootstrap_address{};
    return nullptr;
  }
  const std::size_t colon = text.find(':');
  const std::string host(text.substr(0, colon));
  bootstrap_address a;
  a.automatic = false;
  in_addr parsed{};
  if (inet_pton(AF_INET, host.c_str(), &parsed) != 1) return "is not auto or an IPv4 address (A.B.C.D[:PORT])";
  a.ipv4 = ntohl(parsed.s_addr);
  if (colon != std::string_view::npos) {
    if (const char* why = read_whole<std::uint16_t>(text.substr(colon + 1), 0, 65535, a.port, "has no port 0-65535")) {
      return why;
    }
  }
  out = a;
  return nullptr;
}

std::string format_bootstrap_address(const bootstrap_address& a) {
  if (a.automatic) return "auto";
  char text[INET_ADDRSTRLEN] = {};
  const in_addr addr{htonl(a.ipv4)};
  inet_ntop(AF_INET, &addr, text, sizeof text);
  return a.port ? std::string(text) + ":" + std::to_string(a.port) : std::string(text);
}

namespace {

// The registry: the one place a variable is declared. docs/env.md mirrors it (a unit test keeps them in step).
constexpr env_entry kRegistry[] = {
    {"PORTSHMEM_HEAP_SIZE", "size", "1G",
     "a byte count with an optional binary suffix K, M, G, T, P or E and an optional B or iB "
     "(1073741824, 512M, 512MiB, 64K, 2G, 1T)",
     "Symmetric heap bytes reserved per PE; every portshmem_malloc is carved from it.",
     [](std::string_view text, config& out) -> const char* {
       std::uint64_t bytes = 0;
       if (const char* why = refusal_of(read_size(text, bytes), "is not a size")) return why;
       if (bytes == 0) return "is zero bytes";
       if (bytes > std::numeric_limits<std::size_t>::max()) return "is too large";
       out.heap_size = static_cast<std::size_t>(bytes);
       return nullptr;
     },
     [](const config& c) { return format_size(c.heap_size); },
     /*job_wide=*/true},
    {"PORTSHMEM_DEBUG", "enum", "WARN", "ERROR, WARN, INFO or TRACE (any case)",
     "Most verbose log level printed to stderr; errors always print.",
     [](std::string_view text, config& out) { return read_enum(text, kLevelNames, out.debug, "is not a log level"); },
     [](const config& c) { return std::string(kLevelNames[static_cast<std::size_t>(c.debug)]); }},
    {"PORTSHMEM_TRANSPORT", "enum", "auto", "auto, ipc or rdma (any case)",
     "Transport used for every peer; auto picks ipc for peers whose heap can be mapped and rdma otherwise.",
     [](std::string_view text, config& out) {
       return read_enum(text, kTransportNames, out.transport, "is not a transport");
     },
     [](const config& c) { return std::string(kTransportNames[static_cast<std::size_t>(c.transport)]); },
     /*job_wide=*/true},
    // 1m (one minute): far above any wait of a working job, oversubscribed CI included (the mp suites' waits end within
    // seconds), and short enough that a hang becomes a diagnosis before a user or a CI job gives up. Waits read the
    // clock only past their 1024th poll (detail/spin.hpp), so the bound costs a wait that ends sooner nothing
    // (docs/env.md).
    {"PORTSHMEM_TIMEOUT", "duration", "1m",
     "0 (no bound) or a whole number with an optional unit ns, us, ms, s, m or h (30s, 500ms, 2m, 100us; "
     "no unit means seconds)",
     "Bound on device-side waits and on the host barrier (0: none); a wait that exceeds it reports PE, call, address "
     "and the values awaited and seen instead of hanging, and its kernel fails.",
     [](std::string_view text, config& out) {
       return refusal_of(read_duration(text, out.timeout_ns), "is not a duration");
     },
     [](const config& c) { return format_duration_ns(c.timeout_ns); },
     /*job_wide=*/true},
    {"PORTSHMEM_DEVICE", "int", "-1", "-1 (pick by local rank) or a GPU index (0 or more)",
     "GPU index this PE uses; -1 picks the local rank modulo the visible GPU count.",
     [](std::string_view text, config& out) {
       return read_whole(text, -1, std::numeric_limits<int>::max(), out.device, "is not a GPU index");
     },
     [](const config& c) { return std::to_string(c.device); }},
    {"PORTSHMEM_RUN_MPS", "enum", "auto", "auto, on or off (any case)",
     "Read by the launcher scripts/portshmem-run: start CUDA MPS around the run (auto: when PEs share a GPU).",
     [](std::string_view text, config& out) {
       return read_enum(text, kAutoOnOff, out.run_mps, "is not auto, on or off");
     },
     [](const config& c) { return std::string(kAutoOnOff[static_cast<std::size_t>(c.run_mps)]); }},
    {"PORTSHMEM_INFO", "bool", "0", "0, 1, true, false, yes, no, on or off (any case)",
     "When true, PE 0 prints this configuration and the per-peer transport table at init.",
     [](std::string_view text, config& out) { return read_bool(text, out.info); },
     [](const config& c) { return std::string(c.info ? "1" : "0"); }},
    {"PORTSHMEM_RELAXED", "enum", "auto", "auto, on or off (any case)",
     "Relaxed lowering of qualified calls: auto where this platform's premises are established at init, on also "
     "where one could not be established (never where one is false), off strict everywhere.",
     [](std::string_view text, config& out) {
       return read_enum(text, kAutoOnOff, out.relaxed, "is not auto, on or off");
     },
     [](const config& c) { return std::string(kAutoOnOff[static_cast<std::size_t>(c.relaxed)]); },
     /*job_wide=*/true},
    {"PORTSHMEM_RDMA_NET", "enum", "auto", "auto, ibverbs or mpi (any case)",
     "Network behind the RDMA proxy: ibverbs (RC queue pairs), mpi (MPI one-sided), or auto: ibverbs when a usable "
     "device is found, else mpi.",
     [](std::string_view text, config& out) {
       return read_enum(text, kRdmaNetNames, out.rdma_net, "is not a network");
     },
     [](const config& c) { return std::string(kRdmaNetNames[static_cast<std::size_t>(c.rdma_net)]); },
     /*job_wide=*/true}, // the MPI network's window is collective: PEs on different networks would hang
    {"PORTSHMEM_NODE_GROUPS", "int", "1", "a whole number from 1 (1: the machine's nodes as they are)",
     "Testing aid: splits the PEs into this many contiguous groups, each a node of its own (load/store paths, node "
     "scope and portshmem_ptr only within a group), so one machine runs a multi-node job's mix of transports.",
     [](std::string_view text, config& out) {
       return read_whole(text, 1, std::numeric_limits<int>::max(), out.node_groups, "is not a group count");
     },
     [](const config& c) { return std::to_string(c.node_groups); },
     /*job_wide=*/true}, // which PEs map each other must be decided alike everywhere
    {"PORTSHMEM_PROXY_RING_SLOTS", "int", "256", "a power of two from 2 to 65536",
     "Commands each ring of the RDMA proxy holds (one ring per group of blocks); a full ring makes posting threads "
     "wait. Small values test back-pressure.",
     [](std::string_view text, config& out) -> const char* {
       unsigned value = 0;
       if (const char* bad = read_whole(text, 0u, std::numeric_limits<unsigned>::max(), value, "is not a slot count")) {
         return bad;
       }
       if (value < 2 || value > 65536 || (value & (value - 1)) != 0) return "is not a power of two from 2 to 65536";
       out.proxy_slots = value;
       return nullptr;
     },
     [](const config& c) { return std::to_string(c.proxy_slots); }},
    {"PORTSHMEM_MAX_TEAMS", "int", "16", "a whole number from 2 to 1024",
     "Teams that can exist at once, world and shared included; each reserves PORTSHMEM_TEAM_SCRATCH bytes and a "
     "few words per PE at the end of every heap.",
     [](std::string_view text, config& out) {
       return read_whole(text, 2, 1024, out.max_teams, "is not a team count from 2 to 1024");
     },
     [](const config& c) { return std::to_string(c.max_teams); },
     /*job_wide=*/true}, // the team area's layout must be the same on every PE
    {"PORTSHMEM_HEAP_MEMORY", "enum", "auto", "auto, device or host (any case)",
     "GPU platforms: where the symmetric heap lives. device: GPU memory shared through IPC handles; host: pinned "
     "shared memory every GPU of the node maps, which host code may read and write (slower for the GPUs); auto: "
     "device, except host for rocSHMEM programs on NVIDIA. The host platform's heap is host memory either way.",
     [](std::string_view text, config& out) {
       return read_enum(text, kHeapMemoryNames, out.heap_memory, "is not auto, device or host");
     },
     [](const config& c) { return std::string(kHeapMemoryNames[static_cast<std::size_t>(c.heap_memory)]); },
     /*job_wide=*/true}, // a peer's heap is opened by how its owner made it
    {"PORTSHMEM_SYMMETRIC_RANGE", "enum", "auto", "auto or off (any case)",
     "auto: the heaps of a node's PEs are mapped into one address range at a fixed stride, so device code finds a "
     "peer's copy by arithmetic, without loading a table entry (host platform, and NVIDIA through the CUDA virtual "
     "memory API; elsewhere, or where that fails, the table, logged); off: the table everywhere.",
     [](std::string_view text, config& out) {
       return read_enum(text, kAutoOff, out.symmetric_range, "is not auto or off");
     },
     [](const config& c) { return std::string(kAutoOff[static_cast<std::size_t>(c.symmetric_range)]); },
     /*job_wide=*/true}, // a peer's heap is opened by how its owner made it
    {"PORTSHMEM_TEAM_SCRATCH", "size", "512K", "a byte count from 4K with an optional suffix (512K, 1M, 4MiB)",
     "Collective scratch per team on every PE: reductions and collect go through it, in pieces when larger "
     "(docs/api.md, \"Collectives\").",
     [](std::string_view text, config& out) -> const char* {
       std::uint64_t bytes = 0;
       if (const char* why = refusal_of(read_size(text, bytes), "is not a size")) return why;
       if (bytes < 4096) return "is less than 4K";
       if (bytes > (std::uint64_t{1} << 40)) return "is too large";
       out.team_scratch = static_cast<std::size_t>(bytes);
       return nullptr;
     },
     [](const config& c) { return format_size(c.team_scratch); },
     /*job_wide=*/true},
    {"PORTSHMEM_BOOTSTRAP_ADDR", "address", "auto", "auto, an IPv4 address, or one with a port (10.0.0.2:5000)",
     "Where the unique-ID start (portshmem_get_uniqueid) listens: auto is the host's first non-loopback IPv4 address.",
     [](std::string_view text, config& out) { return read_bootstrap_address(text, out.bootstrap_addr); },
     [](const config& c) { return format_bootstrap_address(c.bootstrap_addr); }},
};

// Quotes a user's value for a message: escapes quotes and control bytes, and cuts very long values short.
std::string quoted(std::string_view value) {
  constexpr std::size_t kShown = 64;
  std::string out = "\"";
  for (std::size_t i = 0; i < value.size() && i < kShown; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (value.size() > kShown) out += "...";
  return out + "\"";
}

static_assert(std::size(kRegistry) <= kMaxEnvVariables, "raise kMaxEnvVariables");

} // namespace

std::span<const env_entry> env_registry() {
  return kRegistry;
}

const env_entry* find_env_entry(std::string_view name) {
  for (const auto& entry : kRegistry)
    if (name == entry.name) return &entry;
  return nullptr;
}

env_lookup process_env() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

config default_config() {
  config c{};
  // Defaults parse through the same code as user values, so the registry text is the only statement of them.
  for (const auto& entry : kRegistry) entry.parse(entry.default_value, c);
  return c;
}

portshmem_status_t load_config(const env_lookup& lookup, config* out, std::string* error) {
  if (out == nullptr || !lookup) return PORTSHMEM_ERR_INVALID_ARG;
  config c = default_config();
  for (const auto& entry : kRegistry) {
    const char* raw = lookup(entry.name);
    if (raw == nullptr) continue;
    const std::string_view text = trim(raw);
    if (text.empty()) continue; // "VAR=" in a job script means "not set", as with most HPC runtimes
    if (const char* why = entry.parse(text, c)) {
      if (error != nullptr)
        *error = std::string(entry.name) + "=" + quoted(raw) + " " + why + "; accepted: " + entry.accepted + ".";
      return PORTSHMEM_ERR_ENV;
    }
  }
  *out = c;
  return PORTSHMEM_SUCCESS;
}

std::string describe_config(const config& c) {
  std::string text;
  for (const auto& entry : kRegistry)
    text += std::string(entry.name) + "=" + entry.show(c) + " (default " + entry.default_value + ")\n";
  return text;
}

std::vector<std::string> unknown_env_names(const char* const* envp) {
  constexpr std::string_view kPrefix = "PORTSHMEM_";
  std::vector<std::string> unknown;
  for (; envp != nullptr && *envp != nullptr; ++envp) {
    const std::string_view item = *envp;
    if (item.substr(0, kPrefix.size()) != kPrefix) continue;
    const std::string_view name = item.substr(0, item.find('='));
    if (find_env_entry(name) == nullptr) unknown.emplace_back(name);
  }
  return unknown;
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t bytes = 0;
  if (read_size(text, bytes) != outcome::ok) return std::nullopt;
  return bytes;
}

std::optional<std::uint64_t> parse_duration_ns(std::string_view text) {
  std::uint64_t ns = 0;
  if (read_duration(text, ns) != outcome::ok) return std::nullopt;
  return ns;
}

std::optional<bool> parse_bool(std::string_view text) {
  bool value = false;
  if (read_bool(text, value) != nullptr) return std::nullopt;
  return value;
}

std::string format_size(std::uint64_t bytes) {
  for (std::size_t index = kSizeSuffixes.size(); bytes != 0 && index-- > 0;) {
    const std::uint64_t unit = std::uint64_t{1} << (10 * (index + 1));
    if (bytes % unit == 0) return std::to_string(bytes / unit) + static_cast<char>(kSizeSuffixes[index] - 'a' + 'A');
  }
  return std::to_string(bytes);
}

std::string format_duration_ns(std::uint64_t ns) {
  if (ns == 0) return "0";
  for (const auto& unit : kTimeUnits)
    if (ns % unit.ns == 0) return std::to_string(ns / unit.ns) + std::string(unit.name);
  return std::to_string(ns) + "ns"; // unreachable: every value is a whole number of ns
}

} // namespace portshmem::detail
