#include "info_report.hpp"

namespace portshmem::info {

void report::section(std::string_view title) {
  if (!text_.empty()) text_ += '\n';
  text_ += "== ";
  text_ += title;
  text_ += '\n';
}

void report::line(std::string_view key, std::string_view value) {
  text_ += "  ";
  text_ += key;
  text_ += ": ";
  text_ += value;
  text_ += '\n';
}

void report::note(std::string_view text) {
  text_ += "  ";
  text_ += text;
  text_ += '\n';
}

} // namespace portshmem::info
