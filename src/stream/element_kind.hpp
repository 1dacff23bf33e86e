// What the host side of the on-stream reductions (collectives_on_stream.cpp) and their kernels
// (reduction_kernels.hpp) agree on: a kernel is compiled per element size, and learns at run time what the elements'
// bits are (element_kind) and which operator combines them.
#pragma once

#include <cstddef>

#include "portshmem/platform.hpp"
#include "portshmem/stream.h"

namespace portshmem::detail::on_stream {

/// What a reduction's element bits are; with the element size, this picks the type a kernel combines them in.
enum class element_kind : int {
  signed_int,
  unsigned_int,
  ieee_float, // binary16 (half), binary32 or binary64, by size
  bfloat16
};

/// Whether a reduction kernel combines elements of kind and size with op (a portshmem_reduce_op_t): the bitwise
/// operators take integers only, and each floating kind has its sizes.
PORTSHMEM_HOST_DEVICE constexpr bool combination_valid(element_kind kind, std::size_t size, int op) {
  if (size != 1 && size != 2 && size != 4 && size != 8) return false;
  if (op < PORTSHMEM_REDUCE_SUM || op > PORTSHMEM_REDUCE_XOR) return false;
  const bool arithmetic = op <= PORTSHMEM_REDUCE_MAX;
  switch (kind) {
  case element_kind::signed_int:
  case element_kind::unsigned_int:
    return true;
  case element_kind::ieee_float:
    return arithmetic && size != 1;
  case element_kind::bfloat16:
    return arithmetic && size == 2;
  }
  return false;
}

} // namespace portshmem::detail::on_stream
