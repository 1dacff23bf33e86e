// The reductions' element types and operators, host side (datatypes.hpp): one switch over the enumerators per question.
#include "stream/datatypes.hpp"

#include <type_traits>

#include "portshmem/stream.h"

namespace portshmem::detail::on_stream {

std::size_t datatype_size(int type) {
  switch (type) {
  case PORTSHMEM_DATATYPE_CHAR:
    return sizeof(char);
  case PORTSHMEM_DATATYPE_SCHAR:
    return sizeof(signed char);
  case PORTSHMEM_DATATYPE_SHORT:
    return sizeof(short);
  case PORTSHMEM_DATATYPE_INT:
    return sizeof(int);
  case PORTSHMEM_DATATYPE_LONG:
    return sizeof(long);
  case PORTSHMEM_DATATYPE_LONGLONG:
    return sizeof(long long);
  case PORTSHMEM_DATATYPE_PTRDIFF:
    return sizeof(std::ptrdiff_t);
  case PORTSHMEM_DATATYPE_UCHAR:
    return sizeof(unsigned char);
  case PORTSHMEM_DATATYPE_USHORT:
    return sizeof(unsigned short);
  case PORTSHMEM_DATATYPE_UINT:
    return sizeof(unsigned int);
  case PORTSHMEM_DATATYPE_ULONG:
    return sizeof(unsigned long);
  case PORTSHMEM_DATATYPE_ULONGLONG:
    return sizeof(unsigned long long);
  case PORTSHMEM_DATATYPE_SIZE:
    return sizeof(std::size_t);
  case PORTSHMEM_DATATYPE_INT8:
  case PORTSHMEM_DATATYPE_UINT8:
    return 1;
  case PORTSHMEM_DATATYPE_INT16:
  case PORTSHMEM_DATATYPE_UINT16:
  case PORTSHMEM_DATATYPE_HALF:
  case PORTSHMEM_DATATYPE_BFLOAT16:
    return 2;
  case PORTSHMEM_DATATYPE_INT32:
  case PORTSHMEM_DATATYPE_UINT32:
    return 4;
  case PORTSHMEM_DATATYPE_INT64:
  case PORTSHMEM_DATATYPE_UINT64:
    return 8;
  case PORTSHMEM_DATATYPE_FLOAT:
    return sizeof(float);
  case PORTSHMEM_DATATYPE_DOUBLE:
    return sizeof(double);
  default:
    return 0;
  }
}

element_kind datatype_kind(int type) {
  switch (type) {
  case PORTSHMEM_DATATYPE_CHAR: // as this platform's plain char is
    return std::is_signed_v<char> ? element_kind::signed_int : element_kind::unsigned_int;
  case PORTSHMEM_DATATYPE_SCHAR:
  case PORTSHMEM_DATATYPE_SHORT:
  case PORTSHMEM_DATATYPE_INT:
  case PORTSHMEM_DATATYPE_LONG:
  case PORTSHMEM_DATATYPE_LONGLONG:
  case PORTSHMEM_DATATYPE_PTRDIFF:
  case PORTSHMEM_DATATYPE_INT8:
  case PORTSHMEM_DATATYPE_INT16:
  case PORTSHMEM_DATATYPE_INT32:
  case PORTSHMEM_DATATYPE_INT64:
    return element_kind::signed_int;
  case PORTSHMEM_DATATYPE_FLOAT:
  case PORTSHMEM_DATATYPE_DOUBLE:
  case PORTSHMEM_DATATYPE_HALF:
    return element_kind::ieee_float;
  case PORTSHMEM_DATATYPE_BFLOAT16:
    return element_kind::bfloat16;
  default: // UCHAR, USHORT, UINT, ULONG, ULONGLONG, SIZE, UINT8 to UINT64
    return element_kind::unsigned_int;
  }
}

const char* datatype_name(int type) {
  switch (type) {
  case PORTSHMEM_DATATYPE_CHAR:
    return "CHAR";
  case PORTSHMEM_DATATYPE_SCHAR:
    return "SCHAR";
  case PORTSHMEM_DATATYPE_SHORT:
    return "SHORT";
  case PORTSHMEM_DATATYPE_INT:
    return "INT";
  case PORTSHMEM_DATATYPE_LONG:
    return "LONG";
  case PORTSHMEM_DATATYPE_LONGLONG:
    return "LONGLONG";
  case PORTSHMEM_DATATYPE_PTRDIFF:
    return "PTRDIFF";
  case PORTSHMEM_DATATYPE_UCHAR:
    return "UCHAR";
  case PORTSHMEM_DATATYPE_USHORT:
    return "USHORT";
  case PORTSHMEM_DATATYPE_UINT:
    return "UINT";
  case PORTSHMEM_DATATYPE_ULONG:
    return "ULONG";
  case PORTSHMEM_DATATYPE_ULONGLONG:
    return "ULONGLONG";
  case PORTSHMEM_DATATYPE_SIZE:
    return "SIZE";
  case PORTSHMEM_DATATYPE_INT8:
    return "INT8";
  case PORTSHMEM_DATATYPE_INT16:
    return "INT16";
  case PORTSHMEM_DATATYPE_INT32:
    return "INT32";
  case PORTSHMEM_DATATYPE_INT64:
    return "INT64";
  case PORTSHMEM_DATATYPE_UINT8:
    return "UINT8";
  case PORTSHMEM_DATATYPE_UINT16:
    return "UINT16";
  case PORTSHMEM_DATATYPE_UINT32:
    return "UINT32";
  case PORTSHMEM_DATATYPE_UINT64:
    return "UINT64";
  case PORTSHMEM_DATATYPE_FLOAT:
    return "FLOAT";
  case PORTSHMEM_DATATYPE_DOUBLE:
    return "DOUBLE";
  case PORTSHMEM_DATATYPE_HALF:
    return "HALF";
  case PORTSHMEM_DATATYPE_BFLOAT16:
    return "BFLOAT16";
  default:
    return "?";
  }
}

bool reduce_op_valid(int op) {
  return op >= PORTSHMEM_REDUCE_SUM && op <= PORTSHMEM_REDUCE_XOR;
}

const char* reduce_op_name(int op) {
  switch (op) {
  case PORTSHMEM_REDUCE_SUM:
    return "SUM";
  case PORTSHMEM_REDUCE_PROD:
    return "PROD";
  case PORTSHMEM_REDUCE_MIN:
    return "MIN";
  case PORTSHMEM_REDUCE_MAX:
    return "MAX";
  case PORTSHMEM_REDUCE_AND:
    return "AND";
  case PORTSHMEM_REDUCE_OR:
    return "OR";
  case PORTSHMEM_REDUCE_XOR:
    return "XOR";
  default:
    return "?";
  }
}

} // namespace portshmem::detail::on_stream
