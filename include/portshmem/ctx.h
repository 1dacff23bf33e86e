/* The device handle: a small plain struct the runtime fills and kernels take by value (no relocatable device code).
 * It is also the default communication context: fence and quiet order the operations issued through it. */
#ifndef PORTSHMEM_CTX_H
#define PORTSHMEM_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "portshmem/transport/proxy_queue.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API calls device code can report a bad call from (portshmem_device_error_t.call). */
typedef enum portshmem_call_id {
  PORTSHMEM_CALL_PUT = 1,
  PORTSHMEM_CALL_GET,
  PORTSHMEM_CALL_P,
  PORTSHMEM_CALL_G,
  PORTSHMEM_CALL_PTR,
  PORTSHMEM_CALL_WAIT,
  PORTSHMEM_CALL_BARRIER,
  PORTSHMEM_CALL_AMO,
  PORTSHMEM_CALL_SIGNAL,
  PORTSHMEM_CALL_FENCE,
  PORTSHMEM_CALL_QUIET,
  PORTSHMEM_CALL_COLLECTIVE /* a team collective (collectives.hpp) */
} portshmem_call_id_t;

/* What a wait that timed out was waiting for (portshmem_device_error_t.wait_kind). */
typedef enum portshmem_wait_kind {
  PORTSHMEM_WAIT_NONE = 0,       /* not a timeout */
  PORTSHMEM_WAIT_MEMORY,         /* a word of this PE's symmetric memory (wait_until, signals, barriers) */
  PORTSHMEM_WAIT_PROXY_SLOT,     /* a free slot in the RDMA proxy's ring (seen, awaited: its consumed count) */
  PORTSHMEM_WAIT_PROXY_COMPLETED /* the RDMA proxy's completion of a command (seen, awaited: its completed count) */
} portshmem_wait_kind_t;

/* The PE portshmem_device_error_t.awaited_pe names when the call cannot know who should write the word. */
#define PORTSHMEM_PE_UNKNOWN (-1)

/* A bad call recorded by device code (invalid PE, address outside the heap, a wait that timed out). It lives in
 * host-visible memory so the host can read it even after a kernel trapped; portshmem_check_device_errors() prints
 * and clears it. */
typedef struct portshmem_device_error {
  uint64_t count;    /* errors recorded since the last check; details below are those of the first */
  uint32_t status;   /* a portshmem_status_t */
  uint32_t call;     /* a portshmem_call_id_t: which API call */
  int32_t pe;        /* the PE that recorded it */
  int32_t target_pe; /* the PE the call named */
  uint64_t address;  /* the address the call named (in the caller's address space) */
  uint64_t size;     /* bytes the call named, or the awaited value for a wait */
  /* A wait that timed out also says what it saw; wait_kind is PORTSHMEM_WAIT_NONE (all zero) for other errors. */
  uint64_t seen;      /* the value at address when it gave up, converted to uint64_t as size is */
  int32_t awaited_pe; /* the PE that should have written it (proxy kinds: the command's PE), or PORTSHMEM_PE_UNKNOWN */
  uint8_t wait_kind;  /* a portshmem_wait_kind_t */
  uint8_t cmp;        /* the comparison awaited (seen <cmp> size): portshmem::cmp + 1 (eq ne gt ge lt le) */
  uint8_t value_signed; /* 1 when the word is of a signed type (size and seen were sign-extended) */
  uint8_t reserved;     /* zero */
} portshmem_device_error_t;

typedef struct portshmem_ctx {
  int32_t my_pe;
  int32_t n_pes;
  /* This PE's symmetric heap, the part allocations come from: [heap, heap + heap_size), the same size on every PE.
   * The runtime's reserved areas lie outside it (64 KiB before heap, the team area after its end), so device calls
   * naming them are refused like any address outside the heap. */
  char* heap;
  uint64_t heap_size;
  char* const* peer_heaps; /* [n_pes]: where each PE's heap (the part above) is mapped here; NULL where no
                              load/store path exists */
  /* One symmetric range (PORTSHMEM_SYMMETRIC_RANGE): when peer_stride is not 0, the mapped heaps are those of PEs
   * [mapped_first, mapped_first + mapped_count), PE pe's at heap + (pe - my_pe) * peer_stride, and device code finds
   * them by that arithmetic instead of loading peer_heaps[pe] (which lists the same addresses). 0: the table. */
  int64_t peer_stride;
  int32_t mapped_first;
  int32_t mapped_count;
  const int32_t* pe_device;        /* [n_pes]: where each PE runs, node * 65536 + GPU (host platform: node * 65536) */
  portshmem_device_error_t* error; /* host-visible error record */
  uint64_t timeout_ns;             /* bound on device waits (1 min unless set); 0 = forever (PORTSHMEM_TIMEOUT) */
  int32_t strict;                  /* 1: calls lower as with default qualifiers (docs/memory_model.md, premises) */
  int32_t reserved;                /* zero */
  /* The RDMA transport (docs/backends.md): the proxy's rings, in device memory; a block posts to ring
   * block_rank % proxy_ring_count. NULL when no PE of the job is reached through the proxy: then every device call
   * takes the load/store path alone, and the proxy branches cost one test of this pointer. */
  const portshmem_proxy_ring_t* proxy_rings;
  uint32_t proxy_ring_count;
  uint32_t proxy_reserved; /* zero */
} portshmem_ctx_t;

#ifdef __cplusplus
}
#endif

#endif /* PORTSHMEM_CTX_H */
