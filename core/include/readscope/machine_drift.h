#pragma once
// How far runs of one plan on one machine move apart with nothing changed. A run's own drift
// (runDrift: its halves, or its repeats a few seconds apart) does not see the minutes-scale
// drift of a machine between runs: on the development VM cells moved 20-30% between runs made
// minutes apart while each run's own drift read 4-18%. Measured from A/A runs (the same plan,
// run several times with nothing changed), kept per machine, and held against every change
// between two runs of that machine.
#include "readscope/result.h"
#include "readscope/result_document.h"

#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct MachineDrift {
    std::string cpuModel, kernel, filesystem; // the machine and file system it was measured on
    double drift = 0;        // the largest change of a cell's median between two of the runs
    double medianDrift = 0;  // the typical one
    int runs = 0, cells = 0; // the A/A runs it rests on, and their cells
    std::string measuredAt;  // ISO 8601, UTC
};

// From at least two runs of one plan on one machine: every pair of runs, every cell both
// measured, the size of the change of its median; the drift is the largest of them (a floor
// no change between those runs passed). An error names what does not match.
Result<MachineDrift> measureMachineDrift(const std::vector<ResultDocument>& runs);
// Whether a run was measured where the drift was (CPU, kernel, file system).
bool measuredWhere(const MachineDrift& drift, const ResultDocument& doc);

// The kept drift (machine_drift_store.h keeps them) that applies to both runs, if any.
std::optional<MachineDrift> machineDriftFor(const std::vector<MachineDrift>& kept,
                                            const ResultDocument& a, const ResultDocument& b);

} // namespace readscope
