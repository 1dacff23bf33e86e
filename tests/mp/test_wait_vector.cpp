// Waits on arrays: wait_until_all / _any / _some, their _vector forms and the test_ forms, with status masks. Each PE
// has slots + 2 variables: slot p is written only by PE p, the last two are never written (a wait that did not honour
// its status mask on them would hang). Phases, each after a barrier: untouched arrays; one writer per array (the
// previous PE, after data it published with a fence); every slot but the tail written; bad arrays; the C names.
#include <cstdint>
#include <type_traits>

#include "mp_test.hpp"

namespace {

namespace mm = portshmem::mm;
using portshmem::cmp;

// ---- untouched arrays: nothing holds; empty arrays -----------------------------------------------------------------

template <class T>
PORTSHMEM_GLOBAL void untouched_kernel(portshmem::ctx c, T* ivars, std::size_t slots, std::size_t* indices,
                                       std::size_t* out) {
  out[0] = portshmem::test_all(c, ivars, slots, nullptr, cmp::ne, T(0));
  out[1] = portshmem::test_any(c, ivars, slots, nullptr, cmp::ne, T(0));
  out[2] = portshmem::test_some(c, ivars, slots, indices, nullptr, cmp::ne, T(0));
  out[3] = portshmem::test_all(c, ivars, slots, nullptr, cmp::eq, T(0), mm::relaxed);
  out[4] = portshmem::test_any(c, ivars, slots, nullptr, cmp::eq, T(0), mm::comm);
  out[5] = portshmem::test_all(c, ivars, 0, nullptr, cmp::ne, T(0));
  portshmem::wait_until_all(c, ivars, 0, nullptr, cmp::ne, T(0)); // nothing to wait for
  out[6] = portshmem::wait_until_any(c, ivars, 0, nullptr, cmp::ne, T(0));
  out[7] = portshmem::wait_until_some(c, ivars, 0, indices, nullptr, cmp::ne, T(0));
}

// ---- one writer per array: the previous PE sets its slot after a datum it published with a fence --------------------

template <class T>
PORTSHMEM_GLOBAL void one_writer_kernel(portshmem::ctx c, T* ivars, std::size_t slots, long* data, const int* only_prev,
                                        const int* tail_out, const int* none, const T* want, std::size_t* indices,
                                        std::size_t* out) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c), next = (me + 1) % n, prev = (me + n - 1) % n;
  portshmem::p(c, data, 1000L + me, next);
  portshmem::fence(c);
  portshmem::atomic_set(c, ivars + me, T(me + 1), next);
  out[0] = portshmem::wait_until_any(c, ivars, slots, nullptr, cmp::ne, T(0));
  out[1] = data[0] == 1000L + prev; // an ordinary load after the default (acquire) wait sees the published datum
  out[2] = portshmem::wait_until_any(c, ivars, slots, none, cmp::ne, T(0)); // all excluded: SIZE_MAX at once
  out[3] = portshmem::wait_until_some(c, ivars, slots, indices, nullptr, cmp::ne, T(0), mm::comm);
  out[4] = indices[0];
  portshmem::wait_until_all(c, ivars, slots, only_prev, cmp::eq, T(prev + 1));
  out[5] = portshmem::wait_until_any_vector(c, ivars, slots, tail_out, cmp::eq, want);
  out[6] = portshmem::wait_until_some_vector(c, ivars, slots, indices + 1, tail_out, cmp::eq, want, mm::relaxed);
  out[7] = indices[1];
  portshmem::wait_until_all_vector(c, ivars, slots, only_prev, cmp::ge, want, mm::node);
  out[8] = portshmem::wait_until_some(c, ivars, slots, indices, none, cmp::ne, T(0)); // all excluded: 0 at once
}

// ---- every PE's slot written on every PE; the tail still 0 ----------------------------------------------------------

template <class T>
PORTSHMEM_GLOBAL void write_all_kernel(portshmem::ctx c, T* ivars) {
  const int me = portshmem::my_pe(c);
  for (int pe = 0; pe < portshmem::n_pes(c); ++pe) portshmem::atomic_set(c, ivars + me, T(me + 1), pe);
  portshmem::quiet(c);
}

/// Slot i holds want[i] = i + 1 for i < n, the two tail slots hold 0 (= want there).
template <class T>
PORTSHMEM_GLOBAL void all_written_kernel(portshmem::ctx c, T* ivars, std::size_t slots, const int* tail_out,
                                         const int* skip0, const int* none, const T* want, std::size_t* indices,
                                         std::size_t* out) {
  portshmem::wait_until_all(c, ivars, slots, tail_out, cmp::ge, T(1), mm::relaxed);
  portshmem::wait_until_all_vector(c, ivars, slots, nullptr, cmp::eq, want, mm::comm);
  out[0] = portshmem::test_all(c, ivars, slots, nullptr, cmp::ge, T(1));
  out[1] = portshmem::test_all(c, ivars, slots, tail_out, cmp::ge, T(1), mm::comm);
  out[2] = portshmem::test_all(c, ivars, slots, none, cmp::eq, T(77));
  out[3] = portshmem::test_any(c, ivars, slots, tail_out, cmp::eq, T(0));
  out[4] = portshmem::test_any(c, ivars, slots, nullptr, cmp::eq, T(0));
  out[5] = portshmem::test_any_vector(c, ivars, slots, skip0, cmp::eq, want, mm::node);
  out[6] = portshmem::test_some(c, ivars, slots, indices, nullptr, cmp::ge, T(1));
  out[7] = portshmem::test_some_vector(c, ivars, slots, indices + slots, skip0, cmp::eq, want);
  out[8] = portshmem::wait_until_some(c, ivars, slots, indices + 2 * slots, tail_out, cmp::gt, T(1));
  out[9] = portshmem::wait_until_any(c, ivars, slots, skip0, cmp::le, T(2), mm::relaxed);
  out[10] = portshmem::test_all_vector(c, ivars, slots, nullptr, cmp::eq, want);
  out[11] = portshmem::test_any(c, ivars, slots, none, cmp::ge, T(0));
  out[12] = portshmem::test_some_vector(c, ivars, slots, indices, none, cmp::eq, want);
}

template <class T>
class WaitVector : public ::testing::Test {};
using wait_types = ::testing::Types<int, long, unsigned int, unsigned long long>;
TYPED_TEST_SUITE(WaitVector, wait_types);

/// A status array over slots + 2 elements: 1 (excluded) where exclude(i).
template <class F>
int* status_array(std::size_t slots, F exclude) {
  std::vector<int> s(slots);
  for (std::size_t i = 0; i < slots; ++i) s[i] = exclude(i) ? 1 : 0;
  int* d = mp::private_alloc<int>(slots);
  mp::to_device(d, s);
  return d;
}

TYPED_TEST(WaitVector, AllAnySomeAndTestHonourStatusAndValues) {
  using T = TypeParam;
  const std::size_t n = std::size_t(mp::npes()), slots = n + 2, prev = std::size_t(mp::prev_pe());
  T* ivars = static_cast<T*>(portshmem_calloc(slots, sizeof(T)));
  long* data = static_cast<long*>(portshmem_calloc(1, sizeof(long)));
  int* only_prev = status_array(slots, [&](std::size_t i) { return i != prev; });
  int* tail_out = status_array(slots, [&](std::size_t i) { return i >= n; });
  int* skip0 = status_array(slots, [&](std::size_t i) { return i == 0 || i >= n; });
  int* none = status_array(slots, [](std::size_t) { return true; });
  std::vector<T> want_host(slots, T(0));
  for (std::size_t i = 0; i < n; ++i) want_host[i] = T(i + 1);
  T* want = mp::private_alloc<T>(slots);
  mp::to_device(want, want_host);
  std::size_t* indices = mp::private_alloc<std::size_t>(3 * slots);
  std::size_t* out = mp::private_alloc<std::size_t>(13);
  mp::barrier();

  mp::run(untouched_kernel<T>, dim3(1), dim3(1), mp::context(), ivars, slots, indices, out);
  {
    const std::vector<std::size_t> o = mp::to_host(out, 8);
    EXPECT_EQ(o[0], 0u) << "test_all on untouched variables";
    EXPECT_EQ(o[1], SIZE_MAX) << "test_any on untouched variables";
    EXPECT_EQ(o[2], 0u) << "test_some on untouched variables";
    EXPECT_EQ(o[3], 1u) << "test_all eq 0";
    EXPECT_LT(o[4], slots) << "test_any eq 0";
    EXPECT_EQ(o[5], 1u) << "test_all of no elements";
    EXPECT_EQ(o[6], SIZE_MAX) << "wait_until_any of no elements";
    EXPECT_EQ(o[7], 0u) << "wait_until_some of no elements";
  }
  mp::barrier();

  mp::run(one_writer_kernel<T>, dim3(1), dim3(1), mp::context(), ivars, slots, data, static_cast<const int*>(only_prev),
          static_cast<const int*>(tail_out), static_cast<const int*>(none), static_cast<const T*>(want), indices, out);
  {
    const std::vector<std::size_t> o = mp::to_host(out, 9);
    EXPECT_EQ(o[0], prev) << "wait_until_any";
    EXPECT_EQ(o[1], 1u) << "the datum published before the awaited update was not seen";
    EXPECT_EQ(o[2], SIZE_MAX) << "wait_until_any with every element excluded";
    EXPECT_EQ(o[3], 1u) << "wait_until_some count";
    EXPECT_EQ(o[4], prev) << "wait_until_some index";
    EXPECT_EQ(o[5], prev) << "wait_until_any_vector";
    EXPECT_EQ(o[6], 1u) << "wait_until_some_vector count";
    EXPECT_EQ(o[7], prev) << "wait_until_some_vector index";
    EXPECT_EQ(o[8], 0u) << "wait_until_some with every element excluded";
  }
  mp::barrier();

  mp::run(write_all_kernel<T>, dim3(1), dim3(1), mp::context(), ivars);
  mp::barrier();
  mp::run(all_written_kernel<T>, dim3(1), dim3(1), mp::context(), ivars, slots, static_cast<const int*>(tail_out),
          static_cast<const int*>(skip0), static_cast<const int*>(none), static_cast<const T*>(want), indices, out);
  {
    const std::vector<std::size_t> o = mp::to_host(out, 13), idx = mp::to_host(indices, 3 * slots);
    EXPECT_EQ(o[0], 0u) << "test_all: the tail does not hold";
    EXPECT_EQ(o[1], 1u) << "test_all with the tail excluded";
    EXPECT_EQ(o[2], 1u) << "test_all with everything excluded";
    EXPECT_EQ(o[3], SIZE_MAX) << "test_any: no included element is 0";
    EXPECT_TRUE(o[4] == n || o[4] == n + 1) << "test_any: only the tail is 0, got " << o[4];
    EXPECT_TRUE(o[5] >= 1 && o[5] < n) << "test_any_vector with slot 0 and the tail excluded, got " << o[5];
    ASSERT_EQ(o[6], n) << "test_some count";
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(idx[i], i) << "test_some index";
    ASSERT_EQ(o[7], n - 1) << "test_some_vector count";
    for (std::size_t i = 0; i + 1 < n; ++i) EXPECT_EQ(idx[slots + i], i + 1) << "test_some_vector index";
    ASSERT_EQ(o[8], n - 1) << "wait_until_some count (values > 1)";
    for (std::size_t i = 0; i + 1 < n; ++i) EXPECT_EQ(idx[2 * slots + i], i + 1) << "wait_until_some index";
    EXPECT_EQ(o[9], 1u) << "wait_until_any: the only included value <= 2 is slot 1";
    EXPECT_EQ(o[10], 1u) << "test_all_vector";
    EXPECT_EQ(o[11], SIZE_MAX) << "test_any with everything excluded";
    EXPECT_EQ(o[12], 0u) << "test_some_vector with everything excluded";
  }
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  for (void* p :
       {static_cast<void*>(only_prev), static_cast<void*>(tail_out), static_cast<void*>(skip0),
        static_cast<void*>(none), static_cast<void*>(want), static_cast<void*>(indices), static_cast<void*>(out)}) {
    EXPECT_EQ(hipFree(p), hipSuccess);
  }
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(ivars), PORTSHMEM_SUCCESS);
}

// ---- an array outside the symmetric heap: recorded, no wait -------------------------------------------------------

PORTSHMEM_GLOBAL void bad_array_kernel(portshmem::ctx c, long* priv, std::size_t* indices, std::size_t* out) {
  portshmem::wait_until_all(c, priv, 4, nullptr, cmp::eq, 12345L); // would hang if it waited
  out[0] = portshmem::wait_until_any(c, priv, 4, nullptr, cmp::eq, 12345L);
  out[1] = portshmem::wait_until_some_vector(c, priv, 4, indices, nullptr, cmp::eq, priv);
  out[2] = portshmem::test_all(c, priv, 4, nullptr, cmp::eq, 0L);
  out[3] = portshmem::test_any(c, priv, 4, nullptr, cmp::eq, 0L);
  // Starts inside the heap, runs past its end.
  out[4] = portshmem::test_some(c, reinterpret_cast<long*>(c.heap + c.heap_size) - 2, 4, indices, nullptr, cmp::eq, 0L);
}

TEST(WaitVectorBadInput, ArrayOutsideTheHeapIsRecordedAndNotAwaited) {
  long* priv = mp::private_alloc<long>(4);
  std::size_t* indices = mp::private_alloc<std::size_t>(4);
  std::size_t* out = mp::private_alloc<std::size_t>(5);
  mp::to_device(priv, std::vector<long>(4, 0));
  mp::run(bad_array_kernel, dim3(1), dim3(1), mp::context(), priv, indices, out);
  const std::vector<std::size_t> o = mp::to_host(out, 5);
  EXPECT_EQ(o[0], SIZE_MAX);
  EXPECT_EQ(o[1], 0u);
  EXPECT_EQ(o[2], 0u) << "test_all of a bad array is false, although every element would compare equal";
  EXPECT_EQ(o[3], SIZE_MAX);
  EXPECT_EQ(o[4], 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_ERR_DEVICE);
  mp::barrier();
  EXPECT_EQ(hipFree(priv), hipSuccess);
  EXPECT_EQ(hipFree(indices), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
}

// ---- the rocSHMEM-style names ---------------------------------------------------------------------------------------

/// Every PE sets its slot (me + 1) on every PE, then each PE waits on its own array through the C names.
PORTSHMEM_GLOBAL void compat_wait_kernel(portshmem::ctx c, int* ivars, std::size_t* big, std::size_t slots,
                                         const int* tail_out, const int* want, std::size_t* indices, std::size_t* out) {
  const int me = portshmem::my_pe(c), n = portshmem::n_pes(c);
  for (int pe = 0; pe < n; ++pe) {
    portshmem_int_atomic_set(c, ivars + me, me + 1, pe);
    portshmem_size_atomic_set(c, big + me, std::size_t(me) + 1, pe);
  }
  portshmem_int_wait_until_all(c, ivars, slots, tail_out, PORTSHMEM_CMP_GE, 1);
  portshmem_ctx_size_wait_until_all(c, big, std::size_t(n), nullptr, PORTSHMEM_CMP_GE, 1);
  out[0] = portshmem_int_wait_until_any(c, ivars, slots, tail_out, PORTSHMEM_CMP_EQ, n); // slot n - 1
  out[1] = portshmem_ctx_int_wait_until_some(c, ivars, slots, indices, tail_out, PORTSHMEM_CMP_GT, 0);
  out[2] = portshmem_int_wait_until_any_vector(c, ivars, slots, nullptr, PORTSHMEM_CMP_EQ, want);
  out[3] = portshmem_int_wait_until_some_vector(c, ivars, slots, indices, tail_out, PORTSHMEM_CMP_EQ, want);
  out[4] = std::size_t(portshmem_int_test_all(c, ivars, slots, tail_out, PORTSHMEM_CMP_NE, 0));
  out[5] = portshmem_ctx_int_test_any(c, ivars, slots, nullptr, PORTSHMEM_CMP_LT, 1);       // a tail slot
  out[6] = portshmem_int_test_some(c, ivars, slots, indices, nullptr, PORTSHMEM_CMP_LE, 1); // slot 0 and the tail
  out[7] = std::size_t(portshmem_int_test_all_vector(c, ivars, slots, nullptr, PORTSHMEM_CMP_EQ, want));
  out[8] = portshmem_size_test_any_vector(c, big, std::size_t(n), nullptr, PORTSHMEM_CMP_NE, big); // none differs
  out[9] =
      portshmem_long_test_some_vector(c, reinterpret_cast<long*>(big), 0, indices, nullptr, PORTSHMEM_CMP_EQ, nullptr);
}

TEST(WaitVectorCompat, NamesForwardToTheCxxApi) {
  const std::size_t n = std::size_t(mp::npes()), slots = n + 2;
  int* ivars = static_cast<int*>(portshmem_calloc(slots, sizeof(int)));
  auto* big = static_cast<std::size_t*>(portshmem_calloc(n, sizeof(std::size_t)));
  int* tail_out = status_array(slots, [&](std::size_t i) { return i >= n; });
  std::vector<int> want_host(slots, 0);
  for (std::size_t i = 0; i < n; ++i) want_host[i] = int(i) + 1;
  int* want = mp::private_alloc<int>(slots);
  mp::to_device(want, want_host);
  std::size_t* indices = mp::private_alloc<std::size_t>(slots);
  std::size_t* out = mp::private_alloc<std::size_t>(10);
  mp::barrier();
  mp::run(compat_wait_kernel, dim3(1), dim3(1), mp::context(), ivars, big, slots, static_cast<const int*>(tail_out),
          static_cast<const int*>(want), indices, out);
  const std::vector<std::size_t> o = mp::to_host(out, 10);
  EXPECT_EQ(o[0], n - 1);
  EXPECT_EQ(o[1], n);
  EXPECT_LT(o[2], slots);
  EXPECT_EQ(o[3], n);
  EXPECT_EQ(o[4], 1u);
  EXPECT_TRUE(o[5] == n || o[5] == n + 1) << o[5];
  EXPECT_EQ(o[6], 3u);
  EXPECT_EQ(o[7], 1u);
  EXPECT_EQ(o[8], SIZE_MAX);
  EXPECT_EQ(o[9], 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(tail_out), hipSuccess);
  EXPECT_EQ(hipFree(want), hipSuccess);
  EXPECT_EQ(hipFree(indices), hipSuccess);
  EXPECT_EQ(hipFree(out), hipSuccess);
  EXPECT_EQ(portshmem_free(big), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(ivars), PORTSHMEM_SUCCESS);
}

} // namespace
