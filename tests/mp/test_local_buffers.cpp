// The local side of a transfer may live anywhere a kernel keeps data: a thread's private (stack) memory, the block's
// shared memory, or global memory — for a put's source and a get's destination alike. A wave or block call needs
// memory all its threads reach, so naming one thread's private memory there is a bad call (recorded, nothing moved).
// Also the sub-word element calls: p, g and wait_until of 1- and 2-byte integers are single coherent accesses.
// On the host platform every buffer is ordinary memory: the same kernels run, and the GPU runs show the rest.
#include "mp_test.hpp"

// Block-shared memory in a portable test kernel (the host platform runs a block's threads in one process; these
// kernels launch one block, so a static is that block's shared memory there).
#if PORTSHMEM_PLATFORM_HOST
#define TEST_BLOCK_SHARED static
#else
#define TEST_BLOCK_SHARED __shared__
#endif

namespace {

namespace arch = portshmem::arch;
constexpr int kWords = 4;

long word_value(int pe, unsigned t, int i) {
  return 1000000L * (pe + 1) + 100L * long(t) + i;
}
PORTSHMEM_DEVICE long device_word_value(int pe, unsigned t, int i) {
  return 1000000L * (pe + 1) + 100L * long(t) + i;
}

enum class where { stack, shared };

/// Each thread gets its kWords words of the next PE's `src` into a private or shared buffer (thread form), then
/// copies them to `out` with plain loads.
PORTSHMEM_GLOBAL void get_into_local(portshmem::ctx c, where w, const long* src, long* out) {
  const unsigned t = arch::thread_rank();
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  TEST_BLOCK_SHARED long shared[mp::kBlockThreads * kWords];
  long stack[kWords] = {-1, -1, -1, -1};
  long* local = w == where::stack ? stack : shared + t * kWords;
  portshmem::getmem(c, local, src + t * kWords, kWords * sizeof(long), next);
  for (int i = 0; i < kWords; ++i) out[t * kWords + i] = local[i];
}

/// Each thread fills a private or shared buffer and puts it into the next PE's `dest` (thread form; one word and a
/// whole buffer, so both the word path and the copy loop read a local source).
PORTSHMEM_GLOBAL void put_from_local(portshmem::ctx c, where w, long* dest) {
  const unsigned t = arch::thread_rank();
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  TEST_BLOCK_SHARED long shared[mp::kBlockThreads * kWords];
  long stack[kWords];
  long* local = w == where::stack ? stack : shared + t * kWords;
  for (int i = 0; i < kWords; ++i) local[i] = device_word_value(me, t, i);
  portshmem::putmem(c, dest + t * kWords, local, sizeof(long), next);                        // one word
  portshmem::putmem(c, dest + t * kWords + 1, local + 1, (kWords - 1) * sizeof(long), next); // a copy
  portshmem::quiet(c);
}

/// The block moves one shared buffer: a block get into it, then a block put out of it to the next PE.
PORTSHMEM_GLOBAL void block_via_shared(portshmem::ctx c, const long* src, long* dest) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  TEST_BLOCK_SHARED long shared[mp::kBlockThreads * kWords];
  constexpr std::size_t bytes = sizeof shared;
  portshmem::getmem_block(c, shared, src, bytes, next);
  portshmem::putmem_block(c, dest, shared, bytes, next);
  portshmem::quiet(c);
}

class LocalBuffers : public ::testing::TestWithParam<where> {};

TEST_P(LocalBuffers, ThreadGetLandsInPrivateOrSharedMemory) {
  const std::size_t n = mp::kBlockThreads * kWords;
  long* src = mp::sym_alloc<long>(n);
  long* out = mp::private_alloc<long>(n);
  std::vector<long> mine(n);
  for (unsigned t = 0; t < mp::kBlockThreads; ++t)
    for (int i = 0; i < kWords; ++i) mine[t * kWords + i] = word_value(mp::me(), t, i);
  mp::to_device(src, mine);
  mp::barrier();
  mp::run(get_into_local, dim3(1), dim3(mp::kBlockThreads), mp::context(), GetParam(), static_cast<const long*>(src),
          out);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  const std::vector<long> got = mp::to_host(out, n);
  for (unsigned t = 0; t < mp::kBlockThreads; ++t)
    for (int i = 0; i < kWords; ++i)
      EXPECT_EQ(got[t * kWords + i], word_value(mp::next_pe(), t, i)) << "thread " << t << " word " << i;
  mp::barrier();
  EXPECT_EQ(hipFree(out), hipSuccess);
  portshmem_free(src);
}

TEST_P(LocalBuffers, ThreadPutReadsPrivateOrSharedMemory) {
  const std::size_t n = mp::kBlockThreads * kWords;
  long* dest = mp::sym_alloc<long>(n);
  mp::to_device(dest, std::vector<long>(n, 0));
  mp::barrier();
  mp::run(put_from_local, dim3(1), dim3(mp::kBlockThreads), mp::context(), GetParam(), dest);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  const std::vector<long> got = mp::to_host(dest, n);
  for (unsigned t = 0; t < mp::kBlockThreads; ++t)
    for (int i = 0; i < kWords; ++i)
      EXPECT_EQ(got[t * kWords + i], word_value(mp::prev_pe(), t, i)) << "thread " << t << " word " << i;
  mp::barrier();
  portshmem_free(dest);
}

INSTANTIATE_TEST_SUITE_P(Where, LocalBuffers, ::testing::Values(where::stack, where::shared),
                         [](const ::testing::TestParamInfo<where>& i) {
                           return i.param == where::stack ? std::string("stack") : std::string("shared");
                         });

TEST(LocalBuffersBlock, BlockFormsMoveSharedMemory) {
  const std::size_t n = mp::kBlockThreads * kWords;
  long* src = mp::sym_alloc<long>(n);
  long* dest = mp::sym_alloc<long>(n);
  std::vector<long> mine(n);
  for (std::size_t i = 0; i < n; ++i) mine[i] = word_value(mp::me(), 7, int(i));
  mp::to_device(src, mine);
  mp::to_device(dest, std::vector<long>(n, 0));
  mp::barrier();
  // Each PE gets the next PE's src into shared memory and puts it back to that PE: dest holds the PE's own src.
  mp::run(block_via_shared, dim3(1), dim3(mp::kBlockThreads), mp::context(), static_cast<const long*>(src), dest);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  const std::vector<long> got = mp::to_host(dest, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], word_value(mp::me(), 7, int(i))) << "word " << i;
  mp::barrier();
  portshmem_free(dest);
  portshmem_free(src);
}

/// A block call whose local side is each thread's own stack: recorded once, nothing moved.
PORTSHMEM_GLOBAL void block_with_private(portshmem::ctx c, bool get, long* sym) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  long stack[kWords] = {1, 2, 3, 4};
  if (get) {
    portshmem::getmem_block(c, stack, sym, sizeof stack, next);
  } else {
    portshmem::putmem_block(c, sym, stack, sizeof stack, next);
  }
  portshmem::quiet(c);
}

TEST(LocalBuffersBlock, GroupFormsRefusePrivateMemory) {
  if (PORTSHMEM_PLATFORM_HOST) {
    GTEST_SKIP() << "the host platform cannot tell a thread's stack from shared memory (one address space); GPU "
                    "builds run this";
  }
  long* sym = mp::sym_alloc<long>(kWords);
  mp::to_device(sym, std::vector<long>(kWords, 0));
  mp::barrier();
  for (bool get : {false, true}) {
    portshmem::ctx c = mp::context();
    mp::run(block_with_private, dim3(1), dim3(mp::kBlockThreads), c, get, sym);
    EXPECT_EQ(c.error->count, 1u) << (get ? "get" : "put") << ": one record for the block";
    EXPECT_EQ(c.error->status, std::uint32_t(PORTSHMEM_ERR_LOCAL_BUFFER));
    EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_ERR_DEVICE);
    mp::barrier();
    EXPECT_EQ(mp::to_host(sym, kWords), std::vector<long>(kWords, 0)) << "a refused call must not write";
    mp::barrier();
  }
  portshmem_free(sym);
}

// ---- sub-word p, g and waits
// -----------------------------------------------------------------------------------------

struct subwords {
  std::uint8_t c[8];
  std::uint16_t s[8];
  std::uint16_t flag16;
  std::uint8_t flag8;
  long data[2];
};

/// Every PE p's a char and a short pattern into the next PE's slots (one per element), then publishes data with a
/// 2-byte and a 1-byte flag; the next PE waits on each flag and reads the data published before it.
PORTSHMEM_GLOBAL void subword_kernel(portshmem::ctx c, subwords* s, long* out) {
  const int me = portshmem::my_pe(c), next = (me + 1) % portshmem::n_pes(c);
  for (int i = 0; i < 8; ++i) {
    portshmem::p(c, &s->c[i], std::uint8_t(0x80 + 16 * me + i), next);
    portshmem::p(c, &s->s[i], std::uint16_t(0x8000 + 256 * me + i), next);
  }
  const long d0 = 7000 + me;
  portshmem::putmem(c, &s->data[0], &d0, sizeof d0, next);
  portshmem::fence(c);
  portshmem::p(c, &s->flag16, std::uint16_t(0xBEEF), next);
  portshmem::wait_until(c, &s->flag16, portshmem::cmp::eq, std::uint16_t(0xBEEF));
  out[0] = portshmem::ptr(c, &s->data[0], me)[0];
  const long d1 = 9000 + me;
  portshmem::putmem(c, &s->data[1], &d1, sizeof d1, next);
  portshmem::fence(c, portshmem::mm::comm);
  portshmem::p(c, &s->flag8, std::uint8_t(0xA5), next);
  portshmem::wait_until(c, &s->flag8, portshmem::cmp::eq, std::uint8_t(0xA5), portshmem::mm::comm);
  out[1] = portshmem::g(c, &s->data[1], me);
  portshmem::quiet(c);
}

/// After a barrier: g of the previous PE's view of this PE's writes (the next PE's slots hold this PE's pattern).
PORTSHMEM_GLOBAL void subword_read_back(portshmem::ctx c, subwords* s, long* out) {
  const int next = (portshmem::my_pe(c) + 1) % portshmem::n_pes(c);
  for (int i = 0; i < 8; ++i) {
    out[i] = portshmem::g(c, &s->c[i], next);
    out[8 + i] = portshmem::g(c, &s->s[i], next);
  }
}

TEST(SubWord, PGAndWaitsOfCharsAndShorts) {
  auto* s = mp::sym_alloc<subwords>(1);
  EXPECT_EQ(hipMemset(s, 0, sizeof *s), hipSuccess);
  long* out = mp::private_alloc<long>(16);
  mp::barrier();
  mp::run(subword_kernel, dim3(1), dim3(1), mp::context(), s, out);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  const std::vector<long> seen = mp::to_host(out, 2);
  EXPECT_EQ(seen[0], 7000 + mp::prev_pe()) << "data published before a 2-byte flag";
  EXPECT_EQ(seen[1], 9000 + mp::prev_pe()) << "data published before a 1-byte flag (comm)";
  mp::barrier();
  mp::run(subword_read_back, dim3(1), dim3(1), mp::context(), s, out);
  const std::vector<long> got = mp::to_host(out, 16);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(got[i], 0x80 + 16 * mp::me() + i) << "char " << i;
    EXPECT_EQ(got[8 + i], 0x8000 + 256 * mp::me() + i) << "short " << i;
  }
  mp::barrier();
  EXPECT_EQ(hipFree(out), hipSuccess);
  portshmem_free(s);
}

} // namespace
