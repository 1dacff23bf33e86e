// Code-size probe (tests/isa/code_size.sh): one kernel as a user writes it — one call, release build, every path the
// call may take (IPC, proxy, error record) — chosen by -DSIZE_PROBE=<n>, so each compile holds that kernel and the
// functions it calls, nothing else. What a call adds to a user's kernel is what the user compiles, per kernel and
// per qualifier set, and what an instruction cache holds.
#include "portshmem/portshmem.hpp"
#include "portshmem/amo.hpp"
#include "portshmem/signal.hpp"

namespace ps = portshmem;
using u64 = std::uint64_t;

#define KERNEL(NAME) extern "C" PORTSHMEM_GLOBAL void NAME

#if SIZE_PROBE == 1
KERNEL(put_signal)(ps::ctx c, long* d, const long* s, std::size_t n, u64* sig, int pe) {
  ps::put_signal(c, d, s, n, sig, u64{1}, ps::signal_set, pe);
}
#elif SIZE_PROBE == 2
KERNEL(put_signal_block)(ps::ctx c, long* d, const long* s, std::size_t n, u64* sig, int pe) {
  ps::put_signal_block(c, d, s, n, sig, u64{1}, ps::signal_add, pe);
}
#elif SIZE_PROBE == 3
KERNEL(putmem_block)(ps::ctx c, char* d, const char* s, std::size_t n, int pe) {
  ps::putmem_block(c, d, s, n, pe);
}
#elif SIZE_PROBE == 4
KERNEL(put_nbi)(ps::ctx c, int* d, const int* s, std::size_t n, int pe) {
  ps::put_nbi(c, d, s, n, pe);
}
#elif SIZE_PROBE == 5
KERNEL(get)(ps::ctx c, int* d, const int* s, std::size_t n, int pe) {
  ps::get(c, d, s, n, pe);
}
#elif SIZE_PROBE == 6
KERNEL(p)(ps::ctx c, long* d, long v, int pe) {
  ps::p(c, d, v, pe);
}
#elif SIZE_PROBE == 7
KERNEL(atomic_fetch_add)(ps::ctx c, long* d, long* out, int pe) {
  *out = ps::atomic_fetch_add(c, d, 1L, pe);
}
#elif SIZE_PROBE == 8
KERNEL(signal_wait_until)(ps::ctx c, u64* sig, u64* out) {
  *out = ps::signal_wait_until(c, sig, ps::cmp::ge, u64{1});
}
#else
#error "SIZE_PROBE must be 1..8 (tests/isa/code_size.sh)"
#endif
