// Host-API program built against an installed portshmem: allocates, checks symmetry through portshmem_ptr.
#include <cstdio>

#include <portshmem/portshmem.hpp>

int main() {
  if (portshmem_init() != PORTSHMEM_SUCCESS) return 1;
  void* block = portshmem_malloc(4096);
  const bool ok = block && portshmem_ptr(block, (portshmem_my_pe() + 1) % portshmem_n_pes()) != nullptr;
  std::printf("consumer PE %d of %d: %s (%s)\n", portshmem_my_pe(), portshmem_n_pes(), ok ? "ok" : "FAILED",
              portshmem_version_string());
  portshmem_free(block);
  portshmem_finalize();
  return ok ? 0 : 1;
}
