# The RDMA transport's host side: the proxy that executes device-posted commands, and the networks behind it.
target_sources(portshmem PRIVATE
  src/rdma/amo_word.cpp
  src/rdma/execute.cpp
  src/rdma/mpi_gpu_support.cpp
  src/rdma/net_mpi.cpp
  src/rdma/net_select.cpp
  src/rdma/nic_locality.cpp
  src/rdma/proxy.cpp
  src/rdma/rings.cpp
  src/rdma/staging.cpp
  src/rdma/transport_rdma.cpp)

# ibverbs: auto builds it when libibverbs and its headers are found (libibverbs-dev); ON requires them; OFF leaves the
# MPI network alone. Its logic is tested against a fake NIC, so CI needs the library, not a device.
set(PORTSHMEM_ENABLE_IBVERBS "auto" CACHE STRING "Build the ibverbs network: auto, ON or OFF")
set_property(CACHE PORTSHMEM_ENABLE_IBVERBS PROPERTY STRINGS auto ON OFF)
set(PORTSHMEM_HAVE_IBVERBS 0)
if(NOT PORTSHMEM_ENABLE_IBVERBS STREQUAL "OFF")
  find_path(PORTSHMEM_IBVERBS_INCLUDE_DIR infiniband/verbs.h)
  find_library(PORTSHMEM_IBVERBS_LIBRARY ibverbs)
  if(PORTSHMEM_IBVERBS_INCLUDE_DIR AND PORTSHMEM_IBVERBS_LIBRARY)
    set(PORTSHMEM_HAVE_IBVERBS 1)
  elseif(PORTSHMEM_ENABLE_IBVERBS STREQUAL "ON")
    message(FATAL_ERROR "PORTSHMEM_ENABLE_IBVERBS=ON but libibverbs was not found: apt-get install libibverbs-dev")
  endif()
endif()
if(PORTSHMEM_HAVE_IBVERBS)
  target_sources(portshmem PRIVATE
    src/rdma/ib_conn.cpp
    src/rdma/ib_device.cpp
    src/rdma/ib_wr.cpp
    src/rdma/net_ibverbs.cpp
    src/rdma/verbs_api.cpp)
  target_include_directories(portshmem PRIVATE ${PORTSHMEM_IBVERBS_INCLUDE_DIR})
  target_link_libraries(portshmem PRIVATE ${PORTSHMEM_IBVERBS_LIBRARY})
endif()
target_compile_definitions(portshmem PRIVATE PORTSHMEM_HAVE_IBVERBS=${PORTSHMEM_HAVE_IBVERBS})
message(STATUS "portshmem: ibverbs network ${PORTSHMEM_HAVE_IBVERBS} (PORTSHMEM_ENABLE_IBVERBS=${PORTSHMEM_ENABLE_IBVERBS})")
