// Multi-process scenarios that need a process of their own (around init and finalize, or what a PE logs): one per
// run, named by argv[1]. Every PE checks what it saw (status, log lines) and exits 0 only if that is what the
// scenario expects, so the job fails if any PE saw something else, and a hang runs into the ctest TIMEOUT.
// tests/CMakeLists.txt lists the runs.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <portshmem/mpi.h>
#include <portshmem/portshmem.h>
#include <portshmem/stream.h>
#include <portshmem/team.h>

#include "log.hpp" // the runtime's log sink: the scenarios check the lines a user would read

namespace {

std::mutex g_mutex;
std::vector<std::string> g_lines;
int g_failures = 0;
int g_pe = -1; // MPI rank, for messages (portshmem_my_pe is -1 after a failed init)

void capture_log() {
  portshmem::detail::log_set_sink([](std::string_view line) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_lines.emplace_back(line);
    std::fprintf(stderr, "%.*s\n", int(line.size()), line.data()); // still shown, for whoever reads the test log
  });
}

std::vector<std::string> lines_with(const std::string& text) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<std::string> found;
  for (const std::string& line : g_lines) {
    if (line.find(text) != std::string::npos) found.push_back(line);
  }
  return found;
}

void clear_lines() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_lines.clear();
}

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "[rank %d] FAILED: %s\n", g_pe, what.c_str());
}

void check_status(portshmem_status_t got, portshmem_status_t want, const std::string& call) {
  check(got == want, call + " returned \"" + portshmem_status_string(got) + "\", expected \"" +
                         portshmem_status_string(want) + "\"");
}

int world_rank() {
  int initialized = 0, rank = -1;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// Rank from the launcher's environment, for scenarios in which portshmem (not the test) initializes MPI.
int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return -1;
}

/// argv: the status name, then texts that the one error line must contain. Every PE must fail init with that
/// status and log exactly one error line, containing each text; nothing may hang.
void init_fails(int argc, char** argv) {
  check(argc >= 3, "init-fails needs the expected status");
  if (argc < 3) return;
  const std::string want = argv[2];
  const portshmem_status_t s = portshmem_init();
  check(std::string(portshmem_status_string(s)) == want,
        std::string("portshmem_init returned \"") + portshmem_status_string(s) + "\", expected \"" + want + "\"");
  check(!portshmem_initialized(), "portshmem_initialized() after a failed init");
  const auto errors = lines_with(" ERROR ");
  check(errors.size() == 1, "one error line expected, got " + std::to_string(errors.size()));
  for (int i = 3; i < argc && !errors.empty(); ++i) {
    check(errors[0].find(argv[i]) != std::string::npos, "the error line lacks \"" + std::string(argv[i]) + "\"");
  }
}

/// One host call made while portshmem is not running: it must return PORTSHMEM_ERR_NOT_INITIALIZED (as the status, or
/// as portshmem_last_status() where it returns a pointer) and log exactly one error line naming itself.
void expect_not_initialized(const std::string& call, portshmem_status_t got, const std::string& when) {
  check_status(got, PORTSHMEM_ERR_NOT_INITIALIZED, call + " " + when);
  const auto errors = lines_with(" ERROR ");
  check(errors.size() == 1 && errors[0].find(call) != std::string::npos,
        call + " " + when + ": one error line naming the call expected, got " + std::to_string(errors.size()));
  clear_lines();
}

/// Every kind of host call (query, collective, allocation, free, handle, error check, pointer, on-stream, team) while
/// portshmem is not running, before init or after finalize: each is refused with a status and one line.
void calls_while_not_running(const std::string& when) {
  clear_lines();
  check(portshmem_my_pe() == -1 && portshmem_n_pes() == -1, "portshmem_my_pe/n_pes are -1 " + when);
  check(!portshmem_initialized(), "portshmem_initialized() " + when);
  expect_not_initialized("portshmem_barrier_all", portshmem_barrier_all(), when);
  check(portshmem_malloc(64) == nullptr, "portshmem_malloc gives NULL " + when);
  expect_not_initialized("portshmem_malloc", portshmem_last_status(), when);
  long local = 0;
  expect_not_initialized("portshmem_free", portshmem_free(&local), when);
  check(portshmem_ptr(&local, 0) == nullptr, "portshmem_ptr gives NULL " + when);
  expect_not_initialized("portshmem_ptr", portshmem_last_status(), when);
  portshmem_ctx_t ctx;
  expect_not_initialized("portshmem_get_ctx", portshmem_get_ctx(&ctx), when);
  expect_not_initialized("portshmem_check_device_errors", portshmem_check_device_errors(), when);
  expect_not_initialized("portshmem_putmem_on_stream", portshmem_putmem_on_stream(&local, &local, 8, 0, nullptr), when);
  expect_not_initialized("portshmem_quiet_on_stream", portshmem_quiet_on_stream(nullptr), when);
  expect_not_initialized("portshmem_team_sync", portshmem_team_sync(PORTSHMEM_TEAM_WORLD), when);
}

/// The application owns MPI: every call before init is refused; init_comm(MPI_COMM_NULL) is refused, and so are init
/// after finalize and every other call; MPI survives them all.
void lifecycle() {
  MPI_Init(nullptr, nullptr);
  g_pe = world_rank();
  calls_while_not_running("before portshmem_init");
  check_status(portshmem_init_comm(MPI_COMM_NULL), PORTSHMEM_ERR_INVALID_ARG, "portshmem_init_comm(MPI_COMM_NULL)");
  check_status(portshmem_init(), PORTSHMEM_SUCCESS, "portshmem_init");
  check_status(portshmem_init(), PORTSHMEM_SUCCESS, "a second portshmem_init before finalize");
  check_status(portshmem_finalize(), PORTSHMEM_SUCCESS, "portshmem_finalize");
  clear_lines();
  check_status(portshmem_init(), PORTSHMEM_ERR_NOT_INITIALIZED, "portshmem_init after portshmem_finalize");
  check(lines_with("after portshmem_finalize").size() == 1, "one line saying why init after finalize is refused");
  check_status(portshmem_init_comm(MPI_COMM_WORLD), PORTSHMEM_ERR_NOT_INITIALIZED,
               "portshmem_init_comm after portshmem_finalize");
  check(!portshmem_initialized(), "portshmem_initialized() after a refused init");
  calls_while_not_running("after portshmem_finalize");
  int mpi_ok = 0; // MPI still works: the refusals touched nothing
  MPI_Allreduce(&g_pe, &mpi_ok, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  check(mpi_ok >= 0, "MPI_Allreduce after the refused init");
  MPI_Finalize();
}

/// portshmem owns MPI and finalized it: init again is refused, not an abort inside MPI.
void reinit_after_owned_finalize() {
  check_status(portshmem_init(), PORTSHMEM_SUCCESS, "portshmem_init");
  g_pe = portshmem_my_pe();
  check_status(portshmem_finalize(), PORTSHMEM_SUCCESS, "portshmem_finalize");
  check_status(portshmem_init(), PORTSHMEM_ERR_NOT_INITIALIZED, "portshmem_init after portshmem_finalize");
  check_status(portshmem_barrier_all(), PORTSHMEM_ERR_NOT_INITIALIZED, "portshmem_barrier_all after finalize");
}

/// PORTSHMEM_TIMEOUT is set: PE 1 enters the first barrier late (skip = never: it goes straight on to finalize).
/// The others give up on it with a line naming it, and the job still ends with every process exiting.
void barrier_late(bool skip) {
  check_status(portshmem_init(), PORTSHMEM_SUCCESS, "portshmem_init");
  g_pe = portshmem_my_pe();
  const char* timeout = std::getenv("PORTSHMEM_TIMEOUT");
  check(timeout && std::string(timeout) == "1s", "the scenario runs with PORTSHMEM_TIMEOUT=1s");
  if (g_pe == 1) {
    usleep(1'500'000); // half a timeout past the others' deadline
    if (!skip) check_status(portshmem_barrier_all(), PORTSHMEM_SUCCESS, "the late PE's barrier");
  } else {
    check_status(portshmem_barrier_all(), PORTSHMEM_ERR_TIMEOUT, "portshmem_barrier_all without PE 1");
    const auto late = lines_with("portshmem_barrier_all gave up after 1s (PORTSHMEM_TIMEOUT): PE 1 did not arrive");
    check(late.size() == 1, "one line naming PE 1 as the PE that did not arrive");
  }
  if (!skip) {
    // The open barrier pairs with PE 1's late call; the next one is an ordinary barrier again.
    check_status(portshmem_barrier_all(), PORTSHMEM_SUCCESS, "the barrier after the late one");
    check_status(portshmem_finalize(), PORTSHMEM_SUCCESS, "portshmem_finalize");
    return;
  }
  // PE 1 made one barrier fewer: its finalize's two barriers pair with the others' open barrier and their finalize's
  // first, so their finalize times out at its second and tears nothing down (PE 1 would wait for them in its own
  // teardown): they return, exit without finalizing, and the launcher ends the job, which must fail
  // (tests/mp/expect_job_fails.sh).
  const portshmem_status_t finalized = portshmem_finalize();
  if (g_pe == 1) return check_status(finalized, PORTSHMEM_SUCCESS, "the late PE's portshmem_finalize");
  check_status(finalized, PORTSHMEM_ERR_TIMEOUT, "portshmem_finalize");
  check(lines_with("portshmem_finalize: PE 1 did not arrive at its last barrier").size() == 1,
        "one line naming PE 1 as missing at finalize's last barrier");
  check(portshmem_initialized() == 1, "portshmem stays initialized after a finalize that tore nothing down");
}

/// PORTSHMEM_INFO=1 with PORTSHMEM_DEBUG=ERROR: PE 0 prints the configuration at INFO, and nothing is an error.
void info() {
  check_status(portshmem_init(), PORTSHMEM_SUCCESS, "portshmem_init");
  g_pe = portshmem_my_pe();
  const auto shown =
      lines_with("portshmem " PORTSHMEM_VERSION_STRING ", " + std::to_string(portshmem_n_pes()) + " PEs");
  if (g_pe == 0) {
    check(shown.size() == 1, "PE 0 prints the configuration once");
    if (!shown.empty()) {
      check(shown[0].rfind("portshmem[PE 0] INFO init.cpp:", 0) == 0, "the configuration is an INFO line: " + shown[0]);
      check(shown[0].find("PORTSHMEM_INFO=1 (default 0)") != std::string::npos, "it lists PORTSHMEM_INFO=1");
      check(shown[0].find("heap backend: ") != std::string::npos, "it names the heap backend");
    }
  } else {
    check(shown.empty(), "only PE 0 prints the configuration");
  }
  check(lines_with(" ERROR ").empty(), "no ERROR line");
  check_status(portshmem_finalize(), PORTSHMEM_SUCCESS, "portshmem_finalize");
}

} // namespace

int main(int argc, char** argv) {
  capture_log();
  g_pe = launcher_rank();
  const std::string scenario = argc > 1 ? argv[1] : "";
  if (scenario == "init-fails") {
    init_fails(argc, argv);
  } else if (scenario == "lifecycle") {
    lifecycle();
  } else if (scenario == "reinit-owned") {
    reinit_after_owned_finalize();
  } else if (scenario == "barrier-late") {
    barrier_late(false);
  } else if (scenario == "barrier-skip") {
    barrier_late(true);
  } else if (scenario == "info") {
    info();
  } else {
    std::fprintf(
        stderr,
        "usage: %s init-fails STATUS [TEXT...] | lifecycle | reinit-owned | barrier-late | barrier-skip | info\n",
        argv[0]);
    return 2;
  }
  portshmem::detail::log_set_sink(nullptr);
  if (g_failures == 0) std::fprintf(stderr, "[rank %d] scenario %s: as expected\n", g_pe, scenario.c_str());
  return g_failures == 0 ? 0 : 1;
}
