#pragma once
// Runs a plan: for each range size, an untimed verification pass, warm-up rounds, then
// measured rounds that interleave the strategies (A B C A B C ...). Results leave through a
// RunSink; a stop token ends the run within one range read, keeping finished cells.
#include "readscope/plan.h"
#include "readscope/result.h"
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>

namespace readscope {

struct Progress {
    std::uint64_t step = 0;  // finished (strategy, round) steps
    std::uint64_t total = 0; // all steps of the run
    std::uint64_t rangeBytes = 0;
    std::optional<std::uint32_t> bufferOffset; // the point's pinned offset, if any
    std::optional<int> threads;                // a threads sweep's point
    std::optional<unsigned> queueDepth;        // a queue-depth sweep's point
    std::string strategy;
    std::string phase; // "verify", "warm-up", "round 3/15", "evict"
    double elapsedSeconds = 0;
    double etaSeconds = -1; // < 0 while unknown
};

// One interface for every front end (CLI table, GUI worker, tests). Called on the runner's
// thread; implementations hand work to their own threads themselves.
class RunSink {
public:
    virtual ~RunSink() = default;
    virtual void onStarted(const ResultDocument& /*header*/) {}
    virtual void onProgress(const Progress& /*progress*/) {}
    virtual void onCellFinished(const Cell& /*cell*/) {}
    virtual void onWarning(const std::string& /*message*/) {}
};

// Returns the document (complete == false when stopped), or an error when the plan or file
// is unusable. Failed and unavailable cells are in the document with their reasons.
Result<ResultDocument> runPlan(const Plan& plan, RunSink& sink, std::stop_token stop = {});
// The same plan, measuring only these of its points (a resumed run): everything else about the
// run (its sweep axis, the allocation size of pinned buffers) stays what the plan made it.
Result<ResultDocument> runPlanPoints(const Plan& plan, const std::vector<SweepPoint>& points,
                                     RunSink& sink, std::stop_token stop = {});

// A whole-file sweep's copies that a crash or kill left behind, in the folder the document
// names (copiesFolder): removes those copies and the folder, nothing else. Resuming the run,
// or the app's recovery, calls it.
void removeLeftoverCopies(const ResultDocument& doc);

} // namespace readscope
