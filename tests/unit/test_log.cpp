#include "log.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using portshmem::detail::log_level;
namespace detail = portshmem::detail;

// Captures lines through the sink and restores the global logger state afterwards.
class Log : public ::testing::Test {
 protected:
  void SetUp() override {
    detail::log_set_level(log_level::warn);
    detail::log_set_pe(-1);
    detail::log_set_sink([this](std::string_view line) {
      const std::lock_guard<std::mutex> lock(mutex_);
      lines_.emplace_back(line);
    });
  }
  void TearDown() override {
    detail::log_set_sink(nullptr);
    detail::log_set_level(log_level::warn);
    detail::log_set_pe(-1);
  }
  std::vector<std::string> lines() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

  std::mutex mutex_;
  std::vector<std::string> lines_;
};

TEST_F(Log, LineFormatBeforeInit) {
  const int line = __LINE__ + 1;
  PORTSHMEM_LOG(warn, "heap has %d bytes left", 42);
  ASSERT_EQ(lines().size(), 1u);
  EXPECT_EQ(lines()[0], "portshmem[PE ?] WARN test_log.cpp:" + std::to_string(line) + ": heap has 42 bytes left");
}

TEST_F(Log, ShowsPeOnceSet) {
  detail::log_set_pe(3);
  detail::log_write(log_level::error, "/some/dir/heap.cpp", 42, "message");
  detail::log_set_pe(-5);
  detail::log_write(log_level::error, "init.cpp", 7, "after finalize");
  ASSERT_EQ(lines().size(), 2u);
  EXPECT_EQ(lines()[0], "portshmem[PE 3] ERROR heap.cpp:42: message");
  EXPECT_EQ(lines()[1], "portshmem[PE ?] ERROR init.cpp:7: after finalize");
}

TEST_F(Log, LevelFiltersAndSkipsArgumentEvaluation) {
  int evaluated = 0;
  auto count = [&evaluated] { return ++evaluated; };
  PORTSHMEM_LOG(info, "info %d", count());
  PORTSHMEM_LOG(trace, "trace %d", count());
  EXPECT_TRUE(lines().empty());
  EXPECT_EQ(evaluated, 0);
  EXPECT_FALSE(detail::log_enabled(log_level::info));
  EXPECT_TRUE(detail::log_enabled(log_level::warn));

  detail::log_set_level(log_level::trace);
  EXPECT_EQ(detail::log_get_level(), log_level::trace);
  PORTSHMEM_LOG(info, "info %d", count());
  PORTSHMEM_LOG(trace, "trace %d", count());
  ASSERT_EQ(lines().size(), 2u);
  EXPECT_NE(lines()[0].find(" INFO "), std::string::npos);
  EXPECT_NE(lines()[1].find(" TRACE "), std::string::npos);
  EXPECT_EQ(evaluated, 2);
}

TEST_F(Log, ErrorAlwaysPrints) {
  detail::log_set_level(log_level::error);
  PORTSHMEM_LOG(warn, "hidden");
  PORTSHMEM_LOG(error, "shown");
  ASSERT_EQ(lines().size(), 1u);
  EXPECT_NE(lines()[0].find(" ERROR "), std::string::npos);
  for (auto level : {log_level::error, log_level::warn, log_level::info, log_level::trace}) {
    detail::log_set_level(level);
    EXPECT_TRUE(detail::log_enabled(log_level::error));
  }
}

TEST_F(Log, TrailingNewlinesAndLongMessages) {
  PORTSHMEM_LOG(warn, "ends with newline\n\n");
  const std::string long_text(5000, 'x');
  PORTSHMEM_LOG(warn, "%s|end", long_text.c_str());
  ASSERT_EQ(lines().size(), 2u);
  EXPECT_EQ(lines()[0].substr(lines()[0].size() - 17), "ends with newline");
  EXPECT_EQ(lines()[1].substr(lines()[1].size() - 5004), long_text + "|end");
}

TEST_F(Log, FailLogsStatusNameAndReturnsStatus) {
  detail::log_set_level(log_level::error); // failures print even at the quietest level
  detail::log_set_pe(1);
  const int line = __LINE__ + 1;
  const portshmem_status_t status = PORTSHMEM_FAIL(PORTSHMEM_ERR_INVALID_PE, "pe %d is outside [0, %d)", 9, 4);
  EXPECT_EQ(status, PORTSHMEM_ERR_INVALID_PE);
  ASSERT_EQ(lines().size(), 1u);
  EXPECT_EQ(lines()[0],
            "portshmem[PE 1] ERROR test_log.cpp:" + std::to_string(line) + ": invalid PE: pe 9 is outside [0, 4)");
}

TEST_F(Log, PrintEmitsAtItsOwnLevelWhateverTheFilter) {
  detail::log_set_level(log_level::error); // PORTSHMEM_DEBUG=ERROR must not hide output asked for by name
  detail::log_set_pe(0);
  detail::log_print(log_level::info, "init.cpp", 50, "portshmem %s, %d PEs", "0.1.0", 4);
  ASSERT_EQ(lines().size(), 1u);
  EXPECT_EQ(lines()[0], "portshmem[PE 0] INFO init.cpp:50: portshmem 0.1.0, 4 PEs");
}

TEST_F(Log, LinesFromManyThreadsStayWhole) {
  constexpr int kThreads = 8, kLines = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < kLines; ++i) detail::log_write(log_level::warn, "t.cpp", t, "thread %d line %d", t, i);
    });
  for (auto& thread : threads) thread.join();
  const auto captured = lines();
  ASSERT_EQ(captured.size(), static_cast<std::size_t>(kThreads * kLines));
  std::vector<int> next(kThreads, 0);
  for (const auto& text : captured) {
    int t = -1, t2 = -1, i = -1;
    ASSERT_EQ(std::sscanf(text.c_str(), "portshmem[PE ?] WARN t.cpp:%d: thread %d line %d", &t, &t2, &i), 3) << text;
    ASSERT_EQ(t, t2);
    ASSERT_TRUE(t >= 0 && t < kThreads) << text;
    ASSERT_EQ(i, next[static_cast<std::size_t>(t)]++); // per-thread order kept
  }
}

TEST(LogStderr, DefaultSinkWritesOneLinePerMessage) {
  detail::log_set_sink(nullptr);
  detail::log_set_pe(0);
  ::testing::internal::CaptureStderr();
  detail::log_write(log_level::error, "a/b/env.cpp", 12, "first");
  detail::log_write(log_level::warn, "env.cpp", 13, "second %s", "line");
  const std::string err = ::testing::internal::GetCapturedStderr();
  detail::log_set_pe(-1);
  EXPECT_EQ(err, "portshmem[PE 0] ERROR env.cpp:12: first\nportshmem[PE 0] WARN env.cpp:13: second line\n");
}

TEST(LogLevelName, Names) {
  EXPECT_STREQ(detail::log_level_name(log_level::error), "ERROR");
  EXPECT_STREQ(detail::log_level_name(log_level::warn), "WARN");
  EXPECT_STREQ(detail::log_level_name(log_level::info), "INFO");
  EXPECT_STREQ(detail::log_level_name(log_level::trace), "TRACE");
}

} // namespace
