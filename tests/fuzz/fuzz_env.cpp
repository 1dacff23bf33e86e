// Fuzz target: random values for every PORTSHMEM_* variable (and stray names) through load_config (src/env.hpp).
// Never a crash; the status is success or PORTSHMEM_ERR_ENV and nothing else; a refusal leaves the configuration
// untouched and is one line, `NAME="value" <why>; accepted: <what the registry says>.`, naming the first bad
// variable in registry order with the reason its parser gives; a success holds exactly what each variable parses to,
// and every value shown (portshmem-info, PORTSHMEM_INFO, init's agreement) parses back to itself. The size and
// duration parsers round-trip through their formatters, and misspelled names are reported as unknown.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "env.hpp"
#include "env_records.hpp"
#include "fuzz_input.hpp"

namespace {

namespace detail = portshmem::detail;

/// The configuration and refusal load_config must produce, from each variable's parser on its own.
struct expectation {
  detail::config cfg = detail::default_config();
  const detail::env_entry* bad = nullptr;
  std::string why;
};

expectation expect(const fuzz::environment& env) {
  expectation e;
  for (const auto& entry : detail::env_registry()) {
    const auto it = env.vars.find(entry.name);
    if (it == env.vars.end() || fuzz::trimmed(it->second).empty()) continue;
    if (const char* why = entry.parse(fuzz::trimmed(it->second), e.cfg)) {
      e.bad = &entry;
      e.why = why;
      return e;
    }
  }
  return e;
}

void check_refusal(const std::string& error, const expectation& e) {
  fuzz::check(!error.empty(), "a refusal without a message");
  fuzz::check(error.find('\n') == std::string::npos, "a refusal of more than one line: " + error);
  for (unsigned char c : error) fuzz::check(c >= 0x20 && c < 0x7f, "a control or non-ASCII byte in: " + error);
  const std::string head = std::string(e.bad->name) + "=\"";
  fuzz::check(error.compare(0, head.size(), head) == 0, "the refusal does not start with " + head + ": " + error);
  const std::string tail = std::string("; accepted: ") + e.bad->accepted + ".";
  fuzz::check(error.size() > head.size() + tail.size() &&
                  error.compare(error.size() - tail.size(), tail.size(), tail) == 0,
              "the refusal does not end with what is accepted: " + error);
  const std::string why = "\" " + e.why;
  fuzz::check(error.compare(error.size() - tail.size() - why.size(), why.size(), why) == 0,
              "the refusal does not give the parser's reason (" + e.why + "): " + error);
  constexpr std::size_t kLongest = 4 * 64 + 3; // every shown byte escaped as \xNN, then "..."
  const std::size_t quoted = error.size() - head.size() - why.size() - tail.size();
  fuzz::check(quoted <= kLongest, "the quoted value is not cut short: " + error);
}

void check_round_trips(const detail::config& cfg) {
  for (const auto& entry : detail::env_registry()) {
    const std::string shown = entry.show(cfg);
    detail::config again = detail::default_config();
    fuzz::check(entry.parse(shown, again) == nullptr,
                std::string(entry.name) + " shows " + shown + ", which it refuses");
    fuzz::check(entry.show(again) == shown, std::string(entry.name) + " does not round-trip " + shown);
  }
  std::size_t lines = 0;
  for (char c : detail::describe_config(cfg)) lines += c == '\n';
  fuzz::check(lines == detail::env_registry().size(), "describe_config is not one line per variable");
}

// The documented grammars of sizes and durations (docs/env.md), evaluated independently in 128-bit arithmetic.
using wide = unsigned __int128;
constexpr wide kSaturated = wide{1} << 65; // any digit string past 2^64 counts as this: still too large once scaled

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

/// Splits leading digits (value saturated) from the rest; false when there are none.
bool digits(std::string_view text, wide& value, std::string& rest) {
  std::size_t n = 0;
  value = 0;
  for (; n < text.size() && text[n] >= '0' && text[n] <= '9'; ++n)
    value = std::min(value * 10 + (text[n] - '0'), kSaturated);
  rest = lower(text.substr(n));
  return n > 0;
}

/// The value of a size as documented, or nullopt for text outside the grammar (a value past 2^64-1 is returned).
std::optional<wide> reference_size(std::string_view text) {
  wide value = 0;
  std::string rest;
  if (!digits(text, value, rest)) return std::nullopt;
  if (rest.empty() || rest == "b") return value;
  const std::string_view suffixes = "kmgtpe";
  const std::size_t index = suffixes.find(rest[0]);
  if (index == std::string_view::npos) return std::nullopt;
  const std::string tail = rest.substr(1);
  if (!tail.empty() && tail != "b" && tail != "ib") return std::nullopt;
  return value << (10 * (index + 1));
}

std::optional<wide> reference_duration(std::string_view text) {
  wide value = 0;
  std::string rest;
  if (!digits(text, value, rest)) return std::nullopt;
  const std::pair<const char*, std::uint64_t> units[] = {
      {"", 1'000'000'000},     {"ns", 1}, {"us", 1'000}, {"ms", 1'000'000}, {"s", 1'000'000'000}, {"m", 60'000'000'000},
      {"h", 3'600'000'000'000}};
  for (const auto& [name, ns] : units)
    if (rest == name) return value * ns;
  return std::nullopt;
}

void check_parsers(std::string_view text) {
  constexpr wide kU64Max = ~std::uint64_t{0};
  const auto size = reference_size(text);
  const auto bytes = detail::parse_size(text);
  fuzz::check(bytes.has_value() == (size && *size <= kU64Max), "parse_size accepts or refuses against the grammar");
  if (bytes) {
    fuzz::check(wide{*bytes} == *size, "parse_size reads a wrong value");
    fuzz::check(detail::parse_size(detail::format_size(*bytes)) == bytes, "format_size does not round-trip");
  }
  const auto duration = reference_duration(text);
  const auto ns = detail::parse_duration_ns(text);
  fuzz::check(ns.has_value() == (duration && *duration <= kU64Max), "parse_duration_ns against the grammar");
  if (ns) {
    fuzz::check(wide{*ns} == *duration, "parse_duration_ns reads a wrong value");
    fuzz::check(detail::parse_duration_ns(detail::format_duration_ns(*ns)) == ns, "format_duration_ns round trip");
  }
  const std::string word = lower(text);
  const bool is_bool = word == "0" || word == "1" || word == "true" || word == "false" || word == "yes" ||
                       word == "no" || word == "on" || word == "off";
  fuzz::check(detail::parse_bool(text).has_value() == is_bool, "parse_bool against its word list");
}

void check_unknown_names(const fuzz::environment& env) {
  std::vector<std::string> items;
  for (const auto& [name, value] : env.vars) items.push_back(name + "=" + value);
  std::vector<const char*> envp;
  for (const auto& item : items) envp.push_back(item.c_str());
  envp.push_back(nullptr);
  std::vector<std::string> want;
  for (const auto& [name, value] : env.vars)
    if (name.rfind("PORTSHMEM_", 0) == 0 && detail::find_env_entry(name) == nullptr) want.push_back(name);
  fuzz::check(detail::unknown_env_names(envp.data()) == want, "unknown_env_names missed or invented a name");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  fuzz::environment env;
  for (int record = 0; record < 64 && !in.empty(); ++record) env.read_record(in);
  for (const auto& [name, value] : env.vars) check_parsers(value);

  const expectation e = expect(env);
  detail::config cfg = detail::default_config();
  cfg.device = 12345; // a marker a refusal must leave in place
  std::string error;
  const portshmem_status_t status = detail::load_config(env.lookup(), &cfg, &error);
  if (e.bad != nullptr) {
    fuzz::check(status == PORTSHMEM_ERR_ENV,
                std::string("status ") + portshmem_status_string(status) + " for a bad " + e.bad->name);
    fuzz::check(cfg.device == 12345, "a refusal changed the configuration");
    check_refusal(error, e);
  } else {
    fuzz::check(status == PORTSHMEM_SUCCESS, std::string("status ") + portshmem_status_string(status) + ": " + error);
    fuzz::check(cfg == e.cfg, "the configuration is not what each variable parses to");
    check_round_trips(cfg);
  }
  check_unknown_names(env);
  return 0;
}
