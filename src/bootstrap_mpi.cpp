// The MPI bootstrap: node peers come from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED).
#include <mpi.h>

#include <string>

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

class mpi_bootstrap final : public bootstrap {
 public:
  ~mpi_bootstrap() override {
    if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_mpi_ && !finalized) MPI_Finalize();
  }

  portshmem_status_t start(MPI_Comm comm, bool init_mpi) {
    if (init_mpi) {
      int provided = 0;
      PORTSHMEM_MPI_CHECK(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided));
      owns_mpi_ = true;
    }
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
  const std::vector<int>& node_ranks() const override { return node_ranks_; }
  int node_rank() const override { return node_rank_; }
  const std::vector<int>& node_of() const override { return node_of_; }

  portshmem_status_t allgather(const void* mine, void* all, std::size_t bytes) override {
    PORTSHMEM_MPI_CHECK(MPI_Allgather(mine, int(bytes), MPI_BYTE, all, int(bytes), MPI_BYTE, comm_));
    return PORTSHMEM_SUCCESS;
  }
  portshmem_status_t barrier() override {
    PORTSHMEM_MPI_CHECK(MPI_Barrier(comm_));
    return PORTSHMEM_SUCCESS;
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

 private:
  MPI_Comm comm_ = MPI_COMM_NULL, node_comm_ = MPI_COMM_NULL;
  bool owns_mpi_ = false;
  int rank_ = 0, size_ = 0, node_rank_ = 0;
  std::vector<int> node_ranks_, node_of_;
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
