// File descriptors between the processes of a node (fd_exchange.hpp).
#include "fd_exchange.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <string>

#include "log.hpp"

namespace portshmem::detail {
namespace {

/// The abstract-namespace address of rank's socket (a leading NUL byte, then the name; no file behind it).
socklen_t socket_address(std::uint64_t job, int rank, sockaddr_un* addr) {
  std::memset(addr, 0, sizeof *addr);
  addr->sun_family = AF_UNIX;
  const std::string name = "portshmem." + std::to_string(job) + "." + std::to_string(rank);
  std::memcpy(addr->sun_path + 1, name.data(), name.size());
  return socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name.size());
}

/// One message: the sender's rank as data, its descriptor as SCM_RIGHTS.
struct message {
  std::int32_t rank = -1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  iovec io{&rank, sizeof rank};
  msghdr header{};
  message() {
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
  }
};

class exchange {
 public:
  exchange(bootstrap& boot, std::uint64_t job, std::vector<int>* theirs) : boot_(boot), job_(job), theirs_(*theirs) {
    theirs_.assign(std::size_t(boot.size()), -1);
  }
  ~exchange() {
    if (sock_ >= 0) close(sock_);
  }

  portshmem_status_t open() {
    sock_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock_ < 0) return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_SYSTEM, "socket(AF_UNIX): %s", std::strerror(errno));
    sockaddr_un addr;
    const socklen_t len = socket_address(job_, boot_.rank(), &addr);
    if (bind(sock_, reinterpret_cast<sockaddr*>(&addr), len) != 0) {
      return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_SYSTEM, "binding this PE's socket for passing heaps: %s",
                               std::strerror(errno));
    }
    return PORTSHMEM_SUCCESS;
  }

  /// Sends mine to every other node rank and receives theirs; sends that would block (a full receive queue) are
  /// retried between receives, so no order of ranks can deadlock.
  portshmem_status_t run(int mine, std::uint64_t timeout_ns) {
    std::vector<int> unsent;
    for (int r : boot_.node_ranks())
      if (r != boot_.rank()) unsent.push_back(r);
    std::size_t awaited = unsent.size();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns);
    while (!unsent.empty() || awaited > 0) {
      for (auto it = unsent.begin(); it != unsent.end();) {
        const int sent = send_to(*it, mine);
        if (sent < 0)
          return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_SYSTEM, "passing this PE's heap to PE %d: %s", *it,
                                   std::strerror(-sent));
        it = sent ? unsent.erase(it) : it + 1;
      }
      for (int got; awaited > 0 && (got = receive()) != 0; --awaited) {
        if (got < 0)
          return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_SYSTEM, "receiving a peer's heap: %s", std::strerror(-got));
      }
      if (unsent.empty() && awaited == 0) break;
      if (std::chrono::steady_clock::now() > deadline) {
        std::vector<int> missing;
        for (int r : boot_.node_ranks())
          if (r != boot_.rank() && theirs_[std::size_t(r)] < 0) missing.push_back(r);
        return PORTSHMEM_FAIL_AT(warn, PORTSHMEM_ERR_TIMEOUT,
                                 "passing heaps between the node's PEs: nothing came from %s (%zu sends of this PE "
                                 "still blocked)",
                                 describe_pes(missing).c_str(), unsent.size());
      }
      pollfd p{sock_, POLLIN, 0};
      (void)poll(&p, 1, 10); // a wake-up for a receive; blocked sends are retried at least every 10 ms
    }
    return PORTSHMEM_SUCCESS;
  }

 private:
  /// 1 sent, 0 would block, -errno on failure.
  int send_to(int rank, int fd) {
    message m;
    m.rank = boot_.rank();
    cmsghdr* c = CMSG_FIRSTHDR(&m.header);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
    sockaddr_un addr;
    m.header.msg_name = &addr;
    m.header.msg_namelen = socket_address(job_, rank, &addr);
    if (sendmsg(sock_, &m.header, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) return 1;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
  }

  /// 1 received one peer's descriptor, 0 nothing waiting, -errno on failure (EPROTO: a message not from a node peer,
  /// or a repeat).
  int receive() {
    message m;
    const ssize_t n = recvmsg(sock_, &m.header, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
    cmsghdr* c = CMSG_FIRSTHDR(&m.header);
    int fd = -1;
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
    const bool peer = n == sizeof m.rank && m.rank >= 0 && m.rank < boot_.size() && m.rank != boot_.rank() &&
                      boot_.node_of()[std::size_t(m.rank)] == boot_.node_of()[std::size_t(boot_.rank())];
    if (fd < 0 || !peer || theirs_[std::size_t(m.rank)] >= 0) {
      if (fd >= 0) close(fd);
      return -EPROTO;
    }
    theirs_[std::size_t(m.rank)] = fd;
    return 1;
  }

  bootstrap& boot_;
  std::uint64_t job_;
  std::vector<int>& theirs_;
  int sock_ = -1;
};

} // namespace

portshmem_status_t exchange_fds(bootstrap& boot, std::uint64_t job, int mine, std::uint64_t timeout_ns,
                                std::vector<int>* theirs) {
  portshmem_status_t status = PORTSHMEM_SUCCESS;
  {
    exchange x(boot, job, theirs);
    status = x.open();
    // Every socket is bound before any PE sends (a datagram to an unbound name is refused, not queued).
    status = worst_status(boot, status);
    if (status == PORTSHMEM_SUCCESS) status = x.run(mine, timeout_ns);
    // One verdict for all: a PE that received everything still fails when a peer did not.
    status = worst_status(boot, status);
  }
  if (status != PORTSHMEM_SUCCESS) {
    for (int& fd : *theirs) {
      if (fd >= 0) close(fd);
      fd = -1;
    }
  }
  return status;
}

} // namespace portshmem::detail
