// From a litmus test to the events of its executions and the execution-independent part of happens-before.
//
// Each call becomes its minimum observable accesses (docs/memory_model.md, "Operation events"); the axioms
// A1..A16 that do not depend on reads-from become static hb edges here, each tagged releasing or not. Axioms that
// depend on what a read returns (A11 synchronizes-with, A13 test) are described per event and applied by the
// enumerator: A11 carries the releasing edges into the write a home read observes (and a release write itself).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus.hpp"
#include "relation.hpp"

namespace portshmem::model {

enum class EvKind : std::uint8_t {
  Init,  // initial write of a location
  Read,  // read only
  Write, // write only
  Rmw,   // atomic read-modify-write (one event: read and write at one instant)
  Sync,  // no memory access: the completion point of a quiet, the arrival/departure of a barrier
};

/// Categories of later events that an ordering axiom reaches (bit set).
enum Cat : unsigned {
  kW = 1,  // writes of every class (comm, ordinary, get_nbi destination, RMW)
  kHR = 2, // home reads: comm reads and synchronizing reads (performed at the location's home)
  kPL = 4, // ordinary loads (may be served by the reader's caches)
  kSY = 8, // sync events (quiet completion, barrier arrival/departure)
};

struct RmwFn {
  enum class Kind : std::uint8_t { Add, And, Or, Xor, Swap, Cas } kind = Kind::Add;
  std::int64_t a = 0, b = 0;
  std::int64_t apply(std::int64_t old) const;
};

struct Event {
  EvKind kind = EvKind::Sync;
  int thread = -1;             // index into LitmusTest::threads, -1 for init
  int pe = -1;                 // issuing PE, -1 for init
  int op = -1;                 // index of the call in its thread
  int pos = 0;                 // program-order position in the thread
  int loc = -1;                // LitmusTest::loc_index of the accessed location
  int target = -1;             // the PE the event acts on: the location's PE, or the issuer for sync events
  bool plain = false;          // ordinary load/store
  bool source = false;         // a relay put's read of its local source: in program order with ordinary accesses (A3)
  bool home = false;           // read performed at the location's home (comm read, synchronizing read)
  bool sync_read = false;      // wait/test/signal_wait: a scoped observer (A11)
  bool get_dest = false;       // get_nbi's write of its local destination
  bool fenced = false;         // write of a bypass put, p, AMO or signal: any fence orders it (A5; reads never)
  bool keep = false;           // data write of a keep put: a cached write, ordered only under coverage all
  bool release = false;        // release write (A11): signal of put_signal, signal of signal_op<all>
  bool sc_point = false;       // Q of quiet/pe_quiet, Arr of barrier_all: psc orders these (C4)
  Scope scope = Scope::System; // of a synchronizing read or an SC point
  std::int64_t value = 0;      // Write/Init: the value written
  int value_from = -1;         // get_nbi destination, relay put data: copies the value read by this event
  RmwFn fn;                    // Rmw
  int reg = -1;                // register slot (EventGraph::reg_names) receiving the value read / test result
  bool waits = false;          // blocking wait: must read a value satisfying (cmp, cmp_value) (C5)
  bool is_test = false;        // test: reg receives (value cmp cmp_value)
  Cmp cmp = Cmp::Eq;
  std::int64_t cmp_value = 0;

  bool reads() const { return kind == EvKind::Read || kind == EvKind::Rmw; }
  bool writes() const { return kind == EvKind::Write || kind == EvKind::Rmw || kind == EvKind::Init; }
  /// A write whose data may sit in the writer's caches: an ordinary store or a keep put's data. Coverage `all` orders
  /// and completes it (A5-A7, A10, A14); coverage `comm` does not.
  bool cached_write() const { return kind == EvKind::Write && (plain || keep); }
  /// A write whose observation can synchronize (A11): every write but a cached one and init.
  bool coherent_write() const { return (kind == EvKind::Write || kind == EvKind::Rmw) && !cached_write(); }
  unsigned cat() const;
};

/// One static edge and the call whose axiom added it (for `portshmem-model --axioms`).
struct EdgeInfo {
  int a = -1, b = -1;
  int thread = -1, op = -1; // the call; -1 for A1 (init) and A3 (ordinary accesses of one location)
  bool releasing = false;   // carried by A11 when b is a write a home read observes
  bool on_success = false;  // A13: only when the test returns 1
};

struct EventGraph {
  std::vector<Event> ev;
  Relation hb;                                              // static hb edges (not closed)
  Relation rel;                                             // the releasing ones among them (into writes)
  std::vector<EdgeInfo> edges;                              // every static edge with its origin
  std::vector<std::vector<std::pair<int, int>>> on_success; // per event: edges added when a test returns 1
  std::vector<std::vector<int>> writes_to;                  // per location: its write events, init first
  std::vector<int> reads;                                   // events with a read part, in program order per thread
  std::vector<std::string> reg_names;                       // "P1:r0" per register slot
  std::vector<int> reg_base;                                // first register slot of each thread
  std::vector<std::string> notes;                           // scope misuse and similar remarks for the user
};

/// Builds the events and static edges; throws LitmusError when the test is too large for the model.
EventGraph build_events(const LitmusTest& t);

} // namespace portshmem::model
