// A PE that dies mid-job: the last PE (the victim) ends its process while the others are inside a portshmem call,
// and the job must end non-zero soon (well within PORTSHMEM_TIMEOUT), naming it, with nothing left behind
// (tests/mp/expect_dead_peer.sh checks the job from outside). One run per (point, way), named by argv:
//   point: wait      the others wait in a kernel for a signal the victim would send
//          barrier   the others are in portshmem_barrier_all
//          finalize  the others are in portshmem_finalize
//          malloc    the others are in portshmem_malloc (a collective allocation)
//          team      the others are in a device team barrier on PORTSHMEM_TEAM_WORLD
//   way:   exit      the victim calls exit(3) without portshmem_finalize (the runtime is then torn down by the
//                    process's static destructors, which must not wait for the others)
//          kill      the victim sends itself SIGKILL (a crash: nothing of it runs any more)
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <portshmem/portshmem.hpp>

namespace {

int g_pe = -1;

PORTSHMEM_GLOBAL void await_victim(portshmem::ctx c, std::uint64_t* sig) {
  if (portshmem::thread_rank() == 0) portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, std::uint64_t(1));
  portshmem::arch::block_sync();
}

PORTSHMEM_GLOBAL void team_barrier(portshmem::ctx c, portshmem::team t) {
  portshmem::barrier_block(c, t);
}

/// What the others are doing when the victim dies; it returns only if the victim's death went unnoticed.
void survive(const std::string& point, std::uint64_t* sig) {
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  if (point == "wait") {
    if (portshmem::launch(await_victim, dim3(1), dim3(8), c, sig) != hipSuccess || hipDeviceSynchronize() != hipSuccess)
      s = portshmem_check_device_errors();
  } else if (point == "barrier") {
    s = portshmem_barrier_all();
  } else if (point == "finalize") {
    s = portshmem_finalize();
  } else if (point == "malloc") {
    s = portshmem_malloc(4096) ? PORTSHMEM_SUCCESS : portshmem_last_status();
  } else if (point == "team") {
    portshmem_team_handle_t t{};
    s = portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &t);
    if (s == PORTSHMEM_SUCCESS && (portshmem::launch(team_barrier, dim3(1), dim3(8), c, t) != hipSuccess ||
                                   hipDeviceSynchronize() != hipSuccess)) {
      s = portshmem_check_device_errors();
    }
  }
  // The launcher should have ended this process before the timeout; reaching here means it did not.
  std::fprintf(stderr, "[rank %d] dead peer at %s: FAILED: still running after the victim died (status: %s)\n", g_pe,
               point.c_str(), portshmem_status_string(s));
  MPI_Abort(MPI_COMM_WORLD, 4);
}

} // namespace

int main(int argc, char** argv) {
  const std::string point = argc > 2 ? argv[1] : "", way = argc > 2 ? argv[2] : "";
  const bool known_point =
      point == "wait" || point == "barrier" || point == "finalize" || point == "malloc" || point == "team";
  if (!known_point || (way != "exit" && way != "kill")) {
    std::fprintf(stderr, "usage: %s wait|barrier|finalize|malloc|team exit|kill\n", argv[0]);
    return 2;
  }
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  g_pe = portshmem_my_pe();
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  if (!sig || portshmem_barrier_all() != PORTSHMEM_SUCCESS) return 1;
  if (g_pe != portshmem_n_pes() - 1) survive(point, sig);
  usleep(500'000); // the others are inside their call by now
  std::fprintf(stderr, "[rank %d] dead peer at %s: the victim ends its process (%s)\n", g_pe, point.c_str(),
               way.c_str());
  if (way == "kill") raise(SIGKILL);
  std::exit(3);
}
