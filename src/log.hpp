// Runtime logging: one line per message on stderr, "portshmem[PE 3] WARN heap.cpp:42: message".
#pragma once

#include "portshmem/status.h"

#include <functional>
#include <string_view>

#if defined(__GNUC__) || defined(__clang__)
#define PORTSHMEM_PRINTF_FORMAT(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define PORTSHMEM_PRINTF_FORMAT(fmt_index, first_arg)
#endif

namespace portshmem::detail {

/// Verbosity, least to most; PORTSHMEM_DEBUG selects one and every message at or below it prints.
enum class log_level { error, warn, info, trace };

/// Upper-case name of a level ("WARN"), as printed in log lines and accepted by PORTSHMEM_DEBUG.
const char* log_level_name(log_level level);

/// Sets the PE shown in each line; a negative value shows "?" (the state before init and after finalize).
void log_set_pe(int pe);

/// Sets the most verbose level that prints; ERROR prints whatever the level.
void log_set_level(log_level level);

/// Current level set by log_set_level (WARN until then).
log_level log_get_level();

/// True when a message at level would print; cheap, so callers test it before formatting anything.
bool log_enabled(log_level level);

/// Receives each finished line (without its trailing newline) instead of stderr; an empty function restores
/// stderr. Calls are serialized; the sink must not log. For tests and embedding applications.
void log_set_sink(std::function<void(std::string_view line)> sink);

/// Formats and emits one line if level is enabled; file may be a full path, only its last component is shown.
void log_write(log_level level, const char* file, int line, const char* fmt, ...) PORTSHMEM_PRINTF_FORMAT(4, 5);

/// Emits one line with level's prefix whatever the level set: output the user asked for by name (PORTSHMEM_INFO),
/// which must neither be hidden by PORTSHMEM_DEBUG nor be dressed up as an error to get through it.
void log_print(log_level level, const char* file, int line, const char* fmt, ...) PORTSHMEM_PRINTF_FORMAT(4, 5);

/// Logs "<status name>: <message>" at ERROR and returns status, so a failure is reported and returned in one
/// statement: `return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_PE, "pe %d is outside [0, %d)", pe, n);`.
portshmem_status_t report(portshmem_status_t status, const char* file, int line, const char* fmt, ...)
    PORTSHMEM_PRINTF_FORMAT(4, 5);

/// report at another level (when enabled): for failures the caller recovers from, which are no error of the job.
portshmem_status_t report_at(log_level level, portshmem_status_t status, const char* file, int line, const char* fmt,
                             ...) PORTSHMEM_PRINTF_FORMAT(5, 6);

} // namespace portshmem::detail

/// Logs a printf-style message at a level named by its enumerator (error, warn, info, trace); the arguments are
/// evaluated only when that level is enabled.
#define PORTSHMEM_LOG(level, ...)                                                                                      \
  do {                                                                                                                 \
    if (::portshmem::detail::log_enabled(::portshmem::detail::log_level::level))                                       \
      ::portshmem::detail::log_write(::portshmem::detail::log_level::level, __FILE__, __LINE__, __VA_ARGS__);          \
  } while (0)

/// Logs a printf-style message at ERROR with the status name and evaluates to the status.
#define PORTSHMEM_FAIL(status, ...) ::portshmem::detail::report((status), __FILE__, __LINE__, __VA_ARGS__)
/// The status of a host call made while portshmem is not running (before init or after finalize), logged as one line.
#define PORTSHMEM_FAIL_NOT_RUNNING(call)                                                                               \
  PORTSHMEM_FAIL(PORTSHMEM_ERR_NOT_INITIALIZED, "%s called before portshmem_init or after portshmem_finalize", (call))

/// PORTSHMEM_FAIL at a level named by its enumerator: a failure with a fallback (warn) is not an error of the job.
#define PORTSHMEM_FAIL_AT(level, status, ...)                                                                          \
  ::portshmem::detail::report_at(::portshmem::detail::log_level::level, (status), __FILE__, __LINE__, __VA_ARGS__)
