// Statistics over the PEs that the workload programs' host sides share (MPI only: the NVSHMEM sides include it too).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <vector>

namespace workloads {

/// The median of v (the upper one of an even count), 0 when empty.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// The largest v over the PEs (collective).
inline double max_over_pes(double v) {
  double m = v;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

/// The sum of v over the PEs (collective).
inline long sum_over_pes(long v) {
  long s = v;
  MPI_Allreduce(&v, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

} // namespace workloads
