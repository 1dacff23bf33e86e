# The RDMA transport's host side: the proxy that executes device-posted commands, and the networks behind it.
target_sources(portshmem PRIVATE
  src/rdma/execute.cpp
  src/rdma/mpi_gpu_support.cpp
  src/rdma/net_mpi.cpp
  src/rdma/proxy.cpp
  src/rdma/rings.cpp
  src/rdma/staging.cpp)
