#include "rdma/net_mpi.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <vector>

#include "log.hpp"
#include "rdma/amo_word.hpp"
#include "rdma/staging.hpp"

namespace portshmem::rdma {
namespace {

/// The largest staged piece (at most a quarter of the pool, so a piece always fits once the pool is emptied).
constexpr std::size_t kStageChunk = std::size_t(256) << 10;
/// MPI counts are ints: larger transfers go in pieces of this many bytes.
constexpr std::size_t kMaxCount = std::size_t(1) << 30;
/// Least time between two pokes of MPI's progress engine from an idle proxy (a poke costs about a microsecond).
constexpr std::chrono::microseconds kProgressEvery{20};

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, std::size_t(len));
}

MPI_Op reduction_of(portshmem_proxy_amo_t kind) {
  switch (kind) {
  case PORTSHMEM_PROXY_AMO_FETCH:
    return MPI_NO_OP;
  case PORTSHMEM_PROXY_AMO_SET:
  case PORTSHMEM_PROXY_AMO_SWAP:
    return MPI_REPLACE;
  case PORTSHMEM_PROXY_AMO_FETCH_ADD:
  case PORTSHMEM_PROXY_AMO_ADD:
    return MPI_SUM;
  case PORTSHMEM_PROXY_AMO_FETCH_AND:
  case PORTSHMEM_PROXY_AMO_AND:
    return MPI_BAND;
  case PORTSHMEM_PROXY_AMO_FETCH_OR:
  case PORTSHMEM_PROXY_AMO_OR:
    return MPI_BOR;
  default:
    return MPI_BXOR;
  }
}

class mpi_network final : public network {
 public:
  ~mpi_network() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return; // too late to free anything through MPI
    // Teardown: the window is freed collectively; a failure here has nothing left to protect.
    if (win_ != MPI_WIN_NULL) {
      (void)MPI_Win_unlock_all(win_);
      (void)MPI_Win_free(&win_);
    }
    if (comm_ != MPI_COMM_NULL) (void)MPI_Comm_free(&comm_);
  }

  portshmem_status_t setup(const mpi_network_options& o, bool stage) {
    stage_ = stage;
    region_ = o.size;
    // This PE's own heap, when the CPU can operate on it (see local_put / local_atomic).
    self_base_ = o.heap_on_gpu ? nullptr : static_cast<char*>(o.base);
    piece_ = stage ? std::min(kStageChunk, o.bounce_bytes / 4) : kMaxCount;
    if (MPI_Comm_dup(o.comm, &comm_) != MPI_SUCCESS ||
        MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN) != MPI_SUCCESS ||
        MPI_Comm_size(comm_, &size_) != MPI_SUCCESS || MPI_Comm_rank(comm_, &self_) != MPI_SUCCESS) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "could not duplicate the communicator for the MPI network");
    }
    if (int rc = MPI_Win_create(o.base, MPI_Aint(o.size), 1, MPI_INFO_NULL, comm_, &win_); rc != MPI_SUCCESS) {
      return PORTSHMEM_FAIL(kNetworkError, "MPI_Win_create over the %zu-byte symmetric heap failed: %s", o.size,
                            mpi_error_text(rc).c_str());
    }
    (void)MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN); // failing calls return codes; without it they abort
    int* model = nullptr;
    int found = 0;
    if (MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &found) != MPI_SUCCESS || !found || *model != MPI_WIN_UNIFIED) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP,
                            "this MPI's window over the heap has the separate memory model: device code reads the heap "
                            "directly and would need MPI_Win_sync; use PORTSHMEM_RDMA_NET=ibverbs or another MPI");
    }
    if (int rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, win_); rc != MPI_SUCCESS) {
      return PORTSHMEM_FAIL(kNetworkError, "MPI_Win_lock_all failed: %s", mpi_error_text(rc).c_str());
    }
    users_.assign(std::size_t(size_), 0);
    return bounce_pool::create(o.bounce_bytes, &pool_);
  }

  const char* name() const override { return "mpi"; }

  portshmem_status_t put(int pe, std::uint64_t remote, const void* local, std::size_t bytes, std::uint32_t) override {
    if (auto s = check_range(pe, remote, bytes); s != PORTSHMEM_SUCCESS) return s;
    const std::size_t piece = piece_;
    for (std::size_t done = 0; done < bytes; done += piece) {
      const std::size_t n = bytes - done < piece ? bytes - done : piece;
      const void* src = static_cast<const char*>(local) + done;
      if (stage_) {
        void* staged = nullptr;
        if (auto s = take(pe, n, &staged); s != PORTSHMEM_SUCCESS) return s;
        if (bounce_pool::copy(staged, src, n) != PORTSHMEM_SUCCESS) {
          return fail(PORTSHMEM_ERR_GPU, "could not copy a put's source into its bounce buffer");
        }
        src = staged;
      }
      const int count = int(n);
      if (auto s =
              checked(MPI_Put(src, count, MPI_BYTE, pe, MPI_Aint(remote + done), count, MPI_BYTE, win_), "MPI_Put", pe);
          s != PORTSHMEM_SUCCESS) {
        return s;
      }
    }
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t put_inline(int pe, std::uint64_t remote, const void* local, std::size_t bytes,
                                std::uint32_t) override {
    if (auto s = check_range(pe, remote, bytes); s != PORTSHMEM_SUCCESS) return s;
    if (pe == self_ && self_base_) return local_copy(self_base_ + remote, local, bytes);
    void* copy = nullptr; // MPI reads the origin until local completion: it must outlive the caller's bytes
    if (auto s = take(pe, bytes, &copy); s != PORTSHMEM_SUCCESS) return s;
    std::memcpy(copy, local, bytes);
    return checked(MPI_Put(copy, int(bytes), MPI_BYTE, pe, MPI_Aint(remote), int(bytes), MPI_BYTE, win_), "MPI_Put",
                   pe);
  }

  portshmem_status_t get(int pe, std::uint64_t remote, void* local, std::size_t bytes, std::uint32_t) override {
    if (auto s = check_range(pe, remote, bytes); s != PORTSHMEM_SUCCESS) return s;
    if (pe == self_ && self_base_) return local_copy(local, self_base_ + remote, bytes);
    const std::size_t piece = piece_;
    for (std::size_t done = 0; done < bytes; done += piece) {
      const std::size_t n = bytes - done < piece ? bytes - done : piece;
      void* dst = static_cast<char*>(local) + done;
      void* into = dst;
      if (stage_) {
        if (auto s = take(pe, n, &into); s != PORTSHMEM_SUCCESS) return s;
        gets_.push_back({pe, into, dst, n}); // copied out when the get completes
      }
      const int count = int(n);
      if (auto s = checked(MPI_Get(into, count, MPI_BYTE, pe, MPI_Aint(remote + done), count, MPI_BYTE, win_),
                           "MPI_Get", pe);
          s != PORTSHMEM_SUCCESS) {
        return s;
      }
    }
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t atomic(int pe, std::uint64_t remote, const amo_request& op, std::uint64_t* fetched,
                            std::uint32_t) override {
    if (auto s = check_range(pe, remote, op.width); s != PORTSHMEM_SUCCESS) return s;
    if (op.width != 4 && op.width != 8) return fail(PORTSHMEM_ERR_INVALID_ARG, "an atomic of neither 4 nor 8 bytes");
    if (remote % op.width != 0) return fail(PORTSHMEM_ERR_INVALID_ARG, "an atomic on a misaligned address");
    if (pe == self_ && self_base_) {
      const std::uint64_t old = op.width == 4 ? local_atomic<std::uint32_t>(self_base_ + remote, op)
                                              : local_atomic<std::uint64_t>(self_base_ + remote, op);
      if (fetched) *fetched = old;
      return PORTSHMEM_SUCCESS;
    }
    if (op.width == 4) return narrow_atomic(pe, plan_amo(op, remote), op, fetched);
    // Operands (and a result nobody asked for) live in the pool: MPI reads and writes them until local completion.
    void* operands = nullptr;
    if (auto s = take(pe, 24, &operands); s != PORTSHMEM_SUCCESS) return s;
    auto* words = static_cast<std::uint64_t*>(operands);
    words[0] = op.value; // little-endian: a 4-byte operand is the low half
    words[1] = op.compare;
    void* result = fetched ? static_cast<void*>(fetched) : static_cast<void*>(words + 2);
    const MPI_Datatype type = MPI_UINT64_T;
    const auto at = MPI_Aint(remote);
    if (op.kind == PORTSHMEM_PROXY_AMO_COMPARE_SWAP) {
      return checked(MPI_Compare_and_swap(&words[0], &words[1], result, type, pe, at, win_), "MPI_Compare_and_swap",
                     pe);
    }
    if (amo_fetches(op.kind)) {
      return checked(MPI_Fetch_and_op(&words[0], result, type, pe, at, reduction_of(op.kind), win_), "MPI_Fetch_and_op",
                     pe);
    }
    return checked(MPI_Accumulate(&words[0], 1, type, pe, at, 1, type, reduction_of(op.kind), win_), "MPI_Accumulate",
                   pe);
  }

  /// A 4-byte atomic as 8-byte ones on the word that holds it, waited for here: Open MPI's osc/rdma runs 4-byte
  /// atomics under its own lock, which the owner's CPU or GPU atomics on the same word do not take (two winners of
  /// one compare-and-swap were seen), while its 8-byte ones are the hardware's. Read the word, then swap in what the
  /// operation makes of it until the swap finds the word as read.
  portshmem_status_t narrow_atomic(int pe, const amo_plan& plan, const amo_request& op, std::uint64_t* fetched) {
    std::uint64_t* words = narrow_; // next, current, what the word held: MPI is done with them before the return
    const auto at = MPI_Aint(plan.word);
    if (auto s = checked(MPI_Fetch_and_op(&words[0], &words[2], MPI_UINT64_T, pe, at, MPI_NO_OP, win_),
                         "MPI_Fetch_and_op", pe);
        s != PORTSHMEM_SUCCESS) {
      return s;
    }
    if (auto s = complete_local(pe); s != PORTSHMEM_SUCCESS) return s;
    for (;;) {
      words[1] = words[2];
      if (!amo_next_word(op, plan, words[1], &words[0])) break; // a fetch, or a compare that fails
      if (auto s = checked(MPI_Compare_and_swap(&words[0], &words[1], &words[2], MPI_UINT64_T, pe, at, win_),
                           "MPI_Compare_and_swap", pe);
          s != PORTSHMEM_SUCCESS) {
        return s;
      }
      if (auto s = complete_local(pe); s != PORTSHMEM_SUCCESS) return s;
      if (words[2] == words[1]) break; // swapped
    }
    if (fetched) *fetched = amo_old_value(plan, words[1]);
    return PORTSHMEM_SUCCESS;
  }

  // MPI orders nothing between two RMA calls to one target (except accumulates to one location): ordering is a flush.
  portshmem_status_t order(int pe) override { return flush(pe); }
  portshmem_status_t order_all() override { return flush_all(); }

  portshmem_status_t complete_local(int pe) override {
    if (auto s = check_range(pe, 0, 0); s != PORTSHMEM_SUCCESS) return s;
    if (auto s = checked(MPI_Win_flush_local(pe, win_), "MPI_Win_flush_local", pe); s != PORTSHMEM_SUCCESS) return s;
    return completed(pe);
  }
  portshmem_status_t flush(int pe) override {
    if (auto s = check_range(pe, 0, 0); s != PORTSHMEM_SUCCESS) return s;
    if (auto s = checked(MPI_Win_flush(pe, win_), "MPI_Win_flush", pe); s != PORTSHMEM_SUCCESS) return s;
    return completed(pe);
  }
  portshmem_status_t flush_all() override {
    if (auto s = checked(MPI_Win_flush_all(win_), "MPI_Win_flush_all", -1); s != PORTSHMEM_SUCCESS) return s;
    return completed(-1);
  }

  void progress() override {
    // MPI implementations that emulate passive-target RMA with messages progress only inside MPI calls.
    // By time, not by count: an idle pass may take a whole time slice when the cores are oversubscribed.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_poke_ < kProgressEvery) return;
    last_poke_ = now;
    int flag = 0;
    (void)MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE); // nothing is ever sent on comm_
  }
  bool needs_flush_to_deliver() const override { return true; } // passive target: delivery is promised at a flush

 private:
  struct staged_get {
    int pe;
    void* bounce;
    void* dst;
    std::size_t bytes;
  };

  // Operations on this PE's own heap, when it is host memory, run on the CPU instead of through MPI: no round trip
  // through the progress engine, and Open MPI 4.1's osc/rdma over btl/vader crashes on a 64-bit MPI_Compare_and_swap
  // to the calling rank. The CPU's atomics are atomic with MPI's on the same word where MPI implements shared-memory
  // atomics with them (osc/rdma over vader does: the contention tests include each owner).
  portshmem_status_t local_copy(void* dst, const void* src, std::size_t bytes) {
    if (bounce_pool::copy(dst, src, bytes) != PORTSHMEM_SUCCESS) {
      return fail(PORTSHMEM_ERR_GPU, "could not copy between a local buffer and this PE's heap");
    }
    return PORTSHMEM_SUCCESS;
  }
  template <class T>
  static std::uint64_t local_atomic(char* at, const amo_request& op) {
    std::atomic_ref<T> word(*reinterpret_cast<T*>(at));
    const T v = T(op.value);
    switch (op.kind) {
    case PORTSHMEM_PROXY_AMO_FETCH:
      return word.load();
    case PORTSHMEM_PROXY_AMO_SET:
    case PORTSHMEM_PROXY_AMO_SWAP:
      return word.exchange(v);
    case PORTSHMEM_PROXY_AMO_COMPARE_SWAP: {
      T expected = T(op.compare);
      word.compare_exchange_strong(expected, v);
      return expected;
    }
    case PORTSHMEM_PROXY_AMO_FETCH_ADD:
    case PORTSHMEM_PROXY_AMO_ADD:
      return word.fetch_add(v);
    case PORTSHMEM_PROXY_AMO_FETCH_AND:
    case PORTSHMEM_PROXY_AMO_AND:
      return word.fetch_and(v);
    case PORTSHMEM_PROXY_AMO_FETCH_OR:
    case PORTSHMEM_PROXY_AMO_OR:
      return word.fetch_or(v);
    default:
      return word.fetch_xor(v);
    }
  }

  portshmem_status_t check_range(int pe, std::uint64_t remote, std::size_t bytes) {
    if (pe < 0 || pe >= size_) {
      return fail(PORTSHMEM_ERR_INVALID_PE, "PE " + std::to_string(pe) + " is outside [0, " + std::to_string(size_) +
                                                ") of the MPI network's communicator");
    }
    if (remote > region_ || bytes > region_ - remote) {
      return fail(PORTSHMEM_ERR_OVERFLOW, std::to_string(bytes) + " bytes at heap offset " + std::to_string(remote) +
                                              " run past the " + std::to_string(region_) + "-byte heap");
    }
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t checked(int rc, const char* call, int pe) {
    if (rc == MPI_SUCCESS) return PORTSHMEM_SUCCESS;
    return fail(kNetworkError, std::string(call) + (pe >= 0 ? " to PE " + std::to_string(pe) : std::string()) + ": " +
                                   mpi_error_text(rc));
  }

  /// bytes of pool memory for an operation to pe; when the pool is full, completes everything first to empty it.
  portshmem_status_t take(int pe, std::size_t bytes, void** out) {
    *out = pool_->take(bytes);
    if (!*out) {
      if (auto s = checked(MPI_Win_flush_local_all(win_), "MPI_Win_flush_local_all", -1); s != PORTSHMEM_SUCCESS) {
        return s;
      }
      if (auto s = completed(-1); s != PORTSHMEM_SUCCESS) return s;
      *out = pool_->take(bytes);
    }
    if (!*out) return fail(PORTSHMEM_ERR_INVALID_ARG, "an operation larger than the network's bounce buffers");
    if (!users_[std::size_t(pe)]++) ++busy_targets_;
    return PORTSHMEM_SUCCESS;
  }

  /// Everything issued to pe (every PE: -1) is locally complete: staged gets are copied out, and the pool is emptied
  /// once no target has an operation in it.
  portshmem_status_t completed(int pe) {
    portshmem_status_t status = PORTSHMEM_SUCCESS;
    std::size_t kept = 0;
    for (const staged_get& g : gets_) {
      if (pe >= 0 && g.pe != pe) {
        gets_[kept++] = g;
      } else if (bounce_pool::copy(g.dst, g.bounce, g.bytes) != PORTSHMEM_SUCCESS) {
        status = fail(PORTSHMEM_ERR_GPU, "could not copy a staged get to its destination");
      }
    }
    gets_.resize(kept);
    for (int p = pe < 0 ? 0 : pe; p < (pe < 0 ? size_ : pe + 1); ++p) {
      if (users_[std::size_t(p)]) {
        users_[std::size_t(p)] = 0;
        --busy_targets_;
      }
    }
    if (busy_targets_ == 0) pool_->reset();
    return status;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  int size_ = 0, self_ = -1;
  char* self_base_ = nullptr; // this PE's heap when it is host memory, else null
  std::size_t region_ = 0;
  bool stage_ = false;
  std::size_t piece_ = kMaxCount; // bytes per MPI call of a put or get
  std::unique_ptr<bounce_pool> pool_;
  std::vector<staged_get> gets_;
  std::vector<unsigned> users_; // per PE: operations holding pool memory, not yet locally complete
  int busy_targets_ = 0;
  std::chrono::steady_clock::time_point last_poke_{};
  std::uint64_t narrow_[3]{}; ///< narrow_atomic's operands
};

/// The checks one PE can make alone; *stage is whether local buffers go through the pool.
portshmem_status_t local_checks(const mpi_network_options& o, std::string* why, bool* stage) {
  int level = o.thread_level;
  if (level < 0 && MPI_Query_thread(&level) != MPI_SUCCESS) {
    *why = "MPI_Query_thread failed";
    return PORTSHMEM_ERR_BOOTSTRAP;
  }
  if (level < MPI_THREAD_MULTIPLE) {
    *why = std::string("the MPI network needs MPI_THREAD_MULTIPLE (its proxy thread calls MPI while other threads "
                       "may too), but MPI provides ") +
           mpi_thread_level_name(level) +
           ": initialize MPI with MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...) before portshmem_init, or use "
           "PORTSHMEM_RDMA_NET=ibverbs";
    return PORTSHMEM_ERR_BOOTSTRAP;
  }
  if (!o.base || o.size == 0 || o.bounce_bytes < 4096) {
    *why = "the MPI network needs a heap to expose and at least 4 KiB of bounce buffers";
    return PORTSHMEM_ERR_INVALID_ARG;
  }
  const gpu_awareness gpu = (o.heap_on_gpu || o.locals_on_gpu) ? query_gpu_awareness() : gpu_awareness{};
  if (o.heap_on_gpu && !gpu.aware) {
    *why = "the symmetric heap is GPU memory and this MPI cannot take GPU pointers (" + gpu.how +
           "), so MPI one-sided cannot reach it: use a GPU-aware MPI (Open MPI with UCX and CUDA/ROCm), "
           "PORTSHMEM_RDMA_NET=ibverbs, or a heap in host memory (PORTSHMEM_HEAP_MEMORY=host)";
    return PORTSHMEM_ERR_UNREACHABLE;
  }
  *stage = o.stage == staging::always || (o.stage == staging::automatic && o.locals_on_gpu && !gpu.aware);
  return PORTSHMEM_SUCCESS;
}

} // namespace

const char* mpi_thread_level_name(int level) {
  switch (level) {
  case MPI_THREAD_SINGLE:
    return "MPI_THREAD_SINGLE";
  case MPI_THREAD_FUNNELED:
    return "MPI_THREAD_FUNNELED";
  case MPI_THREAD_SERIALIZED:
    return "MPI_THREAD_SERIALIZED";
  case MPI_THREAD_MULTIPLE:
    return "MPI_THREAD_MULTIPLE";
  default:
    return "an unknown thread level";
  }
}

portshmem_status_t make_mpi_network(const mpi_network_options& options, std::unique_ptr<network>* out) {
  // Every PE checks alone, then all agree, so that one PE's refusal does not leave the others in MPI_Win_create.
  std::string why;
  bool stage = false;
  const portshmem_status_t mine = local_checks(options, &why, &stage);
  int ok = mine == PORTSHMEM_SUCCESS, all_ok = 0;
  if (int rc = MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, options.comm); rc != MPI_SUCCESS) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "could not agree on the MPI network: MPI_Allreduce failed: %s",
                          mpi_error_text(rc).c_str());
  }
  if (mine != PORTSHMEM_SUCCESS) return PORTSHMEM_FAIL(mine, "%s", why.c_str());
  if (!all_ok) return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "another PE refused the MPI network (its log says why)");
  auto net = std::make_unique<mpi_network>();
  if (auto s = net->setup(options, stage); s != PORTSHMEM_SUCCESS) return s;
  PORTSHMEM_LOG(info, "MPI network: window over the %zu-byte heap, %s", options.size,
                stage ? "local buffers staged through pinned host memory" : "local buffers passed to MPI directly");
  *out = std::move(net);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::rdma
