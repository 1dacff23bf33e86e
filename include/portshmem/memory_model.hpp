// The qualifiers of the memory model (docs/memory_model.md is normative). Each is a tag value in portshmem::mm passed
// after a call's ordinary arguments, in any order: `portshmem::fence(c, mm::comm, mm::device)`. Omitted categories
// take OpenSHMEM's defaults. A qualifier a call does not take, or two of one category, fails to compile.
#pragma once

#include <type_traits>

#include "portshmem/arch/common.hpp"
#include "portshmem/platform.hpp"

namespace portshmem::mm {

/// The qualifier categories; a call states which it accepts.
namespace cat {
enum : unsigned {
  coverage = 1u << 0,  ///< what an ordering covers: all (comm ops + ordinary stores) or comm (comm ops only)
  scope = 1u << 1,     ///< who must observe it: device, node or system
  data_path = 1u << 2, ///< how put/get data travels: bypass or keep
  acquire = 1u << 3,   ///< what a satisfied wait orders: acquire (everything), comm (comm reads), relaxed (nothing)
  signal = 1u << 4     ///< what a put-with-signal's signal covers: weak (its own data) or strong (all earlier ops)
};
} // namespace cat

enum class coverage_kind { all, comm };
enum class scope_kind { device, node, system };
enum class path_kind { bypass, keep };
enum class acquire_kind { acquire, comm, relaxed };
enum class signal_kind { weak, strong };

/// Coverage all (default): comm ops and the caller's ordinary stores to symmetric memory (OpenSHMEM semantics).
struct all_t {
  static constexpr unsigned categories = cat::coverage;
};
/// Coverage comm: comm ops only (puts issued with bypass, AMOs, signal ops), not ordinary stores — nor keep puts.
/// On a wait: only later comm reads (gets, bypass loads) are ordered after the awaited update.
struct comm_t {
  static constexpr unsigned categories = cat::coverage | cat::acquire;
};
/// Scope device: only PEs on the caller's GPU must observe the ordering (a promise by the caller).
struct device_t {
  static constexpr unsigned categories = cat::scope;
};
/// Scope node: PEs reachable by load/store (same node).
struct node_t {
  static constexpr unsigned categories = cat::scope;
};
/// Scope system (default): every PE, other GPUs and CPUs included.
struct system_t {
  static constexpr unsigned categories = cat::scope;
};
/// Data path bypass (default for puts and gets): data travels past the caches a comm fence would otherwise flush.
struct bypass_t {
  static constexpr unsigned categories = cat::data_path;
};
/// Data path keep: data may stay in this GPU's caches (for a reader on this device); only coverage all orders it.
struct keep_t {
  static constexpr unsigned categories = cat::data_path;
};
/// Acquire (default on waits): later ordinary loads see what the awaited writer published.
struct acquire_t {
  static constexpr unsigned categories = cat::acquire;
};
/// Relaxed wait: execution synchronization only, no data promise.
struct relaxed_t {
  static constexpr unsigned categories = cat::acquire;
};
/// Weak signal (default): the signal is visible after this call's own data.
struct weak_t {
  static constexpr unsigned categories = cat::signal;
};
/// Strong signal: after every earlier put/AMO/signal to that PE on the context too (fence + signal in one call).
struct strong_t {
  static constexpr unsigned categories = cat::signal;
};

inline constexpr all_t all{};
inline constexpr comm_t comm{};
inline constexpr device_t device{};
inline constexpr node_t node{};
inline constexpr system_t system{};
inline constexpr bypass_t bypass{};
inline constexpr keep_t keep{};
inline constexpr acquire_t acquire{};
inline constexpr relaxed_t relaxed{};
inline constexpr weak_t weak{};
inline constexpr strong_t strong{};

namespace detail {

template <class Q>
inline constexpr bool is_qualifier = false;
template <>
inline constexpr bool is_qualifier<all_t> = true;
template <>
inline constexpr bool is_qualifier<comm_t> = true;
template <>
inline constexpr bool is_qualifier<device_t> = true;
template <>
inline constexpr bool is_qualifier<node_t> = true;
template <>
inline constexpr bool is_qualifier<system_t> = true;
template <>
inline constexpr bool is_qualifier<bypass_t> = true;
template <>
inline constexpr bool is_qualifier<keep_t> = true;
template <>
inline constexpr bool is_qualifier<acquire_t> = true;
template <>
inline constexpr bool is_qualifier<relaxed_t> = true;
template <>
inline constexpr bool is_qualifier<weak_t> = true;
template <>
inline constexpr bool is_qualifier<strong_t> = true;

/// How many of Q... the call reads as category `cat` (comm counts for coverage or acquire, whichever the call takes).
template <unsigned Accepted, unsigned Cat, class... Q>
inline constexpr int count_in = (0 + ... + ((Q::categories & Accepted & Cat) ? 1 : 0));

template <class T, class... Q>
inline constexpr bool has = (false || ... || std::is_same_v<T, Q>);

} // namespace detail

/// The qualifiers Q... of a call that accepts the categories in Accepted, resolved to their kinds with defaults.
/// Compilation fails with a message naming the problem when a qualifier is foreign to the call or repeated.
template <unsigned Accepted, class... Q>
struct resolve {
  static_assert((detail::is_qualifier<std::remove_cv_t<std::remove_reference_t<Q>>> && ...),
                "portshmem: an argument after the call's own arguments is not a portshmem::mm qualifier");
  static_assert((((std::remove_reference_t<Q>::categories & Accepted) != 0) && ...),
                "portshmem: this call does not take that qualifier (see the call's contract and docs/memory_model.md)");
  static_assert(detail::count_in<Accepted, cat::coverage, std::remove_cv_t<std::remove_reference_t<Q>>...> <= 1,
                "portshmem: more than one coverage qualifier (all / comm)");
  static_assert(detail::count_in<Accepted, cat::scope, std::remove_cv_t<std::remove_reference_t<Q>>...> <= 1,
                "portshmem: more than one scope qualifier (device / node / system)");
  static_assert(detail::count_in<Accepted, cat::data_path, std::remove_cv_t<std::remove_reference_t<Q>>...> <= 1,
                "portshmem: more than one data-path qualifier (bypass / keep)");
  static_assert(detail::count_in<Accepted, cat::acquire, std::remove_cv_t<std::remove_reference_t<Q>>...> <= 1,
                "portshmem: more than one acquire-strength qualifier (acquire / comm / relaxed)");
  static_assert(detail::count_in<Accepted, cat::signal, std::remove_cv_t<std::remove_reference_t<Q>>...> <= 1,
                "portshmem: more than one signal-strength qualifier (weak / strong)");

  static constexpr coverage_kind cover =
      detail::has<comm_t, std::remove_cv_t<std::remove_reference_t<Q>>...> && (Accepted & cat::coverage)
          ? coverage_kind::comm
          : coverage_kind::all;
  static constexpr scope_kind scope_of =
      detail::has<device_t, std::remove_cv_t<std::remove_reference_t<Q>>...> ? scope_kind::device
      : detail::has<node_t, std::remove_cv_t<std::remove_reference_t<Q>>...> ? scope_kind::node
                                                                             : scope_kind::system;
  static constexpr path_kind path =
      detail::has<keep_t, std::remove_cv_t<std::remove_reference_t<Q>>...> ? path_kind::keep : path_kind::bypass;
  static constexpr acquire_kind acquire_of =
      detail::has<relaxed_t, std::remove_cv_t<std::remove_reference_t<Q>>...> ? acquire_kind::relaxed
      : detail::has<comm_t, std::remove_cv_t<std::remove_reference_t<Q>>...> && (Accepted & cat::acquire)
          ? acquire_kind::comm
          : acquire_kind::acquire;
  static constexpr signal_kind strength =
      detail::has<strong_t, std::remove_cv_t<std::remove_reference_t<Q>>...> ? signal_kind::strong : signal_kind::weak;

  /// The hardware scope of the call's ordering: node and system both reach other GPUs (NVLink/xGMI peers), so both
  /// lower to system; device to the scope that reaches the other PEs (processes) of this GPU.
  static constexpr arch::scope hw_scope = scope_of == scope_kind::device ? arch::kPeerDeviceScope : arch::scope::system;
  /// Whether the call already has the strict (default) lowering: coverage all, acquire, system scope, so a strict run
  /// (portshmem_ctx_t::strict) changes nothing about it.
  static constexpr bool strict_already = (!(Accepted & cat::coverage) || cover == coverage_kind::all) &&
                                         (!(Accepted & cat::acquire) || acquire_of == acquire_kind::acquire) &&
                                         hw_scope == arch::scope::system;
  static constexpr arch::cache cache = path == path_kind::bypass ? arch::cache::bypass : arch::cache::keep;
};

/// True once R (an mm::resolve) is instantiated, so that its checks fire in a call that uses none of its members:
/// `static_assert(mm::checked<R>);`.
template <class R>
inline constexpr bool checked = sizeof(R) > 0;

} // namespace portshmem::mm

namespace portshmem::detail {
/// The scope of every access the library makes to symmetric memory (put and get data, p, g, AMOs, signal updates,
/// polls): system, whatever the call's scope qualifier. A scope narrows what a call orders (its fences and their
/// cache maintenance), never the coherence of what it reads or writes (docs/memory_model.md, "Scope").
inline constexpr arch::scope kDataScope = arch::scope::system;
} // namespace portshmem::detail
