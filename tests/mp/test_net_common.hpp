// Shared pieces of the network tests (test_net_*.cpp): every PE exposes a plain memory region as its "heap" and
// builds the MPI network over it; the tests run on every PE in the same order (the network is collective).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "log.hpp"
#include "rdma/net_mpi.hpp"

namespace net_test {

namespace rdma = portshmem::rdma;

inline int me() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int npes() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}
inline int next_pe() {
  return (me() + 1) % npes();
}
inline int prev_pe() {
  return (me() + npes() - 1) % npes();
}
inline void barrier() {
  ASSERT_EQ(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
}

/// A byte that differs by PE, position and salt.
inline std::uint8_t pattern(int pe, std::size_t i, unsigned salt) {
  return std::uint8_t(pe * 131 + i * 7 + (i >> 8) * 13 + salt * 29 + 1);
}

/// This PE's exposed memory: kBytes, 8-byte aligned, zeroed.
struct region {
  static constexpr std::size_t kBytes = std::size_t(1) << 20;
  std::vector<std::uint64_t> words = std::vector<std::uint64_t>(kBytes / 8);
  char* base() { return reinterpret_cast<char*>(words.data()); }
  std::uint64_t word(std::uint64_t offset) const { return words[offset / 8]; }
};

/// The MPI network over r on every PE (collective); the test fails if any PE could not build it.
inline std::unique_ptr<rdma::network> make_network(region& r, rdma::staging stage = rdma::staging::automatic,
                                                   std::size_t bounce_bytes = std::size_t(4) << 20) {
  rdma::mpi_network_options o;
  o.base = r.base();
  o.size = region::kBytes;
  o.stage = stage;
  o.bounce_bytes = bounce_bytes;
  std::unique_ptr<rdma::network> net;
  EXPECT_EQ(rdma::make_mpi_network(o, &net), PORTSHMEM_SUCCESS);
  return net;
}

/// Captures the log lines of its lifetime.
struct log_capture {
  log_capture() {
    portshmem::detail::log_set_sink([this](std::string_view line) { lines.emplace_back(line); });
  }
  ~log_capture() { portshmem::detail::log_set_sink({}); }
  bool has(const std::string& text) const {
    for (const auto& line : lines)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }
  std::vector<std::string> lines;
};

} // namespace net_test
