// The environment section: what portshmem_init would read, variable by variable.
#include <string>

#include "info_report.hpp"

namespace portshmem::info {
namespace {

/// A value as the user wrote it, in quotes, with control and non-ASCII bytes escaped so the report stays readable.
std::string quoted(std::string_view value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += c == '"' || c == '\\' ? std::string{'\\', static_cast<char>(c)}
                                   : std::string{'\\', 'x', kHex[c >> 4], kHex[c & 0xf]};
    }
  }
  return out + "\"";
}

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos;
}

} // namespace

bool env_section(report& out, const detail::env_lookup& lookup, const char* const* envp) {
  out.section("environment (docs/env.md; [job] = must be the same on every PE)");
  bool all_parse = true;
  for (const detail::env_entry& entry : detail::env_registry()) {
    const char* raw = lookup(entry.name);
    const std::string job = entry.job_wide ? " [job]" : "";
    // The variable alone, through init's own parser, so each refusal gets init's own message.
    detail::config cfg = detail::default_config();
    std::string error;
    const auto only = [&](const char* name) -> const char* {
      return std::string_view(name) == entry.name ? raw : nullptr;
    };
    if (detail::load_config(only, &cfg, &error) != PORTSHMEM_SUCCESS) {
      all_parse = false;
      out.line(entry.name, "REFUSED (environment " + quoted(raw) + ")" + job + ": " + error +
                               " portshmem_init fails with PORTSHMEM_ERR_ENV");
    } else if (raw == nullptr) {
      out.line(entry.name, entry.show(cfg) + " (default)" + job);
    } else if (blank(raw)) {
      out.line(entry.name, entry.show(cfg) + " (default: set but empty in the environment)" + job);
    } else {
      out.line(entry.name, entry.show(cfg) + " (environment " + quoted(raw) + ")" + job);
    }
  }
  for (const std::string& name : detail::unknown_env_names(envp))
    out.line(name, "not a portshmem variable (misspelled?); init warns and ignores it");
  return all_parse;
}

} // namespace portshmem::info
