// The unique-ID start (portshmem_get_uniqueid, portshmem_init_attr) end to end, as a user without mpirun runs it:
//   portshmem_uid_start fork N [dead]   this process makes the ID, forks N - 1 more (ranks 1..N-1) and is rank 0
//   portshmem_uid_start mpi             under mpirun: MPI carries the ID only (rank 0's, MPI_Bcast), and the PEs number
//                                       themselves opposite to MPI's ranks, so nothing can come from MPI's numbering
// Every PE: init, its number and count, transports, a put_signal ring in a kernel, a team of the even PEs with an
// on-stream broadcast in it, a reduction over the world, barrier, finalize. With `dead`, the last PE exits right after
// init without finalize: every other PE's barrier_all must fail (not hang) and name it. Exit status 0 only if every
// check of every process held; each failed check prints one line.
#include <mpi.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <portshmem/portshmem.h>
#include <portshmem/portshmem.hpp>

namespace {

int g_rank = -1, g_failures = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "[rank %d] uid_start: FAILED: %s\n", g_rank, what.c_str());
}

constexpr std::size_t kInts = 4096;

PORTSHMEM_GLOBAL void ring(portshmem::ctx c, int* inbox, const int* mine, std::uint64_t* arrived) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  portshmem::put_signal_block(c, inbox, mine, kInts, arrived, 1, portshmem::signal_set, next);
  if (portshmem::thread_rank() == 0) portshmem::signal_wait_until(c, arrived, portshmem::cmp::eq, std::uint64_t(1));
}

/// What every PE does, from init to finalize (failed checks are counted in g_failures).
void run_pe(int rank, int n, const portshmem_uniqueid_t& uid, bool dies_after_init) {
  g_rank = rank;
  portshmem_init_attr_t attr{};
  check(portshmem_set_attr_uniqueid_args(rank, n, &uid, &attr) == PORTSHMEM_SUCCESS, "set_attr_uniqueid_args");
  const portshmem_status_t started = portshmem_init_attr(PORTSHMEM_INIT_WITH_UNIQUEID, &attr);
  check(started == PORTSHMEM_SUCCESS, std::string("portshmem_init_attr: ") + portshmem_status_string(started));
  if (started != PORTSHMEM_SUCCESS) return;
  check(portshmem_my_pe() == rank, "my_pe " + std::to_string(portshmem_my_pe()) + " is not the rank given");
  check(portshmem_n_pes() == n, "n_pes " + std::to_string(portshmem_n_pes()));
  if (dies_after_init) std::_Exit(0); // no finalize: the others must notice

  if (n > 1 && std::getenv("UID_START_DEAD_PEER")) { // the others of a `dead` run
    const portshmem_status_t s = portshmem_barrier_all();
    check(s != PORTSHMEM_SUCCESS, "barrier_all succeeded although PE " + std::to_string(n - 1) + " had exited");
    std::fprintf(stderr, "[rank %d] uid_start: barrier_all after PE %d exited: %s (expected a failure)\n", rank, n - 1,
                 portshmem_status_string(s));
    return; // nothing collective can follow; the process exits without finalize, as a program would
  }

  for (int pe = 0; pe < n; ++pe) {
    const portshmem_transport_t t = portshmem_transport(pe);
    check(t == (pe == rank ? PORTSHMEM_TRANSPORT_SELF : PORTSHMEM_TRANSPORT_IPC),
          "PE " + std::to_string(pe) + " reached through " + portshmem_transport_string(t));
  }

  // A put_signal ring in a kernel: each PE's ints arrive at the next PE.
  portshmem::ctx c;
  check(portshmem_get_ctx(&c) == PORTSHMEM_SUCCESS, "get_ctx");
  int* inbox = static_cast<int*>(portshmem_calloc(kInts, sizeof(int)));
  int* mine = static_cast<int*>(portshmem_malloc(kInts * sizeof(int)));
  auto* arrived = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  check(inbox && mine && arrived, "symmetric allocations");
  if (!inbox || !mine || !arrived) return;
  std::vector<int> host(kInts);
  for (std::size_t i = 0; i < kInts; ++i) host[i] = rank * 100000 + int(i);
  check(hipMemcpy(mine, host.data(), kInts * sizeof(int), hipMemcpyHostToDevice) == hipSuccess, "copy in");
  check(portshmem_barrier_all() == PORTSHMEM_SUCCESS, "barrier_all before the ring");
  const hipError_t launched = portshmem::launch(ring, dim3(1), dim3(PORTSHMEM_PLATFORM_HOST ? 4 : 128), c, inbox,
                                                static_cast<const int*>(mine), arrived);
  check(launched == hipSuccess && hipDeviceSynchronize() == hipSuccess, "ring kernel");
  check(portshmem_check_device_errors() == PORTSHMEM_SUCCESS, "device errors after the ring");
  check(hipMemcpy(host.data(), inbox, kInts * sizeof(int), hipMemcpyDeviceToHost) == hipSuccess, "copy out");
  const int from = (rank + n - 1) % n;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kInts; ++i) wrong += host[i] != from * 100000 + int(i);
  check(wrong == 0, std::to_string(wrong) + " ints from PE " + std::to_string(from) + " wrong");

  // A team of the even PEs (created over the TCP bootstrap's groups) and a broadcast from its last member; then a
  // reduction over the world, the sum of the PE numbers. words: [0] broadcast's dest, [1] its source, [2] the sum,
  // [3] this PE's number (sources in GPU memory: a kernel reads them).
  long* words = static_cast<long*>(portshmem_calloc(4, sizeof(long)));
  check(words != nullptr, "symmetric words");
  if (!words) return;
  const long mine_words[2] = {rank == 2 * (((n + 1) / 2) - 1) ? 4242L + n : -1L, long(rank)};
  check(hipMemcpy(words + 1, &mine_words[0], sizeof(long), hipMemcpyHostToDevice) == hipSuccess &&
            hipMemcpy(words + 3, &mine_words[1], sizeof(long), hipMemcpyHostToDevice) == hipSuccess,
        "copy the words in");
  portshmem_team_t evens = PORTSHMEM_TEAM_INVALID;
  const int even_count = (n + 1) / 2;
  check(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 2, even_count, nullptr, 0, &evens) == PORTSHMEM_SUCCESS,
        "team_split_strided");
  if (rank % 2 == 0) {
    check(evens != PORTSHMEM_TEAM_INVALID && portshmem_team_n_pes(evens) == even_count &&
              portshmem_team_my_pe(evens) == rank / 2,
          "the even team's size or this PE's index");
    check(portshmem_broadcastmem_on_stream(evens, words, words + 1, sizeof(long), even_count - 1, nullptr) ==
              PORTSHMEM_SUCCESS,
          "broadcast in the even team");
    long got = 0;
    check(hipMemcpy(&got, words, sizeof got, hipMemcpyDeviceToHost) == hipSuccess && got == 4242 + n,
          "broadcast result " + std::to_string(got));
    check(portshmem_team_destroy(evens) == PORTSHMEM_SUCCESS, "team_destroy");
  } else {
    check(evens == PORTSHMEM_TEAM_INVALID, "an odd PE got the even team");
  }
  check(portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, words + 2, words + 3, 1, PORTSHMEM_DATATYPE_LONG,
                                   PORTSHMEM_REDUCE_SUM, nullptr) == PORTSHMEM_SUCCESS,
        "reduce over the world");
  long sum = -1;
  check(hipMemcpy(&sum, words + 2, sizeof sum, hipMemcpyDeviceToHost) == hipSuccess && sum == long(n) * (n - 1) / 2,
        "sum of the PE numbers " + std::to_string(sum));

  check(portshmem_barrier_all() == PORTSHMEM_SUCCESS, "barrier_all");
  portshmem_free(words);
  portshmem_free(arrived);
  portshmem_free(mine);
  portshmem_free(inbox);
  check(portshmem_finalize() == PORTSHMEM_SUCCESS, "finalize");
}

/// Bad arguments get a status and start nothing.
void check_bad_arguments() {
  portshmem_uniqueid_t uid{};
  portshmem_init_attr_t attr{};
  check(portshmem_get_uniqueid(nullptr) == PORTSHMEM_ERR_INVALID_ARG, "get_uniqueid(NULL)");
  check(portshmem_set_attr_uniqueid_args(2, 2, &uid, &attr) == PORTSHMEM_ERR_INVALID_ARG, "rank 2 of 2 accepted");
  check(portshmem_set_attr_uniqueid_args(0, 1, nullptr, &attr) == PORTSHMEM_ERR_INVALID_ARG, "NULL uid accepted");
  check(portshmem_init_attr(0x80, &attr) == PORTSHMEM_ERR_INVALID_ARG, "init_attr with no start flag accepted");
  check(portshmem_init_attr(PORTSHMEM_INIT_WITH_UNIQUEID, nullptr) == PORTSHMEM_ERR_INVALID_ARG, "NULL attr accepted");
  attr.nranks = 1;
  check(portshmem_init_attr(PORTSHMEM_INIT_WITH_UNIQUEID, &attr) == PORTSHMEM_ERR_INVALID_ARG,
        "an ID of zero bytes accepted");
  check(!portshmem_initialized(), "a refused start left portshmem initialized");
}

int run_forked(int n, bool dead) {
  g_rank = 0;
  check_bad_arguments();
  portshmem_uniqueid_t uid;
  if (portshmem_get_uniqueid(&uid) != PORTSHMEM_SUCCESS) {
    std::fprintf(stderr, "uid_start: FAILED: portshmem_get_uniqueid\n");
    return 1;
  }
  if (dead) setenv("UID_START_DEAD_PEER", "1", 1);
  std::fflush(nullptr);
  std::vector<pid_t> children;
  for (int rank = 1; rank < n; ++rank) {
    const pid_t pid = fork();
    if (pid == 0) {
      run_pe(rank, n, uid, dead && rank == n - 1);
      std::fflush(nullptr);
      std::_Exit(g_failures == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  run_pe(0, n, uid, false);
  int worst = g_failures == 0 ? 0 : 1;
  for (std::size_t i = 0; i < children.size(); ++i) {
    int status = 0;
    waitpid(children[i], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "uid_start: FAILED: rank %zu ended with status 0x%x\n", i + 1, unsigned(status));
      worst = 1;
    }
  }
  std::printf("uid_start: %d PEs started from a unique ID%s: %s\n", n, dead ? ", the last one exiting at once" : "",
              worst == 0 ? "every check held" : "FAILED");
  return worst;
}

int run_under_mpi(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int mpi_rank = 0, mpi_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
  const int rank = mpi_size - 1 - mpi_rank; // the opposite of MPI's numbering: PE 0 is MPI's last rank
  g_rank = rank;
  portshmem_uniqueid_t uid{};
  if (rank == 0) check(portshmem_get_uniqueid(&uid) == PORTSHMEM_SUCCESS, "get_uniqueid");
  MPI_Bcast(&uid, sizeof uid, MPI_BYTE, mpi_size - 1, MPI_COMM_WORLD);
  run_pe(rank, mpi_size, uid, false);
  int mine = g_failures, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mpi_rank == 0) {
    std::printf("uid_start: %d PEs under mpirun, started from a unique ID in reverse rank order: %s\n", mpi_size,
                total == 0 ? "every check held" : "FAILED");
  }
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "fork") == 0) {
    const int n = std::atoi(argv[2]);
    return run_forked(n, argc >= 4 && std::strcmp(argv[3], "dead") == 0);
  }
  if (argc >= 2 && std::strcmp(argv[1], "mpi") == 0) return run_under_mpi(argc, argv);
  std::fprintf(stderr, "usage: %s fork N [dead] | mpi\n", argv[0]);
  return 2;
}
