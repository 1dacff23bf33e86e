// The yardstick: NVSHMEM doing what put_bw and pingpong measure for portshmem, the same way (block form, one
// contiguous share per block; 8-byte put-with-signal ping-pong), so both can run in one command on one machine.
// Built only when PORTSHMEM_NVSHMEM_HOME names an NVSHMEM install (include/, lib/); needs relocatable device code.
//   portshmem-run -np 2 ./nvshmem_ref [max_bytes]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <nvshmem.h>
#include <nvshmemx.h>

namespace {

constexpr int kRepeats = 9;
constexpr int kPingPongs = 10000;

__global__ void put_kernel(char* dest, const char* src, std::size_t bytes, int pe) {
  const std::size_t b = blockIdx.x, blocks = gridDim.x;
  const std::size_t begin = bytes * b / blocks, end = bytes * (b + 1) / blocks;
  nvshmemx_putmem_nbi_block(dest + begin, src + begin, end - begin, pe);
  if (threadIdx.x == 0) nvshmem_quiet();
}

/// PE 0 sends round i and waits for the echo; PE 1 waits for round i and echoes it.
__global__ void pingpong_kernel(char* data, const char* src, std::uint64_t* sig, int me, int peer, int rounds) {
  for (int i = 1; i <= rounds; ++i) {
    if (me == 0) {
      nvshmem_putmem_signal_nbi(data, src, 8, sig, i, NVSHMEM_SIGNAL_SET, peer);
      nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, i);
    } else {
      nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, i);
      nvshmem_putmem_signal_nbi(data, src, 8, sig, i, NVSHMEM_SIGNAL_SET, peer);
    }
  }
}

template <class Launch>
float median_ms(const Launch& launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();
  cudaDeviceSynchronize();
  std::vector<float> ms;
  for (int r = 0; r < kRepeats; ++r) {
    cudaEventRecord(start);
    launch();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t = 0;
    cudaEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const std::size_t max_bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 30);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 0, devices = 1;
  MPI_Comm_rank(node, &local);
  cudaGetDeviceCount(&devices);
  cudaSetDevice(local % devices); // NVSHMEM needs the context before init
  cudaFree(nullptr);
  MPI_Comm world = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &world;
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
  const int me = nvshmem_my_pe(), peer = 1 - me;

  char* dest = static_cast<char*>(nvshmem_malloc(max_bytes));
  auto* sig = static_cast<std::uint64_t*>(nvshmem_calloc(1, sizeof(std::uint64_t)));
  char* src = nullptr;
  cudaMalloc(&src, max_bytes);
  cudaMemset(src, 0x5a, max_bytes);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, local % devices);
  const unsigned blocks = unsigned(prop.multiProcessorCount), threads = 1024;
  cudaDeviceSynchronize();
  nvshmem_barrier_all();

  if (me == 0) {
    std::printf("# nvshmem_ref: PE 0 -> PE 1, %u blocks x %u threads, median of %d\n", blocks, threads, kRepeats);
    std::printf("%12s %14s\n", "bytes", "nvshmem_GB/s");
    for (std::size_t bytes = std::size_t(1) << 20; bytes <= max_bytes; bytes *= 2) {
      const float ms = median_ms([&] { put_kernel<<<blocks, threads>>>(dest, src, bytes, 1); });
      std::printf("%12zu %14.1f\n", bytes, double(bytes) / ms / 1e6);
    }
  }
  nvshmem_barrier_all();
  // Ping-pong: both PEs run their kernel at once; PE 0 times the whole exchange.
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int pass = 0; pass < 2; ++pass) { // pass 0 warms up
    cudaMemset(sig, 0, sizeof *sig);
    cudaDeviceSynchronize();
    nvshmem_barrier_all();
    cudaEventRecord(start);
    pingpong_kernel<<<1, 1>>>(dest, src, sig, me, peer, kPingPongs);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (me == 0 && pass == 1) {
      std::printf("nvshmem putmem_signal_nbi 8 B ping-pong: %.2f us per round trip (%d rounds)\n",
                  ms * 1000.0 / kPingPongs, kPingPongs);
    }
  }
  nvshmem_barrier_all();
  cudaFree(src);
  nvshmem_free(sig);
  nvshmem_free(dest);
  nvshmem_finalize();
  MPI_Finalize();
  return 0;
}
