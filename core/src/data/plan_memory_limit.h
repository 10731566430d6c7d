#pragma once
// Whether a plan's memory limit leaves room for readscope itself. Private to the data layer
// (validatePlan's).
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/result.h"

namespace readscope {

// A memory limit holds readscope's own memory as well as the file's page cache, and past it
// the kernel kills the process (in the app, the whole window): the limit must leave room for
// readscope, and the reads' own buffers (a range per worker, twice for a buffer that grows by
// copying, a queue's worth for io_uring) may take at most half of it, and the points' lists of
// ranges at most a quarter.
Status validateMemoryLimit(const Plan& plan, const FileProbe& file);

// Whether any of the plan's strategies keeps an io_uring queue (a depth means something).
bool anyQueuedStrategy(const Plan& plan);

} // namespace readscope
