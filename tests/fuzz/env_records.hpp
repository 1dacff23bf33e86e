// Turns fuzz input into an environment: records of (variable selector, value), where the selector names a registered
// PORTSHMEM_* variable, a misspelled one, or a variable that is none of portshmem's.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "env.hpp"
#include "fuzz_input.hpp"

namespace fuzz {

/// Names that are not registered: close misses of real names, and names outside the PORTSHMEM_ prefix.
inline constexpr const char* kStrayNames[] = {"PORTSHMEM_HEAPSIZE", "PORTSHMEM_", "PORTSHMEM_DEBUG_",
                                              "portshmem_info",     "HOME",       "PORTSHMEMX"};

struct environment {
  std::map<std::string, std::string> vars; ///< as getenv would see them: a value ends at its first NUL

  portshmem::detail::env_lookup lookup() const {
    return [this](const char* name) -> const char* {
      const auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }

  /// Reads one record: a selector byte, then a length-prefixed value.
  void read_record(input& in) {
    const auto registry = portshmem::detail::env_registry();
    const std::size_t choices = registry.size() + std::size(kStrayNames);
    const std::size_t pick = in.byte() % choices;
    const std::string name = pick < registry.size() ? registry[pick].name : kStrayNames[pick - registry.size()];
    const std::string value = in.text();
    vars[name] = value.substr(0, value.find('\0'));
  }
};

/// The text load_config parses: surrounding whitespace removed (its documented rule, restated here).
inline std::string_view trimmed(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r\f\v";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

} // namespace fuzz
