// Device waits past PORTSHMEM_TIMEOUT, as a program meets them: a kernel waits for what no PE ever writes, the host
// prints the diagnosis, and the PE ends the job (examples/check.hpp's pattern: print, then MPI_Abort) while a peer
// lives on elsewhere. One scenario per run, named by argv[1]; tests/CMakeLists.txt lists the runs, and
// tests/mp/expect_job_fails.sh checks that the job ends non-zero, in time, with the diagnosis in its output.
//   signal-timeout   PE 0 waits for a signal (>= 5, the word holds 3) that PE 1 never sends
//   barrier-skip     every PE but PE 1 enters a device barrier; PE 1 never does
//   default-timeout  nothing times out under the default PORTSHMEM_TIMEOUT: the job ends 0
//   finalize-stuck   PE 1 never reaches portshmem_finalize: the others' finalize returns (timed out) instead of
//                    hanging in the collective teardown
#include <mpi.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <portshmem/portshmem.hpp>

#include "log.hpp" // the runtime's log sink: the scenarios check the lines a user would read

namespace {

std::mutex g_mutex;
std::vector<std::string> g_errors;
int g_failures = 0;
int g_pe = -1;

void capture_log() {
  portshmem::detail::log_set_sink([](std::string_view line) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (line.find(" ERROR ") != std::string_view::npos) g_errors.emplace_back(line);
    std::fprintf(stderr, "%.*s\n", int(line.size()), line.data()); // what the user reads
  });
}

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "[rank %d] FAILED: %s\n", g_pe, what.c_str());
}

/// The first ERROR line contains every text.
void check_diagnosis(const std::vector<std::string>& texts) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  check(!g_errors.empty(), "an ERROR line with the diagnosis");
  if (g_errors.empty()) return;
  for (const std::string& text : texts) {
    check(g_errors[0].find(text) != std::string::npos, "the diagnosis lacks \"" + text + "\": " + g_errors[0]);
  }
}

/// examples/check.hpp's pattern after a kernel: on a device error, the diagnosis is printed, then the job ends. Here
/// the scenario first checks what was printed and says whether it was as expected.
[[noreturn]] void end_job(const char* scenario) {
  std::fprintf(stderr, "[rank %d] scenario %s: %s; ending the job (MPI_Abort)\n", g_pe, scenario,
               g_failures == 0 ? "as expected" : "NOT as expected");
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort(); // MPI_Abort does not return
}

/// A PE that lives on without taking part (busy elsewhere, or stuck): the job must end without it.
int live_on(const char* scenario) {
  sleep(60);
  std::fprintf(stderr, "[rank %d] scenario %s: FAILED: the job was not ended while this PE lived on\n", g_pe, scenario);
  return 3;
}

PORTSHMEM_GLOBAL void await_signal(portshmem::ctx c, std::uint64_t* sig, std::uint64_t value) {
  if (portshmem::thread_rank() == 0) portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, value);
  portshmem::arch::block_sync(); // the block's other threads wait for thread 0: the timeout must stop them too
}

PORTSHMEM_GLOBAL void block_barrier(portshmem::ctx c) {
  portshmem::barrier_all_block(c);
}

/// Each PE puts-with-signal to the next and waits for its own signal, then all meet at a device barrier.
PORTSHMEM_GLOBAL void ring(portshmem::ctx c, std::uint64_t* inbox, const std::uint64_t* mine, std::uint64_t* sig) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  portshmem::put_signal_block(c, inbox, mine, 8, sig, 1, portshmem::signal_set, next);
  if (portshmem::thread_rank() == 0) portshmem::signal_wait_until(c, sig, portshmem::cmp::eq, std::uint64_t(1));
  portshmem::barrier_all_block(c);
}

/// Synchronizes after a launch; true when the kernel ended well (a GPU reports a trap at the synchronization, the
/// host platform at the launch).
bool kernel_ok(hipError_t launched) {
  return launched == hipSuccess && hipDeviceSynchronize() == hipSuccess;
}

void signal_timeout() {
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  const std::uint64_t three = 3;
  check(hipMemcpy(sig, &three, sizeof three, hipMemcpyHostToDevice) == hipSuccess, "setting the signal word to 3");
  portshmem_barrier_all();
  if (g_pe != 0) std::exit(live_on("signal-timeout"));
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  check(!kernel_ok(portshmem::launch(await_signal, dim3(1), dim3(8), c, sig, std::uint64_t(5))),
        "the kernel whose wait timed out failed");
  check(portshmem_check_device_errors() == PORTSHMEM_ERR_TIMEOUT, "portshmem_check_device_errors: timed out");
  char address[32];
  std::snprintf(address, sizeof address, "%p", static_cast<void*>(sig));
  check_diagnosis({"portshmem[PE 0] ERROR", "timed out: PE 0: signal_wait_until gave up after 2s (PORTSHMEM_TIMEOUT)",
                   std::string("waiting at ") + address + " for a value >= 5 (last seen 3)", "no PE wrote it",
                   "the kernel was stopped"});
  end_job("signal-timeout");
}

void barrier_skip() {
  portshmem_barrier_all();
  if (g_pe == 1) std::exit(live_on("barrier-skip"));
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  check(!kernel_ok(portshmem::launch(block_barrier, dim3(1), dim3(8), c)), "the kernel whose barrier timed out failed");
  check(portshmem_check_device_errors() == PORTSHMEM_ERR_TIMEOUT, "portshmem_check_device_errors: timed out");
  check_diagnosis({"timed out: PE " + std::to_string(g_pe) + ": device barrier (barrier_all/sync_all) gave up after 2s",
                   "for a value >= 1 (last seen 0)", "PE 1 should have written it"});
  end_job("barrier-skip");
}

void default_timeout() {
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  check(c.timeout_ns == 60'000'000'000ull,
        "the default PORTSHMEM_TIMEOUT is 60s, got " + std::to_string(c.timeout_ns) + " ns");
  auto* inbox = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  auto* mine = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  auto* sig = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  const std::uint64_t value = 100 + std::uint64_t(g_pe);
  check(hipMemcpy(mine, &value, sizeof value, hipMemcpyHostToDevice) == hipSuccess, "filling the source");
  portshmem_barrier_all();
  check(kernel_ok(portshmem::launch(ring, dim3(1), dim3(8), c, inbox, mine, sig)), "the ring kernel ran");
  check(portshmem_check_device_errors() == PORTSHMEM_SUCCESS, "no device error");
  std::uint64_t got = 0;
  check(hipMemcpy(&got, inbox, sizeof got, hipMemcpyDeviceToHost) == hipSuccess, "reading the inbox");
  const int n = portshmem_n_pes();
  check(got == 100 + std::uint64_t((g_pe + n - 1) % n), "the previous PE's value arrived");
  check(portshmem_barrier_all() == PORTSHMEM_SUCCESS, "portshmem_barrier_all");
  check(portshmem_free(sig) == PORTSHMEM_SUCCESS && portshmem_free(mine) == PORTSHMEM_SUCCESS &&
            portshmem_free(inbox) == PORTSHMEM_SUCCESS,
        "portshmem_free");
}

/// The others' finalize: barrier_all times out, so does its second barrier, and it returns without the teardown.
[[noreturn]] void finalize_stuck() {
  portshmem_barrier_all();
  if (g_pe == 1) std::exit(live_on("finalize-stuck"));
  check(portshmem_finalize() == PORTSHMEM_ERR_TIMEOUT, "portshmem_finalize: timed out");
  check(portshmem_initialized() == 1, "portshmem stays initialized after a finalize that tore nothing down");
  check_diagnosis({"portshmem_barrier_all gave up after 2s (PORTSHMEM_TIMEOUT): PE 1 did not arrive"});
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    bool second = false, stopped = false;
    for (const std::string& line : g_errors) {
      second |= line.find("portshmem_finalize: PE 1 did not arrive at its last barrier") != std::string::npos;
      stopped |= line.find("nothing collective is torn down") != std::string::npos;
    }
    check(second, "a line naming PE 1 as missing at finalize's last barrier");
    check(stopped, "a line saying finalize tore nothing down");
  }
  end_job("finalize-stuck");
}

} // namespace

int main(int argc, char** argv) {
  capture_log();
  const std::string scenario = argc > 1 ? argv[1] : "";
  if (scenario != "signal-timeout" && scenario != "barrier-skip" && scenario != "default-timeout" &&
      scenario != "finalize-stuck") {
    std::fprintf(stderr, "usage: %s signal-timeout | barrier-skip | default-timeout | finalize-stuck\n", argv[0]);
    return 2;
  }
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  g_pe = portshmem_my_pe();
  if (scenario == "signal-timeout") signal_timeout();
  if (scenario == "barrier-skip") barrier_skip();
  if (scenario == "default-timeout") default_timeout();
  if (scenario == "finalize-stuck") finalize_stuck();
  check(portshmem_finalize() == PORTSHMEM_SUCCESS, "portshmem_finalize");
  portshmem::detail::log_set_sink(nullptr);
  if (g_failures == 0) std::fprintf(stderr, "[rank %d] scenario %s: as expected\n", g_pe, scenario.c_str());
  return g_failures == 0 ? 0 : 1;
}
