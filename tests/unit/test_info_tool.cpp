// portshmem-info's sections against a fake environment, sysfs and /proc (src/tools/info_report.hpp).
#include "info_report.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace info = portshmem::info;

portshmem::detail::env_lookup env(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    const auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

/// A scratch directory, removed at the end of the test.
class scratch_dir {
 public:
  scratch_dir() {
    std::string pattern = (fs::temp_directory_path() / "portshmem-info-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~scratch_dir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  void write(const fs::path& relative, const std::string& text) const {
    fs::create_directories((path_ / relative).parent_path());
    std::ofstream(path_ / relative, std::ios::binary) << text;
  }

 private:
  fs::path path_;
};

TEST(InfoTool, EnvironmentShowsEffectiveValuesAndWhereTheyCameFrom) {
  info::report out;
  const char* envp[] = {"PORTSHMEM_TIMEOUT=42s", "PORTSHMEM_HEAPSIZE=2G", "HOME=/root", nullptr};
  const bool ok = info::env_section(
      out, env({{"PORTSHMEM_TIMEOUT", "42s"}, {"PORTSHMEM_HEAP_SIZE", " 1024M "}, {"PORTSHMEM_DEBUG", ""}}), envp);
  EXPECT_TRUE(ok);
  const std::string& text = out.text();
  EXPECT_TRUE(has_line(text, "  PORTSHMEM_TIMEOUT: 42s (environment \"42s\") [job]")) << text;
  EXPECT_TRUE(has_line(text, "  PORTSHMEM_HEAP_SIZE: 1G (environment \" 1024M \") [job]")) << text;
  EXPECT_TRUE(has_line(text, "  PORTSHMEM_DEBUG: WARN (default: set but empty in the environment)")) << text;
  EXPECT_TRUE(has_line(text, "  PORTSHMEM_DEVICE: -1 (default)")) << text;
  EXPECT_TRUE(has_line(text, "  PORTSHMEM_HEAPSIZE: not a portshmem variable (misspelled?); init warns and ignores it"))
      << text;
  for (const auto& entry : portshmem::detail::env_registry())
    EXPECT_NE(text.find(std::string("  ") + entry.name + ": "), std::string::npos) << entry.name;
}

TEST(InfoTool, ARefusedValueGetsInitsMessageAndFails) {
  info::report out;
  const char* envp[] = {nullptr};
  EXPECT_FALSE(info::env_section(out, env({{"PORTSHMEM_DEVICE", "gpu\n0"}}), envp));
  EXPECT_TRUE(has_line(out.text(),
                       "  PORTSHMEM_DEVICE: REFUSED (environment \"gpu\\x0a0\"): PORTSHMEM_DEVICE=\"gpu\\x0a0\" "
                       "is not a GPU index; accepted: -1 (pick by local rank) or a GPU index (0 or more). "
                       "portshmem_init fails with PORTSHMEM_ERR_ENV"))
      << out.text();
}

TEST(InfoTool, NicsComeFromSysfs) {
  scratch_dir sys;
  const fs::path dev = "class/infiniband/mlx5_7";
  sys.write(dev / "ports/1/state", "4: ACTIVE\n");
  sys.write(dev / "ports/1/link_layer", "Ethernet\n");
  sys.write(dev / "ports/1/rate", "200 Gb/sec (4X HDR)\n");
  sys.write("devices/pci0000:00/0000:17:00.1/net/enp23s0f1/.keep", "");
  fs::create_directory_symlink(sys.path() / "devices/pci0000:00/0000:17:00.1", sys.path() / dev / "device");
  sys.write("module/nvidia_peermem/refcnt", "0\n");
  info::report out;
  info::nic_section(out, sys.path().string());
  const std::string& text = out.text();
  EXPECT_TRUE(has_line(text, "  mlx5_7 port 1: 4: ACTIVE, Ethernet, 200 Gb/sec (4X HDR)")) << text;
  EXPECT_NE(text.find("  mlx5_7: PCI 0000:17:00.1, netdev enp23s0f1"), std::string::npos) << text;
  EXPECT_TRUE(has_line(text, "  nvidia_peermem: loaded")) << text;
}

TEST(InfoTool, NoNicSaysHowPeersAreReached) {
  scratch_dir sys;
  info::report out;
  info::nic_section(out, sys.path().string());
  EXPECT_NE(out.text().find("no RDMA device"), std::string::npos) << out.text();
  EXPECT_NE(out.text().find("  nvidia_peermem: not loaded"), std::string::npos) << out.text();
}

TEST(InfoTool, MpsStateComesFromThePipeDirectoryAndProc) {
  scratch_dir root;
  root.write("pipe/control", "");
  root.write("proc/4242/cmdline", std::string("/usr/bin/nvidia-cuda-mps-control\0-d\0", 36));
  root.write("proc/self/cmdline", std::string("nvidia-cuda-mps-server\0", 23)); // not a PID: skipped
  info::report out;
  const std::string pipe = (root.path() / "pipe").string();
  info::mps_section(out, env({{"CUDA_MPS_PIPE_DIRECTORY", pipe}}), (root.path() / "proc").string());
  const std::string& text = out.text();
  EXPECT_TRUE(has_line(text, "  pipe directory: " + pipe + " (CUDA_MPS_PIPE_DIRECTORY): control pipe present")) << text;
  EXPECT_TRUE(has_line(text, "  nvidia-cuda-mps-control: running, PID 4242")) << text;
  EXPECT_TRUE(has_line(text, "  nvidia-cuda-mps-server: not running")) << text;
}

TEST(InfoTool, MpsDefaultsToCudasPipeDirectory) {
  scratch_dir root;
  info::report out;
  info::mps_section(out, env({}), (root.path() / "proc").string());
  EXPECT_NE(out.text().find("  pipe directory: /tmp/nvidia-mps (CUDA's default)"), std::string::npos) << out.text();
}

} // namespace
