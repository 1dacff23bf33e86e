// One program of the suite: CMake builds this file once per program name (PERFTEST_PROGRAM, e.g. put_bw) and backend;
// everything else is in the backend's perftest library (driver.cpp: run_program).
#include "harness.hpp"

int main(int argc, char** argv) {
  return pt::run_program(pt::program::PERFTEST_PROGRAM, argc, argv);
}
