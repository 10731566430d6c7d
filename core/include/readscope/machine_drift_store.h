#pragma once
// Where the machine drifts measured from A/A runs are kept: one per machine, in JSON, at
// $READSCOPE_DATA_DIR, else $XDG_DATA_HOME/readscope, else ~/.local/share/readscope
// (%LOCALAPPDATA%\readscope on Windows), file machine-drift.json.
#include "readscope/compare.h"
#include "readscope/machine_drift.h"
#include "readscope/result.h"

#include <string>
#include <vector>

namespace readscope {

std::string machineDriftPath();
// None when the file is missing or unreadable (a drift not kept is a drift not known).
std::vector<MachineDrift> loadMachineDrifts(const std::string& path);
// Keeps drift in place of any earlier one of the same machine; the file is never half-written.
Status saveMachineDrift(const MachineDrift& drift, const std::string& path);
// Two separate runs compared (compareDocuments), their changes held to the drift kept in
// `store` for the machine and cache mode both were measured in, when there is one: what
// compare, run --baseline and the app's Compare tab show.
Comparison compareRuns(const ResultDocument& baseline, const ResultDocument& current,
                       double noiseThreshold, const std::string& store = machineDriftPath());

} // namespace readscope
