// The copy engine under every put and get, on both of its schedules (the GPU's interleaved, line-aligned one and the
// host's contiguous runs), for every relative alignment, length and group size: exact bytes, nothing written
// outside the range. The members of a group are run one after another: the schedule, not concurrency, is tested.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <portshmem/portshmem.hpp>

#if PORTSHMEM_PLATFORM_HOST
namespace {

namespace a = portshmem::arch;

template <std::size_t Run>
std::size_t copy_errors() {
  alignas(256) static char src[4096], dst[4096];
  std::size_t errors = 0;
  for (std::size_t n = 0; n < 700; n += 7) {
    for (std::size_t so = 0; so < 34; so += 3) {
      for (std::size_t d = 0; d < 260; d += 5) {
        for (unsigned size : {1u, 3u, 32u, 256u}) {
          for (std::size_t i = 0; i < n; ++i) src[so + i] = char(i * 7 + 1);
          std::memset(dst, 0, sizeof dst);
          for (unsigned rank = 0; rank < size; ++rank) {
            portshmem::detail::copy_bytes<a::cache::keep, a::cache::bypass, a::scope::system, Run>(dst + d, src + so, n,
                                                                                                   rank, size);
          }
          for (std::size_t i = 0; i < sizeof dst; ++i) {
            const bool inside = i >= d && i < d + n;
            errors += dst[i] != (inside ? src[so + i - d] : 0);
          }
        }
      }
    }
  }
  return errors;
}

TEST(Copy, GpuScheduleCopiesExactlyTheRange) {
  EXPECT_EQ(copy_errors<1>(), 0u);
}
TEST(Copy, HostScheduleCopiesExactlyTheRange) {
  EXPECT_EQ(copy_errors<portshmem::detail::kCopyRunUnits>(), 0u);
}

} // namespace
#else
TEST(Copy, RunsOnTheHostPlatform) {
  GTEST_SKIP() << "both copy schedules are exercised by the host build; GPU builds run them in the mp tests";
}
#endif
