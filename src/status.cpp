#include "portshmem/status.h"

// Names complete "failed: <name>" and start log lines such as "ERROR init.cpp:40: invalid PE: pe 9 ...".
extern "C" const char* portshmem_status_string(portshmem_status_t status) {
  switch (status) {
  case PORTSHMEM_SUCCESS:
    return "success";
  case PORTSHMEM_ERR_NOT_INITIALIZED:
    return "not initialized";
  case PORTSHMEM_ERR_INVALID_ARG:
    return "invalid argument";
  case PORTSHMEM_ERR_INVALID_PE:
    return "invalid PE";
  case PORTSHMEM_ERR_NOT_SYMMETRIC:
    return "not a symmetric address";
  case PORTSHMEM_ERR_OVERFLOW:
    return "size or range overflows";
  case PORTSHMEM_ERR_OUT_OF_MEMORY:
    return "symmetric heap exhausted";
  case PORTSHMEM_ERR_MISMATCH:
    return "PEs disagree in a collective call";
  case PORTSHMEM_ERR_UNREACHABLE:
    return "PE unreachable";
  case PORTSHMEM_ERR_ENV:
    return "bad environment variable";
  case PORTSHMEM_ERR_GPU:
    return "GPU runtime error";
  case PORTSHMEM_ERR_BOOTSTRAP:
    return "bootstrap (MPI) error";
  case PORTSHMEM_ERR_SYSTEM:
    return "system call failed";
  case PORTSHMEM_ERR_TIMEOUT:
    return "timed out";
  case PORTSHMEM_ERR_DEVICE:
    return "device-side error";
  case PORTSHMEM_ERR_SCOPE:
    return "scope qualifier too narrow for the PE";
  case PORTSHMEM_ERR_LOCAL_BUFFER:
    return "private memory in a wave or block call";
  case PORTSHMEM_ERR_NETWORK:
    return "network error";
  }
  // A value outside the enum (a cast from an int): still a string, so callers can print it unchecked.
  return "unknown status";
}
