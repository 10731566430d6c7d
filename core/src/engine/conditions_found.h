#pragma once
// The conditions a finished cell's rounds earned, from what the run knows about them. Private
// to the engine.
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/result_document.h"
#include "whole_file_sweep.h"

#include <optional>

namespace readscope {

struct FinishedCellContext {
    const Plan& plan;
    const FileProbe& target;
    const FileProbe& reading;         // the file the cell read: the target, or a whole-file copy
    const WholeFileSweep* sweep;      // a whole-file sweep's, or none
    std::optional<FileChange> change; // the target since the run started
    bool stopped = false;
};

// Summarizes the cell and adds its conditions (a not-cold cell's status becomes NotCold).
// Whether any condition (or the failure reason) is worth a warning.
bool finishWithConditions(Cell& cell, const FinishedCellContext& context);

} // namespace readscope
