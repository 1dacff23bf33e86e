#include "log.hpp"

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include <unistd.h>

namespace portshmem::detail {
namespace {

// Level and PE are read on every log_enabled() check, so they are atomics rather than mutex-protected.
std::atomic<int> g_level{static_cast<int>(log_level::warn)};
std::atomic<int> g_pe{-1};

// One mutex serializes emission: lines from different threads never interleave, and the sink is never entered
// concurrently.
std::mutex& emit_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::function<void(std::string_view)>& sink() {
  static std::function<void(std::string_view)> function;
  return function;
}

const char* basename_of(const char* path) {
  if (path == nullptr) return "?";
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

void append_vformat(std::string& out, const char* fmt, va_list args) {
  va_list copy;
  va_copy(copy, args);
  char small[256];
  const int length = std::vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  if (length < 0) {
    out += "(bad log format)";
    return;
  }
  if (static_cast<std::size_t>(length) < sizeof small) {
    out.append(small, static_cast<std::size_t>(length));
    return;
  }
  const std::size_t start = out.size();
  out.resize(start + static_cast<std::size_t>(length) + 1);
  std::vsnprintf(out.data() + start, static_cast<std::size_t>(length) + 1, fmt, args);
  out.resize(start + static_cast<std::size_t>(length));
}

// Writes the whole line with as few write() calls as the kernel allows; a line under PIPE_BUF arrives in one
// piece even when several processes share the terminal or pipe.
void write_stderr(const std::string& text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return; // stderr closed or broken: nowhere left to report it
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

void emit(log_level level, const char* file, int line, const char* prefix, const char* fmt, va_list args) {
  std::string text = "portshmem[PE ";
  const int pe = g_pe.load(std::memory_order_relaxed);
  text += pe < 0 ? std::string("?") : std::to_string(pe);
  text += "] ";
  text += log_level_name(level);
  text += ' ';
  text += basename_of(file);
  text += ':';
  text += std::to_string(line);
  text += ": ";
  if (prefix != nullptr) {
    text += prefix;
    text += ": ";
  }
  append_vformat(text, fmt, args);
  while (!text.empty() && text.back() == '\n') text.pop_back(); // the line break is ours to add

  const std::lock_guard<std::mutex> lock(emit_mutex());
  if (sink()) {
    sink()(text);
  } else {
    text += '\n';
    write_stderr(text);
  }
}

} // namespace

const char* log_level_name(log_level level) {
  switch (level) {
  case log_level::error:
    return "ERROR";
  case log_level::warn:
    return "WARN";
  case log_level::info:
    return "INFO";
  case log_level::trace:
    return "TRACE";
  }
  return "?";
}

void log_set_pe(int pe) {
  g_pe.store(pe < 0 ? -1 : pe, std::memory_order_relaxed);
}

void log_set_level(log_level level) {
  g_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

log_level log_get_level() {
  return static_cast<log_level>(g_level.load(std::memory_order_relaxed));
}

bool log_enabled(log_level level) {
  return level == log_level::error || static_cast<int>(level) <= g_level.load(std::memory_order_relaxed);
}

void log_set_sink(std::function<void(std::string_view line)> function) {
  const std::lock_guard<std::mutex> lock(emit_mutex());
  sink() = std::move(function);
}

void log_write(log_level level, const char* file, int line, const char* fmt, ...) {
  if (!log_enabled(level)) return;
  va_list args;
  va_start(args, fmt);
  emit(level, file, line, nullptr, fmt, args);
  va_end(args);
}

void log_print(log_level level, const char* file, int line, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  emit(level, file, line, nullptr, fmt, args);
  va_end(args);
}

portshmem_status_t report(portshmem_status_t status, const char* file, int line, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  emit(log_level::error, file, line, portshmem_status_string(status), fmt, args);
  va_end(args);
  return status;
}

portshmem_status_t report_at(log_level level, portshmem_status_t status, const char* file, int line, const char* fmt,
                             ...) {
  if (!log_enabled(level)) return status;
  va_list args;
  va_start(args, fmt);
  emit(level, file, line, portshmem_status_string(status), fmt, args);
  va_end(args);
  return status;
}

} // namespace portshmem::detail
