// The rocSHMEM-style names forward to the C++ API: a sample of each shape (untyped/typed, plain/ctx_, thread/_wave/
// _wg, p/g) moves data to the next PE.
#include "mp_test.hpp"

namespace {

constexpr std::size_t kN = 40;

PORTSHMEM_GLOBAL void compat_kernel(portshmem::ctx c, int* sym, long* lsym, const int* src, long* g_out) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c), next = (me + 1) % n, prev = (me + n - 1) % n;
  const unsigned t = portshmem::arch::thread_rank();
  portshmem_int_put_wg(c, sym, src, kN, next);
  if (t < portshmem::arch::wave_size()) portshmem_ctx_putmem_nbi_wave(c, sym + kN, src, kN * sizeof(int), next);
  portshmem_ctx_putmem_nbi_wg(c, sym + 2 * kN, src, kN * sizeof(int), next);
  if (t == 0) {
    portshmem_ctx_long_p(c, lsym, 1000L + me, next);
    portshmem::quiet(c);
  }
  portshmem::barrier_all_block(c);
  if (t == 0) *g_out = portshmem_long_g(c, lsym, prev); // prev's copy holds what prev's predecessor sent
}

TEST(CompatNames, ForwardToTheCxxApi) {
  int* sym = static_cast<int*>(portshmem_calloc(3 * kN, sizeof(int)));
  long* lsym = static_cast<long*>(portshmem_calloc(1, sizeof(long)));
  int* src = mp::private_alloc<int>(kN);
  long* g_out = mp::private_alloc<long>(1);
  std::vector<int> mine(kN);
  for (std::size_t i = 0; i < kN; ++i) mine[i] = mp::me() * 100 + int(i);
  mp::to_device(src, mine);
  mp::barrier();
  mp::run(compat_kernel, dim3(1), dim3(mp::kBlockThreads), mp::context(), sym, lsym, static_cast<const int*>(src),
          g_out);
  const std::vector<int> got = mp::to_host(sym, 3 * kN);
  int wrong = 0;
  for (std::size_t i = 0; i < 3 * kN; ++i) wrong += got[i] != mp::prev_pe() * 100 + int(i % kN);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(mp::to_host(lsym, 1)[0], 1000L + mp::prev_pe());
  const int prev_prev = (mp::me() + 2 * mp::npes() - 2) % mp::npes();
  EXPECT_EQ(mp::to_host(g_out, 1)[0], 1000L + prev_prev);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(hipFree(g_out), hipSuccess);
  EXPECT_EQ(portshmem_free(lsym), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

} // namespace
