// main() of the network tests: MPI with MPI_THREAD_MULTIPLE (the proxy thread calls MPI beside the test's threads)
// and no portshmem_init: these tests build the MPI network and the proxy themselves, over plain memory. PE 0 prints
// the report, the other PEs their failures; the process fails if any PE failed.
#include <mpi.h>

#include <cstdio>

#include <gtest/gtest.h>

namespace {

class failure_printer : public ::testing::EmptyTestEventListener {
 public:
  explicit failure_printer(int pe) : pe_(pe) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::printf("[PE %d] %s:%d: %s\n", pe_, r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
  }

 private:
  int pe_;
};

} // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) return 2;
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (me == 0) std::printf("this MPI does not provide MPI_THREAD_MULTIPLE; the network tests need it\n");
    MPI_Finalize();
    return 2;
  }
  if (me != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new failure_printer(me));
  }
  int failed = RUN_ALL_TESTS() != 0;
  int any_failed = failed;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (me == 0 && any_failed && !failed) std::printf("another PE failed a test (its lines are above)\n");
  MPI_Finalize();
  return any_failed;
}
