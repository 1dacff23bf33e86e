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

  /// True when the relation (not necessarily closed) has no cycle.
  bool acyclic() const {
    // Kahn's algorithm on the bit rows.
    const int n = size();
    std::vector<int> indeg(static_cast<std::size_t>(n), 0);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (row[a][b]) ++indeg[b];
    std::vector<int> ready;
    for (int i = 0; i < n; ++i)
      if (indeg[i] == 0) ready.push_back(i);
    int seen = 0;
    while (!ready.empty()) {
      int a = ready.back();
      ready.pop_back();
      ++seen;
      for (int b = 0; b < n; ++b)
        if (row[a][b] && --indeg[b] == 0) ready.push_back(b);
    }
    return seen == n;
  }
};

} // namespace portshmem::model
