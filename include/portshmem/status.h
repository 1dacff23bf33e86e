/* portshmem status codes: every host API call that can fail returns one of these. */
#ifndef PORTSHMEM_STATUS_H
#define PORTSHMEM_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum portshmem_status {
  PORTSHMEM_SUCCESS = 0,
  PORTSHMEM_ERR_NOT_INITIALIZED, /* called before portshmem_init or after finalize */
  PORTSHMEM_ERR_INVALID_ARG,     /* a null pointer, a bad alignment, a bad enum value */
  PORTSHMEM_ERR_INVALID_PE,      /* PE outside [0, n_pes) */
  PORTSHMEM_ERR_NOT_SYMMETRIC,   /* address outside the symmetric heap, or not an allocation's start */
  PORTSHMEM_ERR_OVERFLOW,        /* a size or address range that overflows */
  PORTSHMEM_ERR_OUT_OF_MEMORY,   /* symmetric heap exhausted (PORTSHMEM_HEAP_SIZE) */
  PORTSHMEM_ERR_MISMATCH,        /* PEs disagree in a collective call (sizes, order) */
  PORTSHMEM_ERR_UNREACHABLE,     /* no transport reaches a PE */
  PORTSHMEM_ERR_ENV,             /* an environment variable has a value that does not parse */
  PORTSHMEM_ERR_GPU,             /* the GPU runtime reported an error */
  PORTSHMEM_ERR_BOOTSTRAP,       /* MPI (the bootstrap) reported an error */
  PORTSHMEM_ERR_SYSTEM,          /* an operating-system call failed (shm_open, mmap, ...) */
  PORTSHMEM_ERR_TIMEOUT,         /* a bounded wait gave up (PORTSHMEM_TIMEOUT) */
  PORTSHMEM_ERR_DEVICE,          /* device code recorded a bad call; see the log */
  PORTSHMEM_ERR_SCOPE,           /* a scope qualifier too narrow for the PE named (debug checks) */
  PORTSHMEM_ERR_LOCAL_BUFFER,    /* a wave/block call named a thread's private memory, which its other threads
                                    cannot reach (use shared or global memory) */
  PORTSHMEM_ERR_NETWORK          /* the network behind the RDMA proxy failed an operation (MPI one-sided, ibverbs) */
} portshmem_status_t;

/** A short English name of a status, for messages ("invalid PE"). Never NULL. */
const char* portshmem_status_string(portshmem_status_t status);

#ifdef __cplusplus
}
#endif

#endif /* PORTSHMEM_STATUS_H */
