// Work requests of the ibverbs network: RDMA write, read and the two atomics verbs has (8-byte fetch-and-add and
// compare-and-swap); rdma/amo_word.hpp builds the rest of the proxy's atomics from those.
#pragma once

#include <cstdint>

#include "rdma/amo_word.hpp"
#include "rdma/network.hpp"
#include "rdma/verbs_api.hpp"

namespace portshmem::rdma {

struct ib_local {
  std::uint64_t addr;
  std::uint32_t length;
  std::uint32_t lkey; ///< ignored for an inline write
};
struct ib_remote {
  std::uint64_t addr;
  std::uint32_t rkey;
};

/// A work request with its one scatter/gather entry (wr.sg_list points at sge: keep them together, do not copy).
struct ib_request {
  ibv_send_wr wr;
  ibv_sge sge;
};

/// flags: IBV_SEND_SIGNALED, IBV_SEND_FENCE, IBV_SEND_INLINE (write only).
void encode_write(ib_request* r, const ib_local& from, const ib_remote& to, std::uint64_t wr_id, unsigned flags);
void encode_read(ib_request* r, const ib_local& into, const ib_remote& from, std::uint64_t wr_id, unsigned flags);
/// result: 8 bytes that receive the previous value.
void encode_fetch_add(ib_request* r, const ib_local& result, const ib_remote& at, std::uint64_t add,
                      std::uint64_t wr_id, unsigned flags);
void encode_compare_swap(ib_request* r, const ib_local& result, const ib_remote& at, std::uint64_t compare,
                         std::uint64_t swap, std::uint64_t wr_id, unsigned flags);

} // namespace portshmem::rdma
