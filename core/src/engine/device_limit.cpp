#include "device_limit.h"

#include "clock.h"
#include "eviction.h"
#include "platform.h"
#include "readscope/reader.h"
#include "readscope/residency.h"
#include "readscope/system_info.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <vector>

namespace readscope {

namespace {

constexpr int kPasses = 3;

struct Measured {
    std::string path;
    std::uint64_t inode = 0, size = 0;
    std::int64_t mtimeNs = 0;
    DeviceLimit limit;
    bool sameFile(const FileProbe& f) const {
        return path == f.path && inode == f.inode && size == f.size && mtimeNs == f.mtimeNs;
    }
};
std::mutex gMutex;               // guards gMeasured, gMeasurements, and measuring
std::vector<Measured> gMeasured; // this process's session
std::uint64_t gMeasurements = 0; // how often a file was measured (not taken from gMeasured)

// This platform's strategy reading each range into one reused buffer the given way: pread-reuse
// or direct-pread (readfile-reuse, readfile-nobuffering on Windows).
const StrategyInfo* reusedBufferStrategy(Access access) {
    for (const auto& s : strategies())
        if (s.access == access && s.buffer == BufferKind::Reused && s.hint == Hint::None)
            return &s;
    return nullptr;
}

Result<std::unique_ptr<RangeReader>> openWay(const FileProbe& f, Access access) {
    const StrategyInfo* s = reusedBufferStrategy(access);
    if (!s)
        return Error{"no such strategy on this platform"};
    return openReader(*s, f, kDeviceBlock);
}

// Whether this file's residency can be told, so that an eviction can be checked.
bool evictionCheckable(const FileProbe& f) { return f.residencyVerifiable || f.residencyByNowait; }

struct PassFigure {
    double gbps = 0;
    unsigned depth = 0; // most reads in flight (io_uring); 0: one at a time
};

// Reads the blocks in one call: the most reads it had in flight, or why not all of them.
Result<unsigned> readAll(RangeReader& reader, std::span<const Range> blocks,
                         const std::stop_token& stop) {
    auto out = reader.read(blocks, ConsumeMode::Touch, false, stop);
    if (!out)
        return out.error();
    if (out->stopped || stop.stop_requested())
        return Error{"stopped"};
    const std::uint64_t want = blocks.size() * kDeviceBlock;
    if (out->bytes != want)
        return Error{fmt::format("read {} of {} bytes", out->bytes, want)};
    return out->queueDepth;
}

// The fastest of kPasses sequential passes over the blocks, each timed after its lead-in (its
// first eighth, read untimed: the ramp-up of read-ahead and of the device, which made a
// 128 MiB buffered read 25% slower than its steady rate on the development VM). No more passes
// after one over a second. The development VM's disk, cached by its host, gave one buffered
// pass 1.3 GB/s and the next 5.2: a ceiling wants the fastest of several. `before` runs
// untimed ahead of each pass and may refuse with a reason.
Result<PassFigure> fastestPass(RangeReader& reader, std::span<const Range> blocks,
                               const std::stop_token& stop, const std::function<Status()>& before) {
    const std::size_t leadIn = std::max<std::size_t>(1, blocks.size() / 8);
    PassFigure best;
    for (int pass = 0; pass < kPasses; ++pass) {
        if (auto st = reader.prepare(kDeviceBlock); !st)
            return st.error();
        if (auto st = before(); !st)
            return st.error();
        if (auto lead = readAll(reader, blocks.first(leadIn), stop); !lead)
            return lead.error();
        const auto t0 = Clock::now();
        auto timed = readAll(reader, blocks.subspan(leadIn), stop);
        const double seconds = secondsBetween(t0, Clock::now());
        if (!timed)
            return timed.error();
        const double bytes = static_cast<double>((blocks.size() - leadIn) * kDeviceBlock);
        if (seconds > 0 && bytes / seconds / 1e9 > best.gbps)
            best = {bytes / seconds / 1e9, *timed};
        if (seconds > 1)
            break;
    }
    return best;
}

// Before every pass where eviction can be verified: the blocks out of the page cache, so that
// no way reads cached pages (F_NOCACHE on macOS serves them, and so do file systems that accept
// O_DIRECT and read through the cache).
Status evictBlocks(const FileProbe& f, RangeReader& reader, std::span<const Range> blocks) {
    reader.letGoOfFile();
    std::string trouble;
    Residency r;
    {
        UniqueFd fd(platform::openForReading(f.path));
        if (!fd.valid())
            return Error{fmt::format("cannot open '{}'", f.path)};
        r = evictUntilCold(fd.get(), f, blocks, false,
                           [&](const std::string& m) { trouble = trouble.empty() ? m : trouble; });
    }
    if (auto st = reader.takeBackFile(); !st)
        return st;
    if (!r.fraction)
        return Error{"whether the file left the page cache cannot be told (" + r.method + ")"};
    if (*r.fraction > kColdThreshold)
        return Error{fmt::format("the file stayed {:.0f}% cached after eviction{}",
                                 *r.fraction * 100, trouble.empty() ? "" : ": " + trouble)};
    return okStatus();
}

Result<DeviceLimit> measure(const FileProbe& f, const std::stop_token& stop) {
    const std::uint64_t span = std::min(f.size, kDeviceSpan) / kDeviceBlock * kDeviceBlock;
    if (span < kDeviceMinSpan)
        return Error{fmt::format("the file is under {} MiB: too short a read to reach a "
                                 "device's speed",
                                 kDeviceMinSpan >> 20)};
    std::vector<Range> blocks;
    for (std::uint64_t at = 0; at < span; at += kDeviceBlock)
        blocks.push_back({at, kDeviceBlock});

    DeviceLimit limit;
    limit.device = platform::deviceName(f.path);
    limit.blockBytes = kDeviceBlock;
    limit.spanBytes = span;
    std::vector<std::string> skipped;
    auto run = [&](DeviceWay way, std::optional<double>& figure,
                   Result<std::unique_ptr<RangeReader>> reader) -> Status {
        Result<PassFigure> pass = Error{};
        if (reader)
            pass = fastestPass(**reader, blocks, stop, [&]() -> Status {
                if (!evictionCheckable(f))
                    return okStatus(); // the buffered way does not open here (see below)
                return evictBlocks(f, **reader, blocks);
            });
        else
            pass = reader.error();
        if (stop.stop_requested())
            return Error{"stopped before the device limit was measured"};
        if (!pass || pass->gbps <= 0) {
            skipped.push_back(
                fmt::format("{}: {}", deviceWayName(way),
                            pass ? std::string("no time measured") : pass.error().message));
            return okStatus();
        }
        figure = pass->gbps;
        if (way == DeviceWay::DirectQueued)
            limit.queueDepth = pass->depth;
        if (pass->gbps > limit.gbps) {
            limit.gbps = pass->gbps;
            limit.fastest = deviceWayText(way, limit);
        }
        return okStatus();
    };
    if (auto st = run(DeviceWay::Direct, limit.directGbps, openWay(f, Access::Direct)); !st)
        return st.error();
    if (auto st = run(DeviceWay::DirectQueued, limit.directQueuedGbps,
                      openDirectUringReader(f, kDeviceQueueDepth));
        !st)
        return st.error();
    if (auto st = run(DeviceWay::Buffered, limit.bufferedGbps,
                      evictionCheckable(f)
                          ? openWay(f, Access::Pread)
                          : Result<std::unique_ptr<RangeReader>>(
                                Error{"eviction cannot be verified here: " + f.residencyReason}));
        !st)
        return st.error();
    for (std::size_t i = 0; i < skipped.size(); ++i)
        limit.skipped += (i ? "; " : "") + skipped[i];
    if (limit.gbps <= 0)
        return Error{"no way of reading it could run: " + limit.skipped};
    limit.measuredAt = utcTimestamp();
    return limit;
}

} // namespace

Result<DeviceLimit> deviceLimitFor(const FileProbe& file, std::stop_token stop) {
    // Held while measuring: two runs measuring at once would evict under each other's reads.
    std::lock_guard lock(gMutex);
    for (const auto& m : gMeasured)
        if (m.sameFile(file))
            return m.limit;
    ++gMeasurements;
    auto limit = measure(file, stop);
    if (limit)
        gMeasured.push_back({file.path, file.inode, file.size, file.mtimeNs, *limit});
    return limit;
}

std::uint64_t deviceLimitMeasurements() {
    std::lock_guard lock(gMutex);
    return gMeasurements;
}

} // namespace readscope
