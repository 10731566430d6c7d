#include "device_limit.h"

#include "clock.h"
#include "platform.h"
#include "readscope/reader.h"
#include "readscope/residency.h"
#include "readscope/system_info.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace readscope {

namespace {

constexpr int kPasses = 2;
constexpr int kEvictionAttempts = 4;
constexpr double kColdEnough = 0.01;

struct Measured {
    std::string path;
    std::uint64_t inode = 0, size = 0;
    std::int64_t mtimeNs = 0;
    DeviceLimit limit;
    bool sameFile(const FileProbe& f) const {
        return path == f.path && inode == f.inode && size == f.size && mtimeNs == f.mtimeNs;
    }
};
std::mutex gMutex;
std::vector<Measured> gMeasured; // this process's session

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

// Reads the blocks in one call; the bytes, or why not all of them.
Result<std::uint64_t> readAll(RangeReader& reader, std::span<const Range> blocks,
                              std::stop_token stop) {
    auto out = reader.read(blocks, ConsumeMode::Touch, false, stop);
    if (!out)
        return out.error();
    if (out->stopped || stop.stop_requested())
        return Error{"stopped"};
    const std::uint64_t want = blocks.size() * kDeviceBlock;
    if (out->bytes != want)
        return Error{fmt::format("read {} of {} bytes", out->bytes, want)};
    return out->bytes;
}

// GB/s of the faster of kPasses sequential passes over the blocks, each timed after its
// lead-in (its first eighth, read untimed: the ramp-up of read-ahead and of the device, which
// made a 128 MiB buffered read 25% slower than its steady rate on the development VM). No
// second pass after one over a second. `before` runs untimed ahead of each pass and may
// refuse with a reason.
Result<double> fasterPass(RangeReader& reader, std::span<const Range> blocks, std::stop_token stop,
                          const std::function<Status()>& before = {}) {
    const std::size_t leadIn = std::max<std::size_t>(1, blocks.size() / 8);
    double best = 0;
    for (int pass = 0; pass < kPasses; ++pass) {
        if (auto st = reader.prepare(kDeviceBlock); !st)
            return st.error();
        if (before)
            if (auto st = before(); !st)
                return st.error();
        if (auto lead = readAll(reader, blocks.first(leadIn), stop); !lead)
            return lead.error();
        const auto t0 = Clock::now();
        auto timed = readAll(reader, blocks.subspan(leadIn), stop);
        const double seconds = secondsBetween(t0, Clock::now());
        if (!timed)
            return timed.error();
        if (seconds > 0)
            best = std::max(best, static_cast<double>(*timed) / seconds / 1e9);
        if (seconds > 1)
            break;
    }
    return best;
}

// Before a buffered pass: the blocks out of the page cache, verified (at most 1% left).
Status evictBlocks(const FileProbe& f, RangeReader& reader, std::span<const Range> blocks) {
    reader.letGoOfFile();
    Residency r;
    {
        UniqueFd fd(platform::openForReading(f.path));
        if (!fd.valid())
            return Error{fmt::format("cannot open '{}'", f.path)};
        for (int attempt = 0; attempt < kEvictionAttempts; ++attempt) {
            if (attempt > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
            if (auto st = evictFile(fd.get(), f.path); !st)
                return st;
            r = measureRangeResidency(fd.get(), f.size, blocks, f.residencyVerifiable,
                                      f.residencyReason);
            if (!r.fraction || *r.fraction <= kColdEnough)
                break;
        }
    }
    if (auto st = reader.takeBackFile(); !st)
        return st;
    if (!r.fraction)
        return Error{"whether the file left the page cache cannot be told (" + r.method + ")"};
    if (*r.fraction > kColdEnough)
        return Error{
            fmt::format("the file stayed {:.0f}% cached after eviction", *r.fraction * 100)};
    return okStatus();
}

struct Way {
    std::string name;            // in DeviceLimit::skipped
    std::string fastest;         // in DeviceLimit::fastest
    std::optional<double>* gbps; // where its figure goes
};

Result<DeviceLimit> measure(const FileProbe& f, std::stop_token stop) {
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
    limit.queueDepth = kDeviceQueueDepth;
    std::vector<std::string> skipped;
    auto run = [&](const Way& way, Result<std::unique_ptr<RangeReader>> reader,
                   const std::function<Status(RangeReader&)>& before = {}) -> Status {
        Result<double> gbps = Error{};
        if (reader) {
            std::function<Status()> eachPass;
            if (before)
                eachPass = [&] { return before(**reader); };
            gbps = fasterPass(**reader, blocks, stop, eachPass);
        } else {
            gbps = reader.error();
        }
        if (stop.stop_requested())
            return Error{"stopped before the device limit was measured"};
        if (!gbps || *gbps <= 0) {
            skipped.push_back(fmt::format(
                "{}: {}", way.name, gbps ? std::string("no time measured") : gbps.error().message));
            return okStatus();
        }
        *way.gbps = *gbps;
        if (*gbps > limit.gbps) {
            limit.gbps = *gbps;
            limit.fastest = way.fastest;
        }
        return okStatus();
    };
    const std::string blockWords = fmt::format("{} MiB reads", kDeviceBlock >> 20);
    if (auto st = run({"direct", "direct " + blockWords + ", one at a time", &limit.directGbps},
                      openWay(f, Access::Direct));
        !st)
        return st.error();
    if (auto st =
            run({"direct queued",
                 fmt::format("direct {}, {} in flight (io_uring)", blockWords, kDeviceQueueDepth),
                 &limit.directQueuedGbps},
                openDirectUringReader(f, kDeviceQueueDepth));
        !st)
        return st.error();
    Result<std::unique_ptr<RangeReader>> buffered =
        f.residencyVerifiable ? openWay(f, Access::Pread)
                              : Result<std::unique_ptr<RangeReader>>(Error{
                                    "eviction cannot be verified here: " + f.residencyReason});
    if (auto st = run(
            {"buffered", "buffered " + blockWords + " right after eviction", &limit.bufferedGbps},
            std::move(buffered), [&](RangeReader& r) { return evictBlocks(f, r, blocks); });
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
    {
        std::lock_guard lock(gMutex);
        for (const auto& m : gMeasured)
            if (m.sameFile(file))
                return m.limit;
    }
    auto limit = measure(file, stop);
    if (limit) {
        std::lock_guard lock(gMutex);
        gMeasured.push_back({file.path, file.inode, file.size, file.mtimeNs, *limit});
    }
    return limit;
}

} // namespace readscope
