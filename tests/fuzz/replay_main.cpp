// A fuzz driver for compilers without libFuzzer: runs LLVMFuzzerTestOneInput on every corpus file, then on seeded
// random inputs (fresh bytes, or a corpus input mutated), until -runs or -max_total_time is reached. Deterministic for
// a given seed. The flags are libFuzzer's spelling, so scripts pass the same ones to either engine. When an input
// makes the target abort or fault, it is written to crash-<target>.bin in the working directory for replay.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using bytes = std::vector<std::uint8_t>;

const bytes* g_current = nullptr; // the input being run, for the crash handler
char g_crash_path[256] = "crash.bin";

void write_crash(int signal) {
  if (g_current != nullptr) {
    const int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      const ssize_t written = ::write(fd, g_current->data(), g_current->size());
      (void)written;
      ::close(fd);
    }
    constexpr char kNote[] = "fuzz: the failing input was written to ";
    (void)!::write(STDERR_FILENO, kNote, sizeof kNote - 1);
    (void)!::write(STDERR_FILENO, g_crash_path, std::strlen(g_crash_path));
    (void)!::write(STDERR_FILENO, "\n", 1);
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

struct options {
  std::uint64_t runs = UINT64_MAX; // as libFuzzer: no bound unless -runs or -max_total_time gives one
  double max_seconds = 0;          // 0: no time bound
  std::uint64_t seed = 1;
  std::size_t max_len = 4096;
  std::vector<std::string> paths;
};

bool flag(const char* arg, const char* name, std::string& value) {
  const std::size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0) return false;
  value = arg + length;
  return true;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string value;
    if (flag(argv[i], "-runs=", value)) {
      o.runs = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag(argv[i], "-max_total_time=", value)) {
      o.max_seconds = std::strtod(value.c_str(), nullptr);
    } else if (flag(argv[i], "-seed=", value)) {
      o.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag(argv[i], "-max_len=", value)) {
      o.max_len = std::strtoull(value.c_str(), nullptr, 10);
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "fuzz: ignoring %s (this driver knows -runs, -max_total_time, -seed, -max_len)\n", argv[i]);
    } else {
      o.paths.emplace_back(argv[i]);
    }
  }
  return o;
}

std::vector<bytes> read_corpus(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& path : paths) {
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.emplace_back(path);
    }
  }
  std::sort(files.begin(), files.end()); // directory order is not stable across machines
  std::vector<bytes> corpus;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return corpus;
}

bytes fresh(std::mt19937_64& rng, std::size_t max_len) {
  bytes input(rng() % (max_len + 1));
  for (auto& b : input) b = static_cast<std::uint8_t>(rng());
  return input;
}

/// A corpus input with a few random edits: byte changes, insertions, erasures, a copied run, a splice of another.
bytes mutate(const std::vector<bytes>& corpus, std::mt19937_64& rng, std::size_t max_len) {
  bytes input = corpus[rng() % corpus.size()];
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = input.empty() ? 0 : rng() % input.size();
    switch (rng() % 5) {
    case 0:
      if (!input.empty()) input[at] = static_cast<std::uint8_t>(rng());
      break;
    case 1:
      input.insert(input.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng()));
      break;
    case 2:
      if (!input.empty()) input.erase(input.begin() + static_cast<std::ptrdiff_t>(at));
      break;
    case 3:
      if (!input.empty()) {
        const std::size_t length = 1 + rng() % std::min<std::size_t>(16, input.size() - at);
        const bytes run(input.begin() + static_cast<std::ptrdiff_t>(at),
                        input.begin() + static_cast<std::ptrdiff_t>(at + length));
        input.insert(input.begin() + static_cast<std::ptrdiff_t>(rng() % (input.size() + 1)), run.begin(), run.end());
      }
      break;
    default: {
      const bytes& other = corpus[rng() % corpus.size()];
      input.resize(at);
      if (!other.empty()) {
        const std::size_t from = rng() % other.size();
        input.insert(input.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
      }
      break;
    }
    }
  }
  if (input.size() > max_len) input.resize(max_len);
  return input;
}

void run(const bytes& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(input.data(), input.size());
  g_current = nullptr;
}

} // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  std::snprintf(g_crash_path, sizeof g_crash_path, "crash-%s.bin",
                std::filesystem::path(argv[0]).filename().string().c_str());
  for (int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(signal, write_crash);

  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const std::vector<bytes> corpus = read_corpus(o.paths);
  for (const bytes& input : corpus) run(input);

  std::mt19937_64 rng(o.seed);
  std::uint64_t done = 0;
  for (; done < o.runs && (o.max_seconds == 0 || elapsed() < o.max_seconds); ++done) {
    run(corpus.empty() || rng() % 2 ? fresh(rng, o.max_len) : mutate(corpus, rng, o.max_len));
  }
  std::printf("fuzz: %zu corpus inputs and %llu random inputs (seed %llu) passed in %.1f s\n", corpus.size(),
              static_cast<unsigned long long>(done), static_cast<unsigned long long>(o.seed), elapsed());
  return 0;
}
