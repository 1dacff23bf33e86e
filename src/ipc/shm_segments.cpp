// POSIX shared-memory segments for the symmetric heaps (shm_segments.hpp).
#include "shm_segments.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "heap_backend.hpp"
#include "log.hpp"

namespace portshmem::detail {
namespace {

std::string segment_name(std::uint64_t job, int rank) {
  return "/portshmem." + std::to_string(job) + "." + std::to_string(rank);
}

} // namespace

shm_segments::~shm_segments() {
  for (void* m : mappings_) munmap(m, size_);
  if (range_) munmap(range_, range_bytes_);
}

portshmem_status_t shm_segments::reserve_range(const bootstrap& boot) {
  layout_ = node_range_layout(boot, size_, std::size_t(sysconf(_SC_PAGESIZE)));
  if (layout_.slots == 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM,
                          "the node's %zu-byte heaps do not fit in one address range; lower "
                          "PORTSHMEM_HEAP_SIZE or set PORTSHMEM_SYMMETRIC_RANGE=off",
                          size_);
  }
  // One unit more than the range, to align its start.
  const std::size_t reserved = layout_.bytes() + layout_.unit;
  void* r = mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r == MAP_FAILED) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "reserving %zu bytes of address space for the node's heaps: %s",
                          reserved, std::strerror(errno));
  }
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(r);
  const std::uintptr_t aligned = (start + layout_.unit - 1) / layout_.unit * layout_.unit;
  if (aligned > start) munmap(r, aligned - start);
  if (start + reserved > aligned + layout_.bytes()) {
    munmap(reinterpret_cast<void*>(aligned + layout_.bytes()), start + reserved - (aligned + layout_.bytes()));
  }
  range_ = reinterpret_cast<char*>(aligned);
  range_bytes_ = layout_.bytes();
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t shm_segments::start(bootstrap& boot, std::vector<char*>* peers) {
  std::uint64_t job = 0;
  if (auto s = job_key(boot, &job); s != PORTSHMEM_SUCCESS) return s;

  const std::string own = segment_name(job, boot.rank());
  portshmem_status_t status = one_range_ ? reserve_range(boot) : PORTSHMEM_SUCCESS;
  const int fd = status == PORTSHMEM_SUCCESS ? shm_open(own.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600) : -1;
  if (status == PORTSHMEM_SUCCESS && fd < 0) {
    status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "shm_open(%s): %s", own.c_str(), std::strerror(errno));
  }
  if (fd >= 0) {
    if (ftruncate(fd, off_t(size_)) != 0) {
      status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM,
                              "sizing the %zu-byte heap %s failed: %s (is /dev/shm large enough? "
                              "PORTSHMEM_HEAP_SIZE sets the size)",
                              size_, own.c_str(), std::strerror(errno));
    }
    if (status == PORTSHMEM_SUCCESS) local_ = map(fd, own.c_str(), slot(boot.rank()), &status);
    close(fd);
  }

  // Every PE must have created its segment before any PE opens it; agreeing on the outcome is that barrier, and
  // makes all PEs fail together instead of some hanging.
  status = agree_status(boot, status);
  if (status == PORTSHMEM_SUCCESS) {
    peers->assign(boot.size(), nullptr);
    for (int r : boot.node_ranks()) {
      if (r == boot.rank()) {
        (*peers)[r] = local_;
        continue;
      }
      const std::string name = segment_name(job, r);
      const int pfd = shm_open(name.c_str(), O_RDWR, 0600);
      if (pfd < 0) {
        status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "shm_open(%s) of PE %d's heap: %s", name.c_str(), r,
                                std::strerror(errno));
        break;
      }
      (*peers)[r] = map(pfd, name.c_str(), slot(r), &status);
      close(pfd);
      if (status != PORTSHMEM_SUCCESS) break;
    }
    status = agree_status(boot, status);
  }
  if (fd >= 0) shm_unlink(own.c_str());
  return status;
}

// Without a slot, maps the segment at an address aligned to kHeapBaseAlignment: reserves that much more address space
// than the heap needs, maps the segment over the aligned part of the reservation and gives the rest back.
char* shm_segments::map(int fd, const char* name, char* at, portshmem_status_t* status) {
  if (at) {
    void* m = mmap(at, size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0);
    if (m == MAP_FAILED) {
      *status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "mmap of %zu bytes (%s): %s", size_, name, std::strerror(errno));
      return nullptr;
    }
    mappings_.push_back(m);
    return static_cast<char*>(m);
  }
  const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
  if (size_ > SIZE_MAX - kHeapBaseAlignment - page) {
    *status =
        PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "a %zu-byte heap cannot be mapped; lower PORTSHMEM_HEAP_SIZE", size_);
    return nullptr;
  }
  const std::size_t span = (size_ + page - 1) / page * page;
  const std::size_t reserved = span + kHeapBaseAlignment;
  void* r = mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r == MAP_FAILED) {
    *status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "reserving %zu bytes of address space for %s: %s", reserved, name,
                             std::strerror(errno));
    return nullptr;
  }
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(r);
  const std::uintptr_t aligned = (start + kHeapBaseAlignment - 1) / kHeapBaseAlignment * kHeapBaseAlignment;
  void* m = mmap(reinterpret_cast<void*>(aligned), size_, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0);
  if (m == MAP_FAILED) {
    *status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "mmap of %zu bytes (%s): %s", size_, name, std::strerror(errno));
    munmap(r, reserved);
    return nullptr;
  }
  if (aligned > start) munmap(r, aligned - start);
  if (start + reserved > aligned + span) {
    munmap(reinterpret_cast<void*>(aligned + span), start + reserved - (aligned + span));
  }
  mappings_.push_back(m);
  return static_cast<char*>(m);
}

} // namespace portshmem::detail
