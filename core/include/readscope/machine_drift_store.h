#pragma once
// Where the machine drifts measured from A/A runs are kept: one per machine, in JSON, at
// $READSCOPE_DATA_DIR, else $XDG_DATA_HOME/readscope, else ~/.local/share/readscope
// (%LOCALAPPDATA%\readscope on Windows), file machine-drift.json.
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

} // namespace readscope
