// putmem / getmem in every form (thread, wave, block; blocking and nbi), sizes 1 B to 64 MiB, unaligned offsets and
// lengths. Each PE sends a pattern to the next PE (put) or fetches it from the previous one (get); the bytes around
// the target range must keep their guard value.
#include <algorithm>
#include <string>
#include <tuple>

#include "mp_test.hpp"

namespace {

enum class form { thread, wave, block };
enum class op { put, put_nbi, get, get_nbi };

/// The range [0, n) is split among the grid's issuing groups (threads, waves or blocks), each moving its share.
template <form F>
PORTSHMEM_DEVICE void group_share(std::size_t n, std::size_t* begin, std::size_t* end) {
  namespace a = portshmem::arch;
  const unsigned waves_per_block = (a::block_threads() + a::wave_size() - 1) / a::wave_size();
  std::size_t group = 0, groups = 1;
  if (F == form::thread) {
    group = std::size_t(a::block_rank()) * a::block_threads() + a::thread_rank();
    groups = std::size_t(a::grid_blocks()) * a::block_threads();
  } else if (F == form::wave) {
    group = std::size_t(a::block_rank()) * waves_per_block + a::thread_rank() / a::wave_size();
    groups = std::size_t(a::grid_blocks()) * waves_per_block;
  } else {
    group = a::block_rank();
    groups = a::grid_blocks();
  }
  *begin = n * group / groups;
  *end = n * (group + 1) / groups;
}

template <form F, op O>
PORTSHMEM_GLOBAL void move_kernel(portshmem::ctx c, char* dest, const char* src, std::size_t n, int pe) {
  std::size_t b = 0, e = 0;
  group_share<F>(n, &b, &e);
  char* d = dest + b;
  const char* s = src + b;
  const std::size_t len = e - b;
  switch (O) {
  case op::put:
    F == form::thread ? portshmem::putmem(c, d, s, len, pe)
    : F == form::wave ? portshmem::putmem_wave(c, d, s, len, pe)
                      : portshmem::putmem_block(c, d, s, len, pe);
    break;
  case op::put_nbi:
    F == form::thread ? portshmem::putmem_nbi(c, d, s, len, pe)
    : F == form::wave ? portshmem::putmem_nbi_wave(c, d, s, len, pe)
                      : portshmem::putmem_nbi_block(c, d, s, len, pe);
    break;
  case op::get:
    F == form::thread ? portshmem::getmem(c, d, s, len, pe)
    : F == form::wave ? portshmem::getmem_wave(c, d, s, len, pe)
                      : portshmem::getmem_block(c, d, s, len, pe);
    break;
  case op::get_nbi:
    F == form::thread ? portshmem::getmem_nbi(c, d, s, len, pe)
    : F == form::wave ? portshmem::getmem_nbi_wave(c, d, s, len, pe)
                      : portshmem::getmem_nbi_block(c, d, s, len, pe);
    break;
  }
  // Completion: nbi needs a quiet; blocking calls get one too so every form can be checked the same way.
  portshmem::quiet(c);
}

using kernel_t = void (*)(portshmem::ctx, char*, const char*, std::size_t, int);

template <form F>
kernel_t kernel_for(op o) {
  switch (o) {
  case op::put:
    return move_kernel<F, op::put>;
  case op::put_nbi:
    return move_kernel<F, op::put_nbi>;
  case op::get:
    return move_kernel<F, op::get>;
  default:
    return move_kernel<F, op::get_nbi>;
  }
}

kernel_t kernel_for(form f, op o) {
  return f == form::thread ? kernel_for<form::thread>(o)
         : f == form::wave ? kernel_for<form::wave>(o)
                           : kernel_for<form::block>(o);
}

struct rma_case {
  form f;
  op o;
  std::size_t size, dst_offset, src_offset;
};

std::string case_name(const ::testing::TestParamInfo<rma_case>& info) {
  static const char* forms[] = {"thread", "wave", "block"};
  static const char* ops[] = {"put", "put_nbi", "get", "get_nbi"};
  const rma_case& c = info.param;
  return std::string(ops[int(c.o)]) + "_" + forms[int(c.f)] + "_" + std::to_string(c.size) + "B_d" +
         std::to_string(c.dst_offset) + "_s" + std::to_string(c.src_offset);
}

class Rma : public ::testing::TestWithParam<rma_case> {};

TEST_P(Rma, MovesExactlyTheRange) {
  const rma_case& tc = GetParam();
  const bool is_put = tc.o == op::put || tc.o == op::put_nbi;
  const std::size_t guard = 64, span = tc.size + std::max(tc.dst_offset, tc.src_offset) + 2 * guard;
  const unsigned salt = unsigned(tc.size + tc.dst_offset * 3 + tc.src_offset * 5 + int(tc.o) * 7 + int(tc.f) * 11);
  // Symmetric target of puts / source of gets; the other side is private memory of the caller.
  char* sym = mp::sym_alloc<char>(span);
  char* priv = mp::private_alloc<char>(span);
  std::vector<char> fill(span, char(mp::kGuard)), data(span, char(mp::kGuard));
  for (std::size_t i = 0; i < tc.size; ++i) data[guard + tc.src_offset + i] = char(mp::pattern(mp::me(), i, salt));
  mp::to_device(is_put ? priv : sym, data); // the source side holds the pattern
  mp::to_device(is_put ? sym : priv, fill); // the destination side holds guards only
  mp::barrier();

  const portshmem::ctx c = mp::context();
  const unsigned blocks = tc.f == form::thread && tc.size < 4096 ? 1 : 2;
  char* dest = (is_put ? sym : priv) + guard + tc.dst_offset;
  const char* src = (is_put ? priv : sym) + guard + tc.src_offset;
  mp::run(kernel_for(tc.f, tc.o), dim3(blocks), dim3(mp::kBlockThreads), c, dest, src, tc.size,
          is_put ? mp::next_pe() : mp::prev_pe());
  mp::barrier();

  // Puts land in this PE's symmetric buffer from the previous PE; gets land in private memory from the previous PE.
  const std::vector<char> got = mp::to_host(is_put ? sym : priv, span);
  const int sender = mp::prev_pe();
  std::size_t wrong = 0, first_wrong = span;
  for (std::size_t i = 0; i < span; ++i) {
    const std::size_t start = guard + tc.dst_offset;
    const bool inside = i >= start && i < start + tc.size;
    const char want = inside ? char(mp::pattern(sender, i - start, salt)) : char(mp::kGuard);
    if (got[i] != want && wrong++ == 0) first_wrong = i;
  }
  EXPECT_EQ(wrong, 0u) << "first wrong byte at " << first_wrong << " of " << span;
  EXPECT_EQ(portshmem_check_device_errors(), PORTSHMEM_SUCCESS);
  mp::barrier();
  EXPECT_EQ(hipFree(priv), hipSuccess);
  EXPECT_EQ(portshmem_free(sym), PORTSHMEM_SUCCESS);
}

std::vector<rma_case> all_cases() {
  std::vector<rma_case> cases;
  const std::size_t small[] = {1, 3, 16, 255, 4096, 65537};
  const std::size_t offsets[][2] = {{0, 0}, {1, 1}, {3, 0}, {8, 13}};
  for (form f : {form::thread, form::wave, form::block}) {
    for (op o : {op::put, op::put_nbi, op::get, op::get_nbi}) {
      for (std::size_t s : small) {
        for (const auto& off : offsets) cases.push_back({f, o, s, off[0], off[1]});
      }
      cases.push_back({f, o, (1u << 20) + 3, 5, 0}); // 1 MiB, unaligned destination and length
    }
  }
  // 64 MiB: aligned and unaligned, every op, block and thread forms.
  for (op o : {op::put, op::put_nbi, op::get, op::get_nbi}) {
    cases.push_back({form::block, o, 64u << 20, 0, 0});
    cases.push_back({form::wave, o, (64u << 20) + 7, 3, 0});
  }
  cases.push_back({form::thread, op::put, (64u << 20) + 1, 1, 1});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllForms, Rma, ::testing::ValuesIn(all_cases()), case_name);

} // namespace
