// One command, executed through the network with the completion its op promises (transport/proxy_queue.h).
#include "rdma/proxy.hpp"

#include <string>

#include "rdma/staging.hpp"

namespace portshmem::rdma {
namespace {

constexpr const char* kAmoNames[PORTSHMEM_PROXY_AMO_COUNT] = {"fetch",     "set",       "swap",     "compare_swap",
                                                              "fetch_add", "fetch_and", "fetch_or", "fetch_xor",
                                                              "add",       "and",       "or",       "xor"};

constexpr const char* kOpNames[PORTSHMEM_PROXY_OP_COUNT] = {"nop",        "put",   "get",   "amo",     "signal",
                                                            "put_signal", "fence", "quiet", "pe_quiet"};

portshmem_status_t malformed(std::string* why, const char* what) {
  *why = std::string("malformed command: ") + what;
  return PORTSHMEM_ERR_INVALID_ARG;
}

/// Writes width bytes of a fetched value to a local address (device memory on GPU platforms). Little-endian: the
/// low bytes of the 64-bit value are the 4-byte value.
portshmem_status_t write_fetched(std::uint64_t local, std::uint64_t value, unsigned width, std::string* why) {
  if (bounce_pool::copy(reinterpret_cast<void*>(local), &value, width) == PORTSHMEM_SUCCESS) return PORTSHMEM_SUCCESS;
  *why = "could not write the fetched value to its local destination";
  return PORTSHMEM_ERR_GPU;
}

/// With FLAG_DELIVERED, after an issued operation: it is complete at its target before the command completes.
portshmem_status_t delivered(network& net, const portshmem_proxy_cmd_t& cmd, portshmem_status_t issued) {
  if (issued != PORTSHMEM_SUCCESS || !(cmd.flags & PORTSHMEM_PROXY_FLAG_DELIVERED)) return issued;
  return net.flush(cmd.pe);
}

/// A GET: into cmd.local, or (local 0, at most 8 bytes) into *fetched, the result cell's value.
portshmem_status_t execute_get(network& net, const portshmem_proxy_cmd_t& cmd, std::uint64_t* fetched,
                               std::string* why) {
  if (cmd.local != 0) {
    const portshmem_status_t s =
        net.get(cmd.pe, cmd.remote, reinterpret_cast<void*>(cmd.local), cmd.size, cmd.qualifier);
    return s == PORTSHMEM_SUCCESS ? net.complete_local(cmd.pe) : s;
  }
  if (cmd.size > sizeof *fetched) return malformed(why, "a get into the result cell of more than 8 bytes");
  std::uint64_t value = 0; // little-endian: the bytes land in the low end of the cell's value
  portshmem_status_t s = net.get(cmd.pe, cmd.remote, &value, cmd.size, cmd.qualifier);
  if (s == PORTSHMEM_SUCCESS) s = net.complete_local(cmd.pe);
  if (s == PORTSHMEM_SUCCESS) *fetched = value;
  return s;
}

portshmem_status_t execute_amo(network& net, const portshmem_proxy_cmd_t& cmd, std::uint64_t* fetched,
                               std::string* why) {
  if (cmd.kind >= PORTSHMEM_PROXY_AMO_COUNT) return malformed(why, "unknown atomic");
  if (cmd.width != 4 && cmd.width != 8) return malformed(why, "atomic width is not 4 or 8");
  const auto kind = portshmem_proxy_amo_t(cmd.kind);
  const amo_request op{kind, cmd.width, cmd.value, cmd.aux};
  if (!amo_fetches(kind)) return delivered(net, cmd, net.atomic(cmd.pe, cmd.remote, op, nullptr, cmd.qualifier));
  std::uint64_t value = 0;
  portshmem_status_t s = net.atomic(cmd.pe, cmd.remote, op, &value, cmd.qualifier);
  if (s == PORTSHMEM_SUCCESS) s = net.complete_local(cmd.pe);
  if (s != PORTSHMEM_SUCCESS) return s;
  if (cmd.width == 4) value &= 0xffffffffu;
  if (cmd.local != 0) return write_fetched(cmd.local, value, cmd.width, why);
  *fetched = value;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t execute_signal(network& net, const portshmem_proxy_cmd_t& cmd) {
  const amo_request op{cmd.kind == PORTSHMEM_PROXY_SIGNAL_ADD ? PORTSHMEM_PROXY_AMO_ADD : PORTSHMEM_PROXY_AMO_SET, 8,
                       cmd.value, 0};
  if (cmd.op == PORTSHMEM_PROXY_OP_SIGNAL) {
    return delivered(net, cmd, net.atomic(cmd.pe, cmd.remote, op, nullptr, cmd.qualifier));
  }
  // The data, then the network's ordering point, then the signal: pe sees the signal only after the data.
  portshmem_status_t s = net.put(cmd.pe, cmd.remote, reinterpret_cast<const void*>(cmd.local), cmd.size, cmd.qualifier);
  if (s == PORTSHMEM_SUCCESS) s = net.order(cmd.pe);
  if (s == PORTSHMEM_SUCCESS) s = net.atomic(cmd.pe, cmd.aux, op, nullptr, cmd.qualifier);
  if (s == PORTSHMEM_SUCCESS && (cmd.flags & PORTSHMEM_PROXY_FLAG_BLOCKING)) s = net.complete_local(cmd.pe);
  return s;
}

portshmem_status_t execute(network& net, const portshmem_proxy_cmd_t& cmd, std::uint64_t* fetched, std::string* why) {
  const int pe = cmd.pe;
  portshmem_status_t s = PORTSHMEM_SUCCESS;
  switch (cmd.op) {
  case PORTSHMEM_PROXY_OP_NOP:
    return PORTSHMEM_SUCCESS;
  case PORTSHMEM_PROXY_OP_PUT:
    if (cmd.flags & PORTSHMEM_PROXY_FLAG_INLINE) {
      if (cmd.size > sizeof cmd.value) return malformed(why, "an inline put of more than 8 bytes");
      return net.put_inline(pe, cmd.remote, &cmd.value, cmd.size, cmd.qualifier);
    }
    s = net.put(pe, cmd.remote, reinterpret_cast<const void*>(cmd.local), cmd.size, cmd.qualifier);
    if (s == PORTSHMEM_SUCCESS && (cmd.flags & PORTSHMEM_PROXY_FLAG_BLOCKING)) s = net.complete_local(pe);
    return s;
  case PORTSHMEM_PROXY_OP_GET:
    return execute_get(net, cmd, fetched, why);
  case PORTSHMEM_PROXY_OP_AMO:
    return execute_amo(net, cmd, fetched, why);
  case PORTSHMEM_PROXY_OP_SIGNAL:
  case PORTSHMEM_PROXY_OP_PUT_SIGNAL:
    if (cmd.kind > PORTSHMEM_PROXY_SIGNAL_ADD) return malformed(why, "unknown signal op");
    return execute_signal(net, cmd);
  case PORTSHMEM_PROXY_OP_FENCE:
    return net.order_all();
  case PORTSHMEM_PROXY_OP_QUIET:
    return net.flush_all();
  case PORTSHMEM_PROXY_OP_PE_QUIET:
    return net.flush(pe);
  default:
    return malformed(why, "unknown op");
  }
}

} // namespace

const char* command_name(const portshmem_proxy_cmd_t& cmd) {
  if (cmd.op == PORTSHMEM_PROXY_OP_AMO && cmd.kind < PORTSHMEM_PROXY_AMO_COUNT) return kAmoNames[cmd.kind];
  if (cmd.op == PORTSHMEM_PROXY_OP_SIGNAL) return cmd.kind == PORTSHMEM_PROXY_SIGNAL_ADD ? "signal_add" : "signal_set";
  return cmd.op < PORTSHMEM_PROXY_OP_COUNT ? kOpNames[cmd.op] : "unknown command";
}

portshmem_status_t execute_command(network& net, const portshmem_proxy_cmd_t& cmd, std::uint64_t* fetched,
                                   std::string* why) {
  why->clear();
  const portshmem_status_t s = execute(net, cmd, fetched, why);
  if (s != PORTSHMEM_SUCCESS && why->empty()) *why = net.last_error();
  return s;
}

} // namespace portshmem::rdma
