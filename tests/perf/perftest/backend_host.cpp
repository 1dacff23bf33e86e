// The backend's host side (harness.hpp, namespace pt::host): start and end, symmetric memory, the host barrier, and
// what the rows say about the run. PERFTEST_BACKEND_NVSHMEM: NVSHMEM over MPI, one GPU per PE of a node (as
// tests/perf/nvshmem_ref.cu starts it); otherwise portshmem.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "harness.hpp"

#if PERFTEST_BACKEND_NVSHMEM
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>
#else
#include <portshmem/gpu_runtime.hpp>
#include <portshmem/portshmem.h>
#if PORTSHMEM_PLATFORM_HOST
#include <portshmem/arch/host_launch.hpp>
#endif
#endif

namespace pt::host {

#if PERFTEST_BACKEND_NVSHMEM

bool init(int* argc, char*** argv, std::size_t heap_bytes) {
  setenv("NVSHMEM_SYMMETRIC_SIZE", std::to_string(heap_bytes).c_str(), 0);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(argc, argv);
  int rank = 0, local = 0, devices = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) return false;
  cudaSetDevice(local % devices); // NVSHMEM takes the current device at init
  cudaFree(nullptr);
  MPI_Comm world = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &world;
  return nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr) == 0;
}
void finalize() {
  nvshmem_finalize();
  MPI_Finalize();
}
int my_pe() {
  return nvshmem_my_pe();
}
int n_pes() {
  return nvshmem_n_pes();
}
void* sym_malloc(std::size_t bytes) {
  return nvshmem_malloc(bytes);
}
void sym_free(void* p) {
  nvshmem_free(p);
}
void barrier() {
  cudaDeviceSynchronize();
  nvshmem_barrier_all();
}
const char* backend_name() {
  return "nvshmem";
}
/// NVSHMEM's release from its version macros (nvshmem_info_get_version gives the OpenSHMEM specification's version,
/// which is what a header without them shows, said as such).
std::string version() {
#ifdef NVSHMEM_VENDOR_MAJOR_VERSION
  return "NVSHMEM " + std::to_string(NVSHMEM_VENDOR_MAJOR_VERSION) + "." +
         std::to_string(NVSHMEM_VENDOR_MINOR_VERSION) + "." + std::to_string(NVSHMEM_VENDOR_PATCH_VERSION);
#else
  int major = 0, minor = 0;
  nvshmem_info_get_version(&major, &minor);
  return "NVSHMEM (OpenSHMEM " + std::to_string(major) + "." + std::to_string(minor) + ")";
#endif
}
const char* platform() {
  return "nvidia";
}
unsigned wave_size() {
  return 32;
}
bool device_ok() {
  return cudaDeviceSynchronize() == cudaSuccess;
}
bool supports(mm_set mm) {
  return mm == mm_set::strict;
}
bool supports_raw() {
  return false;
}
bool scope_reaches(mm_set, int, std::string&) {
  return true; // NVSHMEM builds run strict only
}
bool lowers_strictly() {
  return false;
}

#else

bool init(int*, char***, std::size_t heap_bytes) {
  setenv("PORTSHMEM_HEAP_SIZE", std::to_string(heap_bytes).c_str(), 0); // unless the user sized it
  return portshmem_init() == PORTSHMEM_SUCCESS;
}
void finalize() {
  portshmem_finalize();
}
int my_pe() {
  return portshmem_my_pe();
}
int n_pes() {
  return portshmem_n_pes();
}
void* sym_malloc(std::size_t bytes) {
  return portshmem_malloc(bytes);
}
void sym_free(void* p) {
  portshmem_free(p);
}
void barrier() {
  portshmem_barrier_all(); // device work done, then every PE
}
const char* backend_name() {
  return "portshmem";
}
std::string version() {
  return portshmem_version_string();
}
const char* platform() {
  return portshmem_platform();
}
unsigned wave_size() {
#if PORTSHMEM_PLATFORM_HOST
  return portshmem::arch::host::kWaveSize;
#elif PORTSHMEM_PLATFORM_NVIDIA
  return 32;
#else
  return 64; // gfx90a, gfx942
#endif
}
bool device_ok() {
  return portshmem_check_device_errors() == PORTSHMEM_SUCCESS;
}
bool supports(mm_set) {
  return true;
}
bool supports_raw() {
  return true;
}
bool scope_reaches(mm_set scope, int pe, std::string& why) {
  portshmem_ctx_t c;
  if (portshmem_get_ctx(&c) != PORTSHMEM_SUCCESS || !c.pe_device) return true; // no table: the library checks none
  std::int32_t mine = 0, theirs = 0; // node * 65536 + the first PE of the node on the same GPU (ctx.h)
  if (hipMemcpy(&mine, c.pe_device + c.my_pe, sizeof mine, hipMemcpyDeviceToHost) != hipSuccess ||
      hipMemcpy(&theirs, c.pe_device + pe, sizeof theirs, hipMemcpyDeviceToHost) != hipSuccess) {
    why = "the PE placement table could not be read";
    return false;
  }
  if ((mine >> 16) != (theirs >> 16)) {
    why = "PE " + std::to_string(pe) + " is on another node";
    return false;
  }
  if (scope == mm_set::scope_device && mine != theirs) {
    why = "PE " + std::to_string(pe) + " is on another GPU";
    return false;
  }
  return true;
}
bool lowers_strictly() {
  portshmem_ctx_t c;
  return portshmem_get_ctx(&c) == PORTSHMEM_SUCCESS && c.strict != 0;
}

#endif

} // namespace pt::host
