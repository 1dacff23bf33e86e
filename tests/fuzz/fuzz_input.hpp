// Reads a fuzz input as a stream of small decisions; an exhausted input reads as zeros, so every input is valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace fuzz {

class input {
 public:
  input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return at_ >= size_; }

  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }

  /// Little-endian, `bytes` bytes (1..8).
  std::uint64_t uint(std::size_t bytes) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < bytes; ++i) value |= std::uint64_t{byte()} << (8 * i);
    return value;
  }

  /// A length byte, then that many bytes (fewer at the end of the input).
  std::string text() {
    const std::size_t length = byte();
    std::string out;
    for (std::size_t i = 0; i < length && !empty(); ++i) out += static_cast<char>(byte());
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

/// Stops the run with a message; libFuzzer (and the replay driver) report the input that got here.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

/// Fails with what when ok is false.
inline void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

} // namespace fuzz
