// Every verbs call the ibverbs network makes, as a table of function pointers: system_verbs() calls libibverbs, and
// the unit tests pass a fake NIC, so the connection state machine, the work-request encoding and the error paths run
// (and are tested) on machines without an RDMA device.
#pragma once

#include <infiniband/verbs.h>

#include <cstddef>
#include <cstdint>

namespace portshmem::rdma {

struct verbs_api {
  ibv_device** (*get_device_list)(int* count);
  void (*free_device_list)(ibv_device** list);
  const char* (*get_device_name)(ibv_device* device);
  ibv_context* (*open_device)(ibv_device* device);
  int (*close_device)(ibv_context* context);
  int (*query_device)(ibv_context* context, ibv_device_attr* attr);
  int (*query_port)(ibv_context* context, std::uint8_t port, ibv_port_attr* attr);
  int (*query_gid)(ibv_context* context, std::uint8_t port, int index, ibv_gid* gid);
  ibv_pd* (*alloc_pd)(ibv_context* context);
  int (*dealloc_pd)(ibv_pd* pd);
  ibv_cq* (*create_cq)(ibv_context* context, int entries);
  int (*destroy_cq)(ibv_cq* cq);
  ibv_qp* (*create_qp)(ibv_pd* pd, ibv_qp_init_attr* attr);
  int (*modify_qp)(ibv_qp* qp, ibv_qp_attr* attr, int mask);
  int (*destroy_qp)(ibv_qp* qp);
  ibv_mr* (*reg_mr)(ibv_pd* pd, void* addr, std::size_t length, int access);
  /// GPU memory exported as a dma-buf (offset into the buffer, length, the address the peers use, fd).
  ibv_mr* (*reg_dmabuf_mr)(ibv_pd* pd, std::uint64_t offset, std::size_t length, std::uint64_t iova, int fd,
                           int access);
  int (*dereg_mr)(ibv_mr* mr);
  int (*post_send)(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad);
  int (*poll_cq)(ibv_cq* cq, int entries, ibv_wc* wc);
  const char* (*wc_status_str)(ibv_wc_status status);
};

/// The table that calls libibverbs.
const verbs_api& system_verbs();

} // namespace portshmem::rdma
