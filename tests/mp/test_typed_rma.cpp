// Typed put/get/p/g in thread, wave and block forms for every OpenSHMEM standard RMA type: each PE fills regions of
// the next PE's buffer by each form, then fetches the previous PE's source by each get form.
#include "mp_test.hpp"

namespace {

constexpr std::size_t kElems = 77; // odd, so vector paths meet a tail
enum region { by_put, by_put_wave, by_put_block, by_put_nbi, by_p, source, regions };
enum fetched { by_get, by_get_wave, by_get_nbi_block, by_g, fetches };

template <class T>
PORTSHMEM_HOST_DEVICE T value(int pe, std::size_t i) {
  return T(pe * 10 + int(i % 7) + 1);
}

template <class T>
PORTSHMEM_GLOBAL void typed_kernel(portshmem::ctx c, T* sym, const T* src, T* out) {
  namespace a = portshmem::arch;
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c);
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  const unsigned t = a::thread_rank();
  const bool first_wave = t < a::wave_size();
  if (t == 0) portshmem::put(c, sym + by_put * kElems, src, kElems, next);
  if (first_wave) portshmem::put_wave(c, sym + by_put_wave * kElems, src, kElems, next);
  portshmem::put_block(c, sym + by_put_block * kElems, src, kElems, next);
  if (t == 0) portshmem::put_nbi(c, sym + by_put_nbi * kElems, src, kElems, next);
  for (std::size_t i = t; i < kElems; i += a::block_threads()) portshmem::p(c, sym + by_p * kElems + i, src[i], next);
  if (t == 0) portshmem::quiet(c);
  portshmem::barrier_all_block(c);

  const T* theirs = sym + source * kElems;
  if (t == 0) portshmem::get(c, out + by_get * kElems, theirs, kElems, prev);
  if (first_wave) portshmem::get_wave(c, out + by_get_wave * kElems, theirs, kElems, prev);
  portshmem::get_nbi_block(c, out + by_get_nbi_block * kElems, theirs, kElems, prev);
  for (std::size_t i = t; i < kElems; i += a::block_threads())
    out[by_g * kElems + i] = portshmem::g(c, theirs + i, prev);
  if (t == 0) portshmem::quiet(c);
  portshmem::barrier_all_block(c);
}

template <class T>
class TypedRma : public ::testing::Test {};

// The plain C types; int8_t... size_t and ptrdiff_t are aliases of them.
using rma_types = ::testing::Types<float, double, char, signed char, short, int, long, long long, unsigned char,
                                   unsigned short, unsigned int, unsigned long, unsigned long long
#if PORTSHMEM_PLATFORM_HOST
                                   ,
                                   long double
#endif
                                   >;
TYPED_TEST_SUITE(TypedRma, rma_types);

TYPED_TEST(TypedRma, EveryFormDeliversEveryElement) {
  using T = TypeParam;
  T* sym = mp::sym_alloc<T>(regions * kElems);
  T* src = mp::private_alloc<T>(kElems);
  T* out = mp::private_alloc<T>(fetches * kElems);
  std::vector<T> mine(regions * kElems, T(0)), own(kElems);
  for (std::size_t i = 0; i < kElems; ++i) own[i] = mine[source * kElems + i] = value<T>(mp::me(), i);
  mp::to_device(sym, mine);
  mp::to_device(src, own);
  mp::to_device(out, std::vector<T>(fetches * kElems, T(0)));
  mp::barrier();

  mp::run(typed_kernel<T>, dim3(1), dim3(mp::kBlockThreads), mp::context(), sym, static_cast<const T*>(src), out);
  mp::barrier();

  const std::vector<T> got = mp::to_host(sym, regions * kElems);
  const std::vector<T> fetched = mp::to_host(out, fetches * kElems);
  int wrong_regions[regions] = {}, wrong_fetches[fetches] = {};
  for (std::size_t i = 0; i < kElems; ++i) {
    const T want = value<T>(mp::prev_pe(), i);
    for (int r = by_put; r < source; ++r) wrong_regions[r] += !(got[r * kElems + i] == want);
    for (int f = 0; f < fetches; ++f) wrong_fetches[f] += !(fetched[f * kElems + i] == want);
  }
  for (int r = by_put; r < source; ++r) EXPECT_EQ(wrong_regions[r], 0) << "put region " << r;
  for (int f = 0; f < fetches; ++f) EXPECT_EQ(wrong_fetches[f], 0) << "get form " << f;
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

} // namespace
