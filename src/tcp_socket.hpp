// TCP plumbing for the unique-ID bootstrap (src/bootstrap_tcp.cpp): deadlines, non-blocking IPv4 sockets, a
// little-endian byte encoding and the frame header every bootstrap message starts with.
#pragma once

#include <netinet/in.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "portshmem/status.h"

namespace portshmem::detail::tcp {

using clock_type = std::chrono::steady_clock;
using time_point = clock_type::time_point;
constexpr time_point kNever = time_point::max();
constexpr std::size_t kHeaderBytes = 24; // u64 group id, u64 seq, u64 payload length

/// Closes its descriptor when it goes out of scope, unless released.
class unique_fd {
 public:
  explicit unique_fd(int fd = -1) : fd_(fd) {}
  ~unique_fd() { reset(); }
  unique_fd(unique_fd&& o) noexcept : fd_(o.release()) {}
  unique_fd& operator=(unique_fd&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

class writer {
 public:
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void str(const std::string& s) {
    u32(std::uint32_t(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  std::vector<unsigned char>& bytes() { return bytes_; }

 private:
  void put(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back((unsigned char)(v >> (8 * i)));
  }
  std::vector<unsigned char> bytes_;
};

/// Reads what writer wrote; a read past the end yields zeros and makes ok() false.
class reader {
 public:
  reader(const unsigned char* p, std::size_t n) : p_(p), n_(n) {}
  std::uint16_t u16() { return std::uint16_t(get(2)); }
  std::uint32_t u32() { return std::uint32_t(get(4)); }
  std::uint64_t u64() { return get(8); }
  std::string str(std::size_t max) {
    const std::size_t len = u32();
    if (!ok_ || len > max || len > n_ - pos_) {
      ok_ = false;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(p_ + pos_), len);
    pos_ += len;
    return s;
  }
  bool ok() const { return ok_; }

 private:
  std::uint64_t get(int n) {
    if (!ok_ || std::size_t(n) > n_ - pos_) {
      ok_ = false;
      return 0;
    }
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(p_[pos_ + i]) << (8 * i);
    pos_ += std::size_t(n);
    return v;
  }
  const unsigned char* p_;
  std::size_t n_, pos_ = 0;
  bool ok_ = true;
};

/// Now plus ns, or kNever when that would overflow.
time_point deadline_after(std::uint64_t ns);

/// t plus d, saturating at kNever.
time_point later(time_point t, clock_type::duration d);

/// poll()'s timeout until deadline, rounded up so a poll never returns just before it; -1 for kNever.
int poll_ms(time_point deadline);

/// "A.B.C.D:PORT", for messages.
std::string address_text(const sockaddr_in& a);

/// An IPv4 socket address from host-order address and port.
sockaddr_in make_address(std::uint32_t ip_host_order, std::uint16_t port);

/// A frame: the header (group id, seq, payload length; kHeaderBytes) followed by the payload.
std::vector<unsigned char> frame(std::uint64_t gid, std::uint64_t seq, const void* payload, std::size_t bytes);

/// TCP_NODELAY: small frames go out at once (a failure costs only speed).
void set_nodelay(int fd);

/// A non-blocking, close-on-exec listening socket on addr (port 0: any); *port receives the one bound.
portshmem_status_t open_listener(const sockaddr_in& addr, unique_fd* out, std::uint16_t* port);

/// Connects to `to`, retrying while nobody listens there yet, until deadline: PORTSHMEM_ERR_TIMEOUT (not logged) or
/// PORTSHMEM_ERR_SYSTEM (logged) for an error that waiting will not cure.
portshmem_status_t connect_to(const sockaddr_in& to, time_point deadline, unique_fd* out);

/// Accepts one connection on a listener until deadline: PORTSHMEM_ERR_TIMEOUT (not logged).
portshmem_status_t accept_one(int listener, time_point deadline, unique_fd* out);

/// Moves len bytes in or out of a non-blocking socket, waiting in poll until deadline. PORTSHMEM_ERR_TIMEOUT, or
/// PORTSHMEM_ERR_BOOTSTRAP when the peer closed or failed; neither logged (the caller knows whom to name).
portshmem_status_t transfer(int fd, unsigned char* p, std::size_t len, bool sending, time_point deadline);

} // namespace portshmem::detail::tcp
