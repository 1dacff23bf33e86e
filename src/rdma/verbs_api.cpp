// The verbs table over libibverbs. Lambdas, not the functions' addresses: some are macros or inline functions.
#include "rdma/verbs_api.hpp"

namespace portshmem::rdma {

const verbs_api& system_verbs() {
  static const verbs_api api = {
      [](int* count) { return ibv_get_device_list(count); },
      [](ibv_device** list) { ibv_free_device_list(list); },
      [](ibv_device* device) { return ibv_get_device_name(device); },
      [](ibv_device* device) { return ibv_open_device(device); },
      [](ibv_context* context) { return ibv_close_device(context); },
      [](ibv_context* context, ibv_device_attr* attr) { return ibv_query_device(context, attr); },
      [](ibv_context* context, std::uint8_t port, ibv_port_attr* attr) { return ibv_query_port(context, port, attr); },
      [](ibv_context* context, std::uint8_t port, int index, ibv_gid* gid) {
        return ibv_query_gid(context, port, index, gid);
      },
      [](ibv_context* context) { return ibv_alloc_pd(context); },
      [](ibv_pd* pd) { return ibv_dealloc_pd(pd); },
      [](ibv_context* context, int entries) { return ibv_create_cq(context, entries, nullptr, nullptr, 0); },
      [](ibv_cq* cq) { return ibv_destroy_cq(cq); },
      [](ibv_pd* pd, ibv_qp_init_attr* attr) { return ibv_create_qp(pd, attr); },
      [](ibv_qp* qp, ibv_qp_attr* attr, int mask) { return ibv_modify_qp(qp, attr, mask); },
      [](ibv_qp* qp) { return ibv_destroy_qp(qp); },
      [](ibv_pd* pd, void* addr, std::size_t length, int access) { return ibv_reg_mr(pd, addr, length, access); },
      [](ibv_pd* pd, std::uint64_t offset, std::size_t length, std::uint64_t iova, int fd, int access) {
        return ibv_reg_dmabuf_mr(pd, offset, length, iova, fd, access);
      },
      [](ibv_mr* mr) { return ibv_dereg_mr(mr); },
      [](ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) { return ibv_post_send(qp, wr, bad); },
      [](ibv_cq* cq, int entries, ibv_wc* wc) { return ibv_poll_cq(cq, entries, wc); },
      [](ibv_wc_status status) { return ibv_wc_status_str(status); },
  };
  return api;
}

} // namespace portshmem::rdma
