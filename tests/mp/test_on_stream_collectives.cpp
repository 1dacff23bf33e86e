// Team collectives on a stream (portshmem/stream.h), called from the host: team barrier and sync complete a ring of
// puts (world and a split team); broadcast (two roots, both algorithms), fcollect and alltoall deliver every byte and
// leave the guards around dest alone; reduce and reduce_scatter give exact results for every element type and every
// operator it takes (small integers, which every type holds exactly, so one expected value serves all), and min, max
// and sum keep each integer type's signedness and wrap; bad arguments are refused before anything is enqueued, and
// the team's next collective still lines up.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "mp_test.hpp"

namespace {

constexpr std::size_t kPad = 61; // guard bytes after each dest

class OnStreamCollectives : public ::testing::Test {
 protected:
  void SetUp() override { EXPECT_EQ(hipStreamCreate(&stream_), hipSuccess); }
  void TearDown() override { EXPECT_EQ(hipStreamDestroy(stream_), hipSuccess); }
  portshmem_stream_t stream() const { return stream_; }
  void sync() const { EXPECT_EQ(hipStreamSynchronize(stream_), hipSuccess); }

 private:
  hipStream_t stream_{};
};

std::vector<std::uint8_t> pattern_of(int pe, std::size_t n, unsigned salt) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = mp::pattern(pe, i, salt);
  return v;
}

/// Bytes of got[0, expected.size()) unlike expected, plus guard bytes after it that changed.
std::size_t wrong_bytes(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& expected) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != (i < expected.size() ? expected[i] : mp::kGuard);
  return wrong;
}

// ---- barrier and sync: a ring of puts completed by them -------------------------------------------------------------

/// Members of team t (whose world PEs are start + index * stride) put their pattern to the next member, then call
/// done (the barrier or sync under test); each member then finds the previous member's pattern. Non-members of t only
/// join the host barriers.
template <class Done>
void check_ring(portshmem_team_t team, portshmem_stream_t stream, unsigned salt, Done done) {
  constexpr std::size_t n = 3001;
  auto* data = mp::sym_alloc<std::uint8_t>(n + kPad);
  auto* src = mp::private_alloc<std::uint8_t>(n);
  mp::to_device(data, std::vector<std::uint8_t>(n + kPad, mp::kGuard));
  mp::to_device(src, pattern_of(mp::me(), n, salt));
  mp::barrier();
  const int index = portshmem_team_my_pe(team), size = portshmem_team_n_pes(team);
  if (index >= 0) {
    portshmem_team_handle_t t{};
    EXPECT_EQ(portshmem_team_get_handle(team, &t), PORTSHMEM_SUCCESS);
    const int next = t.start + (index + 1) % size * t.stride, prev = t.start + (index + size - 1) % size * t.stride;
    EXPECT_EQ(portshmem_putmem_on_stream(data, src, n, next, stream), PORTSHMEM_SUCCESS);
    done(team, stream);
    EXPECT_EQ(hipStreamSynchronize(static_cast<hipStream_t>(stream)), hipSuccess);
    EXPECT_EQ(wrong_bytes(mp::to_host(data, n + kPad), pattern_of(prev, n, salt)), 0u) << "team of " << size;
  }
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

void team_barrier(portshmem_team_t team, portshmem_stream_t s) {
  EXPECT_EQ(portshmem_team_barrier_on_stream(team, s), PORTSHMEM_SUCCESS);
}

/// sync completes nothing: each member quiets its own put first.
void quiet_then_team_sync(portshmem_team_t team, portshmem_stream_t s) {
  EXPECT_EQ(portshmem_quiet_on_stream(s), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_team_sync_on_stream(team, s), PORTSHMEM_SUCCESS);
}

/// The even world PEs as a team (PORTSHMEM_TEAM_INVALID on the odd ones).
portshmem_team_t even_pes() {
  portshmem_team_t team = PORTSHMEM_TEAM_INVALID;
  EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, 0, 2, (mp::npes() + 1) / 2, nullptr, 0, &team),
            PORTSHMEM_SUCCESS);
  EXPECT_EQ(team == PORTSHMEM_TEAM_INVALID, mp::me() % 2 != 0);
  return team;
}

TEST_F(OnStreamCollectives, TeamBarrierCompletesPuts) {
  check_ring(PORTSHMEM_TEAM_WORLD, stream(), 1, team_barrier);
  const portshmem_team_t evens = even_pes();
  check_ring(evens, stream(), 2, team_barrier);
  if (evens != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_destroy(evens), PORTSHMEM_SUCCESS);
}

TEST_F(OnStreamCollectives, TeamSyncAfterQuietCompletesPuts) {
  check_ring(PORTSHMEM_TEAM_WORLD, stream(), 3, quiet_then_team_sync);
  const portshmem_team_t evens = even_pes();
  check_ring(evens, stream(), 4, quiet_then_team_sync);
  if (evens != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_destroy(evens), PORTSHMEM_SUCCESS);
}

// ---- broadcast, fcollect, alltoall ----------------------------------------------------------------------------------

TEST_F(OnStreamCollectives, BroadcastFromEachEnd) {
  unsigned salt = 10;
  // 70000 bytes: the scatter-and-forward algorithm where the team has more than 2 members.
  for (std::size_t n : {std::size_t(1000), std::size_t(70000)}) {
    for (int root : {0, mp::npes() - 1}) {
      ++salt;
      auto* dest = mp::sym_alloc<std::uint8_t>(n + kPad);
      auto* src = mp::private_alloc<std::uint8_t>(n);
      mp::to_device(dest, std::vector<std::uint8_t>(n + kPad, mp::kGuard));
      mp::to_device(src, pattern_of(mp::me(), n, salt));
      mp::barrier();
      // Only the root's src is read: the others pass NULL.
      const void* from = mp::me() == root ? src : nullptr;
      EXPECT_EQ(portshmem_broadcastmem_on_stream(PORTSHMEM_TEAM_WORLD, dest, from, n, root, stream()),
                PORTSHMEM_SUCCESS);
      sync();
      EXPECT_EQ(wrong_bytes(mp::to_host(dest, n + kPad), pattern_of(root, n, salt)), 0u) << n << " from " << root;
      EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
      mp::barrier();
      EXPECT_EQ(hipFree(src), hipSuccess);
      EXPECT_EQ(portshmem_free(dest), PORTSHMEM_SUCCESS);
    }
  }
}

TEST_F(OnStreamCollectives, FcollectGathersEveryMember) {
  unsigned salt = 20;
  const std::size_t npes = std::size_t(mp::npes());
  for (std::size_t n : {std::size_t(24), std::size_t(5001)}) {
    ++salt;
    auto* dest = mp::sym_alloc<std::uint8_t>(npes * n + kPad);
    auto* src = mp::private_alloc<std::uint8_t>(n);
    mp::to_device(dest, std::vector<std::uint8_t>(npes * n + kPad, mp::kGuard));
    mp::to_device(src, pattern_of(mp::me(), n, salt));
    mp::barrier();
    EXPECT_EQ(portshmem_fcollectmem_on_stream(PORTSHMEM_TEAM_WORLD, dest, src, n, stream()), PORTSHMEM_SUCCESS);
    sync();
    std::vector<std::uint8_t> expected;
    for (int pe = 0; pe < mp::npes(); ++pe) {
      const std::vector<std::uint8_t> block = pattern_of(pe, n, salt);
      expected.insert(expected.end(), block.begin(), block.end());
    }
    EXPECT_EQ(wrong_bytes(mp::to_host(dest, npes * n + kPad), expected), 0u) << n;
    EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
    mp::barrier();
    EXPECT_EQ(hipFree(src), hipSuccess);
    EXPECT_EQ(portshmem_free(dest), PORTSHMEM_SUCCESS);
  }
}

TEST_F(OnStreamCollectives, AlltoallDeliversEveryPair) {
  unsigned salt = 30;
  const std::size_t npes = std::size_t(mp::npes());
  for (std::size_t n : {std::size_t(16), std::size_t(3003)}) {
    salt += 10;
    auto* dest = mp::sym_alloc<std::uint8_t>(npes * n + kPad);
    auto* src = mp::private_alloc<std::uint8_t>(npes * n);
    mp::to_device(dest, std::vector<std::uint8_t>(npes * n + kPad, mp::kGuard));
    std::vector<std::uint8_t> mine; // block j, for member j: this PE's pattern salted with j
    for (int j = 0; j < mp::npes(); ++j) {
      const std::vector<std::uint8_t> block = pattern_of(mp::me(), n, salt + unsigned(j));
      mine.insert(mine.end(), block.begin(), block.end());
    }
    mp::to_device(src, mine);
    mp::barrier();
    EXPECT_EQ(portshmem_alltoallmem_on_stream(PORTSHMEM_TEAM_WORLD, dest, src, n, stream()), PORTSHMEM_SUCCESS);
    sync();
    std::vector<std::uint8_t> expected; // block i, from member i: its pattern salted with this PE
    for (int i = 0; i < mp::npes(); ++i) {
      const std::vector<std::uint8_t> block = pattern_of(i, n, salt + unsigned(mp::me()));
      expected.insert(expected.end(), block.begin(), block.end());
    }
    EXPECT_EQ(wrong_bytes(mp::to_host(dest, npes * n + kPad), expected), 0u) << n;
    EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
    mp::barrier();
    EXPECT_EQ(hipFree(src), hipSuccess);
    EXPECT_EQ(portshmem_free(dest), PORTSHMEM_SUCCESS);
  }
}

// ---- reduce and reduce_scatter: every element type x every operator it takes ----------------------------------------

/// The bits of IEEE binary16 and bfloat16 values, as the device API stores them (float16.hpp).
struct half_bits {
  std::uint16_t bits;
};
struct bfloat16_bits {
  std::uint16_t bits;
};

/// Small integers (|v| < 256) as elements of T, exactly.
template <class T>
T element(int v) {
  return T(v);
}
template <>
half_bits element<half_bits>(int v) {
  if (v == 0) return {0};
  const unsigned a = unsigned(v < 0 ? -v : v);
  unsigned e = 0;
  while ((a >> (e + 1)) != 0) ++e; // a = 1.m * 2^e
  const unsigned mantissa = (a << (10 - e)) & 0x3ffu;
  return {std::uint16_t((v < 0 ? 0x8000u : 0u) | ((e + 15u) << 10) | mantissa)};
}
template <>
bfloat16_bits element<bfloat16_bits>(int v) {
  const float f = float(v);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return {std::uint16_t(bits >> 16)}; // small integers need no rounding
}

template <class T>
inline constexpr bool kSignedElement = !std::is_integral_v<T> || std::is_signed_v<T>;

/// Member p's element k for op: values whose reductions over up to 8 members stay small integers.
int value(int op, bool is_signed, int p, std::size_t k) {
  const int kk = int(k % 1000);
  switch (op) {
  case PORTSHMEM_REDUCE_SUM:
    return 1 + (p + kk) % 3 - (is_signed && kk % 4 == 1 ? 3 : 0);
  case PORTSHMEM_REDUCE_PROD:
    return ((p + kk) % 4 == 0 ? 2 : 1) * (is_signed && (p + 2 * kk) % 5 == 0 ? -1 : 1);
  case PORTSHMEM_REDUCE_MIN:
  case PORTSHMEM_REDUCE_MAX:
    return (p * 7 + kk * 3) % 11 - (is_signed ? 5 : 0);
  default: // and, or, xor
    return ((p * 5 + kk) * 37) & 0x7f;
  }
}

/// op over members 0..n-1 of value(op, p, k), in member order.
int reduced(int op, bool is_signed, int n, std::size_t k) {
  int acc = value(op, is_signed, 0, k);
  for (int p = 1; p < n; ++p) {
    const int v = value(op, is_signed, p, k);
    switch (op) {
    case PORTSHMEM_REDUCE_SUM:
      acc += v;
      break;
    case PORTSHMEM_REDUCE_PROD:
      acc *= v;
      break;
    case PORTSHMEM_REDUCE_MIN:
      acc = v < acc ? v : acc;
      break;
    case PORTSHMEM_REDUCE_MAX:
      acc = v > acc ? v : acc;
      break;
    case PORTSHMEM_REDUCE_AND:
      acc &= v;
      break;
    case PORTSHMEM_REDUCE_OR:
      acc |= v;
      break;
    default:
      acc ^= v;
      break;
    }
  }
  return acc;
}

/// Elements of got that differ bitwise from expected.
template <class T>
std::size_t wrong_elements(const std::vector<T>& got, const std::vector<T>& expected) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += std::memcmp(&got[i], &expected[i], sizeof(T)) != 0;
  return wrong;
}

/// Every operator type takes: reduce of count elements, then reduce_scatter of count elements per member, each
/// checked element by element on every PE, with guard bytes after dest.
template <class T>
void check_reductions(portshmem_datatype_t type, portshmem_stream_t stream, std::size_t count) {
  constexpr bool is_signed = kSignedElement<T>;
  const int n = mp::npes();
  const int last_op = std::is_integral_v<T> ? PORTSHMEM_REDUCE_XOR : PORTSHMEM_REDUCE_MAX;
  auto* dest = static_cast<T*>(portshmem_malloc(count * sizeof(T) + kPad));
  auto* src = mp::private_alloc<T>(count * std::size_t(n));
  for (int op = PORTSHMEM_REDUCE_SUM; op <= last_op; ++op) {
    for (bool scatter : {false, true}) {
      const std::size_t src_count = scatter ? count * std::size_t(n) : count;
      std::vector<T> mine(src_count), expected(count);
      for (std::size_t k = 0; k < src_count; ++k) mine[k] = element<T>(value(op, is_signed, mp::me(), k));
      const std::size_t offset = scatter ? std::size_t(mp::me()) * count : 0; // this PE's block of the scatter
      for (std::size_t k = 0; k < count; ++k) expected[k] = element<T>(reduced(op, is_signed, n, offset + k));
      mp::to_device(src, mine);
      mp::to_device(reinterpret_cast<std::uint8_t*>(dest), std::vector<std::uint8_t>(count * sizeof(T) + kPad, 0xAA));
      mp::barrier();
      const auto o = portshmem_reduce_op_t(op);
      EXPECT_EQ(scatter ? portshmem_reduce_scatter_on_stream(PORTSHMEM_TEAM_WORLD, dest, src, count, type, o, stream)
                        : portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, dest, src, count, type, o, stream),
                PORTSHMEM_SUCCESS);
      EXPECT_EQ(hipStreamSynchronize(static_cast<hipStream_t>(stream)), hipSuccess);
      EXPECT_EQ(wrong_elements(mp::to_host(dest, count), expected), 0u)
          << (scatter ? "reduce_scatter" : "reduce") << " op " << op << ", " << count << " elements";
      std::size_t guards = 0;
      for (std::uint8_t b : mp::to_host(reinterpret_cast<std::uint8_t*>(dest) + count * sizeof(T), kPad))
        guards += b != 0xAA;
      EXPECT_EQ(guards, 0u) << "written past dest, op " << op;
      mp::barrier();
    }
  }
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(portshmem_free(dest), PORTSHMEM_SUCCESS);
}

struct reduce_type_case {
  const char* name;
  portshmem_datatype_t type;
  void (*check)(portshmem_datatype_t type, portshmem_stream_t stream, std::size_t count);
};

void PrintTo(const reduce_type_case& c, std::ostream* os) {
  *os << c.name;
}

const reduce_type_case kReduceTypes[] = {
    {"CHAR", PORTSHMEM_DATATYPE_CHAR, check_reductions<char>},
    {"SCHAR", PORTSHMEM_DATATYPE_SCHAR, check_reductions<signed char>},
    {"SHORT", PORTSHMEM_DATATYPE_SHORT, check_reductions<short>},
    {"INT", PORTSHMEM_DATATYPE_INT, check_reductions<int>},
    {"LONG", PORTSHMEM_DATATYPE_LONG, check_reductions<long>},
    {"LONGLONG", PORTSHMEM_DATATYPE_LONGLONG, check_reductions<long long>},
    {"PTRDIFF", PORTSHMEM_DATATYPE_PTRDIFF, check_reductions<std::ptrdiff_t>},
    {"UCHAR", PORTSHMEM_DATATYPE_UCHAR, check_reductions<unsigned char>},
    {"USHORT", PORTSHMEM_DATATYPE_USHORT, check_reductions<unsigned short>},
    {"UINT", PORTSHMEM_DATATYPE_UINT, check_reductions<unsigned int>},
    {"ULONG", PORTSHMEM_DATATYPE_ULONG, check_reductions<unsigned long>},
    {"ULONGLONG", PORTSHMEM_DATATYPE_ULONGLONG, check_reductions<unsigned long long>},
    {"SIZE", PORTSHMEM_DATATYPE_SIZE, check_reductions<std::size_t>},
    {"INT8", PORTSHMEM_DATATYPE_INT8, check_reductions<std::int8_t>},
    {"INT16", PORTSHMEM_DATATYPE_INT16, check_reductions<std::int16_t>},
    {"INT32", PORTSHMEM_DATATYPE_INT32, check_reductions<std::int32_t>},
    {"INT64", PORTSHMEM_DATATYPE_INT64, check_reductions<std::int64_t>},
    {"UINT8", PORTSHMEM_DATATYPE_UINT8, check_reductions<std::uint8_t>},
    {"UINT16", PORTSHMEM_DATATYPE_UINT16, check_reductions<std::uint16_t>},
    {"UINT32", PORTSHMEM_DATATYPE_UINT32, check_reductions<std::uint32_t>},
    {"UINT64", PORTSHMEM_DATATYPE_UINT64, check_reductions<std::uint64_t>},
    {"FLOAT", PORTSHMEM_DATATYPE_FLOAT, check_reductions<float>},
    {"DOUBLE", PORTSHMEM_DATATYPE_DOUBLE, check_reductions<double>},
    {"HALF", PORTSHMEM_DATATYPE_HALF, check_reductions<half_bits>},
    {"BFLOAT16", PORTSHMEM_DATATYPE_BFLOAT16, check_reductions<bfloat16_bits>},
};

class OnStreamReduce : public ::testing::TestWithParam<reduce_type_case> {};

TEST_P(OnStreamReduce, EveryOperatorIsExact) {
  hipStream_t stream{};
  EXPECT_EQ(hipStreamCreate(&stream), hipSuccess);
  GetParam().check(GetParam().type, stream, 37);
  EXPECT_EQ(hipStreamDestroy(stream), hipSuccess);
}

INSTANTIATE_TEST_SUITE_P(OnStream, OnStreamReduce, ::testing::ValuesIn(kReduceTypes),
                         [](const ::testing::TestParamInfo<reduce_type_case>& p) { return std::string(p.param.name); });

/// Past 16 KiB the reduction goes by slices (reduce-scatter, then all-gather), and a reduce_scatter this large by
/// several scratch-sized chunks where PORTSHMEM_TEAM_SCRATCH is small.
TEST_F(OnStreamCollectives, LargeReductionsAreExact) {
  check_reductions<std::int32_t>(PORTSHMEM_DATATYPE_INT32, stream(), 6000);
  check_reductions<double>(PORTSHMEM_DATATYPE_DOUBLE, stream(), 5000);
}

TEST_F(OnStreamCollectives, ReduceInPlace) {
  constexpr std::size_t count = 100;
  auto* data = mp::sym_alloc<long>(count);
  std::vector<long> mine(count);
  for (std::size_t k = 0; k < count; ++k) mine[k] = long(k) * 10 + mp::me();
  mp::to_device(data, mine);
  mp::barrier();
  EXPECT_EQ(portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, data, data, count, PORTSHMEM_DATATYPE_LONG,
                                       PORTSHMEM_REDUCE_SUM, stream()),
            PORTSHMEM_SUCCESS);
  sync();
  const long n = mp::npes();
  std::size_t wrong = 0;
  const std::vector<long> got = mp::to_host(data, count);
  for (std::size_t k = 0; k < count; ++k) wrong += got[k] != long(k) * 10 * n + n * (n - 1) / 2;
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(portshmem_free(data), PORTSHMEM_SUCCESS);
}

/// min, max and sum of T where every member but the first holds a value with the top bit set (T's lowest for a signed
/// T, above its largest half for an unsigned one): min and max compare with T's signedness, and sums wrap as two's
/// complement (the kernels combine these by element size and signedness, reduction_kernels.hpp).
template <class T>
void check_integer_extremes(portshmem_datatype_t type, portshmem_stream_t stream) {
  using U = std::make_unsigned_t<T>;
  constexpr std::size_t count = 7;
  const T top = std::is_signed_v<T> ? std::numeric_limits<T>::min() : T(std::numeric_limits<T>::max() / 2 + 1);
  auto value = [&](int p, std::size_t k) { return p == 0 ? T(k + 1) : T(top + T(k)); };
  auto* dest = static_cast<T*>(portshmem_malloc(count * sizeof(T)));
  auto* src = mp::private_alloc<T>(count);
  std::vector<T> mine(count);
  for (std::size_t k = 0; k < count; ++k) mine[k] = value(mp::me(), k);
  mp::to_device(src, mine);
  for (portshmem_reduce_op_t op : {PORTSHMEM_REDUCE_MIN, PORTSHMEM_REDUCE_MAX, PORTSHMEM_REDUCE_SUM}) {
    std::vector<T> expected(count);
    for (std::size_t k = 0; k < count; ++k) {
      T acc = value(0, k);
      U sum = U(acc);
      for (int p = 1; p < mp::npes(); ++p) {
        const T v = value(p, k);
        acc = op == PORTSHMEM_REDUCE_MIN ? std::min(acc, v) : std::max(acc, v);
        sum = U(sum + U(v));
      }
      expected[k] = op == PORTSHMEM_REDUCE_SUM ? T(sum) : acc;
    }
    mp::barrier();
    EXPECT_EQ(portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, dest, src, count, type, op, stream), PORTSHMEM_SUCCESS);
    EXPECT_EQ(hipStreamSynchronize(static_cast<hipStream_t>(stream)), hipSuccess);
    EXPECT_EQ(wrong_elements(mp::to_host(dest, count), expected), 0u) << "type " << type << ", op " << op;
  }
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(src), hipSuccess);
  EXPECT_EQ(portshmem_free(dest), PORTSHMEM_SUCCESS);
}

TEST_F(OnStreamCollectives, IntegerReductionsKeepSignednessAndWrap) {
  check_integer_extremes<char>(PORTSHMEM_DATATYPE_CHAR, stream());
  check_integer_extremes<std::int8_t>(PORTSHMEM_DATATYPE_INT8, stream());
  check_integer_extremes<std::uint8_t>(PORTSHMEM_DATATYPE_UINT8, stream());
  check_integer_extremes<std::int16_t>(PORTSHMEM_DATATYPE_INT16, stream());
  check_integer_extremes<std::uint16_t>(PORTSHMEM_DATATYPE_UINT16, stream());
  check_integer_extremes<std::int32_t>(PORTSHMEM_DATATYPE_INT32, stream());
  check_integer_extremes<std::uint32_t>(PORTSHMEM_DATATYPE_UINT32, stream());
  check_integer_extremes<long>(PORTSHMEM_DATATYPE_LONG, stream());
  check_integer_extremes<unsigned long>(PORTSHMEM_DATATYPE_ULONG, stream());
}

// ---- bad arguments: refused on every PE alike, before anything is enqueued ------------------------------------------

constexpr std::size_t kBadBytes = 64;
constexpr std::uint8_t kDestGuard = 0xD7;

struct bad_buffers {
  std::uint8_t* dest; // symmetric, n * kBadBytes of kDestGuard
  std::uint8_t* priv; // private, n * kBadBytes of kDestGuard
  std::uint8_t* from; // private, n * kBadBytes of this PE's pattern
  int n;
};

struct bad_collective {
  const char* name;
  portshmem_status_t expected;
  portshmem_status_t (*call)(const bad_buffers& b, portshmem_stream_t s);
};

void PrintTo(const bad_collective& c, std::ostream* os) {
  *os << c.name;
}

constexpr portshmem_team_t kNoSuchTeam = 1000;

const bad_collective kBadCollectives[] = {
    {"barrier_team_invalid", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers&, portshmem_stream_t s) {
       return portshmem_team_barrier_on_stream(PORTSHMEM_TEAM_INVALID, s);
     }},
    {"sync_no_such_team", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers&, portshmem_stream_t s) { return portshmem_team_sync_on_stream(kNoSuchTeam, s); }},
    {"broadcast_root_too_large", PORTSHMEM_ERR_INVALID_PE,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_broadcastmem_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, 8, b.n, s);
     }},
    {"broadcast_root_negative", PORTSHMEM_ERR_INVALID_PE,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_broadcastmem_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, 8, -1, s);
     }},
    {"broadcast_dest_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_broadcastmem_on_stream(PORTSHMEM_TEAM_WORLD, b.priv, b.from, 8, 0, s);
     }},
    {"fcollect_team_invalid", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_fcollectmem_on_stream(PORTSHMEM_TEAM_INVALID, b.dest, b.from, 8, s);
     }},
    {"fcollect_size_overflows", PORTSHMEM_ERR_OVERFLOW,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_fcollectmem_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, SIZE_MAX / 2 + 1, s);
     }},
    {"fcollect_src_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_fcollectmem_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, nullptr, 8, s);
     }},
    {"alltoall_dest_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_alltoallmem_on_stream(PORTSHMEM_TEAM_WORLD, b.priv, b.from, 8, s);
     }},
    {"alltoall_past_heap_end", PORTSHMEM_ERR_OVERFLOW,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_alltoallmem_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, SIZE_MAX / 4, s);
     }},
    {"reduce_and_of_float", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, 4, PORTSHMEM_DATATYPE_FLOAT,
                                         PORTSHMEM_REDUCE_AND, s);
     }},
    {"reduce_xor_of_half", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, 4, PORTSHMEM_DATATYPE_HALF,
                                         PORTSHMEM_REDUCE_XOR, s);
     }},
    {"reduce_unknown_type", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, 4, portshmem_datatype_t(99),
                                         PORTSHMEM_REDUCE_SUM, s);
     }},
    {"reduce_unknown_op", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, 4, PORTSHMEM_DATATYPE_INT,
                                         portshmem_reduce_op_t(7), s);
     }},
    {"reduce_count_overflows", PORTSHMEM_ERR_OVERFLOW,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, SIZE_MAX / 2, PORTSHMEM_DATATYPE_INT,
                                         PORTSHMEM_REDUCE_SUM, s);
     }},
    {"reduce_dest_null", PORTSHMEM_ERR_INVALID_ARG,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, nullptr, b.from, 4, PORTSHMEM_DATATYPE_INT,
                                         PORTSHMEM_REDUCE_MAX, s);
     }},
    {"reduce_scatter_src_overflows", PORTSHMEM_ERR_OVERFLOW,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_scatter_on_stream(PORTSHMEM_TEAM_WORLD, b.dest, b.from, SIZE_MAX / 8 - 1,
                                                 PORTSHMEM_DATATYPE_INT64, PORTSHMEM_REDUCE_SUM, s);
     }},
    {"reduce_scatter_dest_private", PORTSHMEM_ERR_NOT_SYMMETRIC,
     [](const bad_buffers& b, portshmem_stream_t s) {
       return portshmem_reduce_scatter_on_stream(PORTSHMEM_TEAM_WORLD, b.priv, b.from, 2, PORTSHMEM_DATATYPE_INT,
                                                 PORTSHMEM_REDUCE_OR, s);
     }},
};

class OnStreamBadCollective : public ::testing::TestWithParam<bad_collective> {};

TEST_P(OnStreamBadCollective, IsRefusedAndTheTeamStaysInStep) {
  hipStream_t stream{};
  EXPECT_EQ(hipStreamCreate(&stream), hipSuccess);
  const std::size_t bytes = std::size_t(mp::npes()) * kBadBytes;
  bad_buffers b{mp::sym_alloc<std::uint8_t>(bytes), mp::private_alloc<std::uint8_t>(bytes),
                mp::private_alloc<std::uint8_t>(bytes), mp::npes()};
  auto* one = mp::sym_alloc<int>(1);
  mp::to_device(b.dest, std::vector<std::uint8_t>(bytes, kDestGuard));
  mp::to_device(b.priv, std::vector<std::uint8_t>(bytes, kDestGuard));
  mp::to_device(b.from, pattern_of(mp::me(), bytes, 60));
  mp::to_device(one, std::vector<int>{1});
  mp::barrier();
  EXPECT_EQ(GetParam().call(b, stream), GetParam().expected)
      << "expected " << portshmem_status_string(GetParam().expected);
  // Had this PE enqueued its part of the collective, the team's rounds would be out of step and this sum would not
  // come out (or would wait).
  EXPECT_EQ(portshmem_reduce_on_stream(PORTSHMEM_TEAM_WORLD, one, one, 1, PORTSHMEM_DATATYPE_INT, PORTSHMEM_REDUCE_SUM,
                                       stream),
            PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipStreamSynchronize(stream), hipSuccess);
  mp::barrier();
  EXPECT_EQ(mp::to_host(one, 1)[0], mp::npes());
  std::size_t changed = 0;
  for (std::uint8_t v : mp::to_host(b.dest, bytes)) changed += v != kDestGuard;
  for (std::uint8_t v : mp::to_host(b.priv, bytes)) changed += v != kDestGuard;
  EXPECT_EQ(changed, 0u) << "a refused collective changed memory";
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS) << "a kernel ran and recorded a bad call";
  mp::barrier();
  EXPECT_EQ(hipFree(b.priv), hipSuccess);
  EXPECT_EQ(hipFree(b.from), hipSuccess);
  EXPECT_EQ(portshmem_free(one), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(b.dest), PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipStreamDestroy(stream), hipSuccess);
}

INSTANTIATE_TEST_SUITE_P(OnStream, OnStreamBadCollective, ::testing::ValuesIn(kBadCollectives),
                         [](const ::testing::TestParamInfo<bad_collective>& p) { return std::string(p.param.name); });

} // namespace
