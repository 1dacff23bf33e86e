// reduce and reduce_scatter: every operation on every element type OpenSHMEM reduces (and half_t, bfloat16_t), in
// thread, wave and block forms, on the world and on sub-teams, against references folded in member order (exact
// bits: every member must produce the same bits, floats included). Sizes 0, 1, odd, at and past the one-shot limit
// (kReduceOneShotBytes), several MiB (crossing the scratch chunking), in place; reduce_scatter across its slice
// limit. The 16-bit conversions the references use are first checked against known bits.
#include <cstddef>
#include <cstdint>

#include "reduce_test.hpp"

namespace {

using coll::form;
using coll::op;

// ---- float16.hpp against known values -------------------------------------------------------------------------------

PORTSHMEM_GLOBAL void convert16(const float* f, std::size_t nf, std::uint16_t* half_bits, std::uint16_t* bf16_bits,
                                const std::uint16_t* bits, std::size_t nb, float* from_half, float* from_bf16) {
  if (portshmem::thread_rank() != 0) return;
  for (std::size_t i = 0; i < nf; ++i) {
    half_bits[i] = portshmem::to_half(f[i]).bits;
    bf16_bits[i] = portshmem::to_bfloat16(f[i]).bits;
  }
  for (std::size_t i = 0; i < nb; ++i) {
    from_half[i] = portshmem::to_float(portshmem::half_t{bits[i]});
    from_bf16[i] = portshmem::to_float(portshmem::bfloat16_t{bits[i]});
  }
}

float float_of(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
std::uint32_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(Float16, ConversionsGiveKnownBits) {
  struct to_case {
    float value;
    std::uint16_t half, bf16; // round to nearest, ties to even
  };
  const to_case to[] = {
      {1.0f, 0x3c00, 0x3f80},
      {-2.0f, 0xc000, 0xc000},
      {0.0f, 0x0000, 0x0000},
      {-0.0f, 0x8000, 0x8000},
      {65504.0f, 0x7bff, 0x4780},                // largest half; bf16 rounds up to 65536
      {65519.0f, 0x7bff, 0x4780},                // below the half overflow tie
      {65520.0f, 0x7c00, 0x4780},                // half tie between 65504 and 65536: even is infinity
      {0.1f, 0x2e66, 0x3dcd},                    // rounded both ways
      {1.0f + 0x1p-11f, 0x3c00, 0x3f80},         // half tie, even (down)
      {1.0f + 3 * 0x1p-11f, 0x3c02, 0x3f80},     // half tie, even (up)
      {1.0f + 0x1p-8f, 0x3c04, 0x3f80},          // bf16 tie, even (down)
      {1.0f + 3 * 0x1p-8f, 0x3c0c, 0x3f82},      // bf16 tie, even (up)
      {0x1p-24f, 0x0001, 0x3380},                // smallest half subnormal
      {0x1p-25f, 0x0000, 0x3300},                // half tie between 0 and 2^-24: even is 0
      {3 * 0x1p-25f, 0x0002, 0x33c0},            // half tie between 1 and 2 ulps: even is 2
      {1023 * 0x1p-24f, 0x03ff, 0x3880},         // largest half subnormal (bf16 rounds up)
      {0x1p-14f, 0x0400, 0x3880},                // smallest normal half
      {float_of(0x00010000), 0x0000, 0x0001},    // smallest bf16 subnormal, 2^-133
      {float_of(0x7f7fffff), 0x7c00, 0x7f80},    // largest float: both overflow to infinity
      {float_of(0xff800000), 0xfc00, 0xff80},    // -infinity
      {-5.9604644775390625e-8f, 0x8001, 0xb380}, // -2^-24
  };
  const std::uint16_t from_bits[] = {0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0x7c00, 0xfc00, 0x8000, 0x3555, 0x3f80};
  const std::uint32_t from_half_want[] = {0x33800000, 0x387fc000, 0x38800000, 0x3f800000, 0x477fe000,
                                          0x7f800000, 0xff800000, 0x80000000, 0x3eaaa000, 0x3ff00000};
  const std::uint32_t from_bf16_want[] = {0x00010000, 0x03ff0000, 0x04000000, 0x3c000000, 0x7bff0000,
                                          0x7c000000, 0xfc000000, 0x80000000, 0x35550000, 0x3f800000};
  constexpr std::size_t nf = sizeof to / sizeof to[0], nb = sizeof from_bits / sizeof from_bits[0];
  std::vector<float> f(nf);
  for (std::size_t i = 0; i < nf; ++i) f[i] = to[i].value;
  float* d_f = mp::private_alloc<float>(nf);
  auto* d_half = mp::private_alloc<std::uint16_t>(nf);
  auto* d_bf16 = mp::private_alloc<std::uint16_t>(nf);
  auto* d_bits = mp::private_alloc<std::uint16_t>(nb);
  float* d_from_half = mp::private_alloc<float>(nb);
  float* d_from_bf16 = mp::private_alloc<float>(nb);
  mp::to_device(d_f, f);
  mp::to_device(d_bits, std::vector<std::uint16_t>(from_bits, from_bits + nb));
  mp::run(convert16, dim3(1), dim3(1), static_cast<const float*>(d_f), nf, d_half, d_bf16,
          static_cast<const std::uint16_t*>(d_bits), nb, d_from_half, d_from_bf16);
  const auto half = mp::to_host(d_half, nf), bf16 = mp::to_host(d_bf16, nf);
  const auto from_half = mp::to_host(d_from_half, nb), from_bf16 = mp::to_host(d_from_bf16, nb);
  for (std::size_t i = 0; i < nf; ++i) {
    EXPECT_EQ(half[i], to[i].half) << "to_half(" << to[i].value << ") (bits " << std::hex << bits_of(to[i].value)
                                   << ")";
    EXPECT_EQ(bf16[i], to[i].bf16) << "to_bfloat16(" << to[i].value << ") (bits " << std::hex << bits_of(to[i].value)
                                   << ")";
  }
  for (std::size_t i = 0; i < nb; ++i) {
    EXPECT_EQ(bits_of(from_half[i]), from_half_want[i]) << "to_float(half " << std::hex << from_bits[i] << ")";
    EXPECT_EQ(bits_of(from_bf16[i]), from_bf16_want[i]) << "to_float(bfloat16 " << std::hex << from_bits[i] << ")";
  }
  // NaN stays NaN both ways.
  const std::vector<float> nan{float_of(0x7fc00000), float_of(0xffa00001)};
  mp::to_device(d_f, nan);
  mp::to_device(d_bits, std::vector<std::uint16_t>{0x7fc1, 0xffff});
  mp::run(convert16, dim3(1), dim3(1), static_cast<const float*>(d_f), std::size_t(2), d_half, d_bf16,
          static_cast<const std::uint16_t*>(d_bits), std::size_t(2), d_from_half, d_from_bf16);
  const auto nh = mp::to_host(d_half, 2), nbf = mp::to_host(d_bf16, 2);
  const auto fh = mp::to_host(d_from_half, 2), fb = mp::to_host(d_from_bf16, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE((nh[i] & 0x7c00) == 0x7c00 && (nh[i] & 0x3ff) != 0) << std::hex << nh[i];
    EXPECT_TRUE((nbf[i] & 0x7f80) == 0x7f80 && (nbf[i] & 0x7f) != 0) << std::hex << nbf[i];
    EXPECT_NE(fh[i], fh[i]);
    EXPECT_NE(fb[i], fb[i]);
  }
  for (void* p : {(void*)d_f, (void*)d_half, (void*)d_bf16, (void*)d_bits, (void*)d_from_half, (void*)d_from_bf16})
    EXPECT_EQ(hipFree(p), hipSuccess);
}

// ---- reduce and reduce_scatter ----------------------------------------------------------------------------------

template <class T>
class ReduceEveryForm : public ::testing::Test {};
using every_form_types = ::testing::Types<int, double, portshmem::half_t>;
TYPED_TEST_SUITE(ReduceEveryForm, every_form_types, coll::type_names);

// Every operation and size in thread, wave and block forms, for an integer, a float and a 16-bit float type (the other
// types: test_reduce_types.cpp).
TYPED_TEST(ReduceEveryForm, EveryOperationAndSize) {
  coll::every_operation_and_size<TypeParam>();
}

// Several MiB: the two-shot reduce in many scratch-sized chunks alternating the halves, in place too, and
// reduce_scatter in several chunks; on the world (every form for the every-form types) and on one sub-team.
template <class T>
class ReduceLarge : public ::testing::Test {};
using large_types = ::testing::Types<unsigned char, int, double, portshmem::half_t, portshmem::bfloat16_t>;
TYPED_TEST_SUITE(ReduceLarge, large_types, coll::type_names);

TYPED_TEST(ReduceLarge, SeveralMiB) {
  using T = TypeParam;
  const auto build = [](coll::plan& p, const coll::team_ref& t) {
    const int ti = p.team(t.handle());
    const std::size_t n = ((5u << 19) + 4099) / sizeof(T); // 2.5 MiB and a bit: 10 chunks of a 256 KiB half
    coll::add_reduce<T>(p, 0, ti, t, op::sum, n, false, 7);
    coll::add_reduce<T>(p, 0, ti, t, std::is_integral_v<T> ? op::bxor : op::max, n / 2 + 1, true, 8, "reduce in place");
    coll::add_reduce_scatter<T>(p, 0, ti, t, op::min, (3u << 19) / sizeof(T) / std::size_t(t.size()) + 3, 9);
  };
  coll::for_each_team<T>("large reduce<" + coll::type_names::GetName<T>(0) + ">", sizeof(T), build, 1);
}

} // namespace
