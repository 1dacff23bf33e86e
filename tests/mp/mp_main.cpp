// main() of the multi-process tests: every PE runs all tests; PE 0 prints the usual report, the other PEs print only
// their failures; the process fails if any PE failed a test.
#include <mpi.h>

#include <cstdio>

#include <gtest/gtest.h>

#include <portshmem/portshmem.h>

namespace {

/// The report of a PE other than 0: one line per failed assertion, prefixed with the PE.
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
  if (portshmem_init() != PORTSHMEM_SUCCESS) {
    std::fprintf(stderr, "portshmem_init failed\n");
    return 2;
  }
  const int me = portshmem_my_pe();
  if (me != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new failure_printer(me));
  }
  int failed = RUN_ALL_TESTS() != 0;
  int any_failed = failed;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (portshmem_finalize() != PORTSHMEM_SUCCESS) any_failed = 1;
  if (me == 0 && any_failed && !failed) std::printf("another PE failed a test (its lines are above)\n");
  return any_failed;
}
