#include "plan_trace.h"

#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

Status validateTrace(const Plan& plan, const FileProbe& file) {
    if (plan.pattern != Pattern::Trace)
        return plan.trace ? Status(Error{"a trace is replayed by the trace pattern only"})
                          : okStatus();
    if (!plan.trace)
        return Error{"the trace pattern replays a recorded program's reads: give the trace "
                     "(--trace FILE)"};
    const Trace& t = *plan.trace;
    if (t.reads.empty())
        return Error{fmt::format("the trace '{}' holds no reads to replay", plan.tracePath)};
    if (sweepAxis(plan) != SweepAxis::RangeSize)
        return Error{fmt::format("a trace run replays the trace at one point: give one {} (a "
                                 "sweep of them over a trace is not supported)",
                                 sweepAxis(plan) == SweepAxis::Threads      ? "thread count"
                                 : sweepAxis(plan) == SweepAxis::QueueDepth ? "queue depth"
                                                                            : "buffer offset")};
    if (plan.durationSeconds > 0)
        return Error{"a duration run reads ranges for a time; a trace is replayed in rounds: "
                     "leave the duration at 0"};
    if (!plan.fileSizes.empty())
        return Error{"file sizes are for the whole pattern, not a trace"};
    for (std::size_t i = 0; i < t.reads.size(); ++i) {
        const TraceRead& r = t.reads[i];
        if (r.length == 0)
            return Error{fmt::format("the trace '{}' has a read of 0 bytes (read {})",
                                     plan.tracePath, i + 1)};
        if (r.offset > file.size || r.length > file.size - r.offset)
            return Error{fmt::format(
                "the trace '{}' reads past the end of '{}' ({}): read {} asks for {} at offset "
                "{}; replay it on the file it was recorded from{}",
                plan.tracePath, file.path, formatSize(file.size), i + 1, formatSize(r.length),
                r.offset,
                t.fileBytes ? fmt::format(" ({} when recorded)", formatSize(*t.fileBytes))
                            : std::string())};
    }
    return okStatus();
}

} // namespace readscope
