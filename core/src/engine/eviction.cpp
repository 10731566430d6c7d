#include "eviction.h"

#include <chrono>
#include <thread>

namespace readscope {

namespace {
constexpr int kEvictionAttempts = 4;
} // namespace

Residency rangeResidency(int fd, const FileProbe& f, std::span<const Range> ranges) {
    if (!f.residencyVerifiable && f.residencyByNowait)
        return sampleResidencyNowait(fd, f.size, ranges);
    return measureRangeResidency(fd, f.size, ranges, f.residencyVerifiable, f.residencyReason);
}

Residency evictUntilCold(int fd, const FileProbe& f, std::span<const Range> ranges, bool dropCaches,
                         const std::function<void(const std::string&)>& warn) {
    auto evict = [&] {
        if (auto st = evictFile(fd, f.path); !st)
            warn(st.error().message);
        if (dropCaches)
            if (auto st = dropAllCaches(); !st)
                warn(st.error().message);
    };
    Residency r;
    for (int attempt = 0; attempt < kEvictionAttempts; ++attempt) {
        if (attempt > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
        evict();
        r = rangeResidency(fd, f, ranges);
        if (r.disturbsCache) {
            // The probe's misses started reads of the pages it asked about: let them finish
            // (pages under I/O are locked, and eviction skips them), then evict.
            finishNowaitProbes(fd, f.size, ranges);
            evict();
        }
        if (!r.fraction || *r.fraction <= kColdThreshold)
            break;
    }
    return r;
}

} // namespace readscope
