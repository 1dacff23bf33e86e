// The unique-ID bootstrap: the ranks talk over TCP, no MPI. The ID names a listening socket of the process that made
// it (rank 0, the root). Every other rank connects to the root and says who it is; the root answers with the table of
// every rank's own listening address; then each rank connects to every lower rank, so that each pair of ranks shares
// one connection (a full mesh). Every later collective is all-to-all over that mesh: n - 1 messages per rank and call,
// which is fine at bootstrap scale and lets a bounded barrier name exactly the ranks it did not hear from.
//
// IPv4 only: the ID holds an IPv4 address (PORTSHMEM_BOOTSTRAP_ADDR must be one).
//
// Threads: the bootstrap and every group made from it share one mesh with no lock; the caller runs one of their calls
// at a time (init, team creation and the host barrier all run on the application's thread between them).
#include "bootstrap.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

#include "env.hpp"
#include "log.hpp"
#include "tcp_socket.hpp"

namespace portshmem::detail {
namespace {

using namespace tcp; // src/tcp_socket.hpp: sockets, deadlines, byte encoding

// The ID's layout (integers little-endian, whatever the host): magic, format version, address family, IPv4 address,
// port, job key; the rest of the 128 bytes is zero.
constexpr std::uint32_t kMagic = 0x54485350; // "PSHT"
constexpr std::uint16_t kVersion = 1;
constexpr std::uint16_t kFamilyIPv4 = 4;

// Message streams (a frame's group id): the setup's own frames, the bootstrap's world collectives, its bounded
// barriers. Groups' ids have the top bit set, so they never meet these.
constexpr std::uint64_t kSetupId = 1, kWorldId = 2, kArrivalId = 3;
constexpr std::uint64_t kGroupBit = 1ull << 63;
// Setup frames: a rank's hello to the root, the root's reply, a rank's greeting to a lower rank of the mesh.
constexpr std::uint64_t kHelloSeq = 0, kReplySeq = 1, kGreetSeq = 2;

constexpr std::size_t kMaxSetupFrame = 64 << 10;  // a hello or greeting; more is not one of ours
constexpr std::size_t kMaxNodeName = 1024;        // hostname + boot id
constexpr std::uint64_t kMaxPayload = 1ull << 40; // a longer frame means a corrupt stream
constexpr auto kGrace = std::chrono::seconds(5);  // how much longer a rank waits for the root's verdict than the root
constexpr auto kHelloBound = std::chrono::seconds(10); // an accepted connection that sends no hello by then is dropped

/// 64-bit mixing (the splitmix64 finalizer): ids of groups from their parent's id, sequence number and color.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string seconds_text(std::uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", double(ns) / 1e9);
  return text;
}

portshmem_status_t send_frame(int fd, std::uint64_t seq, const std::vector<unsigned char>& payload,
                              time_point deadline) {
  auto f = frame(kSetupId, seq, payload.data(), payload.size());
  return transfer(fd, f.data(), f.size(), true, deadline);
}

/// Reads one setup frame (exactly: what follows it on the stream stays for the mesh); a frame of another stream,
/// sequence or size over max is PORTSHMEM_ERR_INVALID_ARG (not logged).
portshmem_status_t recv_frame(int fd, std::uint64_t seq, std::size_t max, time_point deadline,
                              std::vector<unsigned char>* payload) {
  unsigned char head[kHeaderBytes];
  if (auto s = transfer(fd, head, sizeof head, false, deadline); s != PORTSHMEM_SUCCESS) return s;
  reader r(head, sizeof head);
  const std::uint64_t gid = r.u64(), got_seq = r.u64(), len = r.u64();
  if (gid != kSetupId || got_seq != seq || len > max) return PORTSHMEM_ERR_INVALID_ARG;
  payload->assign(std::size_t(len), 0);
  return transfer(fd, payload->data(), payload->size(), false, deadline);
}

// ---- where to listen, who we are -------------------------------------------------------------------------------

/// The ID's address: PORTSHMEM_BOOTSTRAP_ADDR (IPv4[:port]) when set, else the first non-loopback IPv4 address of an
/// interface that is up, else loopback (a single-host job). Port 0 lets the kernel choose.
portshmem_status_t choose_address(sockaddr_in* out) {
  if (const char* env = std::getenv("PORTSHMEM_BOOTSTRAP_ADDR"); env && *env) {
    bootstrap_address a; // parsed as init's registry parses it (src/env.cpp)
    if (const char* why = read_bootstrap_address(env, a)) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_ENV, "PORTSHMEM_BOOTSTRAP_ADDR=\"%s\" %s", env, why);
    }
    if (!a.automatic) {
      *out = make_address(a.ipv4, a.port);
      return PORTSHMEM_SUCCESS;
    }
  }
  *out = make_address(INADDR_LOOPBACK, 0);
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return PORTSHMEM_SUCCESS;
  for (const ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
    out->sin_addr = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr;
    break;
  }
  freeifaddrs(list);
  return PORTSHMEM_SUCCESS;
}

/// Names the machine's running kernel: processes with the same name can share memory. The boot id tells apart two
/// containers or hosts that share a hostname.
std::string node_identity() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string boot;
  std::ifstream file("/proc/sys/kernel/random/boot_id");
  std::getline(file, boot);
  return std::string(host) + "/" + boot;
}

// ---- the ID's listening socket ---------------------------------------------------------------------------------

/// The listening socket of this process's latest ID, until the bootstrap of rank 0 takes it over.
struct id_listener {
  std::mutex mutex;
  int fd = -1;
  std::uint64_t key = 0;
};
id_listener& the_id_listener() {
  static id_listener l; // never destroyed before a late make_tcp_bootstrap would need it
  return l;
}

struct id_fields {
  sockaddr_in addr{};
  std::uint64_t key = 0;
};

portshmem_status_t decode_id(const portshmem_uniqueid_t& uid, id_fields* f) {
  reader r(uid.bytes, sizeof uid.bytes);
  const std::uint32_t magic = r.u32();
  const std::uint16_t version = r.u16(), family = r.u16();
  const std::uint32_t ip = r.u32();
  const std::uint16_t port = r.u16();
  r.u16(); // padding
  f->key = r.u64();
  if (magic != kMagic) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "the unique ID is not one made by portshmem_get_uniqueid (bad magic): was it copied whole?");
  }
  if (version != kVersion) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG,
                          "the unique ID has format version %u, this library reads %u (mixed portshmem versions?)",
                          unsigned(version), unsigned(kVersion));
  }
  if (family != kFamilyIPv4) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "the unique ID names address family %u; only IPv4 (%u) is known",
                          unsigned(family), unsigned(kFamilyIPv4));
  }
  f->addr = make_address(ip, port);
  return PORTSHMEM_SUCCESS;
}

// ---- the mesh: framed messages between every pair of ranks ------------------------------------------------------

/// One rank's connections to all the others and the non-blocking traffic on them. Every frame carries (group id,
/// sequence number); frames that arrive before their operation asks for them wait in the link's inbox, so groups
/// and operations never mix. Every wait reads from all links and writes to all while it waits, so two ranks that
/// send each other more than the socket buffers hold never block each other.
class mesh {
 public:
  using payload = std::vector<unsigned char>;

  explicit mesh(int rank, int size) : rank_(rank), links_(std::size_t(size)) {}
  ~mesh() {
    // Hands what is still queued (a bounded barrier's arrival to a late rank) to the kernel, briefly; then closes.
    const time_point until = clock_type::now() + std::chrono::seconds(1);
    while (sending_any() && clock_type::now() < until) poll_once(until);
    for (link& l : links_) l.fd.reset();
  }
  mesh(const mesh&) = delete;
  mesh& operator=(const mesh&) = delete;

  int rank() const { return rank_; }
  int size() const { return int(links_.size()); }
  void adopt(int peer, unique_fd fd) { links_[std::size_t(peer)].fd = std::move(fd); }

  /// Queues one frame (gid, seq, data) to each of peers and starts sending it.
  void post(std::uint64_t gid, std::uint64_t seq, const std::vector<int>& peers, const void* data, std::size_t bytes) {
    auto f = std::make_shared<const payload>(frame(gid, seq, data, bytes)); // one copy, however many peers
    for (int p : peers) {
      link& l = links_[std::size_t(p)];
      if (l.closed) continue;
      l.outbox.push_back(f);
      write_ready(l);
    }
  }

  /// Waits until a frame (gid, seq) from every one of peers has arrived and everything queued to them is sent, or
  /// the deadline passes: PORTSHMEM_ERR_TIMEOUT, not logged, with *missing the peers not heard from (or, when all
  /// were heard, those this rank could not yet send to). A peer gone before its frame came: PORTSHMEM_ERR_BOOTSTRAP.
  portshmem_status_t wait(std::uint64_t gid, std::uint64_t seq, const std::vector<int>& peers, time_point deadline,
                          std::vector<int>* missing) {
    for (bool polled = false;; polled = true) {
      missing->clear();
      bool sending = false;
      for (int p : peers) {
        link& l = links_[std::size_t(p)];
        if (!l.inbox.count({gid, seq})) {
          if (l.closed) {
            return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "PE %d closed its bootstrap connection (did it exit?)", p);
          }
          missing->push_back(p);
        }
        sending = sending || (!l.closed && !l.outbox.empty());
      }
      if (missing->empty() && !sending) return PORTSHMEM_SUCCESS;
      if (polled && clock_type::now() >= deadline) {
        if (missing->empty()) {
          for (int p : peers) {
            if (!links_[std::size_t(p)].outbox.empty()) missing->push_back(p);
          }
        }
        return PORTSHMEM_ERR_TIMEOUT;
      }
      poll_once(deadline);
    }
  }

  /// Removes and returns the oldest frame (gid, seq) from peer; wait() said it is there.
  payload take(int peer, std::uint64_t gid, std::uint64_t seq) {
    auto& inbox = links_[std::size_t(peer)].inbox;
    const auto it = inbox.find({gid, seq});
    payload p = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) inbox.erase(it);
    return p;
  }

 private:
  struct link {
    unique_fd fd;
    bool closed = false; // end of stream or an error: nothing more comes or goes
    // Receiving: a header, then its payload straight into place.
    unsigned char head[kHeaderBytes];
    std::size_t head_got = 0, body_got = 0;
    bool in_body = false;
    std::uint64_t body_gid = 0, body_seq = 0;
    payload body;
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::deque<payload>> inbox;
    // Sending: whole frames, the first one sent up to out_sent.
    std::deque<std::shared_ptr<const payload>> outbox;
    std::size_t out_sent = 0;
  };

  bool sending_any() const {
    for (const link& l : links_) {
      if (!l.closed && !l.outbox.empty()) return true;
    }
    return false;
  }

  void lost(link& l) {
    l.closed = true;
    l.outbox.clear();
    l.fd.reset();
  }

  /// Sends from the outbox until the socket is full.
  void write_ready(link& l) {
    while (!l.closed && !l.outbox.empty()) {
      const payload& f = *l.outbox.front();
      const ssize_t n = send(l.fd.get(), f.data() + l.out_sent, f.size() - l.out_sent, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) lost(l);
        return;
      }
      l.out_sent += std::size_t(n);
      if (l.out_sent == f.size()) {
        l.outbox.pop_front();
        l.out_sent = 0;
      }
    }
  }

  /// Receives until the socket is empty, filing each finished frame in the inbox.
  void read_ready(link& l, int peer) {
    while (!l.closed) {
      unsigned char* dst = l.in_body ? l.body.data() + l.body_got : l.head + l.head_got;
      const std::size_t want = l.in_body ? l.body.size() - l.body_got : kHeaderBytes - l.head_got;
      const ssize_t n = recv(l.fd.get(), dst, want, 0);
      if (n == 0) return lost(l);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) lost(l);
        return;
      }
      if (l.in_body) {
        l.body_got += std::size_t(n);
      } else if ((l.head_got += std::size_t(n)) == kHeaderBytes) {
        reader r(l.head, kHeaderBytes);
        l.body_gid = r.u64();
        l.body_seq = r.u64();
        const std::uint64_t len = r.u64();
        if (len > kMaxPayload) {
          PORTSHMEM_LOG(error, "PE %d sent a corrupt bootstrap frame (%llu bytes); dropping its connection", peer,
                        static_cast<unsigned long long>(len));
          return lost(l);
        }
        l.body.assign(std::size_t(len), 0);
        l.body_got = l.head_got = 0;
        l.in_body = true;
      }
      if (l.in_body && l.body_got == l.body.size()) {
        l.inbox[{l.body_gid, l.body_seq}].push_back(std::move(l.body));
        l.body = payload();
        l.in_body = false;
      }
    }
  }

  /// One poll over every open link (reading all, writing where something is queued), then the transfers it allows.
  void poll_once(time_point deadline) {
    fds_.clear();
    peers_.clear();
    for (std::size_t r = 0; r < links_.size(); ++r) {
      const link& l = links_[r];
      if (l.closed || l.fd.get() < 0) continue;
      fds_.push_back({l.fd.get(), short(POLLIN | (l.outbox.empty() ? 0 : POLLOUT)), 0});
      peers_.push_back(int(r));
    }
    if (fds_.empty()) { // nothing to wait on: sleep out the deadline, as a poll of no descriptors would
      if (deadline != kNever) std::this_thread::sleep_until(deadline);
      return;
    }
    if (poll(fds_.data(), nfds_t(fds_.size()), poll_ms(deadline)) <= 0) return;
    for (std::size_t i = 0; i < fds_.size(); ++i) {
      link& l = links_[std::size_t(peers_[i])];
      if (fds_[i].revents & POLLOUT) write_ready(l);
      if (fds_[i].revents & (POLLIN | POLLHUP | POLLERR)) read_ready(l, peers_[i]);
    }
  }

  int rank_;
  std::vector<link> links_; // links_[rank_] stays unconnected
  std::vector<pollfd> fds_; // poll_once's scratch
  std::vector<int> peers_;
};

/// Collective over members (world ranks, in group order; me indexes this rank): all[i * bytes ..) receives member
/// i's mine. Frames are (gid, seq). Different sizes from different members: PORTSHMEM_ERR_MISMATCH.
portshmem_status_t exchange(mesh& m, std::uint64_t gid, std::uint64_t seq, const std::vector<int>& members, int me,
                            const void* mine, std::size_t bytes, void* all) {
  std::vector<int> others, missing;
  others.reserve(members.size());
  for (int r : members) {
    if (r != m.rank()) others.push_back(r);
  }
  m.post(gid, seq, others, mine, bytes);
  if (auto s = m.wait(gid, seq, others, kNever, &missing); s != PORTSHMEM_SUCCESS) return s;
  auto* out = static_cast<unsigned char*>(all);
  int odd = -1;
  std::size_t odd_bytes = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (int(i) == me) {
      if (bytes) std::memcpy(out + i * bytes, mine, bytes);
      continue;
    }
    const mesh::payload p = m.take(members[i], gid, seq);
    if (p.size() != bytes) {
      if (odd < 0) odd = members[i], odd_bytes = p.size();
      continue;
    }
    if (bytes) std::memcpy(out + i * bytes, p.data(), bytes);
  }
  if (odd >= 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_MISMATCH, "PE %d passed %zu bytes to a bootstrap collective, this PE %zu", odd,
                          odd_bytes, bytes);
  }
  return PORTSHMEM_SUCCESS;
}

// ---- groups -----------------------------------------------------------------------------------------------------

/// A subset of the world's ranks on the bootstrap's mesh. Its id keeps its frames apart from every other group's and
/// its sequence number apart from its own earlier operations, so members agree on both by calling the same
/// collectives in the same order. One thread at a time, as the bootstrap.
class tcp_group final : public group {
 public:
  tcp_group(std::shared_ptr<mesh> m, std::uint64_t id, std::vector<int> members)
      : mesh_(std::move(m)), id_(id), members_(std::move(members)) {
    rank_ = int(std::find(members_.begin(), members_.end(), mesh_->rank()) - members_.begin());
  }

  int rank() const override { return rank_; }
  int size() const override { return int(members_.size()); }

  portshmem_status_t min_max(const std::int64_t* mine, std::int64_t* min, std::int64_t* max, int n) override {
    const std::size_t bytes = sizeof(std::int64_t) * std::size_t(std::max(n, 0));
    std::vector<std::int64_t> all(std::size_t(std::max(n, 0)) * members_.size());
    std::uint64_t seq = 0;
    if (auto s = gather(mine, bytes, all.data(), &seq); s != PORTSHMEM_SUCCESS) return s;
    for (int i = 0; i < n; ++i) {
      min[i] = max[i] = mine[i];
      for (std::size_t m = 0; m < members_.size(); ++m) {
        min[i] = std::min(min[i], all[m * std::size_t(n) + std::size_t(i)]);
        max[i] = std::max(max[i], all[m * std::size_t(n) + std::size_t(i)]);
      }
    }
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t split(int color, int key, std::unique_ptr<group>* out) override {
    const std::int32_t mine[2] = {color, key};
    std::vector<std::int32_t> all(2 * members_.size());
    std::uint64_t seq = 0;
    if (auto s = gather(mine, sizeof mine, all.data(), &seq); s != PORTSHMEM_SUCCESS) return s;
    out->reset();
    if (color < 0) return PORTSHMEM_SUCCESS;
    std::vector<std::pair<std::int32_t, int>> order; // (key, rank here) of this color's members
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (all[2 * i] == color) order.emplace_back(all[2 * i + 1], int(i));
    }
    std::sort(order.begin(), order.end());
    std::vector<int> members;
    for (const auto& o : order) members.push_back(members_[std::size_t(o.second)]);
    // Same on every member of the child (same parent, operation and color), different for each sibling.
    const std::uint64_t child = mix(mix(mix(id_) ^ seq) ^ std::uint64_t(std::uint32_t(color))) | kGroupBit;
    *out = std::make_unique<tcp_group>(mesh_, child, std::move(members));
    return PORTSHMEM_SUCCESS;
  }

  portshmem_status_t barrier() override {
    std::uint64_t seq = 0;
    return gather(nullptr, 0, nullptr, &seq);
  }

 private:
  portshmem_status_t gather(const void* mine, std::size_t bytes, void* all, std::uint64_t* seq) {
    *seq = seq_++;
    return exchange(*mesh_, id_, *seq, members_, rank_, mine, bytes, all);
  }

  std::shared_ptr<mesh> mesh_;
  std::uint64_t id_, seq_ = 0;
  std::vector<int> members_; // world ranks, in this group's order
  int rank_ = 0;
};

// ---- the bootstrap ----------------------------------------------------------------------------------------------

class tcp_bootstrap final : public bootstrap {
 public:
  /// nodes[r]: rank r's node identity; fills the node tables as the MPI bootstrap does (a node is numbered by its
  /// lowest rank's place among the nodes' lowest ranks).
  tcp_bootstrap(std::shared_ptr<mesh> m, const std::vector<std::string>& nodes) : mesh_(std::move(m)) {
    const int n = mesh_->size(), me = mesh_->rank();
    std::map<std::string, int> index;
    node_of_.resize(std::size_t(n));
    for (int r = 0; r < n; ++r) {
      node_of_[std::size_t(r)] = index.emplace(nodes[std::size_t(r)], int(index.size())).first->second;
    }
    for (int r = 0; r < n; ++r) {
      if (node_of_[std::size_t(r)] != node_of_[std::size_t(me)]) continue;
      if (r == me) node_rank_ = int(node_ranks_.size());
      node_ranks_.push_back(r);
    }
    for (int r = 0; r < n; ++r) world_.push_back(r);
    for (int r = 0; r < n; ++r) {
      if (r != me) others_.push_back(r);
    }
  }

  int rank() const override { return mesh_->rank(); }
  int size() const override { return mesh_->size(); }

  portshmem_status_t allgather(const void* mine, void* all, std::size_t bytes) override {
    return exchange(*mesh_, kWorldId, world_seq_++, world_, rank(), mine, bytes, all);
  }

  portshmem_status_t barrier() override {
    return exchange(*mesh_, kWorldId, world_seq_++, world_, rank(), nullptr, 0, nullptr);
  }

  // Every rank sends an empty arrival frame to every other; the k-th call's frames carry sequence number k, so a
  // late rank's arrival completes exactly the barrier the others gave up on, which stays open until it does.
  portshmem_status_t bounded_barrier(std::uint64_t timeout_ns, std::vector<int>* late) override {
    if (open_) {
      if (auto s = await_arrivals(deadline_after(timeout_ns), late); s != PORTSHMEM_SUCCESS) return s;
    }
    const time_point deadline = deadline_after(timeout_ns);
    mesh_->post(kArrivalId, arrival_seq_, others_, nullptr, 0);
    open_ = true;
    return await_arrivals(deadline, late);
  }

  portshmem_status_t min_max(std::uint64_t v, std::uint64_t* min, int* min_rank, std::uint64_t* max,
                             int* max_rank) override {
    std::vector<std::uint64_t> all(static_cast<std::size_t>(size()));
    if (auto s = allgather(&v, all.data(), sizeof v); s != PORTSHMEM_SUCCESS) return s;
    *min_rank = *max_rank = 0;
    for (int r = 1; r < size(); ++r) {
      if (all[std::size_t(r)] < all[std::size_t(*min_rank)]) *min_rank = r;
      if (all[std::size_t(r)] > all[std::size_t(*max_rank)]) *max_rank = r;
    }
    *min = all[std::size_t(*min_rank)];
    *max = all[std::size_t(*max_rank)];
    return PORTSHMEM_SUCCESS;
  }

  // Collective only in that every rank makes its world groups in the same order: the n-th one's id is alike on all.
  portshmem_status_t world_group(std::unique_ptr<group>* out) override {
    const std::uint64_t id = mix(mix(kWorldId) ^ world_groups_++) | kGroupBit;
    *out = std::make_unique<tcp_group>(mesh_, id, world_);
    return PORTSHMEM_SUCCESS;
  }

 private:
  /// Waits for the open bounded barrier's arrivals; closes it when they are all in.
  portshmem_status_t await_arrivals(time_point deadline, std::vector<int>* late) {
    std::vector<int> missing;
    const portshmem_status_t s = mesh_->wait(kArrivalId, arrival_seq_, others_, deadline, &missing);
    if (s == PORTSHMEM_ERR_TIMEOUT) *late = missing;
    if (s != PORTSHMEM_SUCCESS) return s;
    for (int r : others_) mesh_->take(r, kArrivalId, arrival_seq_);
    ++arrival_seq_;
    open_ = false;
    return PORTSHMEM_SUCCESS;
  }

  std::shared_ptr<mesh> mesh_; // shared with the groups, which may outlive this
  std::vector<int> world_, others_;
  std::uint64_t world_seq_ = 0, arrival_seq_ = 0, world_groups_ = 0;
  bool open_ = false; // bounded barrier arrival_seq_ has not heard from everyone yet
};

// ---- setup ------------------------------------------------------------------------------------------------------

/// What a rank tells the root, and the root tells every rank about each.
struct rank_entry {
  std::uint32_t ip = 0; // host order
  std::uint16_t port = 0;
  std::string node;
};

/// The root's side: takes every rank's hello on the ID's listener until all came or the deadline, then sends each the
/// table, or the reason the job cannot start (to every rank it can reach, and logs it).
portshmem_status_t root_setup(unique_fd listener, std::uint64_t key, int nranks, std::uint64_t timeout_ns,
                              time_point deadline, mesh* m, std::vector<rank_entry>* table) {
  std::vector<unique_fd> fds(static_cast<std::size_t>(nranks));
  std::vector<unique_fd> refused; // connections of ranks that cannot join, told why at the end
  int arrived = 1;
  portshmem_status_t verdict = PORTSHMEM_SUCCESS;
  std::string why;
  auto fail = [&](portshmem_status_t s, std::string text) {
    if (verdict == PORTSHMEM_SUCCESS) verdict = s, why = std::move(text);
  };
  while (arrived < nranks && verdict != PORTSHMEM_ERR_INVALID_ARG) {
    unique_fd fd;
    const portshmem_status_t s = accept_one(listener.get(), deadline, &fd);
    if (s == PORTSHMEM_ERR_TIMEOUT) break;
    if (s != PORTSHMEM_SUCCESS) return s;
    std::vector<unsigned char> hello;
    const time_point bound = std::min(deadline, later(clock_type::now(), kHelloBound));
    const bool ours = recv_frame(fd.get(), kHelloSeq, kMaxSetupFrame, bound, &hello) == PORTSHMEM_SUCCESS;
    reader r(hello.data(), hello.size());
    const std::uint64_t their_key = r.u64();
    const auto rank = std::int32_t(r.u32()), their_n = std::int32_t(r.u32());
    rank_entry e;
    e.ip = r.u32();
    e.port = r.u16();
    e.node = r.str(kMaxNodeName);
    if (!ours || !r.ok() || their_key != key) { // a stale ID's rank, another job's, or no bootstrap at all
      PORTSHMEM_LOG(warn, "bootstrap: refused a connection that is not from a rank of this job");
      continue;
    }
    if (rank == 0 || (rank > 0 && rank < nranks && fds[std::size_t(rank)].get() >= 0)) {
      fail(PORTSHMEM_ERR_INVALID_ARG, "two processes started as rank " + std::to_string(rank));
      refused.push_back(std::move(fd));
      continue;
    }
    if (their_n != nranks || rank < 0 || rank >= nranks) {
      fail(PORTSHMEM_ERR_MISMATCH, "PE " + std::to_string(rank) + " was started with nranks " +
                                       std::to_string(their_n) + ", PE 0 with " + std::to_string(nranks));
    }
    if (rank < 0 || rank >= nranks) {
      refused.push_back(std::move(fd));
      continue;
    }
    (*table)[std::size_t(rank)] = std::move(e);
    fds[std::size_t(rank)] = std::move(fd);
    ++arrived;
  }
  if (arrived < nranks && verdict == PORTSHMEM_SUCCESS) {
    std::vector<int> missing;
    for (int r = 1; r < nranks; ++r) {
      if (fds[std::size_t(r)].get() < 0) missing.push_back(r);
    }
    fail(PORTSHMEM_ERR_TIMEOUT, describe_pes(missing) + (missing.size() == 1 ? " has" : " have") +
                                    " not connected to PE 0 within " + seconds_text(timeout_ns) +
                                    " (not started, or started with another unique ID?)");
  }

  writer w;
  w.u32(std::uint32_t(verdict));
  if (verdict == PORTSHMEM_SUCCESS) {
    for (const rank_entry& e : *table) {
      w.u32(e.ip);
      w.u16(e.port);
      w.str(e.node);
    }
  } else {
    w.str(why);
  }
  // Every rank that connected is waiting to read this (as long as the ranks wait for it); a failing job's ranks get
  // a short bound, being told is a courtesy.
  const time_point send_by =
      verdict == PORTSHMEM_SUCCESS ? later(deadline, kGrace) : later(clock_type::now(), std::chrono::seconds(1));
  for (int r = 1; r < nranks; ++r) {
    if (fds[std::size_t(r)].get() < 0) continue;
    const portshmem_status_t s = send_frame(fds[std::size_t(r)].get(), kReplySeq, w.bytes(), send_by);
    if (s != PORTSHMEM_SUCCESS && verdict == PORTSHMEM_SUCCESS) {
      return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "PE %d closed its bootstrap connection (did it exit?)", r);
    }
  }
  for (unique_fd& fd : refused) send_frame(fd.get(), kReplySeq, w.bytes(), send_by);
  if (verdict != PORTSHMEM_SUCCESS) return PORTSHMEM_FAIL(verdict, "bootstrap: %s", why.c_str());
  for (int r = 1; r < nranks; ++r) m->adopt(r, std::move(fds[std::size_t(r)]));
  return PORTSHMEM_SUCCESS;
}

/// Another rank's side: connects to the root, listens where that connection leaves this host, says hello, takes the
/// table, then completes the mesh: connects to every lower rank, accepts every higher one.
portshmem_status_t rank_setup(const id_fields& id, int rank, int nranks, std::uint64_t timeout_ns, time_point deadline,
                              const std::string& node, mesh* m, std::vector<rank_entry>* table) {
  unique_fd root;
  if (auto s = connect_to(id.addr, deadline, &root); s != PORTSHMEM_SUCCESS) {
    if (s != PORTSHMEM_ERR_TIMEOUT) return s;
    return PORTSHMEM_FAIL(s, "bootstrap: PE 0 (the unique ID's maker, at %s) did not accept a connection within %s",
                          address_text(id.addr).c_str(), seconds_text(timeout_ns).c_str());
  }
  // Listen on the address this host uses to reach the root: the other ranks reach the root, so they reach this too.
  sockaddr_in here{};
  socklen_t len = sizeof here;
  if (getsockname(root.get(), reinterpret_cast<sockaddr*>(&here), &len) != 0) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_SYSTEM, "getsockname() failed: %s", std::strerror(errno));
  }
  here.sin_port = 0;
  unique_fd listener;
  std::uint16_t port = 0;
  if (auto s = open_listener(here, &listener, &port); s != PORTSHMEM_SUCCESS) return s;

  writer hello;
  hello.u64(id.key);
  hello.u32(std::uint32_t(rank));
  hello.u32(std::uint32_t(nranks));
  hello.u32(ntohl(here.sin_addr.s_addr));
  hello.u16(port);
  hello.str(node);
  // The root answers once every rank came or its own deadline passed; waiting a little longer brings its verdict.
  const time_point patience = later(deadline, kGrace);
  std::vector<unsigned char> reply;
  portshmem_status_t s = send_frame(root.get(), kHelloSeq, hello.bytes(), patience);
  if (s == PORTSHMEM_SUCCESS) s = recv_frame(root.get(), kReplySeq, std::size_t(kMaxPayload), patience, &reply);
  if (s == PORTSHMEM_ERR_TIMEOUT) {
    return PORTSHMEM_FAIL(s, "bootstrap: PE 0 sent no rank table within %s (PE 0's log names the ranks it missed)",
                          seconds_text(timeout_ns).c_str());
  }
  if (s != PORTSHMEM_SUCCESS) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP,
                          "PE 0 closed its bootstrap connection (did it exit, or is the unique ID stale?)");
  }
  reader r(reply.data(), reply.size());
  const auto verdict = portshmem_status_t(r.u32());
  if (r.ok() && verdict != PORTSHMEM_SUCCESS) {
    const std::string why = r.str(kMaxSetupFrame);
    return PORTSHMEM_FAIL(verdict, "bootstrap (PE 0 says): %s", why.c_str());
  }
  for (rank_entry& e : *table) {
    e.ip = r.u32();
    e.port = r.u16();
    e.node = r.str(kMaxNodeName);
  }
  if (!r.ok()) return PORTSHMEM_FAIL(PORTSHMEM_ERR_BOOTSTRAP, "bootstrap: PE 0 sent a malformed rank table");
  m->adopt(0, std::move(root));

  // The mesh. Connecting needs no accept() on the other side (the kernel completes it), so connecting to all lower
  // ranks first and then accepting the higher ones cannot deadlock.
  std::vector<int> missing;
  writer greet;
  greet.u64(id.key);
  greet.u32(std::uint32_t(rank));
  for (int j = 1; j < rank; ++j) {
    const rank_entry& e = (*table)[std::size_t(j)];
    unique_fd fd;
    s = connect_to(make_address(e.ip, e.port), patience, &fd);
    if (s == PORTSHMEM_SUCCESS) s = send_frame(fd.get(), kGreetSeq, greet.bytes(), patience);
    if (s == PORTSHMEM_SUCCESS)
      m->adopt(j, std::move(fd));
    else if (s == PORTSHMEM_ERR_TIMEOUT || s == PORTSHMEM_ERR_BOOTSTRAP)
      missing.push_back(j);
    else
      return s;
  }
  std::vector<bool> came(static_cast<std::size_t>(nranks));
  for (int waiting = nranks - 1 - rank; waiting > 0;) {
    unique_fd fd;
    s = accept_one(listener.get(), patience, &fd);
    if (s == PORTSHMEM_ERR_TIMEOUT) break;
    if (s != PORTSHMEM_SUCCESS) return s;
    std::vector<unsigned char> msg;
    if (recv_frame(fd.get(), kGreetSeq, kMaxSetupFrame, std::min(patience, later(clock_type::now(), kHelloBound)),
                   &msg) != PORTSHMEM_SUCCESS) {
      continue;
    }
    reader g(msg.data(), msg.size());
    const std::uint64_t key = g.u64();
    const int from = int(g.u32());
    if (!g.ok() || key != id.key || from <= rank || from >= nranks || came[std::size_t(from)]) {
      PORTSHMEM_LOG(warn, "bootstrap: refused a connection that is not from a rank of this job");
      continue;
    }
    came[std::size_t(from)] = true;
    m->adopt(from, std::move(fd));
    --waiting;
  }
  for (int j = rank + 1; j < nranks; ++j) {
    if (!came[std::size_t(j)]) missing.push_back(j);
  }
  if (!missing.empty()) {
    std::sort(missing.begin(), missing.end());
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_TIMEOUT, "bootstrap: %s did not connect to PE %d within %s",
                          describe_pes(missing).c_str(), rank, seconds_text(timeout_ns).c_str());
  }
  return PORTSHMEM_SUCCESS;
}

} // namespace

portshmem_status_t make_unique_id(portshmem_uniqueid_t* uid) {
  if (!uid) return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "portshmem_get_uniqueid: uid is NULL");
  sockaddr_in addr{};
  if (auto s = choose_address(&addr); s != PORTSHMEM_SUCCESS) return s;
  // One ID starts one job: an earlier, unused one dies here, first, so that a fixed port can be bound again.
  id_listener& l = the_id_listener();
  const std::lock_guard<std::mutex> lock(l.mutex);
  if (l.fd >= 0) close(l.fd);
  l.fd = -1;
  unique_fd fd;
  std::uint16_t port = 0;
  if (auto s = open_listener(addr, &fd, &port); s != PORTSHMEM_SUCCESS) return s;
  // The key tells this job's ranks from a stale ID's or another job's that reach the same address and port.
  std::random_device rd;
  std::uint64_t key = 0;
  while (key == 0) {
    key = mix((std::uint64_t(rd()) << 32 | rd()) ^ std::uint64_t(clock_type::now().time_since_epoch().count()) ^
              (std::uint64_t(getpid()) << 40));
  }
  writer w;
  w.u32(kMagic);
  w.u16(kVersion);
  w.u16(kFamilyIPv4);
  w.u32(ntohl(addr.sin_addr.s_addr));
  w.u16(port);
  w.u16(0);
  w.u64(key);
  std::memset(uid->bytes, 0, sizeof uid->bytes);
  std::memcpy(uid->bytes, w.bytes().data(), w.bytes().size());
  l.fd = fd.release();
  l.key = key;
  return PORTSHMEM_SUCCESS;
}

portshmem_status_t make_tcp_bootstrap(const portshmem_uniqueid_t& uid, int rank, int nranks, std::uint64_t timeout_ns,
                                      std::unique_ptr<bootstrap>* out) {
  id_fields id;
  if (auto s = decode_id(uid, &id); s != PORTSHMEM_SUCCESS) return s;
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    return PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_ARG, "bootstrap: rank %d is outside [0, nranks = %d)", rank, nranks);
  }
  unique_fd listener;
  if (rank == 0) {
    id_listener& l = the_id_listener();
    const std::lock_guard<std::mutex> lock(l.mutex);
    if (l.fd < 0 || l.key != id.key) {
      return PORTSHMEM_FAIL(
          PORTSHMEM_ERR_INVALID_ARG,
          "bootstrap: rank 0 must be the process that made the unique ID (portshmem_get_uniqueid) and "
          "holds its listening socket; this process %s",
          l.fd < 0 ? "holds none (made none, or its ID already started a job)"
                   : "holds another ID's (a newer one, or this ID is another process's)");
    }
    listener.reset(std::exchange(l.fd, -1));
  }
  const time_point deadline = timeout_ns ? deadline_after(timeout_ns) : kNever;
  auto m = std::make_shared<mesh>(rank, nranks);
  std::vector<rank_entry> table(static_cast<std::size_t>(nranks));
  const std::string node = node_identity();
  if (rank == 0) {
    table[0].node = node;
    if (auto s = root_setup(std::move(listener), id.key, nranks, timeout_ns, deadline, m.get(), &table);
        s != PORTSHMEM_SUCCESS) {
      return s;
    }
  } else if (auto s = rank_setup(id, rank, nranks, timeout_ns, deadline, node, m.get(), &table);
             s != PORTSHMEM_SUCCESS) {
    return s;
  }
  std::vector<std::string> nodes;
  for (const rank_entry& e : table) nodes.push_back(e.node);
  *out = std::make_unique<tcp_bootstrap>(std::move(m), nodes);
  return PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
