// Shared pieces of the team and collective tests (portshmem_mp_coll_tests): the three call forms, one kernel that runs
// lists of collectives (so one launch carries many calls and the round counters and scratch halves turn over, and
// lists on different teams run at once), guarded symmetric arenas, the teams the tests run on, and the expected
// results, computed on the host in member order from inputs every PE can recompute for every other.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../mp_test.hpp"

// Functions both the host (references) and kernels (in-kernel refills) call.
#if PORTSHMEM_PLATFORM_HOST
#define COLL_HD inline
#else
#define COLL_HD __host__ __device__ inline
#endif

namespace coll {

/// Threads per wave, for the host's launch arithmetic (the kernels ask portshmem::wave_size()).
#if PORTSHMEM_PLATFORM_HOST
inline constexpr unsigned kWaveThreads = portshmem::arch::host::kWaveSize;
#elif PORTSHMEM_PLATFORM_AMD
inline constexpr unsigned kWaveThreads = 64;
#else
inline constexpr unsigned kWaveThreads = 32;
#endif

// ---- call forms ---------------------------------------------------------------------------------------------------

/// How a collective is called: by one thread, by every thread of a wave, by every thread of a block.
enum class form : int { thread, wave, block };
inline constexpr form kForms[] = {form::thread, form::wave, form::block};

inline const char* name_of(form f) {
  return f == form::thread ? "thread" : f == form::wave ? "wave" : "block";
}

// ---- inputs every PE can recompute --------------------------------------------------------------------------------

COLL_HD std::uint64_t mix(std::uint64_t x) { // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The pseudo-random word of element k of world PE pe's input under salt.
COLL_HD std::uint64_t hash(int pe, std::uint64_t k, std::uint64_t salt) {
  return mix(mix(salt * 1000003ull + std::uint64_t(pe)) ^ k);
}

/// Word i of what a refill job writes on world PE pe under salt: below 2^32, so sums of a few stay exact.
COLL_HD long refill_value(int pe, std::uint64_t i, std::uint64_t salt) {
  return long(hash(pe, i, salt) >> 32);
}

/// Byte i of world PE pe's data under salt (broadcast, collect, alltoall): never the guard byte.
COLL_HD std::uint8_t byte_of(int pe, std::uint64_t i, std::uint64_t salt) {
  const std::uint8_t v = std::uint8_t(hash(pe, i, salt) >> 24);
  return v == 0xAA ? 0x55 : v;
}

// ---- jobs: what the kernel runs ------------------------------------------------------------------------------------

enum class kind : std::int32_t {
  barrier,
  sync,
  broadcast, // typed (T), count elements
  broadcastmem,
  fcollect,
  fcollectmem,
  collect,
  collectmem,
  alltoall,
  alltoallmem,
  reduce,
  reduce_scatter,
  snapshot, // the group copies count bytes of the dest arena at src to the log at dest (backwards: another split)
  refill,   // the group rewrites count longs of the src arena at src with refill_value(my PE, i, salt root)
  ring_put, // the group's last thread p's count into the next member's dest word for this member (root 1: then quiet)
};

enum class op : std::int32_t { sum, prod, min, max, band, bor, bxor };
inline constexpr op kOps[] = {op::sum, op::prod, op::min, op::max, op::band, op::bor, op::bxor};

inline const char* name_of(op o) {
  constexpr const char* names[] = {"sum", "prod", "min", "max", "and", "or", "xor"};
  return names[int(o)];
}

inline constexpr std::uint64_t kInPlace = ~std::uint64_t(0); // job.src: the dest itself (in-place reduce)

struct job {
  kind what;
  op how;
  std::int32_t team; // index into the launch's team handles
  std::int32_t root;
  std::uint64_t dest;  // byte offset in the dest arena (snapshot: in the log)
  std::uint64_t src;   // byte offset in the src arena (snapshot: in the dest arena), or kInPlace
  std::uint64_t count; // elements of T (typed kinds, reductions) or bytes (mem kinds, snapshot)
};

/// What a launch of the job kernel gets (coll_kernels.hpp).
struct launch_args {
  portshmem::ctx c;
  const portshmem::team* teams; // the teams' handles, indexed by job::team
  const job* jobs;              // every list's jobs, list i's from bounds[i] to bounds[i + 1]
  const std::uint32_t* bounds;
  std::uint32_t lists;
  char *dest, *src, *log; // the arenas
};

/// Launches the job kernel in form F for element type T on `blocks` blocks of mp::kBlockThreads threads. Defined in
/// the generated translation units of coll.cmake, one per (F, T) the tests use (COLL_INSTANTIATE, coll_kernels.hpp):
/// each collective instantiated for a form and a type costs nvcc many seconds, so they are compiled once, in parallel.
template <form F, class T>
hipError_t launch_lists(unsigned blocks, const launch_args& a);

// ---- teams --------------------------------------------------------------------------------------------------------

/// A team for a test: made over the world (every PE calls), destroyed by its members when dropped. Every PE creates
/// and drops the same teams in the same order, so the collective destroys meet.
class team_ref {
 public:
  team_ref() { h_.my_index = -1; }
  team_ref(const team_ref&) = delete;
  team_ref& operator=(const team_ref&) = delete;
  team_ref(team_ref&& o) noexcept : id_(o.id_), owned_(o.owned_), h_(o.h_) { o.id_ = PORTSHMEM_TEAM_INVALID; }
  team_ref& operator=(team_ref&& o) noexcept {
    if (this != &o) {
      drop();
      id_ = o.id_, owned_ = o.owned_, h_ = o.h_;
      o.id_ = PORTSHMEM_TEAM_INVALID;
    }
    return *this;
  }
  ~team_ref() { drop(); }

  static team_ref world() { return adopt(PORTSHMEM_TEAM_WORLD, false); }
  /// split_strided of the world; start/stride/size must name a team (size >= 1).
  static team_ref strided(int start, int stride, int size) {
    portshmem_team_t id = PORTSHMEM_TEAM_INVALID;
    EXPECT_EQ(portshmem_team_split_strided(PORTSHMEM_TEAM_WORLD, start, stride, size, nullptr, 0, &id),
              PORTSHMEM_SUCCESS)
        << start << "," << stride << "," << size;
    return adopt(id, true);
  }
  /// split_2d of the world: this PE's row and column.
  static std::pair<team_ref, team_ref> grid(int xrange) {
    portshmem_team_t x = PORTSHMEM_TEAM_INVALID, y = PORTSHMEM_TEAM_INVALID;
    EXPECT_EQ(portshmem_team_split_2d(PORTSHMEM_TEAM_WORLD, xrange, nullptr, 0, &x, nullptr, 0, &y), PORTSHMEM_SUCCESS);
    return {adopt(x, true), adopt(y, true)};
  }

  bool member() const { return h_.my_index >= 0; }
  portshmem_team_t id() const { return id_; }
  const portshmem::team& handle() const { return h_; }
  int size() const { return h_.size; }
  int index() const { return h_.my_index; }
  int world_pe(int i) const { return h_.start + i * h_.stride; }

 private:
  static team_ref adopt(portshmem_team_t id, bool owned) {
    team_ref r;
    r.id_ = id;
    r.owned_ = owned;
    if (id != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_get_handle(id, &r.h_), PORTSHMEM_SUCCESS);
    return r;
  }
  void drop() {
    if (owned_ && id_ != PORTSHMEM_TEAM_INVALID) EXPECT_EQ(portshmem_team_destroy(id_), PORTSHMEM_SUCCESS);
    id_ = PORTSHMEM_TEAM_INVALID;
  }
  portshmem_team_t id_ = PORTSHMEM_TEAM_INVALID;
  bool owned_ = false;
  portshmem::team h_{};
};

/// A team of the world the collective tests run on; size 0 names the world itself.
struct shape {
  const char* name;
  int start, stride, size;
  team_ref make() const { return size == 0 ? team_ref::world() : team_ref::strided(start, stride, size); }
};

/// The world, then teams with some PEs outside: all but the last, stride 2 from PE 1, stride 3, the last PE alone.
inline std::vector<shape> team_shapes(int n) {
  std::vector<shape> s{{"world", 0, 1, 0}};
  if (n >= 3) s.push_back({"all_but_last", 0, 1, n - 1});
  if (n >= 2) s.push_back({"stride2_from1", 1, 2, n / 2});
  if (n >= 4) s.push_back({"stride3", 0, 3, (n + 2) / 3});
  if (n >= 3) s.push_back({"last_alone", n - 1, 1, 1});
  return s;
}

/// The value every PE holds the same (a failing check means the PEs disagree).
inline bool same_everywhere(long long v) {
  long long lo = v, hi = v;
  EXPECT_EQ(MPI_Allreduce(&v, &lo, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_EQ(MPI_Allreduce(&v, &hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD), MPI_SUCCESS);
  return lo == hi;
}

inline long long max_everywhere(long long v) {
  long long hi = v;
  EXPECT_EQ(MPI_Allreduce(&v, &hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD), MPI_SUCCESS);
  return hi;
}

inline long long sum_everywhere(long long v) {
  long long s = v;
  EXPECT_EQ(MPI_Allreduce(&v, &s, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  return s;
}

// ---- plans: jobs, arenas and what they must hold afterwards -------------------------------------------------------

inline constexpr std::size_t kGuardBytes = 64; // guard bytes before and after every region (at least)

/// One list's part of an arena: regions 64-byte aligned (plus a chosen misalignment), guard bytes between.
struct area {
  std::vector<std::uint8_t> init;                          // the initial bytes (guard outside regions)
  std::vector<std::uint8_t> want;                          // the bytes expected afterwards
  std::vector<std::uint8_t> checked;                       // 1 where want holds (guards and expected regions)
  std::vector<std::pair<std::size_t, const char*>> labels; // region starts and what they hold, for messages

  std::size_t add(std::size_t bytes, std::size_t misalign, const char* label) {
    const std::size_t at = (init.size() + kGuardBytes + 63) / 64 * 64 + misalign;
    const std::size_t end = at + bytes + kGuardBytes;
    init.resize(end, mp::kGuard);
    want.resize(end, mp::kGuard);
    checked.resize(end, 1);
    for (std::size_t i = at; i < at + bytes; ++i) checked[i] = 0; // unknown until expected
    labels.emplace_back(at, label);
    return at;
  }
};

/// What one PE runs in one launch: lists of jobs (list i on team handle teams[team of its jobs]), the arenas' initial
/// contents and the expected dest and log. Every member of a team adds the same regions in the same order, so the
/// offsets agree where they must (finish() places each list's areas at bases every PE agrees on).
class plan {
 public:
  explicit plan(std::size_t lists = 1) : dest_(lists), src_(lists), log_(lists), jobs_(lists) {}

  int team(const portshmem::team& h) {
    teams_.push_back(h);
    return int(teams_.size()) - 1;
  }
  std::size_t lists() const { return jobs_.size(); }

  /// A dest region of bytes (misaligned by misalign), expected to end as want (empty: only its guards are checked).
  std::size_t dest(std::size_t list, std::size_t bytes, std::size_t misalign = 0, const char* label = "") {
    return dest_[list].add(bytes, misalign, label);
  }
  void expect(std::size_t list, std::size_t at, const void* bytes, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(bytes);
    std::copy(b, b + n, dest_[list].want.begin() + std::ptrdiff_t(at));
    std::fill_n(dest_[list].checked.begin() + std::ptrdiff_t(at), n, 1);
  }
  void init_dest(std::size_t list, std::size_t at, const void* bytes, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(bytes);
    std::copy(b, b + n, dest_[list].init.begin() + std::ptrdiff_t(at));
  }
  /// A src region holding bytes.
  std::size_t src(std::size_t list, const void* bytes, std::size_t n, std::size_t misalign = 0) {
    const std::size_t at = src_[list].add(n, misalign, "src");
    auto* b = static_cast<const std::uint8_t*>(bytes);
    std::copy(b, b + n, src_[list].init.begin() + std::ptrdiff_t(at));
    return at;
  }
  std::size_t src_space(std::size_t list, std::size_t n) { return src_[list].add(n, 0, "src"); }
  /// A log region (snapshots) expected to end as want.
  std::size_t log(std::size_t list, std::size_t bytes, const char* label = "log") {
    return log_[list].add(bytes, 0, label);
  }
  void expect_log(std::size_t list, std::size_t at, const void* bytes, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(bytes);
    std::copy(b, b + n, log_[list].want.begin() + std::ptrdiff_t(at));
    std::fill_n(log_[list].checked.begin() + std::ptrdiff_t(at), n, 1);
  }
  void add(std::size_t list, job j) { jobs_[list].push_back(j); }

  /// The launch: every PE calls it (it allocates symmetric arenas); PEs with no jobs only check that their arenas
  /// stayed as they were. Returns the device error status this PE reported (portshmem_check_device_errors) and
  /// sets *recorded to the record's status (PORTSHMEM_SUCCESS when none) and *count to its count.
  template <form F, class T>
  portshmem_status_t run(const std::string& what, std::uint32_t* recorded = nullptr, std::uint64_t* count = nullptr);

 private:
  std::vector<area> dest_, src_, log_;
  std::vector<std::vector<job>> jobs_;
  std::vector<portshmem::team> teams_;
};

/// Places each list's areas at bases agreed by every PE and returns the merged arena.
inline area merge(std::vector<area>& parts, std::vector<std::size_t>& bases) {
  area all;
  bases.clear();
  for (area& p : parts) {
    const std::size_t span = std::size_t(max_everywhere((long long)p.init.size())) + kGuardBytes;
    const std::size_t base = (all.init.size() + 63) / 64 * 64;
    bases.push_back(base);
    all.init.resize(base + span, mp::kGuard);
    all.want.resize(base + span, mp::kGuard);
    all.checked.resize(base + span, 1);
    std::copy(p.init.begin(), p.init.end(), all.init.begin() + std::ptrdiff_t(base));
    std::copy(p.want.begin(), p.want.end(), all.want.begin() + std::ptrdiff_t(base));
    std::copy(p.checked.begin(), p.checked.end(), all.checked.begin() + std::ptrdiff_t(base));
    for (auto& l : p.labels) all.labels.emplace_back(base + l.first, l.second);
  }
  all.init.resize(std::size_t(max_everywhere((long long)all.init.size())) + kGuardBytes, mp::kGuard);
  all.want.resize(all.init.size(), mp::kGuard);
  all.checked.resize(all.init.size(), 1);
  return all;
}

/// The checked bytes of got that differ from a's expectation: a count and the first few, with their regions.
inline std::string compare(const area& a, const std::vector<std::uint8_t>& got, std::size_t* wrong) {
  *wrong = 0;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!a.checked[i] || got[i] == a.want[i]) continue;
    if (++*wrong <= 3) {
      const char* label = "guard";
      std::size_t start = 0;
      for (auto& l : a.labels) {
        if (l.first <= i) label = l.second, start = l.first;
      }
      first += " [byte " + std::to_string(i) + " (" + label + " region at " + std::to_string(start) + " +" +
               std::to_string(i - start) + "): got " + std::to_string(got[i]) + ", want " + std::to_string(a.want[i]) +
               (a.want[i] == mp::kGuard ? " (guard?)" : "") + "]";
    }
  }
  return first;
}

template <form F, class T>
portshmem_status_t plan::run(const std::string& what, std::uint32_t* recorded, std::uint64_t* count) {
  std::vector<std::size_t> dest_bases, src_bases, log_bases;
  const area dest = merge(dest_, dest_bases), src = merge(src_, src_bases), log = merge(log_, log_bases);
  auto* d = mp::sym_alloc<std::uint8_t>(dest.init.size());
  auto* s = mp::sym_alloc<std::uint8_t>(src.init.size());
  auto* l = mp::private_alloc<std::uint8_t>(log.init.size());
  mp::to_device(d, dest.init);
  mp::to_device(s, src.init);
  mp::to_device(l, log.init);
  std::vector<job> all;
  std::vector<std::uint32_t> bounds{0};
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    for (job j : jobs_[i]) {
      j.dest += j.what == kind::snapshot ? log_bases[i] : dest_bases[i];
      if (j.src != kInPlace) j.src += j.what == kind::snapshot ? dest_bases[i] : src_bases[i];
      all.push_back(j);
    }
    bounds.push_back(std::uint32_t(all.size()));
  }
  mp::barrier(); // every PE's arenas are initialized before any member writes into them
  portshmem::ctx c = mp::context();
  portshmem_status_t status = PORTSHMEM_SUCCESS;
  if (!all.empty()) {
    auto* teams = mp::private_alloc<portshmem::team>(teams_.size());
    auto* jobs = mp::private_alloc<job>(all.size());
    auto* bnd = mp::private_alloc<std::uint32_t>(bounds.size());
    mp::to_device(teams, teams_);
    mp::to_device(jobs, all);
    mp::to_device(bnd, bounds);
    const unsigned ws = kWaveThreads;
    const unsigned per_block = F == form::block ? 1 : (mp::kBlockThreads + ws - 1) / ws;
    const unsigned blocks = unsigned((jobs_.size() + per_block - 1) / per_block);
    const launch_args args{c,
                           teams,
                           jobs,
                           bnd,
                           std::uint32_t(jobs_.size()),
                           reinterpret_cast<char*>(d),
                           reinterpret_cast<char*>(s),
                           reinterpret_cast<char*>(l)};
    EXPECT_EQ((launch_lists<F, T>(blocks, args)), hipSuccess);
    EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
    EXPECT_EQ(hipFree(teams), hipSuccess);
    EXPECT_EQ(hipFree(jobs), hipSuccess);
    EXPECT_EQ(hipFree(bnd), hipSuccess);
  }
  if (recorded) *recorded = c.error->count ? c.error->status : std::uint32_t(PORTSHMEM_SUCCESS);
  if (count) *count = c.error->count;
  status = portshmem_check_device_errors();
  mp::barrier(); // every member's kernel is done: nothing more lands here
  std::size_t wrong = 0;
  std::string first = compare(dest, mp::to_host(d, dest.init.size()), &wrong);
  EXPECT_EQ(wrong, 0u) << what << " (" << name_of(F) << " form): dest bytes wrong on PE " << mp::me() << ":" << first;
  first = compare(log, mp::to_host(l, log.init.size()), &wrong);
  EXPECT_EQ(wrong, 0u) << what << " (" << name_of(F) << " form): snapshots wrong on PE " << mp::me() << ":" << first;
  mp::barrier();
  EXPECT_EQ(portshmem_free(s), PORTSHMEM_SUCCESS);
  EXPECT_EQ(portshmem_free(d), PORTSHMEM_SUCCESS);
  EXPECT_EQ(hipFree(l), hipSuccess);
  return status;
}

/// The element types whose launches exist in every form (coll.cmake's _coll_every_form); the others' in the block
/// form only.
template <class T>
inline constexpr bool kEveryForm = std::is_same_v<T, long> || std::is_same_v<T, int> || std::is_same_v<T, double> ||
                                   std::is_same_v<T, portshmem::half_t>;

/// Runs a plan in the form chosen at run time; every launch must finish without a device error.
template <class T>
void run_checked(plan& p, form f, const std::string& what) {
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  if constexpr (kEveryForm<T>) {
    switch (f) {
    case form::thread:
      s = p.run<form::thread, T>(what);
      break;
    case form::wave:
      s = p.run<form::wave, T>(what);
      break;
    case form::block:
      s = p.run<form::block, T>(what);
      break;
    }
  } else {
    EXPECT_EQ(f, form::block) << what << ": this type's launches exist in the block form only";
    s = p.run<form::block, T>(what);
  }
  EXPECT_EQ(s, PORTSHMEM_SUCCESS) << what << " (" << name_of(f) << " form) on PE " << mp::me();
}

/// The forms a test runs on team shape si: all three on the world, one on the others (rotating with salt, so every
/// form meets sub-teams across a test's types and sizes while the run stays short on two cores).
inline std::vector<form> forms_for(std::size_t si, std::size_t salt) {
  if (si == 0) return {form::thread, form::wave, form::block};
  return {kForms[(si + salt) % 3]};
}

/// For each team shape (the world and at most max_subteams others, chosen rotating with salt): members add their
/// jobs and expectations (build(plan, team)), non-members add none, and every PE runs and checks the launch in each of
/// the shape's forms (the block form only, for a type launched in no other: kEveryForm) (non-members: their arenas stay
/// untouched).
template <class T, class Build>
void for_each_team(const std::string& test, std::size_t salt, const Build& build, std::size_t max_subteams = 8) {
  constexpr bool every_form = kEveryForm<T>;
  const std::vector<shape> shapes = team_shapes(mp::npes());
  const std::size_t others = shapes.size() - 1;
  for (std::size_t si = 0; si < shapes.size(); ++si) {
    if (si > 0 && others > max_subteams && (si - 1 + others - salt % others) % others >= max_subteams) continue;
    team_ref t = shapes[si].make();
    plan p;
    if (t.member()) build(p, t);
    const std::vector<form> forms = every_form ? forms_for(si, salt) : std::vector<form>{form::block};
    for (form f : forms) run_checked<T>(p, f, test + " on team " + shapes[si].name);
  }
}

// ---- data helpers ---------------------------------------------------------------------------------------------------

/// n bytes of world PE pe's data under salt, from byte first.
inline std::vector<std::uint8_t> bytes_of(int pe, std::size_t first, std::size_t n, std::uint64_t salt) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = byte_of(pe, first + i, salt);
  return v;
}

// ---- reductions: inputs and references -------------------------------------------------------------------------

template <class T>
inline constexpr bool kFloat16 = std::is_same_v<T, portshmem::half_t> || std::is_same_v<T, portshmem::bfloat16_t>;

/// The operations T takes: all seven for integers, sum, prod, min and max otherwise.
template <class T>
std::vector<op> ops_of() {
  if constexpr (std::is_integral_v<T>) return {std::begin(kOps), std::end(kOps)};
  return {op::sum, op::prod, op::min, op::max};
}

/// Element k of world PE pe's input to operation o under salt, in ranges where o is exact or wraps only where C++
/// defines it (unsigned arithmetic, narrowing): signed sums of at most 8 values of [-15, 15], products of 1, 2, 3 and
/// their negatives; full ranges for bitwise ops, min and max. Floats: fractions that round differently in another
/// order (sums), [0.75, 1.5) with either sign (products), any finite value (min, max); the 16-bit floats include
/// subnormals.
template <class T>
T input(op o, int pe, std::uint64_t k, std::uint64_t salt) {
  const std::uint64_t h = hash(pe, k, salt * 8 + std::uint64_t(o));
  if constexpr (std::is_same_v<T, portshmem::half_t>) {
    const unsigned sign = unsigned(h & 1) << 15, man = unsigned(h >> 8) & 0x3ffu;
    const unsigned exp = o == op::sum    ? ((h >> 20) % 8 == 0 ? 0u : 12u + unsigned(h >> 1) % 6u)
                         : o == op::prod ? 14u + unsigned(h >> 1) % 2u
                                         : unsigned(h >> 1) % 31u;
    return portshmem::half_t{std::uint16_t(sign | exp << 10 | man)};
  } else if constexpr (std::is_same_v<T, portshmem::bfloat16_t>) {
    const unsigned sign = unsigned(h & 1) << 15, man = unsigned(h >> 8) & 0x7fu;
    const unsigned exp = o == op::sum    ? ((h >> 20) % 8 == 0 ? 0u : 124u + unsigned(h >> 1) % 7u)
                         : o == op::prod ? 126u + unsigned(h >> 1) % 2u
                                         : unsigned(h >> 1) % 255u;
    return portshmem::bfloat16_t{std::uint16_t(sign | exp << 7 | man)};
  } else if constexpr (std::is_floating_point_v<T>) {
    const double u = double(h >> 11) * 0x1p-53;
    if (o == op::sum) return T((u - 0.5) * 2000.0);
    if (o == op::prod) return T((0.75 + 0.75 * u) * ((h & 1) ? -1.0 : 1.0));
    return T((u - 0.5) * 1e6);
  } else {
    constexpr int kSignedFactors[] = {1, -1, 2, -2, 1, 3};
    if (o == op::sum) return std::is_signed_v<T> ? T(int(h % 31) - 15) : T(h);
    if (o == op::prod) return std::is_signed_v<T> ? T(kSignedFactors[h % 6]) : T(1 + h % 3);
    return T(h);
  }
}

/// a o b as the reference computes it (the 16-bit floats go through fold16).
template <class T>
T apply(op o, T a, T b) {
  switch (o) {
  case op::sum:
    return T(a + b);
  case op::prod:
    return T(a * b);
  case op::min:
    return b < a ? b : a;
  case op::max:
    return a < b ? b : a;
  default:
    if constexpr (std::is_integral_v<T>) {
      if (o == op::band) return T(a & b);
      if (o == op::bor) return T(a | b);
      return T(a ^ b);
    }
  }
  return a;
}

/// out[k] = in[0][k] o in[1][k] o ... in member order, each step rounded to T, for the 16-bit floats: float16.hpp's
/// conversions are device functions on GPU platforms, so the reference is folded by a kernel (a CPU thread on the host
/// platform), independently of the library's reduce operators.
template <class T>
PORTSHMEM_GLOBAL void fold16(const T* in, int members, std::size_t count, op o, T* out) {
  for (std::size_t k = portshmem::thread_rank(); k < count; k += portshmem::block_threads()) {
    T acc = in[k];
    for (int i = 1; i < members; ++i) {
      const float a = portshmem::to_float(acc), b = portshmem::to_float(in[std::size_t(i) * count + k]);
      const float r = o == op::sum ? a + b : o == op::prod ? a * b : o == op::min ? (b < a ? b : a) : (a < b ? b : a);
      if constexpr (std::is_same_v<T, portshmem::half_t>) {
        acc = portshmem::to_half(r);
      } else {
        acc = portshmem::to_bfloat16(r);
      }
    }
    out[k] = acc;
  }
}

/// want[k] = in(0, k) o in(1, k) o ... o in(members - 1, k), in that order.
template <class T, class In>
std::vector<T> reference(op o, int members, std::size_t count, const In& in) {
  std::vector<T> want(count);
  if constexpr (kFloat16<T>) {
    if (count == 0) return want;
    std::vector<T> all(std::size_t(members) * count);
    for (int i = 0; i < members; ++i) {
      for (std::size_t k = 0; k < count; ++k) all[std::size_t(i) * count + k] = in(i, k);
    }
    T* d_in = mp::private_alloc<T>(all.size());
    T* d_out = mp::private_alloc<T>(count);
    mp::to_device(d_in, all);
    mp::run(fold16<T>, dim3(1), dim3(mp::kBlockThreads), static_cast<const T*>(d_in), members, count, o, d_out);
    want = mp::to_host(d_out, count);
    EXPECT_EQ(hipFree(d_in), hipSuccess);
    EXPECT_EQ(hipFree(d_out), hipSuccess);
  } else {
    for (std::size_t k = 0; k < count; ++k) {
      T acc = in(0, k);
      for (int i = 1; i < members; ++i) acc = apply(o, acc, in(i, k));
      want[k] = acc;
    }
  }
  return want;
}

/// A reduce of count elements on team t (team index ti of the plan) into a new dest region of list: src (or, in
/// place, the dest itself) holds this member's inputs; the dest must end as the reference.
template <class T>
void add_reduce(plan& p, std::size_t list, int ti, const team_ref& t, op o, std::size_t count, bool in_place,
                std::uint64_t salt, const char* label = "reduce") {
  const int me = t.world_pe(t.index());
  std::vector<T> mine(count);
  for (std::size_t k = 0; k < count; ++k) mine[k] = input<T>(o, me, k, salt);
  const std::vector<T> want =
      reference<T>(o, t.size(), count, [&](int i, std::size_t k) { return input<T>(o, t.world_pe(i), k, salt); });
  const std::size_t d = p.dest(list, count * sizeof(T), 0, label);
  std::uint64_t s = kInPlace;
  if (in_place) {
    p.init_dest(list, d, mine.data(), count * sizeof(T));
  } else {
    s = p.src(list, mine.data(), count * sizeof(T));
  }
  p.add(list, job{kind::reduce, o, ti, 0, d, s, count});
  p.expect(list, d, want.data(), count * sizeof(T));
}

/// A reduce_scatter of count elements per member: src holds team-size blocks of this member's inputs, and member j's
/// dest must end as the reduction of every member's block j.
template <class T>
void add_reduce_scatter(plan& p, std::size_t list, int ti, const team_ref& t, op o, std::size_t count,
                        std::uint64_t salt, const char* label = "reduce_scatter") {
  const int me = t.world_pe(t.index()), n = t.size();
  std::vector<T> mine(count * std::size_t(n));
  for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = input<T>(o, me, k, salt);
  const std::size_t first = std::size_t(t.index()) * count;
  const std::vector<T> want =
      reference<T>(o, n, count, [&](int i, std::size_t k) { return input<T>(o, t.world_pe(i), first + k, salt); });
  const std::size_t d = p.dest(list, count * sizeof(T), 0, label);
  const std::size_t s = p.src(list, mine.data(), mine.size() * sizeof(T));
  p.add(list, job{kind::reduce_scatter, o, ti, 0, d, s, count});
  p.expect(list, d, want.data(), count * sizeof(T));
}

/// A broadcastmem of bytes from root into a new dest region of list (misaligned by bytes % 3).
inline void add_broadcastmem(plan& p, std::size_t list, int ti, const team_ref& t, std::size_t bytes, int root,
                             std::uint64_t salt) {
  const std::vector<std::uint8_t> mine = bytes_of(t.world_pe(t.index()), 0, bytes, salt);
  const std::vector<std::uint8_t> want = bytes_of(t.world_pe(root), 0, bytes, salt);
  const std::size_t d = p.dest(list, bytes, bytes % 3, "broadcastmem"), s = p.src(list, mine.data(), bytes, bytes % 3);
  p.add(list, job{kind::broadcastmem, op::sum, ti, root, d, s, bytes});
  p.expect(list, d, want.data(), bytes);
}

/// An fcollectmem of bytes per member into a new dest region of list.
inline void add_fcollectmem(plan& p, std::size_t list, int ti, const team_ref& t, std::size_t bytes,
                            std::uint64_t salt) {
  const std::vector<std::uint8_t> mine = bytes_of(t.world_pe(t.index()), 0, bytes, salt);
  const std::size_t d = p.dest(list, bytes * std::size_t(t.size()), 1, "fcollectmem");
  const std::size_t s = p.src(list, mine.data(), bytes, 3);
  p.add(list, job{kind::fcollectmem, op::sum, ti, 0, d, s, bytes});
  for (int i = 0; i < t.size(); ++i) {
    const std::vector<std::uint8_t> want = bytes_of(t.world_pe(i), 0, bytes, salt);
    p.expect(list, d + std::size_t(i) * bytes, want.data(), bytes);
  }
}

/// An alltoallmem of bytes per pair: this member's block j is bytes [j * bytes, (j + 1) * bytes) of its data, and
/// member i's block for this member lands at dest + i * bytes.
inline void add_alltoallmem(plan& p, std::size_t list, int ti, const team_ref& t, std::size_t bytes,
                            std::uint64_t salt) {
  const int n = t.size(), me = t.index();
  const std::vector<std::uint8_t> mine = bytes_of(t.world_pe(me), 0, bytes * std::size_t(n), salt);
  const std::size_t d = p.dest(list, bytes * std::size_t(n), 2, "alltoallmem");
  const std::size_t s = p.src(list, mine.data(), mine.size(), 1);
  p.add(list, job{kind::alltoallmem, op::sum, ti, 0, d, s, bytes});
  for (int i = 0; i < n; ++i) {
    const std::vector<std::uint8_t> want = bytes_of(t.world_pe(i), std::size_t(me) * bytes, bytes, salt);
    p.expect(list, d + std::size_t(i) * bytes, want.data(), bytes);
  }
}

/// A collectmem where member i gives size(i) bytes.
template <class Size>
void add_collectmem(plan& p, std::size_t list, int ti, const team_ref& t, const Size& size, std::uint64_t salt) {
  const int n = t.size(), me = t.index();
  std::size_t total = 0;
  for (int i = 0; i < n; ++i) total += size(i);
  const std::vector<std::uint8_t> mine = bytes_of(t.world_pe(me), 0, size(me), salt);
  const std::size_t d = p.dest(list, total, 1, "collectmem"), s = p.src(list, mine.data(), mine.size(), 5);
  p.add(list, job{kind::collectmem, op::sum, ti, 0, d, s, mine.size()});
  std::size_t at = 0;
  for (int i = 0; i < n; ++i) {
    const std::vector<std::uint8_t> want = bytes_of(t.world_pe(i), 0, size(i), salt);
    p.expect(list, d + at, want.data(), want.size());
    at += size(i);
  }
}

} // namespace coll
