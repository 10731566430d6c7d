#include "readscope/column_notes.h"

#include "readscope/document_words.h"
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
    return "device: " + noDeviceLimitText(doc.deviceLimitMissing);
}

std::string fetchedMeaning() {
    return "fetched from storage per byte wanted (read-ahead, populate and fault-around "
           "included)";
}

std::string fetchedColumnNote() {
    return fetchedMeaning() + ", the median over rounds: cold and direct runs only, counted "
                              "from /proc/self/io on Linux";
}

std::string inFlightColumnNote() {
    return "reads io_uring kept in flight per thread (its queue depth); – for strategies that "
           "read one range at a time";
}

} // namespace readscope
