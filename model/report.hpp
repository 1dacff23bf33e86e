// Text reports of model results, shared by the CLI and the tests (the verdict table of docs/memory_model.md).
#pragma once

#include <string>

#include "enumerate.hpp"
#include "litmus.hpp"

namespace portshmem::model {

/// "allowed" when the condition is reachable, else "forbidden".
const char* verdict_name(bool reachable);

/// Full report of one test: notes, allowed outcomes (registers and reported locations; every location when
/// `all_locations`), the condition and the verdict against the expectation.
std::string format_report(const LitmusTest& t, const ModelResult& r, bool all_locations, double ms);

/// Header (two lines) and one row of the markdown verdict table.
std::string table_header();
std::string table_row(const LitmusTest& t, const ModelResult& r);

} // namespace portshmem::model
