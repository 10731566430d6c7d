#include "cache_control.h"

#include "eviction.h"
#include "platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace readscope {

Status CacheControl::open(const FileProbe& file) {
    file_ = file;
    fd_ = UniqueFd(platform::openForReading(file_.path));
    if (!fd_.valid())
        return Error{
            fmt::format("cannot open '{}' for reading: {}", file_.path, std::strerror(errno))};
    return okStatus();
}

void CacheControl::close() { fd_.reset(); }

Residency CacheControl::residency(std::span<const Range> ranges) const {
    return rangeResidency(fd_.get(), file_, ranges);
}

// Cold and direct rounds start from an evicted file: a direct round reads nothing cached where
// O_DIRECT bypasses the cache (the verification's buffered reference pass left the file
// resident), and where a file system honours O_DIRECT only as a hint it would serve cached
// pages under the name of direct reads.
Residency CacheControl::prepare(std::span<const Range> ranges, std::vector<Lane>& lanes) {
    if (mode_ == CacheMode::Warm)
        return residency(ranges);
    for (auto& lane : lanes)
        for (auto& reader : lane.readers)
            reader->letGoOfFile();
    if constexpr (platform::kEvictionNeedsHandlesClosed)
        fd_.reset();
    const Residency r = evictUntilCold(fd_.get(), file_, ranges, dropCaches_, warn_);
    if (!fd_.valid())
        fd_ = UniqueFd(platform::openForReading(file_.path));
    for (auto& lane : lanes)
        for (auto& reader : lane.readers)
            if (auto st = reader->takeBackFile(); !st)
                warn_(st.error().message);
    return r;
}

Residency CacheControl::evictAll() {
    const Range whole{0, file_.size};
    return evictUntilCold(fd_.get(), file_, std::span(&whole, 1), dropCaches_, warn_);
}

Status CacheControl::warm(std::stop_token stop) {
    return warmFile(fd_.get(), file_.size, file_.path, stop);
}

std::optional<CellCondition> cacheCondition(const Cell& cell, CacheMode mode) {
    if (mode == CacheMode::Direct)
        return std::nullopt;
    const bool cold = mode == CacheMode::Cold;
    int off = 0;
    double worst = cold ? 0 : 1;
    for (const auto& s : cell.samples) {
        if (!s.residentBefore)
            continue;
        const double r = *s.residentBefore;
        if (cold ? r > kColdThreshold : r < kWarmThreshold) {
            ++off;
            worst = cold ? std::max(worst, r) : std::min(worst, r);
        }
    }
    if (off == 0)
        return std::nullopt;
    const int of = int(cell.samples.size());
    if (cold)
        return CellCondition{NotCold{off, of, worst, kColdThreshold}};
    return CellCondition{NotWarm{off, of, worst, kWarmThreshold}};
}

} // namespace readscope
