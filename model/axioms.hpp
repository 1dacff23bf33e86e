// The ordering axioms as the model's event builder applies them, for `portshmem-model --axioms`: a table computed by
// building the events of small synthetic programs (one per call and qualifier combination), not written by hand, so
// that docs/memory_model.md cannot drift from the code (a unit test compares the two).
#pragma once

#include <string>

namespace portshmem::model {

/// The markdown table with its legend.
std::string axiom_table();

} // namespace portshmem::model
