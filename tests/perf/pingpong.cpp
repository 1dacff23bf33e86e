// Latency: 8-byte put-with-signal ping-pong between PE 0 and PE 1, in one run against hand-written baselines that
// use the peer's mapped addresses directly: a raw flag ping-pong (a release store into the peer's flag, an acquire
// poll of one's own: no data), and a raw put + flag (the 8-byte data store, then the release store of the flag: the
// least a correct put-with-signal does). One thread per PE. The payload is 8 bytes unless a row says otherwise.
//   portshmem-run -np 2 ./pingpong [rounds]
// Prints one row per variant: microseconds per round trip, and the ratios to the two baselines.
#include <cstdio>
#include <cstdlib>

#include <portshmem/portshmem.hpp>

namespace {

namespace a = portshmem::arch;
namespace mm = portshmem::mm;

// ---- the sending half of a round ------------------------------------------------------------------------------------
/// A release store of the round number into the peer's flag.
struct raw_flag_send {
  std::uint64_t* peer_flag;
  PORTSHMEM_DEVICE void operator()(std::uint64_t i) const {
    a::store<a::order::release, a::scope::system>(peer_flag, i);
  }
};

/// The 8-byte payload from src into the peer's data, then the release store of the flag.
template <a::cache C>
struct raw_put_flag_send {
  std::uint64_t* peer_data;
  const std::uint64_t* src;
  std::uint64_t* peer_flag;
  PORTSHMEM_DEVICE void operator()(std::uint64_t i) const {
    a::store_data<C>(peer_data, a::load_data<a::cache::keep>(src));
    a::store<a::order::release, a::scope::system>(peer_flag, i);
  }
};

/// putmem_signal_nbi of the payload (8 bytes unless told) with a SET signal, with qualifiers Q.
template <class... Q>
struct put_signal_send {
  portshmem::ctx c;
  char* data;
  const char* src;
  std::uint64_t* sig;
  int peer;
  std::size_t bytes = 8;
  PORTSHMEM_DEVICE void operator()(std::uint64_t i) const {
    portshmem::putmem_signal_nbi(c, data, src, bytes, sig, i, portshmem::signal_set, peer, Q{}...);
  }
};

/// signal_op (SET, coverage all) alone: the API's flag, no data.
struct signal_op_send {
  portshmem::ctx c;
  std::uint64_t* sig;
  int peer;
  PORTSHMEM_DEVICE void operator()(std::uint64_t i) const {
    portshmem::signal_op(c, sig, i, portshmem::signal_set, peer);
  }
};

// ---- the waiting half -----------------------------------------------------------------------------------------------
struct raw_wait {
  const std::uint64_t* flag;
  PORTSHMEM_DEVICE void operator()(std::uint64_t i) const {
    while (a::load<a::order::acquire, a::scope::system>(flag) < i) {
    }
  }
};

struct signal_wait {
  portshmem::ctx c;
  std::uint64_t* sig;
  PORTSHMEM_DEVICE void operator()(std::uint64_t i) const {
    portshmem::signal_wait_until(c, sig, portshmem::cmp::ge, i);
  }
};

/// PE 0 sends round i and waits for the answer; PE 1 waits for round i and answers.
template <class Send, class Wait>
PORTSHMEM_GLOBAL void pingpong(Send send, Wait wait, int me, int rounds) {
  for (std::uint64_t i = 1; i <= std::uint64_t(rounds); ++i) {
    if (me == 0) send(i);
    wait(i);
    if (me == 1) send(i);
  }
}

/// Times one run on both PEs (PE 0's events), after a warm-up run; returns microseconds per round trip.
template <class Send, class Wait>
double round_trip_us(std::uint64_t* flag, int me, int rounds, const Send& send, const Wait& wait) {
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  double us = 0;
  for (int pass = 0; pass < 2; ++pass) {
    hipMemset(flag, 0, sizeof *flag);
    hipDeviceSynchronize();
    portshmem_barrier_all();
    hipEventRecord(start);
    portshmem::launch(pingpong<Send, Wait>, dim3(1), dim3(1), send, wait, me, rounds);
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
  const int me = portshmem_my_pe(), peer = 1 - me;
  if (portshmem_n_pes() != 2) {
    if (me == 0) std::fprintf(stderr, "pingpong runs on exactly 2 PEs\n");
    portshmem_finalize();
    return 1;
  }
  portshmem::ctx c;
  portshmem_get_ctx(&c);
  auto* flag = static_cast<std::uint64_t*>(portshmem_calloc(1, sizeof(std::uint64_t)));
  auto* data = static_cast<std::uint64_t*>(portshmem_calloc(8, sizeof(std::uint64_t)));
  std::uint64_t* src = nullptr;
  hipMalloc(&src, 64);
  hipMemset(src, 0x5a, 64);
  auto* peer_flag = static_cast<std::uint64_t*>(portshmem_ptr(flag, peer));
  auto* peer_data = static_cast<std::uint64_t*>(portshmem_ptr(data, peer));
  const auto* src_bytes = reinterpret_cast<const char*>(src);
  auto* data_bytes = reinterpret_cast<char*>(data);

  const raw_wait raw_poll{flag};
  const signal_wait api_wait{c, flag};
  struct row {
    const char* name;
    double us;
  };
  const row rows[] = {
      {"raw flag (no data)", round_trip_us(flag, me, rounds, raw_flag_send{peer_flag}, raw_poll)},
      {"raw put + flag, bypass data",
       round_trip_us(flag, me, rounds, raw_put_flag_send<a::cache::bypass>{peer_data, src, peer_flag}, raw_poll)},
      {"raw put + flag, plain st data",
       round_trip_us(flag, me, rounds, raw_put_flag_send<a::cache::keep>{peer_data, src, peer_flag}, raw_poll)},
      {"signal_op + signal_wait_until", round_trip_us(flag, me, rounds, signal_op_send{c, flag, peer}, api_wait)},
      {"raw put + flag, signal_wait_until",
       round_trip_us(flag, me, rounds, raw_put_flag_send<a::cache::bypass>{peer_data, src, peer_flag}, api_wait)},
      {"putmem_signal_nbi, raw poll",
       round_trip_us(flag, me, rounds, put_signal_send<>{c, data_bytes, src_bytes, flag, peer}, raw_poll)},
      {"putmem_signal_nbi (defaults)",
       round_trip_us(flag, me, rounds, put_signal_send<>{c, data_bytes, src_bytes, flag, peer}, api_wait)},
      {"putmem_signal_nbi mm::comm",
       round_trip_us(flag, me, rounds, put_signal_send<mm::comm_t>{c, data_bytes, src_bytes, flag, peer}, api_wait)},
      {"putmem_signal_nbi, 64-byte payload",
       round_trip_us(flag, me, rounds, put_signal_send<>{c, data_bytes, src_bytes, flag, peer, 64}, api_wait)},
      {"putmem_signal_nbi mm::keep",
       round_trip_us(flag, me, rounds, put_signal_send<mm::keep_t>{c, data_bytes, src_bytes, flag, peer}, api_wait)},
  };
  if (me == 0) {
    std::printf("# pingpong: PE 0 <-> PE 1, %s platform, %d rounds, 8-byte payload\n", portshmem_platform(), rounds);
    std::printf("%-36s %10s %8s %10s\n", "variant", "us/round", "vs_flag", "vs_put+flag");
    for (const row& r : rows) {
      std::printf("%-36s %10.2f %8.2f %10.2f\n", r.name, r.us, r.us / rows[0].us, r.us / rows[1].us);
    }
  }
  portshmem_barrier_all();
  const bool ok = portshmem_check_device_errors() == PORTSHMEM_SUCCESS;
  hipFree(src);
  portshmem_free(data);
  portshmem_free(flag);
  portshmem_finalize();
  return ok ? 0 : 1;
}
