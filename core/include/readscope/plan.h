#pragma once
#include "readscope/result.h"
#include "readscope/trace.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct FileProbe;

// Trace: a recorded program's reads (Plan::trace), replayed in their order.
enum class Pattern { Sequential, Random, Whole, Trace };
enum class CacheMode { Warm, Cold, Direct };
enum class Consume { Minimal, All };
// What a run varies along its x axis: the range size (the usual sweep), or, at one range size,
// where the destination buffers start within a page, the number of threads reading, or the
// reads io_uring keeps in flight per thread.
enum class SweepAxis { RangeSize, BufferOffset, Threads, QueueDepth };

std::string_view toString(Pattern p);
std::string_view toString(CacheMode c);
std::string_view toString(Consume c);
std::string_view toString(SweepAxis a);
Result<Pattern> parsePattern(std::string_view text);
Result<CacheMode> parseCacheMode(std::string_view text);
Result<Consume> parseConsume(std::string_view text);

inline constexpr std::uint64_t kDefaultBudget = 256ull << 20;
inline constexpr std::uint64_t kDefaultDurationBudget = 4ull << 30;
// The smallest memory limit a run takes: readscope's own memory counts against it too, and a
// process past its cgroup's limit is killed by the kernel.
inline constexpr std::uint64_t kMinMemoryLimit = 32ull << 20;

// What a plan may ask for, said once: validatePlan(), the CLI's option parsing and the app's
// spin boxes all use these.
struct IntLimit {
    int min, max;
    constexpr bool contains(int v) const { return v >= min && v <= max; }
};
inline constexpr IntLimit kThreadsLimit{1, 256};
inline constexpr IntLimit kQueueDepthLimit{1, 256};
// Each io_uring worker's pool holds queue depth x range size bytes: a chosen depth may not
// take more than this for all workers together (the automatic depth keeps to 128 MiB per
// worker, see uringQueueDepth).
inline constexpr std::uint64_t kMaxUringPoolBytes = 512ull << 20;
inline constexpr IntLimit kRoundsLimit{1, 10000};
inline constexpr IntLimit kWarmupLimit{0, 1000};
inline constexpr double kMaxRoundTimeSeconds = 3600;
inline constexpr IntLimit kRepeatsLimit{1, 10};
// --precision: the narrowest a median's interval may be asked to get, the widest it may be
// asked to stay within, and how long a run keeps adding rounds without a --max-time.
inline constexpr double kMinPrecision = 0.001;
inline constexpr double kMaxPrecision = 0.5;
inline constexpr double kDefaultMaxTimeSeconds = 600;
// The longest a precision run may be given, and the longest time cap: a day.
inline constexpr double kMaxMaxTimeSeconds = 86400;
inline constexpr double kMaxTimeCapSeconds = 86400;

struct Plan {
    std::string file;
    std::vector<std::uint64_t> sizes{16ull << 10, 64ull << 10, 256ull << 10, 1ull << 20,
                                     8ull << 20};
    std::vector<std::string> strategies; // ids, in the order they are interleaved
    Pattern pattern = Pattern::Sequential;
    // The whole pattern's sweep: each a file of that size, a copy of the target's first bytes,
    // read whole (open, read to the end, close). Empty: the whole pattern reads the target
    // itself, one cell. Sizes larger than the target are skipped, with a warning.
    std::vector<std::uint64_t> fileSizes;
    CacheMode cache = CacheMode::Warm;
    // Every strategy reads every byte it obtained (comparable by default); minimal leaves
    // in-place mappings at one byte per page, as published benchmarks that did not consume.
    Consume consume = Consume::All;
    int threads = 1;
    // Several: the run's sweep axis, each point read by that many threads at the one range
    // size (threads is then not used). One or none: threads says.
    std::vector<int> threadCounts;
    // Reads an io_uring worker keeps in flight. Empty: its own choice per range size (32, fewer
    // for large ranges); one: that depth for every io_uring cell; several: the run's sweep
    // axis, at the one range size, measured by io_uring strategies only.
    std::vector<unsigned> queueDepths;
    int rounds = 12;
    int warmup = 1;
    std::uint64_t seed = 42;
    // Bytes of a cell's ranges (a round reads a prefix of them; a duration run reads on through
    // them); 0 = effectiveBudget's default.
    std::uint64_t budget = 0;
    double timeCapSeconds = 60; // per range size; rounds stop early (>= 3 kept) past it
    // A round reads the budget or, sooner, this long: each strategy of a cell reads a prefix of
    // the cell's one range sequence, its length set from its own calibration reads before the
    // warm-up (never less than minRangesPerRound()). 0: every round reads the budget.
    double roundTimeSeconds = 0.015;
    bool dropCachesAsRoot = false; // cold mode: also write /proc/sys/vm/drop_caches
    // The whole run this many times, back to back, each from its own set-up (an A/A pair at 2):
    // the document pools their rounds (each sample says its repeat) and how far the repeats'
    // medians drifted apart is the floor a change between runs must pass (runDrift).
    int repeats = 1;
    // After the planned rounds, rounds go on for the cells whose median's interval still
    // reaches further than this fraction of it (0: no such rounds), until every cell meets it
    // or the run has taken maxTimeSeconds (0: kDefaultMaxTimeSeconds). Cells that did not get
    // there say so.
    double precision = 0;
    double maxTimeSeconds = 0;
    // Page offsets that destination buffers start at. Empty: wherever the allocator puts them
    // (auto, as real programs get them); one: every buffer of every strategy pinned there;
    // several: the run's sweep axis, measured at its one range size.
    std::vector<std::uint32_t> bufferOffsets;
    // Bytes the whole run may keep in memory, the measured file's page cache included (a
    // memory cgroup; see ResultDocument::memoryLimit): a file larger than this must be evicted
    // while it is read. 0: no limit.
    std::uint64_t memoryLimit = 0;
    // Measured rounds go on for this long instead of a round count (rounds and the time cap
    // are not used), and each round of a cell reads on where its last one stopped, through the
    // point's ranges and round again: a reader that keeps reading, as mmapbench's time series
    // do, so that a file larger than the memory limit fills the cache and then must be evicted
    // while it is read. Each sample's started_at places its GB/s in time. 0: rounds as planned.
    double durationSeconds = 0;
    // Pattern::Trace: the reads every round replays whole, in their order, and the file they
    // were read from (the rerun command's --trace). The run's one point is at the trace's
    // largest read, the size each strategy's buffers are prepared for.
    std::shared_ptr<const Trace> trace;
    std::string tracePath;
};

// A duration run's longest: an hour.
inline constexpr double kMaxDurationSeconds = 3600;

// "4" or "1,2,4,8" (spaces allowed): whole numbers within limit, each named once; what names
// them in the error ("threads 0 is out of range: use 1 to 256").
Result<std::vector<int>> parseCountList(std::string_view text, IntLimit limit,
                                        std::string_view what);
// Threads as the CLI and the app take them: one count sets threads, a list the sweep's
// threadCounts. Queue depths likewise ("auto" or empty: io_uring's own).
Status setThreads(Plan& plan, std::string_view text);
Status setQueueDepths(Plan& plan, std::string_view text);
// "1,2,4" / "auto": the text setThreads and setQueueDepths read back.
std::string threadsListText(const Plan& plan);
std::string queueDepthsText(const Plan& plan);

// One x position of a run: a range size and, when pinned, the buffers' page offset; on a
// threads or queue-depth sweep, the point's threads or depth.
struct SweepPoint {
    std::uint64_t rangeBytes = 0;
    std::optional<std::uint32_t> bufferOffset{};
    std::optional<int> threads{};
    std::optional<unsigned> queueDepth{};
    bool operator==(const SweepPoint&) const = default;
};

// "64 KiB", or "64 KiB @ +16" where the buffers were pinned, "64 KiB x 4 threads",
// "64 KiB, 16 in flight".
std::string pointText(const SweepPoint& point);
SweepAxis sweepAxis(const Plan& plan);
// The points a run measures, in order: every range size, or every buffer offset, thread count
// or queue depth.
std::vector<SweepPoint> sweepPoints(const Plan& plan, std::uint64_t fileSize);

// Every field checked against the file; the first bad one named with what to do about it.
Status validatePlan(const Plan& plan, const FileProbe& file);
// The part of validatePlan that needs no file: one list at a time is the sweep's axis, measured
// at one range size (a whole-file sweep's axis is its file sizes), and a queue-depth sweep has
// an io_uring strategy. The app says it while the fields are edited.
Status validateAxes(const Plan& plan);
// The bytes a cell's ranges cover: the plan's budget, else min(file, kDefaultBudget); a
// duration run's rounds read on through them, so its default is min(file,
// kDefaultDurationBudget): the whole of any file a laptop would use for it.
std::uint64_t effectiveBudget(const Plan& plan, std::uint64_t fileSize);
// A round's floor when sized by time: 64 ranges, which keeps small ranges meaningful, but no
// more than 8 MiB of them (at least 4 ranges): 64 ranges of 8 MiB would be 512 MiB a round,
// a quarter second for a 2 GB/s mapping where the round time asks for 15 ms.
inline constexpr std::size_t kMinRangesPerRound = 64;
inline constexpr std::size_t kMinRangesPerRoundLarge = 4;
inline constexpr std::uint64_t kFloorBytesPerRound = 8ull << 20;
std::size_t minRangesPerRound(std::uint64_t rangeBytes);
// Range sizes the run actually uses: for the whole pattern, the file sizes up to the target's
// size, or the target's size alone.
std::vector<std::uint64_t> effectiveSizes(const Plan& plan, std::uint64_t fileSize);
// How a run read, for the lines under its tables and charts: "sequential ranges", "random
// ranges", "whole file", or "whole files (open, read, close)" for a whole-file sweep.
std::string patternWords(const Plan& plan);
// The trace a Pattern::Trace plan replays, when it holds reads; none for another plan.
inline const Trace* tracedReads(const Plan& plan) {
    return plan.pattern == Pattern::Trace && plan.trace && !plan.trace->reads.empty()
               ? plan.trace.get()
               : nullptr;
}
// What a run's x positions are: "range size", "file size" (a whole-file sweep), "buffer
// offset", "threads" or "queue depth".
std::string_view axisName(const Plan& plan);
// The threads that read a point: the point's own on a threads sweep, else the plan's.
int threadsAt(const Plan& plan, const SweepPoint& point);
// The depth asked of io_uring at a point: the point's on a queue-depth sweep, the plan's one
// depth, or none (each io_uring reader's own choice for the range size).
std::optional<unsigned> queueDepthAt(const Plan& plan, const SweepPoint& point);
// How the plan's threads read for people: "1 thread", "4 threads", "1, 2, 4 threads".
std::string threadsText(const Plan& plan);
// What a pasted table or chart says about concurrency: threadsText, and a chosen io_uring
// depth when there is one ("4 threads, io_uring depth 16").
std::string concurrencyText(const Plan& plan);
// How many of buffer offsets, thread counts and queue depths are lists (more than one value):
// more than one is refused, since a run sweeps one thing at a time.
int sweepListCount(const Plan& plan);
// Why a strategy has nothing to show on a queue-depth sweep (empty: it has).
std::string queueDepthSweepExclusion(std::string_view strategy);
// Whether the run reads copies of several sizes whole (the whole pattern with file sizes).
bool wholeFileSweep(const Plan& plan);
// A memory-limited duration run starts from an empty cache, so that its rounds show the cache
// filling and then full (a warm one is not warmed first).
bool startsEvicted(const Plan& plan);
// A warm run under a memory limit smaller than the file cannot keep it cached: its rounds find
// it partly evicted by design, which is no "not warm" condition but what its outputs say.
bool warmCannotHold(const Plan& plan, std::uint64_t fileSize);
// A list of sizes given with the whole pattern names file sizes (each a copy of the target's
// first bytes): moves plan.sizes to plan.fileSizes, leaving the default range sizes. Other
// patterns are left as they are. The CLI's --sizes and a lesson's "sizes" both mean this.
void takeSizesAsFileSizes(Plan& plan);
// The file sizes a whole-file sweep skips because the target is smaller.
std::vector<std::uint64_t> skippedFileSizes(const Plan& plan, std::uint64_t fileSize);
// A whole-file sweep's reads per round at most (small files are read this many times).
inline constexpr std::size_t kMaxWholeFileReads = 65536;

} // namespace readscope
