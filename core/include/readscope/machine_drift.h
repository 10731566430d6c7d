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

// Each run puts a cell's median at a level of its own; over A/A runs those levels spread (the
// log of the median has a standard deviation, pooled over the cells: the spread). Between two
// runs a cell then moves by a difference of two levels, whose spread is sqrt(2) times that, and
// a change passes this machine's drift only beyond kDriftSpreads of those: with nothing
// changed, about 1 row in 300 if every cell's levels were log-normal with the pooled spread
// (noisier cells pass it more often, quieter ones less, and a spread from few runs is itself
// uncertain); the largest change the A/A runs saw is kept beside it as a check. The largest change
// seen among a few runs is no floor: on the development VM four runs saw up to 47% and the next six
// up to 97% (mmap-touch at 1 MiB read 7.1 or 14.0 GB/s from one run to the next).
inline constexpr double kDriftSpreads = 2.94; // two-sided 1/300
struct MachineDrift {
    std::string cpuModel, kernel, filesystem; // the machine and file system it was measured on
    std::string cache;                        // the runs' cache mode: warm, cold or direct
    double drift = 0;        // the floor: exp(kDriftSpreads * sqrt(2) * spread) - 1
    double spread = 0;       // the pooled standard deviation of log(median) between runs
    double largestSeen = 0;  // the largest change of a cell between two of the A/A runs
    int runs = 0, cells = 0; // the A/A runs it rests on, and the cells they have in common
    std::string measuredAt;  // ISO 8601, UTC
};

// From at least three runs of one plan on one machine (two give one difference per cell: no
// spread to speak of). An error names what does not match.
Result<MachineDrift> measureMachineDrift(const std::vector<ResultDocument>& runs);
// The same from one run made of at least three repeats of its plan (Plan::repeats, run back
// to back: the app's Measure drift), each repeat taken as a run of its own.
Result<MachineDrift> measureMachineDriftFromRepeats(const ResultDocument& repeated);

// Whether a run was measured where the drift was (CPU, kernel, file system) and in its cache
// mode (a warm page cache drifts unlike a device).
bool measuredWhere(const MachineDrift& drift, const ResultDocument& doc);

// The kept drift (machine_drift_store.h keeps them) that applies to both runs, if any.
std::optional<MachineDrift> machineDriftFor(const std::vector<MachineDrift>& kept,
                                            const ResultDocument& a, const ResultDocument& b);

} // namespace readscope
