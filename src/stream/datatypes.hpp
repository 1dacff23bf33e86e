// What the host needs to know about the reductions' element types and operators (portshmem_datatype_t and
// portshmem_reduce_op_t, portshmem/stream.h): sizes, what their bits are, and names for messages. Values outside the
// enumerations are answered too (size 0, name "?"), since a C caller can pass any int.
#pragma once

#include <cstddef>

#include "stream/element_kind.hpp"

namespace portshmem::detail::on_stream {

/// Bytes of one element of type; 0 when type is not a portshmem_datatype_t.
std::size_t datatype_size(int type);

/// What type's bits are (signed or unsigned integer, IEEE or bfloat16 float); type must be a portshmem_datatype_t.
element_kind datatype_kind(int type);

/// The enumerator's name without its prefix ("INT32"), or "?".
const char* datatype_name(int type);

/// Whether op is a portshmem_reduce_op_t.
bool reduce_op_valid(int op);

/// The enumerator's name without its prefix ("SUM"), or "?".
const char* reduce_op_name(int op);

} // namespace portshmem::detail::on_stream
