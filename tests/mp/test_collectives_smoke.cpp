// Smoke test of teams and collectives on the world team (the full suite is test_collectives*.cpp).
#include <numeric>

#include "mp_test.hpp"

namespace {

PORTSHMEM_GLOBAL void coll_kernel(portshmem::ctx c, portshmem::team t, long* dest, long* src, std::size_t n, long* red,
                                  long* rs, long* a2a) {
  portshmem::barrier_block(c, t);
  portshmem::broadcast_block(c, t, dest, src, n, 0);
  portshmem::sum_reduce_block(c, t, red, src, n);
  portshmem::sum_reduce_scatter_block(c, t, rs, a2a, 4);
  portshmem::team_sync_block(c, t);
}

TEST(CollectivesSmoke, WorldBroadcastReduce) {
  portshmem::ctx c = mp::context();
  portshmem::team t{};
  ASSERT_EQ(portshmem_team_get_handle(PORTSHMEM_TEAM_WORLD, &t), PORTSHMEM_SUCCESS);
  EXPECT_EQ(t.size, mp::npes());
  EXPECT_EQ(t.my_index, mp::me());
  for (std::size_t n : {std::size_t(1), std::size_t(100), std::size_t(20000), std::size_t(200000)}) {
    long* dest = mp::sym_alloc<long>(n);
    long* src = mp::sym_alloc<long>(n);
    long* red = mp::sym_alloc<long>(n);
    long* a2a = mp::sym_alloc<long>(4 * std::size_t(mp::npes()));
    long* rs = mp::sym_alloc<long>(4);
    std::vector<long> s(n), a(4 * std::size_t(mp::npes()));
    for (std::size_t i = 0; i < n; ++i) s[i] = long(i) * 3 + mp::me();
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = long(i) + 100 * mp::me();
    mp::to_device(src, s);
    mp::to_device(a2a, a);
    mp::barrier();
    mp::run(coll_kernel, dim3(1), dim3(mp::kBlockThreads), c, t, dest, src, n, red, rs, a2a);
    EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
    auto d = mp::to_host(dest, n);
    auto r = mp::to_host(red, n);
    auto x = mp::to_host(rs, 4);
    const long np = mp::npes();
    long wrong_b = 0, wrong_r = 0;
    for (std::size_t i = 0; i < n; ++i) {
      wrong_b += d[i] != long(i) * 3;
      wrong_r += r[i] != long(i) * 3 * np + np * (np - 1) / 2;
    }
    EXPECT_EQ(wrong_b, 0) << n;
    EXPECT_EQ(wrong_r, 0) << n;
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(x[k], np * (4 * mp::me() + k) + 100 * np * (np - 1) / 2) << k;
    }
    mp::barrier();
    for (void* p : {(void*)dest, (void*)src, (void*)red, (void*)a2a, (void*)rs}) EXPECT_EQ(portshmem_free(p), 0);
  }
}

} // namespace
