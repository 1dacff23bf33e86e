#include "env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef PORTSHMEM_SOURCE_DIR
#error "PORTSHMEM_SOURCE_DIR (the repository root) must be defined to find docs/env.md"
#endif

namespace {

namespace detail = portshmem::detail;
using detail::config;
using detail::heap_memory_choice;
using detail::log_level;
using detail::mps_choice;
using detail::rdma_net_choice;
using detail::relaxed_choice;
using detail::symmetric_range_choice;
using detail::transport_choice;

constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024, kTiB = kGiB * 1024;
constexpr std::uint64_t kSecond = 1'000'000'000;

// Every PORTSHMEM_[A-Z0-9_]+ name in text, in order. Hand-written: GCC 12's std::regex trips -Wmaybe-uninitialized.
std::vector<std::string> portshmem_names(const std::string& text) {
  auto name_char = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
  const std::string prefix = "PORTSHMEM_";
  std::vector<std::string> names;
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    std::size_t end = at + prefix.size();
    while (end < text.size() && name_char(text[end])) ++end;
    if (end > at + prefix.size()) names.push_back(text.substr(at, end - at));
  }
  return names;
}

// A fake environment: load_config sees exactly these variables.
detail::env_lookup env(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    const auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

// Loads one variable, expecting success.
config load_ok(const std::string& name, const std::string& value) {
  config c{};
  std::string error;
  EXPECT_EQ(detail::load_config(env({{name, value}}), &c, &error), PORTSHMEM_SUCCESS)
      << name << "=" << value << ": " << error;
  return c;
}

// Loads one variable, expecting PORTSHMEM_ERR_ENV; returns the message.
std::string load_bad(const std::string& name, const std::string& value) {
  config c = detail::default_config();
  c.device = 12345; // a marker: a failed load must leave *out alone
  std::string error;
  EXPECT_EQ(detail::load_config(env({{name, value}}), &c, &error), PORTSHMEM_ERR_ENV) << name << "=" << value;
  EXPECT_EQ(c.device, 12345) << name << "=" << value;
  EXPECT_NE(error.find(name + "="), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(error.back(), '.') << error;
  return error;
}

TEST(Env, DefaultsWhenUnset) {
  config c{};
  std::string error = "untouched";
  ASSERT_EQ(detail::load_config(env({}), &c, &error), PORTSHMEM_SUCCESS);
  EXPECT_EQ(error, "untouched");
  EXPECT_EQ(c.heap_size, kGiB);
  EXPECT_EQ(c.debug, log_level::warn);
  EXPECT_EQ(c.transport, transport_choice::automatic);
  EXPECT_EQ(c.timeout_ns, 60'000'000'000u); // waits are bounded unless PORTSHMEM_TIMEOUT=0 opts out
  EXPECT_EQ(c.device, -1);
  EXPECT_FALSE(c.info);
  EXPECT_EQ(c.relaxed, relaxed_choice::automatic);
  EXPECT_EQ(c.rdma_net, rdma_net_choice::automatic);
  EXPECT_EQ(c.heap_memory, heap_memory_choice::automatic);
  EXPECT_EQ(c, detail::default_config());
}

TEST(Env, BlankValueMeansDefaultAndWhitespaceIsTrimmed) {
  config c{};
  ASSERT_EQ(detail::load_config(env({{"PORTSHMEM_HEAP_SIZE", ""}, {"PORTSHMEM_DEBUG", "  \t"}}), &c, nullptr),
            PORTSHMEM_SUCCESS);
  EXPECT_EQ(c, detail::default_config());
  EXPECT_EQ(load_ok("PORTSHMEM_HEAP_SIZE", " 2G\n").heap_size, 2 * kGiB);
}

TEST(Env, HeapSizeAcceptedSpellings) {
  const std::map<std::string, std::uint64_t> cases = {{"1073741824", kGiB},
                                                      {"512M", 512 * kMiB},
                                                      {"512MiB", 512 * kMiB},
                                                      {"512mib", 512 * kMiB},
                                                      {"512MB", 512 * kMiB},
                                                      {"512m", 512 * kMiB},
                                                      {"512mb", 512 * kMiB},
                                                      {"64K", 64 * kKiB},
                                                      {"64k", 64 * kKiB},
                                                      {"64KiB", 64 * kKiB},
                                                      {"2G", 2 * kGiB},
                                                      {"2g", 2 * kGiB},
                                                      {"2GiB", 2 * kGiB},
                                                      {"1T", kTiB},
                                                      {"1t", kTiB},
                                                      {"4096", 4096},
                                                      {"4096B", 4096},
                                                      {"4096b", 4096},
                                                      {"1", 1},
                                                      {"007K", 7 * kKiB},
                                                      {"1P", kTiB * 1024},
                                                      {"15E", 15 * kTiB * kMiB}};
  for (const auto& [text, bytes] : cases) {
    EXPECT_EQ(load_ok("PORTSHMEM_HEAP_SIZE", text).heap_size, bytes) << text;
    EXPECT_EQ(detail::parse_size(text), bytes) << text;
  }
}

TEST(Env, HeapSizeRejectedSpellings) {
  for (const char* text : {"-1", "-512M", "junk", "512X", "1.5G", "512 M", "M", "G1", "1024iB", "512MiBB", "512MM",
                           "+1G", "0x10", "1e9", "1,024"}) {
    const std::string error = load_bad("PORTSHMEM_HEAP_SIZE", text);
    EXPECT_NE(error.find("is not a size"), std::string::npos) << error;
    EXPECT_NE(error.find("512MiB"), std::string::npos) << "message should show accepted spellings: " << error;
    EXPECT_EQ(detail::parse_size(text), std::nullopt) << text;
  }
  for (const char* text : {"18446744073709551616", "16E", "99999999999999999999T", "17179869184G"}) {
    const std::string error = load_bad("PORTSHMEM_HEAP_SIZE", text);
    EXPECT_NE(error.find("is too large"), std::string::npos) << error;
    EXPECT_EQ(detail::parse_size(text), std::nullopt) << text;
  }
  EXPECT_EQ(detail::parse_size("18446744073709551615"), 18446744073709551615u);
  for (const char* text : {"0", "0G", "0B"})
    EXPECT_NE(load_bad("PORTSHMEM_HEAP_SIZE", text).find("is zero bytes"), std::string::npos);
}

TEST(Env, ErrorMessageIsOneActionableSentence) {
  std::string error = load_bad("PORTSHMEM_HEAP_SIZE", "12Q");
  EXPECT_EQ(error.rfind("PORTSHMEM_HEAP_SIZE=\"12Q\" is not a size; accepted: a byte count", 0), 0u) << error;
  // Odd bytes are escaped and long values cut, so the log line stays one readable line.
  error = load_bad("PORTSHMEM_DEBUG", "warn\x01\"" + std::string(200, 'z'));
  EXPECT_NE(error.find("PORTSHMEM_DEBUG=\"warn\\x01\\\"zzz"), std::string::npos) << error;
  EXPECT_NE(error.find("...\" is not a log level"), std::string::npos) << error;
  EXPECT_LT(error.size(), 200u) << error;
  // error may be null; the status still says what happened.
  config c{};
  EXPECT_EQ(detail::load_config(env({{"PORTSHMEM_INFO", "maybe"}}), &c, nullptr), PORTSHMEM_ERR_ENV);
}

TEST(Env, FirstBadVariableInRegistryOrderIsReported) {
  config c{};
  std::string error;
  EXPECT_EQ(detail::load_config(env({{"PORTSHMEM_INFO", "maybe"}, {"PORTSHMEM_HEAP_SIZE", "lots"}}), &c, &error),
            PORTSHMEM_ERR_ENV);
  EXPECT_EQ(error.rfind("PORTSHMEM_HEAP_SIZE=", 0), 0u) << error;
}

TEST(Env, DebugLevels) {
  const std::map<std::string, log_level> cases = {{"ERROR", log_level::error}, {"error", log_level::error},
                                                  {"WARN", log_level::warn},   {"Warn", log_level::warn},
                                                  {"INFO", log_level::info},   {"info", log_level::info},
                                                  {"TRACE", log_level::trace}, {"tRaCe", log_level::trace}};
  for (const auto& [text, level] : cases) EXPECT_EQ(load_ok("PORTSHMEM_DEBUG", text).debug, level) << text;
  for (const char* text : {"WARNING", "3", "debug", "ERR", "WARN,INFO"}) {
    const std::string error = load_bad("PORTSHMEM_DEBUG", text);
    EXPECT_NE(error.find("ERROR, WARN, INFO or TRACE"), std::string::npos) << error;
  }
}

TEST(Env, Transport) {
  EXPECT_EQ(load_ok("PORTSHMEM_TRANSPORT", "auto").transport, transport_choice::automatic);
  EXPECT_EQ(load_ok("PORTSHMEM_TRANSPORT", "AUTO").transport, transport_choice::automatic);
  EXPECT_EQ(load_ok("PORTSHMEM_TRANSPORT", "ipc").transport, transport_choice::ipc);
  EXPECT_EQ(load_ok("PORTSHMEM_TRANSPORT", "IPC").transport, transport_choice::ipc);
  EXPECT_EQ(load_ok("PORTSHMEM_TRANSPORT", "rdma").transport, transport_choice::rdma);
  EXPECT_EQ(load_ok("PORTSHMEM_TRANSPORT", "Rdma").transport, transport_choice::rdma);
  for (const char* text : {"automatic", "tcp", "ib", "ipc,rdma", "0"}) {
    const std::string error = load_bad("PORTSHMEM_TRANSPORT", text);
    EXPECT_NE(error.find("is not a transport; accepted: auto, ipc or rdma"), std::string::npos) << error;
  }
}

TEST(Env, TimeoutDurations) {
  const std::map<std::string, std::uint64_t> cases = {{"0", 0},
                                                      {"30s", 30 * kSecond},
                                                      {"500ms", 500'000'000},
                                                      {"2m", 120 * kSecond},
                                                      {"100us", 100'000},
                                                      {"30", 30 * kSecond},
                                                      {"5ns", 5},
                                                      {"1h", 3600 * kSecond},
                                                      {"10S", 10 * kSecond},
                                                      {"2M", 120 * kSecond},
                                                      {"250MS", 250'000'000},
                                                      {"0ms", 0},
                                                      {"18446744073709551615ns", 18446744073709551615u}};
  for (const auto& [text, ns] : cases) {
    EXPECT_EQ(load_ok("PORTSHMEM_TIMEOUT", text).timeout_ns, ns) << text;
    EXPECT_EQ(detail::parse_duration_ns(text), ns) << text;
  }
  for (const char* text : {"-1", "-1s", "1.5s", "s", "30 s", "30sec", "10min", "1d", "forever", "off"}) {
    const std::string error = load_bad("PORTSHMEM_TIMEOUT", text);
    EXPECT_NE(error.find("is not a duration"), std::string::npos) << error;
    EXPECT_NE(error.find("500ms"), std::string::npos) << error;
  }
  for (const char* text : {"18446744073709551616ns", "18446744074s", "5124096h"})
    EXPECT_NE(load_bad("PORTSHMEM_TIMEOUT", text).find("is too large"), std::string::npos) << text;
}

TEST(Env, DeviceIndex) {
  EXPECT_EQ(load_ok("PORTSHMEM_DEVICE", "-1").device, -1);
  EXPECT_EQ(load_ok("PORTSHMEM_DEVICE", "0").device, 0);
  EXPECT_EQ(load_ok("PORTSHMEM_DEVICE", "7").device, 7);
  EXPECT_EQ(load_ok("PORTSHMEM_DEVICE", "2147483647").device, 2147483647);
  for (const char* text : {"-2", "abc", "1x", "1.0", "+1", "0x1", "gpu0"})
    EXPECT_NE(load_bad("PORTSHMEM_DEVICE", text).find("is not a GPU index"), std::string::npos) << text;
  EXPECT_NE(load_bad("PORTSHMEM_DEVICE", "2147483648").find("is too large"), std::string::npos);
}

TEST(Env, InfoBooleans) {
  for (const char* text : {"1", "true", "TRUE", "yes", "Yes", "on", "ON"})
    EXPECT_TRUE(load_ok("PORTSHMEM_INFO", text).info) << text;
  for (const char* text : {"0", "false", "False", "no", "NO", "off", "Off"})
    EXPECT_FALSE(load_ok("PORTSHMEM_INFO", text).info) << text;
  for (const char* text : {"2", "maybe", "tru", "y", "-1"}) {
    const std::string error = load_bad("PORTSHMEM_INFO", text);
    EXPECT_NE(error.find("is not a boolean; accepted: 0, 1, true, false, yes, no, on or off"), std::string::npos)
        << error;
    EXPECT_EQ(detail::parse_bool(text), std::nullopt) << text;
  }
}

TEST(Env, Relaxed) {
  const std::map<std::string, relaxed_choice> cases = {
      {"auto", relaxed_choice::automatic}, {"AUTO", relaxed_choice::automatic}, {"on", relaxed_choice::on},
      {"On", relaxed_choice::on},          {"off", relaxed_choice::off},        {"OFF", relaxed_choice::off},
      {" off\t", relaxed_choice::off}};
  for (const auto& [text, choice] : cases) EXPECT_EQ(load_ok("PORTSHMEM_RELAXED", text).relaxed, choice) << text;
  for (const char* text : {"1", "0", "yes", "true", "strict", "relaxed", "automatic", "on,off"}) {
    const std::string error = load_bad("PORTSHMEM_RELAXED", text);
    EXPECT_NE(error.find("is not auto, on or off; accepted: auto, on or off"), std::string::npos) << error;
  }
}

TEST(Env, RdmaNet) {
  const std::map<std::string, rdma_net_choice> cases = {
      {"auto", rdma_net_choice::automatic},  {"Auto", rdma_net_choice::automatic},
      {"ibverbs", rdma_net_choice::ibverbs}, {"IBVERBS", rdma_net_choice::ibverbs},
      {"mpi", rdma_net_choice::mpi},         {" MPI ", rdma_net_choice::mpi}};
  for (const auto& [text, choice] : cases) EXPECT_EQ(load_ok("PORTSHMEM_RDMA_NET", text).rdma_net, choice) << text;
  for (const char* text : {"verbs", "ib", "ucx", "tcp", "1", "mpi,ibverbs", "automatic"}) {
    const std::string error = load_bad("PORTSHMEM_RDMA_NET", text);
    EXPECT_NE(error.find("is not a network; accepted: auto, ibverbs or mpi"), std::string::npos) << error;
  }
}

TEST(Env, HeapMemory) {
  const std::map<std::string, heap_memory_choice> cases = {{"auto", heap_memory_choice::automatic},
                                                           {"device", heap_memory_choice::device},
                                                           {"DEVICE", heap_memory_choice::device},
                                                           {" host ", heap_memory_choice::host}};
  for (const auto& [text, choice] : cases) {
    EXPECT_EQ(load_ok("PORTSHMEM_HEAP_MEMORY", text).heap_memory, choice) << text;
  }
  for (const char* text : {"gpu", "pinned", "managed", "1", "host,device"}) {
    const std::string error = load_bad("PORTSHMEM_HEAP_MEMORY", text);
    EXPECT_NE(error.find("is not auto, device or host; accepted: auto, device or host"), std::string::npos) << error;
  }
}

TEST(Env, SymmetricRange) {
  EXPECT_EQ(detail::default_config().symmetric_range, symmetric_range_choice::automatic);
  EXPECT_EQ(load_ok("PORTSHMEM_SYMMETRIC_RANGE", "auto").symmetric_range, symmetric_range_choice::automatic);
  EXPECT_EQ(load_ok("PORTSHMEM_SYMMETRIC_RANGE", " OFF ").symmetric_range, symmetric_range_choice::off);
  for (const char* text : {"on", "table", "0", "auto,off"}) {
    const std::string error = load_bad("PORTSHMEM_SYMMETRIC_RANGE", text);
    EXPECT_NE(error.find("is not auto or off; accepted: auto or off"), std::string::npos) << error;
  }
}

TEST(Env, NodeGroups) {
  EXPECT_EQ(detail::default_config().node_groups, 1);
  EXPECT_EQ(load_ok("PORTSHMEM_NODE_GROUPS", "2").node_groups, 2);
  EXPECT_EQ(load_ok("PORTSHMEM_NODE_GROUPS", " 16 ").node_groups, 16);
  for (const char* text : {"0", "-1", "two", "2.5", "1x"}) {
    const std::string error = load_bad("PORTSHMEM_NODE_GROUPS", text);
    EXPECT_NE(error.find("is not a group count; accepted: a whole number from 1"), std::string::npos) << error;
  }
  EXPECT_NE(load_bad("PORTSHMEM_NODE_GROUPS", "99999999999").find("is too large"), std::string::npos);
}

TEST(Env, ProxyRingSlots) {
  EXPECT_EQ(detail::default_config().proxy_slots, 256u);
  EXPECT_EQ(load_ok("PORTSHMEM_PROXY_RING_SLOTS", "2").proxy_slots, 2u);
  EXPECT_EQ(load_ok("PORTSHMEM_PROXY_RING_SLOTS", "65536").proxy_slots, 65536u);
  for (const char* text : {"0", "1", "3", "100", "131072"}) {
    const std::string error = load_bad("PORTSHMEM_PROXY_RING_SLOTS", text);
    EXPECT_NE(error.find("is not a power of two from 2 to 65536"), std::string::npos) << text << ": " << error;
  }
  EXPECT_NE(load_bad("PORTSHMEM_PROXY_RING_SLOTS", "many").find("is not a slot count"), std::string::npos);
}

TEST(Env, InvalidArguments) {
  config c{};
  EXPECT_EQ(detail::load_config(env({}), nullptr, nullptr), PORTSHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(detail::load_config(detail::env_lookup{}, &c, nullptr), PORTSHMEM_ERR_INVALID_ARG);
}

TEST(Env, ProcessEnvironment) {
  ASSERT_EQ(::setenv("PORTSHMEM_HEAP_SIZE", "64M", 1), 0);
  config c{};
  const portshmem_status_t status = detail::load_config(detail::process_env(), &c, nullptr);
  ::unsetenv("PORTSHMEM_HEAP_SIZE");
  ASSERT_EQ(status, PORTSHMEM_SUCCESS);
  EXPECT_EQ(c.heap_size, 64 * kMiB);
}

TEST(Env, RegistryIsWellFormed) {
  std::set<std::string> names;
  config defaults = detail::default_config();
  for (const auto& entry : detail::env_registry()) {
    ASSERT_NE(entry.name, nullptr);
    EXPECT_EQ(portshmem_names(entry.name), std::vector<std::string>{entry.name}) << entry.name;
    EXPECT_TRUE(names.insert(entry.name).second) << "declared twice: " << entry.name;
    for (const char* text : {entry.type, entry.default_value, entry.accepted, entry.help}) {
      ASSERT_NE(text, nullptr) << entry.name;
      EXPECT_NE(std::string(text), "") << entry.name;
    }
    ASSERT_TRUE(entry.parse && entry.show) << entry.name;
    config c = defaults;
    EXPECT_EQ(entry.parse(entry.default_value, c), nullptr) << entry.name << " default does not parse";
    EXPECT_EQ(entry.show(defaults), entry.default_value) << entry.name;
    EXPECT_EQ(detail::find_env_entry(entry.name), &entry);
  }
  EXPECT_EQ(names.size(), 16u);
  EXPECT_EQ(detail::find_env_entry("PORTSHMEM_NOPE"), nullptr);
}

// PORTSHMEM_BOOTSTRAP_ADDR: auto, an IPv4 address, or one with a port; anything else refused with why.
TEST(Env, BootstrapAddress) {
  detail::bootstrap_address a;
  ASSERT_EQ(detail::read_bootstrap_address("10.1.2.3", a), nullptr);
  EXPECT_FALSE(a.automatic);
  EXPECT_EQ(a.ipv4, 0x0a010203u);
  EXPECT_EQ(a.port, 0);
  EXPECT_EQ(detail::format_bootstrap_address(a), "10.1.2.3");
  ASSERT_EQ(detail::read_bootstrap_address("127.0.0.1:5000", a), nullptr);
  EXPECT_EQ(a.ipv4, 0x7f000001u);
  EXPECT_EQ(a.port, 5000);
  EXPECT_EQ(detail::format_bootstrap_address(a), "127.0.0.1:5000");
  ASSERT_EQ(detail::read_bootstrap_address("127.0.0.1:0", a), nullptr); // any free port, as with no port
  EXPECT_EQ(a.port, 0);
  ASSERT_EQ(detail::read_bootstrap_address("AUTO", a), nullptr);
  EXPECT_TRUE(a.automatic);
  for (const char* bad : {"10.0.0", "host", "10.0.0.2:", "10.0.0.2:70000", "10.0.0.2:5x", "::1"}) {
    detail::bootstrap_address b;
    EXPECT_NE(detail::read_bootstrap_address(bad, b), nullptr) << bad;
    EXPECT_TRUE(b.automatic) << bad << " changed the value it refused";
  }
  config c{};
  std::string error;
  const char* env[][2] = {{"PORTSHMEM_BOOTSTRAP_ADDR", "192.168.7.1:7000"}};
  ASSERT_EQ(detail::load_config(
                [&](const char* name) -> const char* { return std::string(name) == env[0][0] ? env[0][1] : nullptr; },
                &c, &error),
            PORTSHMEM_SUCCESS)
      << error;
  EXPECT_EQ(detail::format_bootstrap_address(c.bootstrap_addr), "192.168.7.1:7000");
}

TEST(Env, DescribeConfigRoundTrips) {
  config custom{3 * kMiB, log_level::trace, transport_choice::rdma, 1500 * 1'000'000, 2, mps_choice::off, true};
  custom.relaxed = relaxed_choice::off;
  custom.rdma_net = rdma_net_choice::mpi;
  custom.node_groups = 3;
  custom.proxy_slots = 8;
  custom.max_teams = 5;
  custom.team_scratch = 64 * kKiB;
  const std::string text = detail::describe_config(custom);
  EXPECT_NE(text.find("PORTSHMEM_HEAP_SIZE=3M (default 1G)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("PORTSHMEM_TIMEOUT=1500ms (default 1m)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("PORTSHMEM_INFO=1 (default 0)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("PORTSHMEM_RELAXED=off (default auto)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("PORTSHMEM_RDMA_NET=mpi (default auto)\n"), std::string::npos) << text;

  // Every line's value, fed back as the environment, reproduces the configuration.
  std::map<std::string, std::string> vars;
  std::istringstream lines(text);
  std::string line;
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    const auto equals = line.find('='), paren = line.find(" (default ");
    ASSERT_TRUE(equals != std::string::npos && paren != std::string::npos) << line;
    vars[line.substr(0, equals)] = line.substr(equals + 1, paren - equals - 1);
    ++count;
  }
  EXPECT_EQ(count, detail::env_registry().size());
  config back{};
  ASSERT_EQ(detail::load_config(env(vars), &back, nullptr), PORTSHMEM_SUCCESS);
  EXPECT_EQ(back, custom);
}

TEST(Env, FormatHelpers) {
  EXPECT_EQ(detail::format_size(kGiB), "1G");
  EXPECT_EQ(detail::format_size(1536 * kKiB), "1536K");
  EXPECT_EQ(detail::format_size(1000), "1000");
  EXPECT_EQ(detail::format_size(0), "0");
  EXPECT_EQ(detail::format_size(18446744073709551615u), "18446744073709551615");
  EXPECT_EQ(detail::format_duration_ns(0), "0");
  EXPECT_EQ(detail::format_duration_ns(30 * kSecond), "30s");
  EXPECT_EQ(detail::format_duration_ns(120 * kSecond), "2m");
  EXPECT_EQ(detail::format_duration_ns(7200 * kSecond), "2h");
  EXPECT_EQ(detail::format_duration_ns(100'000), "100us");
  EXPECT_EQ(detail::format_duration_ns(1'000'001), "1000001ns");
}

TEST(Env, UnknownNamesAreFound) {
  const char* envp[] = {"PATH=/bin",
                        "PORTSHMEM_HEAP_SIZE=1G",
                        "PORTSHMEM_HEAPSIZE=2G",
                        "PORTSHMEM_DEBUG",
                        "XPORTSHMEM_FOO=1",
                        "PORTSHMEM_TIMEOUT_S=3",
                        nullptr};
  EXPECT_EQ(detail::unknown_env_names(envp), (std::vector<std::string>{"PORTSHMEM_HEAPSIZE", "PORTSHMEM_TIMEOUT_S"}));
  EXPECT_TRUE(detail::unknown_env_names(nullptr).empty());
}

// docs/env.md must list exactly the registered variables, each in a table row with its type and default, and name
// exactly the job-wide ones in its "Same on every PE:" line.
TEST(Env, DocumentationMatchesRegistry) {
  const std::string path = std::string(PORTSHMEM_SOURCE_DIR) + "/docs/env.md";
  std::ifstream file(path);
  ASSERT_TRUE(file) << "cannot read " << path;
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string doc = buffer.str();

  for (const std::string& name : portshmem_names(doc)) {
    if (name.rfind("PORTSHMEM_ERR_", 0) == 0) continue; // a status (status.h), not a variable
    EXPECT_NE(detail::find_env_entry(name), nullptr) << path << " mentions unregistered " << name;
  }

  for (const auto& entry : detail::env_registry()) {
    const std::string row =
        std::string("| `") + entry.name + "` | " + entry.type + " | `" + entry.default_value + "` |";
    EXPECT_NE(doc.find(row), std::string::npos) << path << " lacks the row starting " << row;
  }

  const std::string same_marker = "- Same on every PE: ";
  const std::size_t at = doc.find(same_marker);
  ASSERT_NE(at, std::string::npos) << path << " lacks the line starting " << same_marker;
  const std::string same = doc.substr(at, doc.find(".\n", at) - at);
  for (const auto& entry : detail::env_registry()) {
    const bool listed = same.find(std::string("`") + entry.name + "`") != std::string::npos;
    EXPECT_EQ(listed, entry.job_wide) << entry.name
                                      << (entry.job_wide ? " is job-wide but not listed in "
                                                         : " is listed but not job-wide in ")
                                      << same_marker;
  }
}

} // namespace
