#pragma once
// One run of a plan, start to end (runner.cpp); runPlan repeats it for an A/A run
// (repeats.cpp). Private to the engine.
#include "readscope/runner.h"

namespace readscope {

struct FileProbe;

// The plan's points (or only `only` of them), going on from `resumeFrom`'s rounds where it has
// a cell's.
Result<ResultDocument> measureOnce(const Plan& plan, const FileProbe& file, RunSink& sink,
                                   std::stop_token stop, const std::vector<SweepPoint>* only,
                                   const ResultDocument* resumeFrom);

} // namespace readscope
