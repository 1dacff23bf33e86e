// What every family's device translation unit includes: the backend the library is built for (PERFTEST_BACKEND_NVSHMEM:
// NVSHMEM; otherwise portshmem and the raw yardstick), the groups, and the helpers that turn the run's flags into
// backend objects, compile-time groups and element types. The kernels are written once, against the members every
// backend has (backend_portshmem.hpp lists them), and instantiated for each backend object passed to them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>

#if PERFTEST_BACKEND_NVSHMEM
#include "backend_nvshmem.hpp"
#include "groups.hpp"
#else
#include "backend_portshmem.hpp"
#include "groups.hpp"
#include "backend_raw.hpp"
#endif
#include "harness.hpp"

namespace pt {

#if !PERFTEST_BACKEND_NVSHMEM
template <class B>
struct is_pshm : std::false_type {};
template <mm_set V>
struct is_pshm<pshm<V>> : std::true_type {};

/// Calls f(pshm<V>{c}) for the variant v of family F. A variant that changes no call of the family is not compiled
/// for it (the driver skipped it before: this only reports the slip).
template <family F, mm_set V = mm_set::strict, class Fn>
bool with_variant(mm_set v, portshmem::ctx c, Fn&& f) {
  if constexpr (int(V) + 1 < kMmCount) {
    if (v != V) return with_variant<F, static_cast<mm_set>(int(V) + 1)>(v, c, f);
  }
  if constexpr (compiled_for(V, F)) {
    return f(pshm<V>{c});
  } else {
    std::fprintf(stderr, "perftest: variant %s is not compiled for this family\n", kMmNames[int(v)]);
    return false;
  }
}
#endif

/// Whether backend B runs program p: a portshmem variant only where it changes one of p's calls (programs.hpp:
/// applies); the other backends always. The families compile a program's kernel for B only where this holds, so a
/// variant adds only the kernels it changes.
template <class B>
constexpr bool runs(program p) {
#if !PERFTEST_BACKEND_NVSHMEM
  if constexpr (is_pshm<B>::value) return applies(B::variant, p);
#endif
  (void)p;
  return true;
}

/// Calls f(backend) for each backend variant of the run: the portshmem qualifier variants of --mm (those that apply
/// to the program: the driver dropped the others) and, with --raw, the hand-written yardstick, whose peer pointers
/// come from the symmetric address sym mapped for PE peer. F: the family, whose kernels are compiled only for the
/// variants that change one of its calls. NVSHMEM builds have one variant (the driver refuses the others). Returns
/// false when a call of f did.
template <family F, class Fn>
bool for_each_backend(const options& o, void* sym, int peer, Fn&& f) {
#if PERFTEST_BACKEND_NVSHMEM
  (void)o, (void)sym, (void)peer;
  return f(nvshm{});
#else
  portshmem::ctx c;
  if (portshmem_get_ctx(&c) != PORTSHMEM_SUCCESS) return false;
  bool ok = true;
  for (const mm_set mm : o.mms) ok = with_variant<F>(mm, c, f) && ok;
  if (o.raw) {
    void* mapped = portshmem_ptr(sym, peer);
    if (!mapped) {
      std::fprintf(stderr, "perftest: --raw needs a load/store path to PE %d (portshmem_ptr gave none)\n", peer);
      return false;
    }
    ok = f(raw{static_cast<char*>(mapped) - static_cast<char*>(sym)}) && ok;
  }
  return ok;
#endif
}

/// Calls f(std::integral_constant<group, G>) for the group g.
template <class F>
bool with_group(group g, F&& f) {
  switch (g) {
  case group::thread:
    return f(std::integral_constant<group, group::thread>{});
  case group::warp:
    return f(std::integral_constant<group, group::warp>{});
  case group::block:
    break;
  }
  return f(std::integral_constant<group, group::block>{});
}

/// Calls f(std::integral_constant<group, G>) for each group of the run (-s); false when a call returned false.
template <class F>
bool for_each_group(const options& o, F&& f) {
  bool ok = true;
  for (const group g : o.groups) ok = with_group(g, f) && ok;
  return ok;
}

/// Calls f(T{}) with the unsigned integer of the element's size: p, g and the AMOs move 4 or 8 bytes, and a 4-byte
/// int and a 4-byte float take the same instructions there (signed and unsigned AMOs are the same bits too).
template <class F>
bool with_element(std::size_t bytes, F&& f) {
  return bytes == 8 ? f(std::uint64_t{}) : f(std::uint32_t{});
}

/// The fields of a row that the backend, group and launch decide.
template <class B>
row row_of(const B&, const options& o, group g, unsigned blocks, unsigned threads) {
  row r{};
  r.backend = B::name;
  r.mm = B::mm;
  r.group = kGroupNames[int(g)];
  r.type = o.type.name;
  r.op = "-";
  r.blocks = blocks;
  r.threads = threads;
  r.iters = o.iters;
  return r;
}

} // namespace pt
