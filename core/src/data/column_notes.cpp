#include "readscope/column_notes.h"

#include "readscope/mark_notes.h"
#include "readscope/run_notes.h"

namespace readscope {

std::string buffersColumnNote() {
    return "page offsets the destination buffers started at (offset x ranges read into a buffer "
           "there)";
}

std::string iopsColumnNote(const Plan& plan) {
    return wholeFileSweep(plan) ? "files read per second at the median"
                                : "ranges per second at the median";
}

std::string limitColumnNote(const ResultDocument& doc) {
    if (doc.plan.cache == CacheMode::Warm)
        return "memcpy: the median as a share of memcpy's speed here, copying the same sizes "
               "from as large a source (" +
               copyCeilingNote() + " 100%; an in-place mapping can)";
    if (const auto limit = deviceLimitText(doc); !limit.empty())
        return "device: the median as a share of the " + limit;
    return "device: " + noDeviceLimitWarning(doc.deviceLimitMissing);
}

} // namespace readscope
