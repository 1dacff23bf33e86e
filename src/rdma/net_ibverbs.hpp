// The ibverbs network: one reliable-connected queue pair per PE (itself included, as a loopback), the heap
// registered for remote access (through a dma-buf for GPU memory), RDMA write/read and NIC atomics, completions
// polled from one completion queue, and every error completion turned into a status and a sentence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "rdma/network.hpp"
#include "rdma/verbs_api.hpp"

namespace portshmem::rdma {

/// The bootstrap's allgather: all[pe * bytes ..) receives PE pe's `mine`.
using allgather_fn = std::function<portshmem_status_t(const void* mine, void* all, std::size_t bytes)>;

struct ibverbs_options {
  const verbs_api* api = nullptr; ///< null: libibverbs (system_verbs)
  int my_pe = 0;
  int n_pes = 1;
  allgather_fn allgather;
  void* heap = nullptr; ///< this PE's symmetric heap; every PE's has the same size
  std::size_t heap_size = 0;
  int heap_dmabuf_fd = -1;              ///< >= 0: the heap is GPU memory exported as this dma-buf
  std::uint64_t heap_dmabuf_offset = 0; ///< the heap's offset in that dma-buf
  std::string device;                   ///< an RDMA device name; empty: the usable device nearest the GPU
  std::string near_pci_bus_id;          ///< the GPU's PCI bus id ("0000:3b:00.0"); empty: the first usable device
  std::string sysfs_root = "/sys";
  std::size_t bounce_bytes = std::size_t(1) << 20; ///< registered host memory for buffers outside the heap
  unsigned queue_depth = 128;                      ///< send queue entries per queue pair
};

/// Collective (through options.allgather): every PE gets a network or every PE gets an error.
portshmem_status_t make_ibverbs_network(const ibverbs_options& options, std::unique_ptr<network>* out);

} // namespace portshmem::rdma
