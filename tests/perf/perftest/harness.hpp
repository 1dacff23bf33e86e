// What the families' host code shares, whatever the backend: the backend's host calls (defined by backend_host.cpp
// for the backend the library is built for), the timing loop, the data patterns and checks, and the family entry
// points that the driver calls. Host code only: no device API here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "options.hpp"
#include "programs.hpp"
#include "report.hpp"

namespace pt {

// ---- the backend's host side (backend_host.cpp) ---------------------------------------------------------------------
namespace host {
/// Starts the backend (MPI included) with a symmetric heap of at least heap_bytes; false when it failed.
bool init(int* argc, char*** argv, std::size_t heap_bytes);
void finalize();
int my_pe();
int n_pes();
/// Collective symmetric allocation (nullptr on failure, on every PE) and free.
void* sym_malloc(std::size_t bytes);
void sym_free(void* p);
/// Every PE's device work done, then all PEs synchronized.
void barrier();
const char* backend_name(); // "portshmem" or "nvshmem"
std::string version();
const char* platform(); // host, nvidia, amd
/// Threads of a warp (NVIDIA) / wave (AMD) / host-platform wave.
unsigned wave_size();
/// Errors device code recorded (portshmem_check_device_errors; a CUDA error for NVSHMEM): false when there were.
bool device_ok();
/// Whether this backend can run `mm` (NVSHMEM: strict only) and the raw yardstick (portshmem builds only).
bool supports(mm_set mm);
bool supports_raw();
/// Whether scope `scope` (qual::scope variants: device or node) reaches PE pe in this job, from the placement table
/// the library's own scope checks use (ctx.pe_device); why not in `why` when it does not.
bool scope_reaches(mm_set scope, int pe, std::string& why);
/// Whether the job lowers every call as if it named its defaults (portshmem_ctx_t.strict: PORTSHMEM_RELAXED=off, or
/// a premise of the relaxed lowering not established); then every variant's calls lower as strict's.
bool lowers_strictly();
} // namespace host

// ---- timing ---------------------------------------------------------------------------------------------------------
/// One launch of `iters` iterations of the kernel under test; false when the launch failed.
using launcher = std::function<bool(int iters)>;

struct measured {
  double us; // per iteration: median over the repetitions of the slowest active PE's time
  bool ok;   // every launch succeeded
};

/// The timing loop: a warm-up launch of o.warmup iterations, then o.repeats timed launches of o.iters, each of them
/// between host barriers and after reset() (which puts guards in the buffers the check reads and the start values in
/// the others; every PE calls it). Only PEs with active == true launch; GPU events time each launch on each of them.
measured measure(const options& o, bool active, const launcher& launch, const std::function<void()>& reset);

// ---- data -----------------------------------------------------------------------------------------------------------
/// Every byte of a checked destination holds this before a timed launch, so data never written fails the check.
inline constexpr std::uint8_t kGuard = 0xA5;
/// Byte i of PE pe's source: differs by PE and position, never the guard.
std::uint8_t pattern(int pe, std::size_t i);
/// Fills n bytes of device (or symmetric) memory with PE pe's pattern, or with the byte v.
void fill_pattern(void* dev, std::size_t n, int pe);
void fill_bytes(void* dev, std::size_t n, std::uint8_t v);
/// Copies n bytes from device memory to the host, and from the host to device memory.
void copy_out(void* host_dst, const void* dev, std::size_t n);
void copy_in(void* dev, const void* host_src, std::size_t n);
/// Compares n bytes of device memory with PE pe's pattern; reports the first mismatch on stderr (with what and the
/// size) and returns the number of mismatching bytes. PERFTEST_CORRUPT=1 (a test hook, smoke.sh): the first byte read
/// back is taken as wrong, so every row this check covers must fail.
std::size_t pattern_mismatches(const void* dev, std::size_t n, int pe, const char* what, std::size_t size);
/// The sum over PEs of a count, and the maximum of a time, over MPI_COMM_WORLD.
long sum_over_pes(long v);
double max_over_pes(double v);

/// The value of a row in the run's unit: latency in us; bandwidth GB/s from bytes per iteration; rate in Mops/s from
/// calls per iteration.
double value_of(metric m, double us, double bytes_per_iter, double calls_per_iter);

// ---- the families (bw.cpp, latency.cpp, atomic.cpp, pingpong.cpp): false when a row failed its check ---------------
bool run_bw(const program_info& p, const options& o, report& out);
bool run_latency(const program_info& p, const options& o, report& out);
bool run_atomic(const program_info& p, const options& o, report& out);
bool run_pingpong(const program_info& p, const options& o, report& out);

/// The whole program: flags, backend start, the family, the files, the exit code (0, 1: a wrong result, 2: bad use).
int run_program(program id, int argc, char** argv);

} // namespace pt
