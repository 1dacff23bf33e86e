// TCP plumbing for the unique-ID bootstrap: see tcp_socket.hpp.
#include "tcp_socket.hpp"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <thread>

#include "log.hpp"

namespace portshmem::detail::tcp {

time_point deadline_after(std::uint64_t ns) {
  const auto now = clock_type::now();
  const auto room = std::chrono::duration_cast<std::chrono::nanoseconds>(kNever - now).count();
  if (ns >= std::uint64_t(room)) return kNever;
  return now + std::chrono::duration_cast<clock_type::duration>(std::chrono::nanoseconds(ns));
}

time_point later(time_point t, clock_type::duration d) {
  return t >= kNever - d ? kNever : t + d;
}

/// poll()'s timeout until deadline, rounded up so a poll never returns just before it; -1 for kNever.
int poll_ms(time_point deadline) {
  if (deadline == kNever) return -1;
  const auto left = deadline - clock_type::now();
  if (left <= clock_type::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return int(std::min<long long>(ms, INT_MAX));
}

std::string address_text(const sockaddr_in& a) {
  char ip[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
  return std::string(ip) + ":" + std::to_string(ntohs(a.sin_port));
}

sockaddr_in make_address(std::uint32_t ip_host_order, std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(ip_host_order);
  a.sin_port = htons(port);
  return a;
}

std::vector<unsigned char> frame(std::uint64_t gid, std::uint64_t seq, const void* payload, std::size_t bytes) {
  writer w;
  w.u64(gid);
  w.u64(seq);
  w.u64(bytes);
  auto& f = w.bytes();
  const auto* p = static_cast<const unsigned char*>(payload);
  if (bytes) f.insert(f.end(), p, p + bytes);
  return std::move(f);
}

// ---- sockets ---------------------------------------------------------------------------------------------------

void set_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // latency of small frames; failure costs only speed
}

/// A non-blocking, close-on-exec listening socket on addr (port 0: any); *port receives the one bound.
portshmem_status_t open_listener(const sockaddr_in& addr, unique_fd* out, std::uint16_t* port) {
  unique_fd fd(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "socket() failed: %s", std::strerror(errno));
  int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); // a fixed port reusable while in TIME_WAIT
  set_nodelay(fd.get());
  if (bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "bootstrap: binding a listening socket to %s failed: %s",
                          address_text(addr).c_str(), std::strerror(errno));
  }
  if (listen(fd.get(), SOMAXCONN) != 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "listen() failed: %s", std::strerror(errno));
  }
  sockaddr_in bound{};
  socklen_t len = sizeof bound;
  if (getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &len) != 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "getsockname() failed: %s", std::strerror(errno));
  }
  *port = ntohs(bound.sin_port);
  *out = std::move(fd);
  return PORTSHMEM_SUCCESS;
}

/// Connects to `to`, retrying while nobody listens there yet, until deadline: PORTSHMEM_ERR_TIMEOUT (not logged) or
/// PORTSHMEM_ERR_SYSTEM (logged) for an error that waiting will not cure.
portshmem_status_t connect_to(const sockaddr_in& to, time_point deadline, unique_fd* out) {
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    unique_fd fd(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (fd.get() < 0) return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "socket() failed: %s", std::strerror(errno));
    int err = 0;
    if (connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
      err = errno;
      if (err == EINPROGRESS) { // non-blocking, so that an unanswered SYN cannot outlast the deadline
        pollfd p{fd.get(), POLLOUT, 0};
        int n;
        while ((n = poll(&p, 1, poll_ms(deadline))) < 0 && errno == EINTR) {
        }
        if (n == 0) return PORTSHMEM_ERR_TIMEOUT;
        socklen_t len = sizeof err;
        if (n < 0 || getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
      }
    }
    if (err == 0) {
      set_nodelay(fd.get());
      *out = std::move(fd);
      return PORTSHMEM_SUCCESS;
    }
    const bool not_yet = err == ECONNREFUSED || err == ETIMEDOUT || err == ECONNRESET || err == ECONNABORTED ||
                         err == EAGAIN || err == EINTR;
    if (!not_yet) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "bootstrap: connecting to %s failed: %s", address_text(to).c_str(),
                            std::strerror(err));
    }
    if (deadline != kNever && clock_type::now() + pause >= deadline) return PORTSHMEM_ERR_TIMEOUT;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
}

/// Accepts one connection on a listener until deadline: PORTSHMEM_ERR_TIMEOUT (not logged).
portshmem_status_t accept_one(int listener, time_point deadline, unique_fd* out) {
  for (;;) {
    const int fd = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      set_nodelay(fd);
      out->reset(fd);
      return PORTSHMEM_SUCCESS;
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "bootstrap: accept() failed: %s", std::strerror(errno));
    }
    pollfd p{listener, POLLIN, 0};
    const int n = poll(&p, 1, poll_ms(deadline));
    if (n == 0 && clock_type::now() >= deadline) return PORTSHMEM_ERR_TIMEOUT;
  }
}

/// Moves len bytes in or out of a non-blocking socket, waiting in poll until deadline. PORTSHMEM_ERR_TIMEOUT, or
/// PORTSHMEM_ERR_BOOTSTRAP when the peer closed or failed; neither logged (the caller knows whom to name).
portshmem_status_t transfer(int fd, unsigned char* p, std::size_t len, bool sending, time_point deadline) {
  while (len > 0) {
    const ssize_t n = sending ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
    if (n > 0) {
      p += n;
      len -= std::size_t(n);
      continue;
    }
    if (n == 0 && !sending) return PORTSHMEM_ERR_BOOTSTRAP;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return PORTSHMEM_ERR_BOOTSTRAP;
    pollfd pf{fd, short(sending ? POLLOUT : POLLIN), 0};
    const int r = poll(&pf, 1, poll_ms(deadline));
    if (r == 0 && clock_type::now() >= deadline) return PORTSHMEM_ERR_TIMEOUT;
  }
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail::tcp
