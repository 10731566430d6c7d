#include "readscope/plan_help.h"

#include "readscope/plan.h"
#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

std::string memoryLimitHelp() {
    return fmt::format(
        "Run under this memory limit, the file's page cache included, so a larger file is "
        "evicted while it is read. It is a memory cgroup: the one readscope was started in when "
        "that is limited to at most this much (as systemd-run --user --scope -p MemoryMax=SIZE "
        "makes), else one of its own where readscope may create one. Refused, with the reason, "
        "where neither works. At least {}.",
        formatSize(kMinMemoryLimit));
}

std::string durationHelp() {
    return fmt::format(
        "Measure for this long instead of a number of rounds: the run's time, shared by its "
        "points; the time cap does not apply; at most {} rounds. Each round reads on through the "
        "ranges from where the strategy's last round stopped, so a file larger than the memory "
        "limit (under which it starts evicted) fills the cache and is then evicted while it is "
        "read. Each round's GB/s is kept with the time it started (the samples CSV's "
        "started_at, the over-time chart).",
        kRoundsLimit.max);
}

} // namespace readscope
