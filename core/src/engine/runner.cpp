#include "readscope/runner.h"

#include "clock.h"
#include "device_limit.h"
#include "eviction.h"
#include "machine_limits.h"
#include "platform.h"
#include "readscope/generator.h"
#include "readscope/probe.h"
#include "readscope/ranges.h"
#include "readscope/residency.h"
#include "readscope/stats.h"
#include "readscope/strategy.h"
#include "readscope/units.h"
#include "round.h"
#include "unique_fd.h"
#include "whole_file_copies.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <thread>

namespace readscope {

namespace {

// Every consumed value lands here, so no compiler can prove a read's result unused.
std::atomic<std::uint64_t> gConsumedSink{0};

constexpr double kWarmThreshold = 0.99;
constexpr int kMinRoundsBeforeCap = 3;

// --consume all's fold alone, on a cache-warm buffer of the cell's range size (at most 64 MiB:
// past that the speed is memory's), repeated for about 20 ms: the median GB/s. Untimed for
// the sweep, a few tens of ms per range size.
double measureFoldGbps(std::uint64_t rangeBytes) {
    const std::size_t n = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::max<std::uint64_t>(rangeBytes, 1), 64ull << 20));
    std::vector<std::byte> buffer(n, std::byte{1});
    std::vector<double> rates;
    std::uint64_t value = foldBytes(buffer); // warms the buffer into the caches it fits
    // Each sample folds the buffer often enough to cover 256 KiB: a 16 KiB fold takes about
    // 300 ns, and one clock read about 100 ns on this VM.
    const std::size_t batch = std::max<std::size_t>(1, (256u << 10) / n);
    const auto start = Clock::now();
    while (rates.size() < 3 ||
           (secondsBetween(start, Clock::now()) < 0.02 && rates.size() < 1000)) {
        const auto t0 = Clock::now();
        for (std::size_t k = 0; k < batch; ++k)
            value ^= foldBytes(buffer);
        rates.push_back(gigabytesPerSecond(n * batch, secondsBetween(t0, Clock::now())));
    }
    gConsumedSink.fetch_xor(value, std::memory_order_relaxed);
    return median(rates);
}

struct Lane {
    const StrategyInfo* info = nullptr;
    std::string unavailable; // reason; empty when it runs
    std::vector<std::unique_ptr<RangeReader>> readers;
};

class PlanRun {
public:
    PlanRun(const Plan& plan, const FileProbe& file, RunSink& sink, std::stop_token stop,
            const std::vector<SweepPoint>* only, const ResultDocument* resumeFrom)
        : plan_(plan), file_(file), sink_(sink), stop_(stop), only_(only), resumeFrom_(resumeFrom) {
    }

    Result<ResultDocument> run() {
        doc_.plan = plan_;
        doc_.fileSize = file_.size;
        doc_.system = collectSystemInfo(file_.filesystem);
        control_ = UniqueFd(platform::openForReading(file_.path));
        if (!control_.valid())
            return Error{
                fmt::format("cannot open '{}' for reading: {}", file_.path, std::strerror(errno))};
        doc_.fileGenerated = looksGenerated();
        if (const double seek = lseekSeconds(control_.get(), file_.size); seek > 0)
            doc_.lseekSeconds = seek;
        if (wholeFileSweep(plan_)) {
            // The copies are read from the target through a descriptor of their own: control_
            // follows the file each point reads.
            target_ = std::move(control_);
            auto copies = WholeFileCopies::make(file_, target_.get());
            if (!copies)
                return copies.error();
            copies_.emplace(std::move(*copies));
            doc_.copiesFolder = copies_->folder();
        }
        points_ = sweepPoints(plan_, file_.size);
        if (only_)
            std::erase_if(points_, [this](const SweepPoint& p) {
                return std::find(only_->begin(), only_->end(), p) == only_->end();
            });
        if (points_.empty())
            return Error{"none of the points asked for is in the plan"};
        if (plan_.cache != CacheMode::Warm)
            measureDeviceLimit();
        openLanes();
        sink_.onStarted(doc_);
        for (const auto& lane : lanes_)
            if (!lane.unavailable.empty())
                sink_.onWarning(
                    fmt::format("{} is unavailable: {}", lane.info->id, lane.unavailable));
        if (const auto skipped = skippedFileSizes(plan_, file_.size); !skipped.empty()) {
            doc_.note = skippedSizesWarning(skipped); // kept with the figures, not only said
            sink_.onWarning(doc_.note);
        }
        if (!file_.residencyVerifiable && !file_.residencyByNowait)
            sink_.onWarning(
                fmt::format("page-cache residency cannot be verified: {}", file_.residencyReason));
        if (const auto why = platform::faultsUncountedReason(); !why.empty()) {
            sink_.onWarning(why);
            doc_.note = why;
        }
        const auto active = std::count_if(lanes_.begin(), lanes_.end(),
                                          [](const Lane& l) { return l.unavailable.empty(); });
        progress_.total = points_.size() * static_cast<std::uint64_t>(active) *
                          static_cast<std::uint64_t>(1 + plan_.warmup + plan_.rounds);
        started_ = Clock::now();
        if (plan_.cache == CacheMode::Warm && !copies_) {
            report("warming the page cache", "", {});
            if (auto st = warmFile(control_.get(), file_.size, file_.path, stop_); !st)
                return st.error();
        }
        if (copies_) {
            for (const auto& point : points_) {
                if (stop_.stop_requested())
                    break;
                runWholeFilePoint(point);
            }
        } else {
            runInterleaved();
        }
        doc_.complete = !stop_.stop_requested();
        if (!doc_.complete)
            doc_.note =
                doc_.note.empty()
                    ? "stopped before every cell finished; finished cells are kept"
                    : "stopped before every cell finished; finished cells are kept; " + doc_.note;
        return std::move(doc_);
    }

private:
    void openLanes() {
        std::uint64_t maxRange = 0;
        int workers = 1;
        for (const auto& p : points_) {
            maxRange = std::max(maxRange, p.rangeBytes);
            workers = std::max(workers, threadsAt(plan_, p));
        }
        for (const auto& id : plan_.strategies) {
            Lane lane;
            lane.info = findStrategy(id);
            const auto a = availability(*lane.info, file_);
            if (!a.available)
                lane.unavailable = a.reason;
            else if (plan_.cache == CacheMode::Direct && lane.info->access != Access::Direct)
                lane.unavailable = "cache mode 'direct' runs direct-I/O strategies only";
            else if (copies_)
                lane.unavailable = wholeFileReadExclusion(*lane.info);
            else if (sweepAxis(plan_) == SweepAxis::BufferOffset)
                lane.unavailable = offsetSweepExclusion(*lane.info);
            else if (sweepAxis(plan_) == SweepAxis::QueueDepth)
                lane.unavailable = queueDepthSweepExclusion(lane.info->id);
            // Enough readers for the point with the most threads; a point uses its first N.
            for (int w = 0; lane.unavailable.empty() && w < workers; ++w) {
                auto reader = openReader(*lane.info, file_, maxRange);
                if (!reader)
                    lane.unavailable = reader.error().message;
                else
                    lane.readers.push_back(std::move(reader.value()));
            }
            if (!lane.unavailable.empty())
                lane.readers.clear();
            lanes_.push_back(std::move(lane));
        }
    }

    // Whether the target's first 64 KiB are readscope-cli generate's bytes (untimed, before
    // any eviction or warming).
    bool looksGenerated() const {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(file_.size, 64 << 10));
        std::vector<std::byte> have(n), want(n);
        if (platform::readAt(control_.get(), have.data(), n, 0) != static_cast<std::int64_t>(n))
            return false;
        generatedBytes(0, want);
        return have == want;
    }

    // Why a strategy has nothing to show on a buffer-offset sweep (empty: it has).
    static std::string offsetSweepExclusion(const StrategyInfo& s) {
        if (s.access == Access::MapInPlace)
            return "it reads the mapping in place: there is no destination buffer to place";
        if (s.access == Access::Direct)
            return "direct I/O keeps its buffer at the device's alignment: the buffer offset "
                   "does not apply";
        return {};
    }

    // "file sizes 512 MiB, 1 GiB are larger than 'f' (256 MiB): skipped ..."
    std::string skippedSizesWarning(const std::vector<std::uint64_t>& skipped) const {
        std::string list;
        for (auto size : skipped)
            list += (list.empty() ? "" : ", ") + formatSize(size);
        return fmt::format("file size{} {} {} larger than '{}' ({}): skipped, since each size's "
                           "file is a copy of its first bytes",
                           skipped.size() > 1 ? "s" : "", list, skipped.size() > 1 ? "are" : "is",
                           file_.path, formatSize(file_.size));
    }

    // A whole-file sweep's point: its copy made (untimed), the readers and the control
    // descriptor on it, every read opening the file. Cells whose readers cannot open it fail.
    Status useCopy(std::uint64_t size, std::vector<Cell>& cells, const SweepPoint& point) {
        report("copying", "", point);
        auto path = copies_->copy(size, stop_);
        if (!path)
            return path.error();
        auto probe = probeFile(*path);
        if (!probe)
            return probe.error();
        copyProbe_ = std::move(*probe);
        reading_ = &copyProbe_;
        control_ = UniqueFd(platform::openForReading(copyProbe_.path));
        if (!control_.valid())
            return Error{fmt::format("cannot open the whole-file copy '{}': {}", copyProbe_.path,
                                     std::strerror(errno))};
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            auto& lane = lanes_[i];
            if (!lane.unavailable.empty())
                continue;
            lane.readers.clear();
            if (const auto a = availability(*lane.info, copyProbe_); !a.available) {
                cells[i].status = CellStatus::Unavailable; // where the copies are (tmpfs ...)
                cells[i].message = a.reason;
                continue;
            }
            for (int w = 0; w < threads_; ++w) {
                auto reader = openReader(*lane.info, copyProbe_, size);
                if (!reader) {
                    lane.readers.clear();
                    fail(cells[i], reader.error().message);
                    break;
                }
                (*reader)->openEachRead(true);
                lane.readers.push_back(std::move(*reader));
            }
        }
        if (plan_.cache == CacheMode::Warm)
            return warmFile(control_.get(), copyProbe_.size, copyProbe_.path, stop_);
        return okStatus();
    }

    // After a whole-file sweep's point: nothing open on its copy, and the copy gone.
    void dropCopy() {
        for (auto& lane : lanes_)
            lane.readers.clear();
        control_.reset();
        reading_ = &file_;
        copies_->removeCopies();
    }

    // Where a cell's copies were, when not beside the target or not on its filesystem (the
    // one the document's system line names); empty otherwise.
    std::string copiesElsewhereNote() const {
        if (!copies_)
            return {};
        if (!copies_->elsewhereBecause().empty())
            return fmt::format("read from copies on {} in '{}', since {}", copyProbe_.filesystem,
                               copies_->folder(), copies_->elsewhereBecause());
        if (copyProbe_.filesystem != file_.filesystem)
            return fmt::format("read from copies on {} in '{}', not on the target's {}",
                               copyProbe_.filesystem, copies_->folder(), file_.filesystem);
        return {};
    }

    // Cold and direct runs: the device limit, before the header goes out, so that the chart
    // has it from the first cell on. Without one the run goes on, and says why.
    void measureDeviceLimit() {
        if (copies_ && !copies_->elsewhereBecause().empty()) {
            doc_.deviceLimitMissing = "the whole-file sweep reads copies in another folder (" +
                                      copies_->elsewhereBecause() +
                                      "), maybe on another device than the one measured";
            sink_.onWarning("no device limit: " + doc_.deviceLimitMissing);
            return;
        }
        started_ = Clock::now();
        report("measuring the device limit (untimed)", "", {});
        auto limit = deviceLimitFor(file_, stop_);
        if (limit) {
            doc_.deviceLimit = std::move(*limit);
        } else if (!stop_.stop_requested()) {
            doc_.deviceLimitMissing = limit.error().message;
            sink_.onWarning("no device limit: " + doc_.deviceLimitMissing);
        }
    }

    void report(std::string phase, std::string strategy, const SweepPoint& point) {
        progress_.phase = std::move(phase);
        progress_.strategy = std::move(strategy);
        progress_.rangeBytes = point.rangeBytes;
        progress_.bufferOffset = point.bufferOffset;
        progress_.threads = point.threads;
        progress_.queueDepth = point.queueDepth;
        progress_.elapsedSeconds = secondsBetween(started_, Clock::now());
        progress_.etaSeconds =
            progress_.step ? progress_.elapsedSeconds / static_cast<double>(progress_.step) *
                                 static_cast<double>(progress_.total - progress_.step)
                           : -1;
        sink_.onProgress(progress_);
    }

    void step(const std::string& phase, const Lane& lane, const SweepPoint& point) {
        ++progress_.step;
        report(phase, std::string(lane.info->id), point);
    }

    void fail(Cell& cell, std::string message) {
        cell.status = CellStatus::Failed;
        cell.message = std::move(message);
        sink_.onWarning(fmt::format("{} at {} failed: {}", cell.strategy, pointText(cell.point()),
                                    cell.message));
    }

    bool usable(const Lane& lane, const Cell& cell) const {
        return lane.unavailable.empty() && cell.status != CellStatus::Failed &&
               cell.status != CellStatus::Unavailable;
    }

    Residency residency(std::span<const Range> ranges) const {
        return rangeResidency(control_.get(), *reading_, ranges);
    }

    // Cold and direct rounds start from an evicted file: a direct round reads nothing cached
    // where O_DIRECT bypasses the cache (the verification's buffered reference pass left the
    // file resident), and where a file system honours O_DIRECT only as a hint it would serve
    // cached pages under the name of direct reads.
    Residency prepareCache(std::span<const Range> ranges) {
        if (plan_.cache == CacheMode::Warm)
            return residency(ranges);
        // Whatever keeps the file's pages cached lets go of them first (kept mappings; on
        // Windows every cached handle), and takes them back after: untimed.
        for (auto& lane : lanes_)
            for (auto& reader : lane.readers)
                reader->letGoOfFile();
        if constexpr (platform::kEvictionNeedsHandlesClosed)
            control_.reset();
        const Residency r =
            evictUntilCold(control_.get(), *reading_, ranges, plan_.dropCachesAsRoot,
                           [this](const std::string& m) { sink_.onWarning(m); });
        if (!control_.valid())
            control_ = UniqueFd(platform::openForReading(reading_->path));
        for (auto& lane : lanes_)
            for (auto& reader : lane.readers)
                if (auto st = reader->takeBackFile(); !st)
                    sink_.onWarning(st.error().message);
        return r;
    }

    void verify(Lane& lane, Cell& cell, const std::vector<Range>& ranges,
                const Result<std::uint64_t>& reference) {
        if (!reference) {
            fail(cell, reference.error().message);
            return;
        }
        auto& reader = *lane.readers[0];
        if (auto st = reader.prepare(cell.rangeBytes); !st) {
            fail(cell, st.error().message);
            return;
        }
        auto outcome = reader.read(ranges, ConsumeMode::Verify, false, stop_);
        reader.release();
        if (!outcome)
            fail(cell, outcome.error().message);
        else if (!outcome->stopped && outcome->value != *reference) {
            cell.checksum = "mismatch";
            fail(cell, fmt::format("checksum mismatch: {} returned bytes that differ from the "
                                   "file's",
                                   cell.strategy));
        } else {
            cell.checksum = "verified";
        }
    }

    ConsumeMode consumeMode() const {
        return plan_.consume == Consume::All ? ConsumeMode::All : ConsumeMode::Touch;
    }

    // The fewest ranges a time-sized round reads. io_uring fills and drains its queue once
    // per round: at least 8 queues' worth, or the ramp would be the figure (74 ranges measured
    // 29% below a full budget here). A whole-file sweep's read opens, reads and closes a file:
    // one of 32 MiB is long enough to time by itself, so its floor is one read.
    std::size_t roundFloor(const Lane& lane, const Cell& cell) const {
        if (copies_)
            return 1;
        if (lane.info->access == Access::UringBatch)
            return std::max<std::size_t>(
                minRangesPerRound(cell.rangeBytes),
                std::size_t(8) * std::size_t(threads_) *
                    effectiveQueueDepth(queueDepthAt(plan_, cell.point()), cell.rangeBytes));
        if (lane.info->access == Access::Coalesce) // whole batches, one per worker at least
            return std::max(minRangesPerRound(cell.rangeBytes),
                            coalesceBatchRanges(cell.rangeBytes) * std::size_t(threads_));
        return minRangesPerRound(cell.rangeBytes);
    }

    // After the warm-up, before any measured round: a strategy whose last warm-up round took
    // more than twice the round time among its neighbours (a kept mapping read 10-20x slower
    // once other strategies had unmapped memory, on the development VM) reads the shorter
    // prefix that fits the round time. Only ever shorter, so still a verified prefix.
    void refitToWarmup(std::size_t i, double seconds, std::vector<std::size_t>& counts,
                       std::vector<Cell>& cells, std::span<const Range> ranges,
                       std::vector<std::vector<std::vector<Range>>>& parts) const {
        const double target = plan_.roundTimeSeconds;
        if (target <= 0 || seconds <= 2 * target)
            return;
        const std::size_t floor = roundFloor(lanes_[i], cells[i]);
        const auto fit = static_cast<std::size_t>(double(counts[i]) * target / seconds);
        const std::size_t count = std::clamp(fit, std::min(floor, counts[i]), counts[i]);
        if (count != counts[i])
            readPrefix(i, count, counts, cells, ranges, parts);
    }

    // Lane i's rounds read the first `count` ranges, split among the run's workers. A
    // coalescing strategy's share per worker is whole batches (what merges depends on how many
    // ranges a batch holds), unless the cell has fewer ranges than that.
    void readPrefix(std::size_t i, std::size_t count, std::vector<std::size_t>& counts,
                    std::vector<Cell>& cells, std::span<const Range> ranges,
                    std::vector<std::vector<std::vector<Range>>>& parts) const {
        const std::size_t whole = coalesceBatchRanges(cells[i].rangeBytes) * std::size_t(threads_);
        if (lanes_[i].info->access == Access::Coalesce && count > whole)
            count -= count % whole;
        counts[i] = count;
        cells[i].rangesPerRound = count;
        const auto prefix = ranges.first(count);
        parts[i] = splitRanges({prefix.begin(), prefix.end()}, threads_);
    }

    // How many of the cell's ranges this strategy's rounds read: all of them (the budget), or
    // the prefix it reads in about the plan's round time, found by untimed calibration reads
    // of growing prefixes (cold ones evicted first, as its rounds will be). Fixed before the
    // warm-up: never adapted during the measured rounds. Returns 0 when stopped.
    std::size_t calibrate(Lane& lane, const Cell& cell, std::span<const Range> ranges) {
        const double target = plan_.roundTimeSeconds;
        const std::size_t all = ranges.size();
        const std::size_t floor = roundFloor(lane, cell);
        if (target <= 0 || all <= floor)
            return all;
        std::size_t count = floor;
        for (int attempt = 0; attempt < 12; ++attempt) {
            const auto prefix = ranges.first(count);
            if (plan_.cache == CacheMode::Cold)
                prepareCache(prefix);
            const auto parts = splitRanges({prefix.begin(), prefix.end()}, threads_);
            auto result = runRound(lane.readers, parts, consumeMode(), cell.rangeBytes, stop_);
            if (!result)
                return all; // its rounds will fail the same way, and say why
            if (result->stopped)
                return 0;
            const double seconds = result->sample.seconds;
            if (count == all)
                return all;
            if (seconds >= target / 2) {
                // The growing reads paid first-touch costs (a kept mapping's faults, heap
                // growth) on their new ranges: fit from a second, warm read of this prefix.
                auto again = runRound(lane.readers, parts, consumeMode(), cell.rangeBytes, stop_);
                if (!again)
                    return all;
                if (again->stopped)
                    return 0;
                const double warm = again->sample.seconds > 0 ? again->sample.seconds : seconds;
                const double fit = double(count) * target / warm;
                return std::clamp<std::size_t>(static_cast<std::size_t>(fit), floor, all);
            }
            const double grow = seconds > 0 ? std::min(16.0, target / seconds) : 16.0;
            count =
                std::min(all, std::max(count * 2, static_cast<std::size_t>(double(count) * grow)));
        }
        return count;
    }

    // What one round of one strategy came to: the run goes on after a measured or a failed
    // round (the cell says why it failed), and ends after a stopped one.
    enum class RoundEnd { Measured, Failed, Stopped };

    RoundEnd measure(Lane& lane, Cell& cell, std::span<const Range> ranges,
                     const std::vector<std::vector<Range>>& parts, int round, int position,
                     bool record, double& seconds) {
        Residency residency = prepareCache(ranges);
        auto result = runRound(lane.readers, parts, consumeMode(), cell.rangeBytes, stop_);
        if (!result) {
            fail(cell, result.error().message);
            return RoundEnd::Failed;
        }
        gConsumedSink.fetch_xor(result->value, std::memory_order_relaxed);
        if (result->stopped)
            return RoundEnd::Stopped;
        seconds = result->sample.seconds;
        if (record) {
            result->sample.round = round;
            result->sample.position = position;
            result->sample.residentBefore = residency.fraction;
            cell.residencyMethod = residency.method;
            cell.samples.push_back(result->sample);
            mergeOffsetCounts(cell.bufferPageOffsets, result->bufferOffsets);
            if (result->queueDepth)
                cell.queueDepth = std::max(cell.queueDepth.value_or(0), result->queueDepth);
        }
        return RoundEnd::Measured;
    }

    // One point of the sweep as the rounds go over it: its ranges, its cells (one per lane),
    // and each lane's prefix of the ranges split among the point's workers.
    struct PointRun {
        SweepPoint point;
        std::vector<Range> ranges;
        std::vector<Cell> cells;
        std::vector<std::size_t> counts;
        std::vector<std::vector<std::vector<Range>>> parts;
        int firstRound = 0; // recorded rounds a resumed cell brought: new ones number after
        int lastRound = 0;  // the highest round number recorded at this point so far
        int measured = 0;   // rounds recorded in this run
        bool ready = false; // calibrated and verified
    };

    PointRun makePoint(const SweepPoint& point) {
        PointRun run;
        run.point = point;
        const std::uint64_t size = point.rangeBytes;
        threads_ = threadsAt(plan_, point);
        const auto budget = effectiveBudget(plan_, file_.size);
        // A copy's reads are not bounded by the target's size: a 1 MiB copy of a 1 MiB target
        // is read as often a round as one of a 1 GiB target, up to the round time.
        run.ranges = copies_ ? wholeFileReads(size, plan_.budget ? plan_.budget : kDefaultBudget,
                                              plan_.cache == CacheMode::Cold)
                             : makeRanges(plan_.pattern, size, file_.size, budget, plan_.seed);
        run.cells.resize(lanes_.size());
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            Cell& cell = run.cells[i];
            cell.strategy = std::string(lanes_[i].info->id);
            cell.rangeBytes = size;
            cell.bufferOffset = point.bufferOffset;
            cell.pointThreads = point.threads;
            cell.pointQueueDepth = point.queueDepth;
            cell.rangesPerRound = run.ranges.size();
            cell.checksum = "not checked";
            if (!lanes_[i].unavailable.empty()) {
                cell.status = CellStatus::Unavailable;
                cell.message = lanes_[i].unavailable;
            }
            // A resumed run goes on from the rounds its recovery file kept.
            if (const Cell* before = resumed(cell); before && cell.status == CellStatus::Ok) {
                cell.samples = before->samples;
                for (const auto& sample : cell.samples)
                    run.firstRound = std::max(run.firstRound, sample.round);
                run.lastRound = run.firstRound;
            }
        }
        run.counts.assign(lanes_.size(), run.ranges.size());
        run.parts.resize(lanes_.size());
        return run;
    }

    // The cell a resumed run's recovery file kept for this strategy and point, if any.
    const Cell* resumed(const Cell& cell) const {
        return resumeFrom_ ? resumeFrom_->find(cell.strategy, cell.point()) : nullptr;
    }

    // The readers as this point reads: its threads, buffer offset and queue depth.
    void usePoint(const SweepPoint& point) {
        threads_ = threadsAt(plan_, point);
        const std::uint32_t largestOffset =
            plan_.bufferOffsets.empty()
                ? 0
                : *std::max_element(plan_.bufferOffsets.begin(), plan_.bufferOffsets.end());
        const auto depth = queueDepthAt(plan_, point);
        for (auto& lane : lanes_)
            for (auto& reader : lane.readers) {
                reader->placeBuffers(point.bufferOffset, largestOffset);
                reader->useQueueDepth(depth);
            }
    }

    // A whole-file sweep's point, start to end on its own copy (each point reads a file of its
    // own, made for it and removed after it).
    void runWholeFilePoint(const SweepPoint& point) {
        PointRun run = makePoint(point);
        // A whole-file sweep's point reads its own copy, dropped however the point ends.
        struct DropCopy {
            PlanRun* run;
            ~DropCopy() { run->dropCopy(); }
        } drop{this};
        if (auto st = useCopy(point.rangeBytes, run.cells, point); !st) {
            if (stop_.stop_requested())
                return;
            for (std::size_t i = 0; i < run.cells.size(); ++i)
                if (usable(lanes_[i], run.cells[i]))
                    fail(run.cells[i], st.error().message);
        }
        if (!setUpPoint(run))
            return;
        const auto start = Clock::now();
        for (int r = 0; r < plan_.warmup + plan_.rounds; ++r) {
            if (r >= plan_.warmup && timeCapped(run.measured, start, 1))
                break;
            if (measureRound(run, r) == RoundEnd::Stopped)
                return; // a stopped point is dropped whole: its cells are incomplete
        }
        finishPoint(run);
    }

    // Every point set up first (untimed), then round by round over all of them: each round
    // visits the points in a seeded order of its own, and within a point the strategies
    // interleave as before, so a cell's rounds are spread over the whole run and its interval
    // sees the drift a later run will meet. Each round's samples reach the sink as they come.
    void runInterleaved() {
        std::vector<PointRun> runs;
        runs.reserve(points_.size());
        for (const auto& point : points_) {
            runs.push_back(makePoint(point));
            if (!setUpPoint(runs.back()))
                return keepWhatWasMeasured(runs);
        }
        const auto start = Clock::now();
        std::mt19937_64 order(plan_.seed ^ 0x5EED0F5EED0F5EEDull);
        std::vector<std::size_t> visit(runs.size());
        std::iota(visit.begin(), visit.end(), std::size_t{0});
        int measured = 0;
        for (int r = 0; r < plan_.warmup + plan_.rounds; ++r) {
            if (r >= plan_.warmup && timeCapped(measured, start, runs.size()))
                break;
            std::shuffle(visit.begin(), visit.end(), order);
            for (const std::size_t k : visit)
                if (measureRound(runs[k], r) == RoundEnd::Stopped)
                    return keepWhatWasMeasured(runs);
            measured += r >= plan_.warmup ? 1 : 0;
        }
        if (plan_.precision > 0 && refineToPrecision(runs, order, visit) == RoundEnd::Stopped)
            return keepWhatWasMeasured(runs);
        for (auto& run : runs)
            finishPoint(run);
    }

    // Whether a cell's median is as sure as --precision asks (its interval within that
    // fraction of it, and enough rounds for the interval to say).
    bool precise(const Cell& cell) const { return meetsPrecision(cell, plan_.precision); }

    // --precision: more interleaved rounds, each visiting the points (in a seeded order) that
    // still have a cell wider than asked, and in them only those cells, until none is left or
    // the run has taken its maximum time.
    RoundEnd refineToPrecision(std::vector<PointRun>& runs, std::mt19937_64& order,
                               std::vector<std::size_t>& visit) {
        const double limit =
            plan_.maxTimeSeconds > 0 ? plan_.maxTimeSeconds : kDefaultMaxTimeSeconds;
        for (int extra = 1; secondsBetween(started_, Clock::now()) < limit; ++extra) {
            bool any = false;
            std::shuffle(visit.begin(), visit.end(), order);
            for (const std::size_t k : visit) {
                std::vector<bool> wide(lanes_.size(), false);
                for (std::size_t i = 0; i < lanes_.size(); ++i)
                    wide[i] = usable(lanes_[i], runs[k].cells[i]) &&
                              !runs[k].cells[i].samples.empty() && !precise(runs[k].cells[i]);
                if (std::none_of(wide.begin(), wide.end(), [](bool w) { return w; }))
                    continue;
                any = true;
                if (measureRound(runs[k], plan_.warmup + plan_.rounds - 1 + extra, &wide) ==
                    RoundEnd::Stopped)
                    return RoundEnd::Stopped;
                if (secondsBetween(started_, Clock::now()) >= limit)
                    break;
            }
            if (!any)
                break;
        }
        return RoundEnd::Measured;
    }

    // The time cap: no new round once the run has spent timeCapSeconds per point, and at
    // least kMinRoundsBeforeCap rounds were recorded.
    bool timeCapped(int measured, Clock::time_point start, std::size_t points) const {
        return measured >= kMinRoundsBeforeCap &&
               secondsBetween(start, Clock::now()) > plan_.timeCapSeconds * double(points);
    }

    // A stopped run keeps the rounds it recorded: each cell with at least one is finished as
    // it stands and says after how many of its rounds the run stopped; cells without one are
    // left out, to be measured by a resumed run.
    void keepWhatWasMeasured(std::vector<PointRun>& runs) {
        for (auto& run : runs)
            if (run.ready)
                finishPoint(run, /*stopped=*/true);
    }

    // Before its rounds, untimed: the point's limits, then each strategy's prefix of the
    // ranges (calibrated to the round time, or the one a resumed cell used) verified against
    // the file's own bytes. False when stopped.
    bool setUpPoint(PointRun& run) {
        const SweepPoint& point = run.point;
        const std::uint64_t size = point.rangeBytes;
        auto& cells = run.cells;
        usePoint(point);
        if (plan_.cache == CacheMode::Warm && !copies_) {
            if (!copyLimit_)
                copyLimit_.emplace(effectiveBudget(plan_, file_.size));
            const double limit = copyLimit_->gbps(size, threads_, point.bufferOffset);
            for (std::size_t i = 0; i < lanes_.size(); ++i)
                if (lanes_[i].unavailable.empty() && limit > 0)
                    cells[i].copyLimitGbps = limit;
        }
        if (plan_.consume == Consume::All) {
            const double fold = measureFoldGbps(size);
            for (std::size_t i = 0; i < lanes_.size(); ++i)
                if (lanes_[i].unavailable.empty())
                    cells[i].foldGbps = fold;
        }
        // Each strategy reads a prefix of the cell's one sequence (the same offsets, the same
        // seeded draws), as long as it reads in the round time; verified over that prefix.
        // One plain pass over the longest prefix any strategy reads, extended when needed.
        std::vector<std::uint64_t> rangeSums;
        std::optional<Error> referenceError;
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            if (!usable(lanes_[i], cells[i]))
                continue;
            report("calibrate", cells[i].strategy, point);
            const Cell* before = resumed(cells[i]);
            const std::size_t count =
                before && before->rangesPerRound > 0 && before->rangesPerRound <= run.ranges.size()
                    ? before->rangesPerRound // the prefix its recovered rounds read
                    : calibrate(lanes_[i], cells[i], run.ranges);
            if (count == 0 || stop_.stop_requested())
                return false;
            readPrefix(i, count, run.counts, cells, run.ranges, run.parts);
            const std::span<const Range> prefix = std::span(run.ranges).first(run.counts[i]);
            if (!referenceError && rangeSums.size() < run.counts[i]) {
                auto more = referenceRangeChecksums(*reading_, prefix.subspan(rangeSums.size()));
                if (more)
                    rangeSums.insert(rangeSums.end(), more->begin(), more->end());
                else
                    referenceError = more.error();
            }
            const Result<std::uint64_t> reference =
                referenceError ? Result<std::uint64_t>(*referenceError)
                               : Result<std::uint64_t>(combinePrefix(rangeSums, run.counts[i]));
            verify(lanes_[i], cells[i], {prefix.begin(), prefix.end()}, reference);
            if (stop_.stop_requested())
                return false;
            step("verify", lanes_[i], point);
        }
        run.ready = true;
        return true;
    }

    // Round r of one point: every strategy once, each round starting one strategy later than
    // the last (A B C, B C A, C A B ...), so no strategy always follows the same neighbour (its
    // malloc state, CPU frequency, LRU position); each sample records where in its round it
    // ran. A resumed cell that already has its rounds sits the rest out.
    // With `only` (--precision's extra rounds, r past the planned ones): just those lanes.
    RoundEnd measureRound(PointRun& run, int r, const std::vector<bool>* only = nullptr) {
        const bool record = r >= plan_.warmup;
        // Rounds past the planned ones take the point's next number, the same for every cell
        // they measure: rounds are paired by number, which must mean the same moment.
        const int round = only ? run.lastRound + 1 : run.firstRound + r - plan_.warmup + 1;
        const auto phase = only ? fmt::format("refining to ±{}%: round {}", plan_.precision * 100,
                                              r - plan_.warmup + 1)
                           : record ? fmt::format("round {}/{}", r - plan_.warmup + 1, plan_.rounds)
                                    : fmt::format("warm-up {}/{}", r + 1, plan_.warmup);
        usePoint(run.point);
        auto& cells = run.cells;
        // Where the run is now (the steps report where it was): rounds hop between points.
        report(phase, {}, run.point);
        int position = 0;
        bool numbered = false; // a cell recorded a sample under this round's number
        for (std::size_t k = 0; k < lanes_.size(); ++k) {
            const std::size_t i = (k + static_cast<std::size_t>(r)) % lanes_.size();
            if (!usable(lanes_[i], cells[i]) || (only && !(*only)[i]))
                continue;
            if (!only && record && cells[i].samples.size() >= std::size_t(plan_.rounds)) {
                step(phase, lanes_[i], run.point);
                continue;
            }
            double seconds = 0;
            const RoundEnd end =
                measure(lanes_[i], cells[i], std::span(run.ranges).first(run.counts[i]),
                        run.parts[i], round, position++, record, seconds);
            numbered |= record && end == RoundEnd::Measured;
            if (end == RoundEnd::Stopped || stop_.stop_requested())
                return RoundEnd::Stopped;
            if (end == RoundEnd::Measured && r == plan_.warmup - 1)
                refitToWarmup(i, seconds, run.counts, cells, run.ranges, run.parts);
            if (only)
                report(phase, cells[i].strategy, run.point); // past the planned steps
            else
                step(phase, lanes_[i], run.point);
        }
        if (record) {
            ++run.measured;
            if (numbered)
                run.lastRound = std::max(run.lastRound, round);
            raiseCopyLimit(run);
            for (std::size_t i = 0; i < cells.size(); ++i) {
                const Cell& cell = cells[i];
                if (only && !(*only)[i])
                    continue; // not measured in this round: nothing new to show
                if (cell.measured() && !cell.samples.empty()) {
                    Cell partial = cell;
                    partial.summarize();
                    sink_.onRoundMeasured(partial);
                }
            }
        }
        return RoundEnd::Measured;
    }

    // Warm runs: one more memcpy pass after each of a point's rounds (untimed for the cells),
    // its limit the best pass so far: a ceiling measured once before the rounds lay under
    // every copying strategy when the machine was slow just then.
    void raiseCopyLimit(PointRun& run) {
        if (!copyLimit_ || plan_.cache != CacheMode::Warm || copies_)
            return;
        const double pass =
            copyLimit_->onePass(run.point.rangeBytes, threads_, run.point.bufferOffset);
        for (auto& cell : run.cells)
            if (cell.copyLimitGbps)
                cell.copyLimitGbps = std::max(*cell.copyLimitGbps, pass);
    }

    void finishPoint(PointRun& run, bool stopped = false) {
        const std::string change = fileChange();
        if (!change.empty() && !changeReported_) {
            changeReported_ = true;
            sink_.onWarning(fmt::format("'{}' changed during the run ({}): cells from {} on "
                                        "are flagged",
                                        file_.path, change, formatSize(run.point.rangeBytes)));
        }
        threads_ = threadsAt(plan_, run.point);
        for (auto& cell : run.cells) {
            const bool measuredSome = !cell.samples.empty();
            if (stopped && !measuredSome && cell.status == CellStatus::Ok)
                continue; // nothing of it was measured: a resumed run measures it
            finishCell(cell, int(cell.samples.size()), change, stopped);
        }
    }

    // What differs between the file now and the file the run started with.
    std::string fileChange() const {
        const auto now = platform::statPath(file_.path);
        if (!now)
            return fmt::format("it can no longer be found: {}", std::strerror(errno));
        if (now->id != file_.inode)
            return "it was replaced by another file";
        if (now->size != file_.size)
            return fmt::format("its size went from {} to {} bytes", file_.size, now->size);
        if (now->mtimeNs != file_.mtimeNs)
            return "its modification time changed";
        return {};
    }

    // "cache did not go cold: 3 of 15 rounds started 100.0% resident ..." when any measured
    // round began above the cold threshold; empty when every round was cold (or unverified).
    static std::string roundsNotCold(const Cell& cell) {
        int warm = 0;
        double worst = 0;
        for (const auto& s : cell.samples)
            if (s.residentBefore && *s.residentBefore > kColdThreshold) {
                ++warm;
                worst = std::max(worst, *s.residentBefore);
            }
        if (warm == 0)
            return {};
        return fmt::format("cache did not go cold: {} of {} rounds started with up to {:.1f}% of "
                           "the pages they read resident after eviction (threshold {:.0f}%): "
                           "these are not cold figures",
                           warm, cell.samples.size(), worst * 100, kColdThreshold * 100);
    }

    // The same for a warm run whose rounds found the pages they read not all cached.
    static std::string roundsNotWarm(const Cell& cell) {
        int cold = 0;
        double worst = 1;
        for (const auto& s : cell.samples)
            if (s.residentBefore && *s.residentBefore < kWarmThreshold) {
                ++cold;
                worst = std::min(worst, *s.residentBefore);
            }
        if (cold == 0)
            return {};
        return fmt::format("cache not warm: {} of {} rounds started with only {:.1f}% of the "
                           "pages they read resident (threshold {:.0f}%)",
                           cold, cell.samples.size(), worst * 100, kWarmThreshold * 100);
    }

    // "io_uring kept at most 8 reads in flight, not the 64 asked ..." when a chosen depth was
    // never reached (too few ranges per worker); empty otherwise.
    std::string shallowerThanAsked(const Cell& cell) const {
        const auto asked = queueDepthAt(plan_, cell.point());
        if (!asked || !cell.queueDepth || *cell.queueDepth >= *asked)
            return {};
        return fmt::format("io_uring kept at most {} reads in flight, not the {} asked: a round "
                           "had {} ranges for {} thread{}",
                           *cell.queueDepth, *asked, cell.rangesPerRound, threads_,
                           threads_ == 1 ? "" : "s");
    }

    void finishCell(Cell& cell, int measured, const std::string& change, bool stopped) {
        cell.summarize();
        std::vector<std::string> notes;
        if (!cell.message.empty())
            notes.push_back(cell.message);
        if (!change.empty())
            notes.push_back("file changed during the run: " + change);
        if (cell.status == CellStatus::Ok || cell.status == CellStatus::Noisy ||
            cell.status == CellStatus::TooFewRounds) {
            if (const auto elsewhere = copiesElsewhereNote(); !elsewhere.empty())
                notes.push_back(elsewhere);
            if (cell.bufferOffset && findStrategy(cell.strategy)->access == Access::Direct)
                notes.push_back(fmt::format("buffer offset {} does not apply to direct I/O: its "
                                            "buffer keeps the device's {}-byte alignment",
                                            *cell.bufferOffset, reading_->directAlign));
            if (const auto short_ = shallowerThanAsked(cell); !short_.empty())
                notes.push_back(short_);
            if (measured < plan_.rounds)
                notes.push_back(fmt::format("{}: {} of {} rounds",
                                            stopped ? "stopped" : "time cap reached", measured,
                                            plan_.rounds));
            if (plan_.precision > 0 && !copies_ && !precise(cell))
                notes.push_back(
                    fmt::format("precision ±{}% not met: ±{:.1f}% after {} rounds{}",
                                plan_.precision * 100, cell.summary.uncertainty() * 100, measured,
                                stopped ? "" : " (the run's maximum time was reached)"));
            if (plan_.cache == CacheMode::Cold)
                if (const auto warm = roundsNotCold(cell); !warm.empty()) {
                    cell.status = CellStatus::NotCold;
                    notes.push_back(warm);
                }
            if (plan_.cache == CacheMode::Warm)
                if (const auto cold = roundsNotWarm(cell); !cold.empty())
                    notes.push_back(cold);
        }
        // Said once for the run when the run starts; a warning per cell would bury the rest.
        // (Noise, too, is said once for the run: noiseSummary().)
        const bool worthWarning = !notes.empty();
        if (cell.measured() && !cell.residentBefore && plan_.cache != CacheMode::Direct)
            notes.push_back("residency unverified");
        cell.message.clear();
        for (std::size_t i = 0; i < notes.size(); ++i)
            cell.message += (i ? "; " : "") + notes[i];
        if (worthWarning && cell.measured())
            sink_.onWarning(
                fmt::format("{} at {}: {}", cell.strategy, pointText(cell.point()), cell.message));
        sink_.onCellFinished(cell);
        doc_.cells.push_back(cell);
    }

    const Plan& plan_;
    const FileProbe& file_;
    const FileProbe* reading_ = &file_; // the file the current point reads: target, or a copy
    RunSink& sink_;
    std::stop_token stop_;
    ResultDocument doc_;
    const std::vector<SweepPoint>* only_ = nullptr;
    // A resumed run: the cells its recovery file kept, whose rounds it goes on from.
    const ResultDocument* resumeFrom_ = nullptr;
    std::vector<SweepPoint> points_;
    // A whole-file sweep's copies (declared before what opens them, so destroyed after), and
    // the target's descriptor they are copied through.
    UniqueFd target_;
    std::optional<WholeFileCopies> copies_;
    FileProbe copyProbe_;
    UniqueFd control_;                   // the file being read: the target, or the current copy
    std::optional<CopyLimit> copyLimit_; // warm runs: memcpy's ceiling, its source made once
    std::vector<Lane> lanes_;
    int threads_ = 1; // the current point's workers (the first threads_ readers of a lane)
    Progress progress_;
    Clock::time_point started_;
    bool changeReported_ = false;
};

} // namespace

namespace {

// A cell of a later repeat added to the same cell of the earlier ones: its rounds numbered on
// after theirs and marked with their repeat, the summary over all of them. A repeat's notes
// (not cold, time cap) stay with the pooled cell, and a not-cold repeat makes it not cold.
void pool(Cell& into, const Cell& more, int repeat) {
    int last = 0;
    for (const auto& s : into.samples)
        last = std::max(last, s.round);
    for (Sample s : more.samples) {
        s.round += last;
        s.repeat = repeat;
        into.samples.push_back(s);
    }
    if (more.status == CellStatus::NotCold || more.status == CellStatus::Failed)
        into.status = more.status;
    if (!more.message.empty() && into.message.find(more.message) == std::string::npos)
        into.message += (into.message.empty() ? "" : "; ") +
                        fmt::format("repeat {}: {}", repeat + 1, more.message);
    into.summarize();
}

// Forwards one repeat's run to the run's sink: its progress says which repeat, and its cells
// arrive pooled with the earlier repeats' rounds, so the live chart and the recovery file see
// the whole run's cells.
class RepeatSink final : public RunSink {
public:
    RepeatSink(RunSink& inner, const ResultDocument& pooled, int repeat, int repeats)
        : inner_(inner), pooled_(pooled), repeat_(repeat), repeats_(repeats) {}
    void onStarted(const ResultDocument& header) override {
        if (repeat_ == 0)
            inner_.onStarted(header);
    }
    void onProgress(const Progress& p) override {
        Progress tagged = p;
        tagged.phase = fmt::format("repeat {}/{}: {}", repeat_ + 1, repeats_, p.phase);
        inner_.onProgress(tagged);
    }
    void onRoundMeasured(const Cell& c) override { inner_.onRoundMeasured(pooled(c)); }
    void onCellFinished(const Cell& c) override { inner_.onCellFinished(pooled(c)); }
    void onWarning(const std::string& m) override {
        inner_.onWarning(repeat_ == 0 ? m : fmt::format("repeat {}: {}", repeat_ + 1, m));
    }

private:
    Cell pooled(const Cell& c) const {
        const Cell* before = pooled_.find(c.strategy, c.point());
        if (!before)
            return c;
        Cell out = *before;
        pool(out, c, repeat_);
        return out;
    }
    RunSink& inner_;
    const ResultDocument& pooled_;
    int repeat_, repeats_;
};

} // namespace

Result<ResultDocument> runPlan(const Plan& plan, RunSink& sink, std::stop_token stop) {
    auto file = probeFile(plan.file);
    if (!file)
        return file.error();
    if (auto st = validatePlan(plan, *file); !st)
        return st.error();
    if (plan.repeats <= 1)
        return PlanRun(plan, *file, sink, stop, nullptr, nullptr).run();
    // An A/A pair (or more): the whole run again, from its own set-up, after the last.
    ResultDocument pooled;
    for (int k = 0; k < plan.repeats; ++k) {
        RepeatSink tagged(sink, pooled, k, plan.repeats);
        auto doc = PlanRun(plan, *file, tagged, stop, nullptr, nullptr).run();
        if (!doc)
            return doc.error();
        if (k == 0) {
            pooled = std::move(*doc);
        } else {
            for (const auto& cell : doc->cells) {
                auto into =
                    std::find_if(pooled.cells.begin(), pooled.cells.end(), [&](const Cell& c) {
                        return c.strategy == cell.strategy && c.point() == cell.point();
                    });
                if (into != pooled.cells.end())
                    pool(*into, cell, k);
                else
                    pooled.cells.push_back(cell);
            }
            pooled.complete = doc->complete;
        }
        if (!pooled.complete)
            break;
    }
    return pooled;
}

Result<ResultDocument> runPlanPoints(const Plan& plan, const std::vector<SweepPoint>& points,
                                     RunSink& sink, std::stop_token stop,
                                     const ResultDocument* recovered) {
    auto file = probeFile(plan.file);
    if (!file)
        return file.error();
    if (auto st = validatePlan(plan, *file); !st)
        return st.error();
    return PlanRun(plan, *file, sink, stop, &points, recovered).run();
}

} // namespace readscope
