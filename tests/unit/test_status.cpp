// Every status code has its own name; a value outside the enum still gets one (never NULL). The loops end at the
// last code, PORTSHMEM_ERR_NETWORK: a new code goes at the end of the enum and here.
#include "portshmem/status.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

TEST(StatusString, EveryCodeHasItsOwnName) {
  std::set<std::string> names;
  for (int code = PORTSHMEM_SUCCESS; code <= PORTSHMEM_ERR_NETWORK; ++code) {
    const char* name = portshmem_status_string(static_cast<portshmem_status_t>(code));
    ASSERT_NE(name, nullptr) << code;
    EXPECT_GT(std::string(name).size(), 0u) << code;
    EXPECT_NE(std::string(name), "unknown status") << "code " << code << " has no name";
    EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
  }
}

TEST(StatusString, KnownNames) {
  EXPECT_STREQ(portshmem_status_string(PORTSHMEM_SUCCESS), "success");
  EXPECT_STREQ(portshmem_status_string(PORTSHMEM_ERR_INVALID_PE), "invalid PE");
  EXPECT_STREQ(portshmem_status_string(PORTSHMEM_ERR_OUT_OF_MEMORY), "symmetric heap exhausted");
}

TEST(StatusString, OutOfRangeValueIsNeverNull) {
  EXPECT_STREQ(portshmem_status_string(static_cast<portshmem_status_t>(PORTSHMEM_ERR_NETWORK + 1)), "unknown status");
}

} // namespace
