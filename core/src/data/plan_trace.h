#pragma once
// Whether a trace run can replay its trace on this file. Private to the data layer
// (validatePlan's).
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/result.h"

namespace readscope {

// A trace pattern needs a trace with reads, none past the end of the file; a trace is for the
// trace pattern only.
Status validateTrace(const Plan& plan, const FileProbe& file);

} // namespace readscope
