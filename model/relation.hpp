// Binary relations over the events of one execution, as rows of bits (small tests: at most kMaxEvents events).
#pragma once

#include <bitset>
#include <cstddef>
#include <vector>

namespace portshmem::model {

constexpr int kMaxEvents = 192;
using Bits = std::bitset<kMaxEvents>;

/// rel[a][b] means a -> b.
struct Relation {
  std::vector<Bits> row;

  explicit Relation(int n = 0) : row(static_cast<std::size_t>(n)) {}
  int size() const { return static_cast<int>(row.size()); }
  bool has(int a, int b) const { return row[a][b]; }
  void add(int a, int b) { row[a].set(b); }

  /// Warshall's closure, in place.
  void close() {
    const int n = size();
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i)
        if (row[i][k]) row[i] |= row[k];
  }

  /// Adds a -> b to a relation that is already transitively closed, keeping it closed.
  /// Returns false (and leaves the relation unchanged) when the edge would close a cycle.
  bool add_closed(int a, int b) {
    if (a == b || row[b][a]) return false;
    if (row[a][b]) return true;
    Bits to = row[b];
    to.set(b);
    for (int i = 0; i < size(); ++i)
      if (i == a || row[i][a]) row[i] |= to;
    return true;
  }

  /// True when the relation (not necessarily closed) has no cycle: peel off events with no successor left.
  bool acyclic() const {
    const int n = size();
    Bits left;
    for (int i = 0; i < n; ++i) left.set(i);
    for (bool peeled = true; peeled && left.any();) {
      peeled = false;
      for (int i = 0; i < n; ++i)
        if (left[i] && (row[i] & left).none()) {
          left.reset(i);
          peeled = true;
        }
    }
    return left.none();
  }
};

} // namespace portshmem::model
