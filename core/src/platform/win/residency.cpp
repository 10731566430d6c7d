// Cache state on Windows: it cannot be measured without privileges, and the one unprivileged
// way to push a file out of the cache is to open it with FILE_FLAG_NO_BUFFERING and close it
// again, which makes the cache manager flush and purge the file's cached pages when no other
// handle holds them.
#include "readscope/residency.h"
#include "platform.h"

#include "win_util.h"

#include <fmt/format.h>

namespace readscope {

Residency measureResidency(int, std::uint64_t, bool, const std::string& whyNot) {
    return {std::nullopt, "unverified: " + whyNot};
}

Residency measureRangeResidency(int, std::uint64_t, std::span<const Range>, bool,
                                const std::string& whyNot) {
    return {std::nullopt, "unverified: " + whyNot};
}

Residency sampleResidencyNowait(int, std::uint64_t, std::span<const Range>) {
    return {std::nullopt, "unverified: " + platform::linuxOnly("RWF_NOWAIT")};
}

void finishNowaitProbes(int, std::uint64_t, std::span<const Range>) {}

Status evictFile(int, const std::string& path) {
    auto h = win::openShared(path, FILE_FLAG_NO_BUFFERING);
    if (!h.valid())
        return Error{fmt::format("could not flush '{}' from the cache (opening it with "
                                 "FILE_FLAG_NO_BUFFERING failed: {})",
                                 path, win::errorText(GetLastError()))};
    return okStatus(); // closing the handle is the flush
}

Status dropAllCaches() { return Error{platform::dropAllCachesLinuxOnly()}; }

} // namespace readscope
