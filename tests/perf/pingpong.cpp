// Latency: 8-byte put-with-signal ping-pong between PE 0 and PE 1, against a raw flag ping-pong (a release store into
// the peer's flag through its mapped address, an acquire poll of one's own), in one run. One thread per PE.
//   portshmem-run -np 2 ./pingpong [rounds]
// Prints one row per variant: microseconds per round trip, and the ratio to the raw flag ping-pong.
#include <cstdio>
#include <cstdlib>

#include <portshmem/portshmem.hpp>

namespace {

namespace a = portshmem::arch;
namespace mm = portshmem::mm;

/// The baseline: what a kernel author writes by hand with the peer's mapped flag.
PORTSHMEM_GLOBAL void raw_flags(std::uint64_t* mine, std::uint64_t* peers, int me, int rounds) {
  for (std::uint64_t i = 1; i <= std::uint64_t(rounds); ++i) {
    if (me == 0) a::store<a::order::release, a::scope::system>(peers, i);
    while (a::load<a::order::acquire, a::scope::system>(mine) < i) {
    }
    if (me == 1) a::store<a::order::release, a::scope::system>(peers, i);
  }
}

/// put_signal_nbi of 8 bytes with a SET signal; the receiver waits on its signal and answers the same way.
template <class... Q>
PORTSHMEM_GLOBAL void put_signal_pingpong(portshmem::ctx c, char* data, const char* src, std::uint64_t* sig,
                                          int rounds) {
  const int me = portshmem::my_pe(c), peer = 1 - me;
  for (std::uint64_t i = 1; i <= std::uint64_t(rounds); ++i) {
    if (me == 0) portshmem::putmem_signal_nbi(c, data, src, 8, sig, i, portshmem::signal_set, peer, Q{}...);
    portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, i);
    if (me == 1) portshmem::putmem_signal_nbi(c, data, src, 8, sig, i, portshmem::signal_set, peer, Q{}...);
  }
}

/// Times one run of the kernel on both PEs (PE 0's events), after a warm-up run; returns microseconds per round.
template <class Launch>
double round_trip_us(std::uint64_t* flag, int rounds, const Launch& launch) {
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  double us = 0;
  for (int pass = 0; pass < 2; ++pass) {
    hipMemset(flag, 0, sizeof *flag);
    hipDeviceSynchronize();
    portshmem_barrier_all();
    hipEventRecord(start);
    launch();
    hipEventRecord(stop);
    hipEventSynchronize(stop);
    float ms = 0;
    hipEventElapsedTime(&ms, start, stop);
    us = double(ms) * 1000.0 / rounds;
  }
  hipEventDestroy(start);
  hipEventDestroy(stop);
  return us;
}

} // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 10000;
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  const int me = portshmem_my_pe();
  if (portshmem_n_pes() != 2) {
    if (me == 0) std::fprintf(stderr, "pingpong runs on exactly 2 PEs\n");
    portshmem_finalize();
    return 1;
  }
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  auto* flag = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  char* data = static_cast<char*>(portshmem_calloc(64, 1));
  char* src = nullptr;
  hipMalloc(&src, 64);
  hipMemset(src, 0x5a, 64);
  auto* peers_flag = static_cast<std::uint64_t*>(portshmem_ptr(flag, 1 - me));

  const double raw = round_trip_us(
      flag, rounds, [&] { portshmem::launch(raw_flags, dim3(1), dim3(1), flag, peers_flag, me, rounds); });
  const double sig_default = round_trip_us(flag, rounds, [&] {
    portshmem::launch(put_signal_pingpong<>, dim3(1), dim3(1), c, data, static_cast<const char*>(src), flag, rounds);
  });
  const double sig_comm = round_trip_us(flag, rounds, [&] {
    portshmem::launch(put_signal_pingpong<mm::comm_t>, dim3(1), dim3(1), c, data, static_cast<const char*>(src), flag,
                      rounds);
  });
  if (me == 0) {
    std::printf("# pingpong: PE 0 <-> PE 1, %s platform, %d rounds, 8-byte payload\n", portshmem_platform(), rounds);
    std::printf("%-34s %10s %8s\n", "variant", "us/round", "vs_raw");
    std::printf("%-34s %10.2f %8.2f\n", "raw flag (st.release/ld.acquire)", raw, 1.0);
    std::printf("%-34s %10.2f %8.2f\n", "putmem_signal_nbi (defaults)", sig_default, sig_default / raw);
    std::printf("%-34s %10.2f %8.2f\n", "putmem_signal_nbi mm::comm", sig_comm, sig_comm / raw);
  }
  portshmem_barrier_all();
  const bool ok = portshmem_check_device_errors() == PORTSHMEM_SUCCESS;
  hipFree(src);
  portshmem_free(data);
  portshmem_free(flag);
  portshmem_finalize();
  return ok ? 0 : 1;
}
