// POSIX shared-memory segments for the symmetric heaps (shm_segments.hpp).
#include "shm_segments.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
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
}

portshmem_status_t shm_segments::start(bootstrap& boot, std::vector<char*>* peers) {
  // One job key, chosen by rank 0, so concurrent jobs on a machine never open each other's segments.
  std::uint64_t mine = std::random_device{}() * 4294967296ull + std::uint64_t(getpid());
  std::vector<std::uint64_t> keys(boot.size());
  if (auto s = boot.allgather(&mine, keys.data(), sizeof mine); s != PORTSHMEM_SUCCESS) return s;
  const std::uint64_t job = keys[0];

  const std::string own = segment_name(job, boot.rank());
  portshmem_status_t status = PORTSHMEM_SUCCESS;
  const int fd = shm_open(own.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "shm_open(%s): %s", own.c_str(), std::strerror(errno));
  } else {
    if (ftruncate(fd, off_t(size_)) != 0) {
      status = PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM,
                              "sizing the %zu-byte heap %s failed: %s (is /dev/shm large enough? "
                              "PORTSHMEM_HEAP_SIZE sets the size)",
                              size_, own.c_str(), std::strerror(errno));
    }
    if (status == PORTSHMEM_SUCCESS) local_ = map(fd, own.c_str(), &status);
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
      (*peers)[r] = map(pfd, name.c_str(), &status);
      close(pfd);
      if (status != PORTSHMEM_SUCCESS) break;
    }
    status = agree_status(boot, status);
  }
  if (fd >= 0) shm_unlink(own.c_str());
  return status;
}

// Maps the segment at an address aligned to kHeapBaseAlignment: reserves that much more address space than the
// heap needs, maps the segment over the aligned part of the reservation and gives the rest back.
char* shm_segments::map(int fd, const char* name, portshmem_status_t* status) {
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
