/* The reverse-offload queue: the memory layout shared by device code that posts network commands and the proxy
 * thread (src/rdma/proxy.cpp) that executes them. C99 and C++17; nothing here is platform-specific.
 *
 * A ring is `capacity` (a power of two) slots of 64-byte commands, plus one result cell per slot and a state block,
 * all in host-visible memory (mapped pinned memory on GPUs, ordinary memory on the host platform), and a ticket
 * counter that only producers touch (it may live in device memory). Tickets count from 0; ticket t uses slot
 * t % capacity and result cell t % capacity.
 *
 * Protocol (P = a producer thread, C = the proxy; "system" = every atomic below is system-scoped):
 *   1. P: t = fetch_add(reserve, 1) (relaxed); a wave may take n consecutive tickets with one fetch_add of n.
 *   2. P: waits until t < load_acquire(state.consumed) + capacity: the slot's previous command has been copied out
 *      (and, if it fetched into its result cell, the cell read), so overwriting it races with nothing.
 *   3. P: writes words 1..7 of the slot (relaxed), then stores seq = t + 1 with release: one release store publishes
 *      the command. seq never takes the same value twice for one slot, so a stale slot cannot look published.
 *   4. C: for its next ticket h of the ring, waits for load_acquire(slot.seq) == h + 1 and copies the command out.
 *      C advances state.consumed (release) past h at once, unless h fetches into its result cell: then only after
 *      P's ack (step 7), so the cell is not reused before P has read it.
 *   5. C: executes the command through the network; a fetched value goes to its result cell (or to `local`, when
 *      the command names one) before step 6.
 *   6. C: stores state.completed = h + 1 (release) once command h is complete in the sense of its op (below);
 *      commands of one ring complete in ticket order. A failure first fills state.error_* (relaxed), then completes.
 *   7. P (if it waits): load_acquire(state.completed) > t, then checks state.error_*, reads its result cell, and
 *      stores result.ack = t + 1 with release.
 * Completion of a command (what step 6 waits for): PUT/PUT_SIGNAL/AMO/SIGNAL: issued to the network, and with
 * PORTSHMEM_PROXY_FLAG_BLOCKING also locally complete (the source may be reused), with PORTSHMEM_PROXY_FLAG_DELIVERED
 * complete at the target; GET and fetching AMOs: the data or value has arrived; FENCE: later commands to each PE are
 * delivered after earlier ones; QUIET: every earlier command of this ring is complete at its target; PE_QUIET: the
 * same for the commands to `pe`.
 * Errors are sticky per ring: a waiter whose ticket is at or after state.error_ticket sees state.error_status. */
#ifndef PORTSHMEM_TRANSPORT_PROXY_QUEUE_H
#define PORTSHMEM_TRANSPORT_PROXY_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Layout version: bumped on any change below; a ring table carries the version its creator was built with.
 * 2: a GET of at most 8 bytes without a local address fetches into its result cell; FLAG_DELIVERED. */
#define PORTSHMEM_PROXY_QUEUE_VERSION 2u

/* Commands are one cache line: a slot is written by one producer and read by the proxy in one transfer. */
#define PORTSHMEM_PROXY_CMD_BYTES 64

typedef enum portshmem_proxy_op {
  PORTSHMEM_PROXY_OP_NOP = 0,        /* completes at once (a reserved ticket that issues nothing) */
  PORTSHMEM_PROXY_OP_PUT = 1,        /* size bytes from local (or from value, FLAG_INLINE) to pe's heap at remote */
  PORTSHMEM_PROXY_OP_GET = 2,        /* size bytes from pe's heap at remote to local (local 0: the result cell) */
  PORTSHMEM_PROXY_OP_AMO = 3,        /* kind: portshmem_proxy_amo_t on width bytes at remote */
  PORTSHMEM_PROXY_OP_SIGNAL = 4,     /* kind: portshmem_proxy_signal_op_t of value on the 8-byte word at remote */
  PORTSHMEM_PROXY_OP_PUT_SIGNAL = 5, /* a PUT, then the SIGNAL (value, kind) at aux, delivered after the data */
  PORTSHMEM_PROXY_OP_FENCE = 6,      /* orders this ring's earlier deliveries to each PE before its later ones */
  PORTSHMEM_PROXY_OP_QUIET = 7,      /* remote completion of this ring's earlier commands */
  PORTSHMEM_PROXY_OP_PE_QUIET = 8,   /* remote completion of this ring's earlier commands to pe */
  PORTSHMEM_PROXY_OP_COUNT
} portshmem_proxy_op_t;

/* Atomic operations on width (4 or 8) bytes; value is the operand, aux the compare_swap's expected value. */
typedef enum portshmem_proxy_amo {
  PORTSHMEM_PROXY_AMO_FETCH = 0, /* fetches */
  PORTSHMEM_PROXY_AMO_SET,
  PORTSHMEM_PROXY_AMO_SWAP,         /* fetches */
  PORTSHMEM_PROXY_AMO_COMPARE_SWAP, /* fetches */
  PORTSHMEM_PROXY_AMO_FETCH_ADD,    /* fetches */
  PORTSHMEM_PROXY_AMO_FETCH_AND,    /* fetches */
  PORTSHMEM_PROXY_AMO_FETCH_OR,     /* fetches */
  PORTSHMEM_PROXY_AMO_FETCH_XOR,    /* fetches */
  PORTSHMEM_PROXY_AMO_ADD,
  PORTSHMEM_PROXY_AMO_AND,
  PORTSHMEM_PROXY_AMO_OR,
  PORTSHMEM_PROXY_AMO_XOR,
  PORTSHMEM_PROXY_AMO_COUNT
} portshmem_proxy_amo_t;

typedef enum portshmem_proxy_signal_op {
  PORTSHMEM_PROXY_SIGNAL_SET = 0,
  PORTSHMEM_PROXY_SIGNAL_ADD = 1
} portshmem_proxy_signal_op_t;

/* flags: PUT with the size (at most 8) bytes in value instead of at local (a value from a register) */
#define PORTSHMEM_PROXY_FLAG_INLINE 0x1u
/* flags: PUT / PUT_SIGNAL complete only once the network has read the source (a blocking put waits for it) */
#define PORTSHMEM_PROXY_FLAG_BLOCKING 0x2u
/* flags: AMO / SIGNAL complete only once performed at the target (for a target the caller also reaches by loads and
 * stores: what the caller does there next is then ordered after it) */
#define PORTSHMEM_PROXY_FLAG_DELIVERED 0x4u

typedef struct portshmem_proxy_cmd {
  uint64_t seq;       /* ticket + 1, stored last with release (protocol step 3); 0 in a never-used slot */
  uint8_t op;         /* portshmem_proxy_op_t */
  uint8_t kind;       /* portshmem_proxy_amo_t (AMO) or portshmem_proxy_signal_op_t (SIGNAL, PUT_SIGNAL) */
  uint8_t width;      /* AMO operand bytes: 4 or 8 */
  uint8_t flags;      /* PORTSHMEM_PROXY_FLAG_* */
  int32_t pe;         /* the target PE */
  uint64_t remote;    /* offset in the target's symmetric heap: PUT/AMO/SIGNAL destination, GET source */
  uint64_t local;     /* address here: PUT source, GET destination, a fetching AMO's destination (0: the cell) */
  uint64_t size;      /* bytes of a PUT/GET/PUT_SIGNAL */
  uint64_t value;     /* AMO operand (compare_swap: the new value), signal value, inline PUT bytes */
  uint64_t aux;       /* compare_swap: the expected value; PUT_SIGNAL: the signal word's offset in pe's heap */
  uint32_t qualifier; /* the call's memory-model qualifiers: opaque bits the proxy passes to the network */
  uint32_t call;      /* portshmem_call_id_t of the API call, for error messages */
} portshmem_proxy_cmd_t;

/* Whether a command leaves its fetched value in its result cell, so that the proxy holds the slot until the
 * producer's ack (protocol steps 4 and 7): a fetching AMO or a GET (of at most 8 bytes) without a local address. Both
 * sides decide with this one test. A macro, so device code can use it. */
#define PORTSHMEM_PROXY_USES_CELL(op, kind, local)                                                                     \
  ((local) == 0 && ((op) == PORTSHMEM_PROXY_OP_GET ||                                                                  \
                    ((op) == PORTSHMEM_PROXY_OP_AMO &&                                                                 \
                     ((kind) == PORTSHMEM_PROXY_AMO_FETCH ||                                                           \
                      ((kind) >= PORTSHMEM_PROXY_AMO_SWAP && (kind) <= PORTSHMEM_PROXY_AMO_FETCH_XOR)))))

/* Where a fetching command without a local destination leaves its value (protocol steps 5 and 7). */
typedef struct portshmem_proxy_result {
  uint64_t value; /* written by the proxy before it completes the ticket */
  uint64_t ack;   /* ticket + 1, stored (release) by the producer once it has read value */
} portshmem_proxy_result_t;

/* Written by the proxy only; producers read it. */
typedef struct portshmem_proxy_ring_state {
  uint64_t consumed;     /* tickets whose slots (and result cells) may be reused */
  uint64_t completed;    /* tickets complete, in ticket order */
  uint64_t error_count;  /* commands of this ring that failed */
  uint64_t error_ticket; /* the first failed command's ticket */
  uint64_t error_remote; /* its remote offset */
  uint32_t error_status; /* its portshmem_status_t */
  uint32_t error_op;     /* its portshmem_proxy_op_t */
  int32_t error_pe;      /* its target PE */
  uint32_t reserved[3];
} portshmem_proxy_ring_state_t;

/* One ring as producers see it (kernel arguments carry it by value inside the device handle). */
typedef struct portshmem_proxy_ring {
  portshmem_proxy_cmd_t* slots;        /* [capacity], host-visible */
  portshmem_proxy_result_t* results;   /* [capacity], host-visible */
  portshmem_proxy_ring_state_t* state; /* host-visible */
  uint64_t* reserve;                   /* the ticket counter: producers only */
  uint32_t capacity;                   /* slots: a power of two */
  uint32_t version;                    /* PORTSHMEM_PROXY_QUEUE_VERSION of the code that made the ring */
} portshmem_proxy_ring_t;

#ifdef __cplusplus
}
#define PORTSHMEM_PROXY_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PORTSHMEM_PROXY_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#else /* C99: a negative array size stops the build */
#define PORTSHMEM_PROXY_STATIC_ASSERT_CAT2(a, b) a##b
#define PORTSHMEM_PROXY_STATIC_ASSERT_CAT(a, b) PORTSHMEM_PROXY_STATIC_ASSERT_CAT2(a, b)
#define PORTSHMEM_PROXY_STATIC_ASSERT(cond, msg)                                                                       \
  typedef char PORTSHMEM_PROXY_STATIC_ASSERT_CAT(portshmem_proxy_assert_, __LINE__)[(cond) ? 1 : -1]
#endif

/* The layout is an ABI between device code and the library: every size and offset is fixed. */
PORTSHMEM_PROXY_STATIC_ASSERT(sizeof(portshmem_proxy_cmd_t) == PORTSHMEM_PROXY_CMD_BYTES, "a command is 64 bytes");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, seq) == 0, "seq is word 0");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, op) == 8, "op at 8");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, pe) == 12, "pe at 12");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, remote) == 16, "remote at 16");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, local) == 24, "local at 24");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, size) == 32, "size at 32");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, value) == 40, "value at 40");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, aux) == 48, "aux at 48");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, qualifier) == 56, "qualifier at 56");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_cmd_t, call) == 60, "call at 60");
PORTSHMEM_PROXY_STATIC_ASSERT(sizeof(portshmem_proxy_result_t) == 16, "a result cell is 16 bytes");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_result_t, ack) == 8, "ack at 8");
PORTSHMEM_PROXY_STATIC_ASSERT(sizeof(portshmem_proxy_ring_state_t) == 64, "the state is one cache line");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_ring_state_t, completed) == 8, "completed at 8");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_ring_state_t, error_ticket) == 24, "error_ticket at 24");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_ring_state_t, error_status) == 40, "error_status at 40");
PORTSHMEM_PROXY_STATIC_ASSERT(offsetof(portshmem_proxy_ring_state_t, error_pe) == 48, "error_pe at 48");
PORTSHMEM_PROXY_STATIC_ASSERT(sizeof(void*) != 8 || sizeof(portshmem_proxy_ring_t) == 40, "a ring is 40 bytes");

#endif /* PORTSHMEM_TRANSPORT_PROXY_QUEUE_H */
