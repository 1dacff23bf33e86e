// The MPI bootstrap: node peers come from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED).
#include <mpi.h>

#include <chrono>
#include <string>
#include <thread>

#include "bootstrap.hpp"
#include "log.hpp"

namespace portshmem::detail {
namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  return std::string(text, len);
}

#define PORTSHMEM_MPI_CHECK(call)                                                                                      \
  do {                                                                                                                 \
    if (int rc_ = (call); rc_ != MPI_SUCCESS) {                                                                        \
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "%s failed: %s", #call, mpi_error_text(rc_).c_str());             \
    }                                                                                                                  \
  } while (0)

/// A group over its own MPI communicator (errors returned as codes), freed with the group.
class mpi_group final : public group {
 public:
  explicit mpi_group(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~mpi_group() override { MPI_Comm_free(&comm_); }
  mpi_group(const mpi_group&) = delete;
  mpi_group& operator=(const mpi_group&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  portshmem_status_t min_max(const std::int64_t* mine, std::int64_t* min, std::int64_t* max, int n) override {
    PORTSHMEM_MPI_CHECK(MPI_Allreduce(mine, min, n, MPI_INT64_T, MPI_MIN, comm_));
    PORTSHMEM_MPI_CHECK(MPI_Allreduce(mine, max, n, MPI_INT64_T, MPI_MAX, comm_));
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t split(int color, int key, std::unique_ptr<group>* out) override {
    MPI_Comm c = MPI_COMM_NULL;
    PORTSHMEM_MPI_CHECK(MPI_Comm_split(comm_, color >= 0 ? color : MPI_UNDEFINED, key, &c));
    out->reset(c == MPI_COMM_NULL ? nullptr : new mpi_group(c));
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t barrier() override {
    PORTSHMEM_MPI_CHECK(MPI_Barrier(comm_));
    return PORTSHMEM_SUCCESS;
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 0;
};

class mpi_bootstrap final : public bootstrap {
 public:
  ~mpi_bootstrap() override {
    abandon_arrivals();
    if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_mpi_ && !finalized) MPI_Finalize();
  }

  portshmem_status_t start(MPI_Comm comm, bool init_mpi) {
    if (init_mpi) {
      // MPI_THREAD_MULTIPLE for the RDMA transport's MPI network (its proxy thread calls MPI beside the application's
      // threads); less is accepted here, and refused on every PE by that network only when a job needs it.
      int provided = 0;
      PORTSHMEM_MPI_CHECK(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided));
      owns_mpi_ = true;
    }
    PORTSHMEM_MPI_CHECK(MPI_Query_thread(&thread_level_));
    // Errors come back as codes, so a failing call becomes a status instead of aborting the application.
    PORTSHMEM_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
    PORTSHMEM_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    PORTSHMEM_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    PORTSHMEM_MPI_CHECK(MPI_Comm_size(comm_, &size_));
    PORTSHMEM_MPI_CHECK(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_comm_));
    PORTSHMEM_MPI_CHECK(MPI_Comm_rank(node_comm_, &node_rank_));
    int node_size = 0;
    PORTSHMEM_MPI_CHECK(MPI_Comm_size(node_comm_, &node_size));
    node_ranks_.resize(node_size);
    PORTSHMEM_MPI_CHECK(MPI_Allgather(&rank_, 1, MPI_INT, node_ranks_.data(), 1, MPI_INT, node_comm_));
    // A node is named by its lowest rank; node indices count those leaders in rank order.
    std::vector<int> leader(size_);
    PORTSHMEM_MPI_CHECK(MPI_Allgather(&node_ranks_[0], 1, MPI_INT, leader.data(), 1, MPI_INT, comm_));
    node_of_.assign(size_, 0);
    std::vector<int> index_of_leader(size_, -1);
    int nodes = 0;
    for (int r = 0; r < size_; ++r) {
      if (index_of_leader[leader[r]] < 0) index_of_leader[leader[r]] = nodes++;
      node_of_[r] = index_of_leader[leader[r]];
    }
    return PORTSHMEM_SUCCESS;
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const void* mpi_comm() const override { return &comm_; }
  int mpi_thread_level() const override { return thread_level_; }

  portshmem_status_t allgather(const void* mine, void* all, std::size_t bytes) override {
    PORTSHMEM_MPI_CHECK(MPI_Allgather(mine, int(bytes), MPI_BYTE, all, int(bytes), MPI_BYTE, comm_));
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t barrier() override {
    PORTSHMEM_MPI_CHECK(MPI_Barrier(comm_));
    return PORTSHMEM_SUCCESS;
  }
  // Every rank sends a zero-byte arrival to every other rank and receives one from each: n - 1 messages per rank
  // and barrier, the price of knowing by name who did not arrive. Messages of one pair arrive in order, so the k-th
  // arrival from a rank always completes this rank's k-th barrier, however late it comes.
  portshmem_status_t bounded_barrier(std::uint64_t timeout_ns, std::vector<int>* late) override {
    const auto bound = std::chrono::nanoseconds(timeout_ns);
    if (open_) { // the barrier an earlier call gave up on, first, then this one, each within the bound
      if (auto s = await_arrivals(std::chrono::steady_clock::now() + bound, late); s != PORTSHMEM_SUCCESS) return s;
    }
    const auto deadline = std::chrono::steady_clock::now() + bound;
    requests_.assign(2 * std::size_t(size_), MPI_REQUEST_NULL); // [0, n) receives, [n, 2n) sends; own rank null
    for (int r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      PORTSHMEM_MPI_CHECK(MPI_Irecv(nullptr, 0, MPI_BYTE, r, kArrivalTag, comm_, &requests_[std::size_t(r)]));
    }
    for (int r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      PORTSHMEM_MPI_CHECK(MPI_Isend(nullptr, 0, MPI_BYTE, r, kArrivalTag, comm_, &requests_[std::size_t(size_ + r)]));
    }
    open_ = true;
    return await_arrivals(deadline, late);
  }

  portshmem_status_t min_max(std::uint64_t v, std::uint64_t* min, int* min_rank, std::uint64_t* max,
                             int* max_rank) override {
    std::vector<std::uint64_t> all(size_);
    PORTSHMEM_MPI_CHECK(MPI_Allgather(&v, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, comm_));
    *min_rank = *max_rank = 0;
    for (int r = 1; r < size_; ++r) {
      if (all[r] < all[*min_rank]) *min_rank = r;
      if (all[r] > all[*max_rank]) *max_rank = r;
    }
    *min = all[*min_rank];
    *max = all[*max_rank];
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t world_group(std::unique_ptr<group>* out) override {
    MPI_Comm c = MPI_COMM_NULL;
    PORTSHMEM_MPI_CHECK(MPI_Comm_dup(comm_, &c));
    out->reset(new mpi_group(c));
    return PORTSHMEM_SUCCESS;
  }

 private:
  static constexpr int kArrivalTag = 0x5053; // the only point-to-point traffic on comm_

  /// Polls the open barrier's requests until all completed (closing it) or the deadline passed.
  portshmem_status_t await_arrivals(std::chrono::steady_clock::time_point deadline, std::vector<int>* late) {
    std::vector<int> done(requests_.size());
    for (;;) {
      int count = 0;
      PORTSHMEM_MPI_CHECK(
          MPI_Testsome(int(requests_.size()), requests_.data(), &count, done.data(), MPI_STATUSES_IGNORE));
      if (count == MPI_UNDEFINED) { // every request completed (MPI_Testsome nulls each one it completes)
        open_ = false;
        return PORTSHMEM_SUCCESS;
      }
      if (count == 0 && std::chrono::steady_clock::now() >= deadline) break;
      if (count == 0) std::this_thread::yield();
    }
    late->clear();
    for (int r = 0; r < size_; ++r) {
      if (requests_[std::size_t(r)] != MPI_REQUEST_NULL) late->push_back(r);
    }
    return PORTSHMEM_ERR_TIMEOUT;
  }

  /// At teardown: cancels the receives of a barrier that never closed (their senders are gone or stuck) and lets
  /// its sends finish on their own, so freeing the communicator leaves no request behind.
  void abandon_arrivals() {
    if (!open_) return;
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      if (requests_[i] == MPI_REQUEST_NULL) continue;
      if (i < std::size_t(size_)) {
        MPI_Cancel(&requests_[i]);
        MPI_Wait(&requests_[i], MPI_STATUS_IGNORE);
      } else {
        MPI_Request_free(&requests_[i]);
      }
    }
    open_ = false;
  }

  MPI_Comm comm_ = MPI_COMM_NULL, node_comm_ = MPI_COMM_NULL;
  bool owns_mpi_ = false;
  int rank_ = 0, size_ = 0, thread_level_ = -1;
  std::vector<MPI_Request> requests_; // the bounded barrier's receives and sends
  bool open_ = false;                 // a bounded barrier has requests still pending
};

} // namespace

portshmem_status_t make_mpi_bootstrap(const void* comm, bool init_mpi, std::unique_ptr<bootstrap>* out) {
  auto boot = std::make_unique<mpi_bootstrap>();
  if (!init_mpi) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "portshmem_init_comm needs MPI to be initialized first");
    }
  }
  const MPI_Comm c = comm ? *static_cast<const MPI_Comm*>(comm) : MPI_COMM_WORLD;
  if (portshmem_status_t s = boot->start(c, init_mpi); s != PORTSHMEM_SUCCESS) return s;
  *out = std::move(boot);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
