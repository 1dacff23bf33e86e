// The on-stream reductions' kernels (launch_reduction, collective_kernels.hpp): one block running the body of the
// device API's block-form reduce or reduce_scatter (detail/collectives.hpp) with a combiner that learns the element
// type and operator at run time. The rounds and puts, what costs tens of seconds of device compilation, are thus
// compiled once per element size and reduction; only the combining step is specialized, once per type and operator
// it can meet, behind a switch taken once per combining step, so each case is the device API's tight loop.
// Included only by the units cmake/stream.cmake generates (one per reduction and element size), built by the device
// compiler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/device.hpp"
#include "stream/collective_kernels.hpp"
#include "stream/element_kind.hpp"
#include "stream/kernels.hpp"

namespace portshmem::detail::on_stream {

/// The fixed-width integer of Bytes bytes, signed or not.
template <std::size_t Bytes, bool Signed>
using sized_int = std::conditional_t<
    Bytes == 1, std::conditional_t<Signed, std::int8_t, std::uint8_t>,
    std::conditional_t<Bytes == 2, std::conditional_t<Signed, std::int16_t, std::uint16_t>,
                       std::conditional_t<Bytes == 4, std::conditional_t<Signed, std::int32_t, std::uint32_t>,
                                          std::conditional_t<Signed, std::int64_t, std::uint64_t>>>>;

/// The floating type of Bytes bytes (bfloat16_t for Brain, else IEEE); void where there is none.
template <std::size_t Bytes, bool Brain>
using sized_float = std::conditional_t<
    Bytes == 2, std::conditional_t<Brain, bfloat16_t, half_t>,
    std::conditional_t<Brain, void,
                       std::conditional_t<Bytes == 4, float, std::conditional_t<Bytes == 8, double, void>>>>;

/// The combining step on the storage words T seen as elements of E. A pair Op does not take (void E, a bitwise Op on
/// a floating E) never gets here: the kernel refuses it first (combination_valid), so it compiles to nothing.
template <class Group, class Op, class E, class T>
PORTSHMEM_DEVICE void combine_as(T* dest, std::size_t count, int n, const reduce_parts<T>& parts) {
  if constexpr (!std::is_void_v<E>) {
    if constexpr (Op::template accepts<E>) {
      reduce_local<Group, Op>(reinterpret_cast<E*>(dest), count, n, parts.template as<E>());
    }
  }
}

/// combine_as with the type of kind and T's size. Integers combine as unsigned except for min and max: the same bits
/// as the signed result, with wrapping defined (and fewer loops to compile).
template <class Group, class Op, class T>
PORTSHMEM_DEVICE void combine_kind(element_kind kind, T* dest, std::size_t count, int n, const reduce_parts<T>& parts) {
  constexpr std::size_t size = sizeof(T);
  constexpr bool ordered = std::is_same_v<Op, op_min> || std::is_same_v<Op, op_max>;
  switch (kind) {
  case element_kind::signed_int:
    return combine_as<Group, Op, sized_int<size, ordered>>(dest, count, n, parts);
  case element_kind::unsigned_int:
    return combine_as<Group, Op, sized_int<size, false>>(dest, count, n, parts);
  case element_kind::ieee_float:
    return combine_as<Group, Op, sized_float<size, false>>(dest, count, n, parts);
  case element_kind::bfloat16:
    return combine_as<Group, Op, sized_float<size, true>>(dest, count, n, parts);
  }
}

static_assert(op_prod::id - op_sum::id == PORTSHMEM_REDUCE_PROD - PORTSHMEM_REDUCE_SUM &&
                  op_min::id - op_sum::id == PORTSHMEM_REDUCE_MIN - PORTSHMEM_REDUCE_SUM &&
                  op_max::id - op_sum::id == PORTSHMEM_REDUCE_MAX - PORTSHMEM_REDUCE_SUM &&
                  op_and::id - op_sum::id == PORTSHMEM_REDUCE_AND - PORTSHMEM_REDUCE_SUM &&
                  op_or::id - op_sum::id == PORTSHMEM_REDUCE_OR - PORTSHMEM_REDUCE_SUM &&
                  op_xor::id - op_sum::id == PORTSHMEM_REDUCE_XOR - PORTSHMEM_REDUCE_SUM,
              "portshmem_reduce_op_t (stream.h) must follow the operators' ids (detail/reduce_ops.hpp)");

/// The combiner of reduce_with / reduce_scatter_with for an element kind and operator (a portshmem_reduce_op_t)
/// known at run time. Its fingerprint id is the device API's for the same operator.
struct runtime_combiner {
  element_kind kind;
  int op;

  PORTSHMEM_DEVICE unsigned op_id() const { return op_sum::id + unsigned(op - PORTSHMEM_REDUCE_SUM); }

  /// Out of line: the switch and its loops are compiled once per kernel, not at each of reduce's two call sites.
  template <class Group, class T>
  PORTSHMEM_DEVICE_COLD void combine(T* dest, std::size_t count, int n, reduce_parts<T> parts) const {
    switch (op) {
    case PORTSHMEM_REDUCE_SUM:
      return combine_kind<Group, op_sum>(kind, dest, count, n, parts);
    case PORTSHMEM_REDUCE_PROD:
      return combine_kind<Group, op_prod>(kind, dest, count, n, parts);
    case PORTSHMEM_REDUCE_MIN:
      return combine_kind<Group, op_min>(kind, dest, count, n, parts);
    case PORTSHMEM_REDUCE_MAX:
      return combine_kind<Group, op_max>(kind, dest, count, n, parts);
    case PORTSHMEM_REDUCE_AND:
      return combine_kind<Group, op_and>(kind, dest, count, n, parts);
    case PORTSHMEM_REDUCE_OR:
      return combine_kind<Group, op_or>(kind, dest, count, n, parts);
    case PORTSHMEM_REDUCE_XOR:
      return combine_kind<Group, op_xor>(kind, dest, count, n, parts);
    }
  }
};

/// The storage word of Size-byte elements: the rounds and puts move words; only the combiner looks at their type.
template <std::size_t Size>
using word = sized_int<Size, false>;

template <reduction Which, std::size_t Size>
PORTSHMEM_GLOBAL void reduction_kernel(portshmem::ctx c, portshmem::team t, word<Size>* dest, const word<Size>* src,
                                       std::size_t count, element_kind kind, int op) {
  if (!combination_valid(kind, Size, op)) {
    // The host refuses such a pair before launching (check_reduction); should one get here, it is reported, not
    // combined. Every member passes the same pair, so every member returns here alike, before any round.
    if (block_group::rank() == 0)
      record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_COLLECTIVE, c.my_pe, dest, count);
    return;
  }
  using R = mm::resolve<kCollectiveQualifiers>; // the block-form calls' default qualifiers
  const runtime_combiner combiner{kind, op};
  if constexpr (Which == reduction::reduce) {
    reduce_with<block_group, R>(c, t, dest, src, count, combiner);
  } else {
    reduce_scatter_with<block_group, R>(c, t, dest, src, count, combiner);
  }
}

template <reduction Which, std::size_t Size>
hipError_t launch_reduction(const portshmem_ctx_t& c, const portshmem_team_handle_t& t, void* dest, const void* src,
                            std::size_t count, element_kind kind, int op, hipStream_t stream) {
  return arch::launch(reduction_kernel<Which, Size>, dim3(1), dim3(kBlockThreads), 0, stream, c, t,
                      static_cast<word<Size>*>(dest), static_cast<const word<Size>*>(src), count, kind, op);
}

} // namespace portshmem::detail::on_stream
