#pragma once
// Where a result document was measured and how to measure it again: the lines a pasted table,
// a report or a comparison carries so that someone else can rerun it.
#include "readscope/plan.h"
#include "readscope/result_document.h"

#include <string>

namespace readscope {

// `readscope-cli run FILE --sizes ... --strategies ...`: every option that shaped the run.
std::string reproduceCommand(const Plan& plan);
// The command that reruns a document's measurement on another machine: with a generated
// target, `readscope-cli generate` of the same size first, then the run on that file.
std::string rerunCommand(const ResultDocument& doc);
// "readscope 0.1.0 · CPU · 2 logical cores · kernel · ext4 · page 4096 B · 2026-12-01"
std::string systemLine(const ResultDocument& doc);

} // namespace readscope
