#pragma once
// What a run produced: the plan, the machine, and every cell (strategy x range size) with its
// raw per-round samples. Raw bytes and seconds are stored; rates are derived.
#include "readscope/buffer_offsets.h"
#include "readscope/cell_conditions.h"
#include "readscope/plan.h"
#include "readscope/run_warning.h"
#include "readscope/stats.h"
#include "readscope/system_info.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct Sample {
    int round = 0;
    int position = 0; // where in its round the strategy ran (0 = first)
    int repeat = 0;   // which of the plan's repeats of the whole run it belongs to (0 = first)
    // When the round began, seconds since the Unix epoch (the system clock; none in documents
    // from before it was recorded): GB/s against time, per strategy, shows a cache filling
    // under a memory limit and the machine's drift on any run.
    std::optional<double> startedAt;
    std::uint64_t bytes = 0;
    double seconds = 0;
    double userSeconds = 0;
    double systemSeconds = 0;
    std::uint64_t minorFaults = 0;
    std::uint64_t majorFaults = 0;
    std::uint64_t syscalls = 0; // counted by the engine's read loops
    std::uint64_t seeks = 0;    // of which lseek
    // Bytes the reads asked of the file, when more than the bytes wanted (pread-coalesce reads
    // whole merged spans, mmap-populate populates from its lowest range to its highest, gaps
    // included); 0: the same as bytes.
    std::uint64_t bytesRead = 0;
    // Bytes fetched from storage while the round ran (the whole process: read-ahead and
    // fault-around included, page-cache hits not); none where the platform does not count them.
    std::optional<double> deviceBytes;
    // What else happened on the machine while the round ran: the workers' involuntary context
    // switches (the scheduler gave their CPU to someone else), the CPU time the hypervisor
    // stole and the time other processes and the kernel's threads kept CPUs busy (all CPUs
    // together, from /proc/stat in 10 ms ticks: a round's figure is coarse, a cell's sum is
    // not), and the CPUs' clock where exposed. None where the platform does not say.
    std::uint64_t involuntarySwitches = 0;
    std::optional<double> stolenSeconds;
    std::optional<double> otherCpuSeconds;
    std::optional<double> cpuMhz;
    std::optional<double> latencyP50; // seconds per range; none when no range was timed
    std::optional<double> latencyP99;
    // TLB shootdowns on the whole machine while the round ran (/proc/interrupts, all CPUs and
    // processes: machine-wide, not this round's alone); none where the system does not count.
    std::optional<double> tlbShootdowns;
    std::optional<double> residentBefore; // fraction of the file cached when the round began
    // ... and when it ended (where mincore or cachestat tell, untimed): what the reads left in
    // the page cache (pread-dontcache and direct-pread none of what they brought in).
    std::optional<double> residentAfter;
    // The whole file's share in the page cache when the round ended (duration runs only, whose
    // rounds read on through the file): it climbs until the cache is full, then holds, so it
    // says when the cache filled.
    std::optional<double> fileResidentAfter;
    // Bytes over seconds; none when no time was measured (never a made-up 0).
    std::optional<double> gbps() const;
};

// NotCold: a cold-cache cell whose file was still in the page cache after eviction in some
// round; its figures are measured but are not cold ones, and every output says so.
// TooFewRounds: measured, but with too few rounds for its interval to say whether it is noisy
// (Summary::tooFewRounds): neither ok nor noisy.
// Unverified: measured, but a check its figures rest on did not happen: a cold cell whose
// eviction could not be verified (its rounds may have read cached pages), or a duration run's
// cell whose bytes were not checked (stopped first, or the file changed). Never "ok".
enum class CellStatus { Ok, Noisy, Failed, Unavailable, NotCold, TooFewRounds, Unverified };
std::string_view toString(CellStatus s);
CellStatus parseCellStatus(std::string_view text);

// How far a cell's bytes were checked against the file's (state_words.h says each in words).
enum class Checksum {
    None,                  // no bytes to check: a cell never measured, or a document without it
    NotChecked,            // measured, not (yet) checked
    Verified,              // every range its rounds read, or the prefix they all read, matched
    VerifiedSinceResume,   // matched over the ranges read since the run was resumed only
    Mismatch,              // the strategy returned bytes that differ from the file's
    NotCheckedStopped,     // a duration run stopped before the ranges its rounds read were checked
    NotCheckedFileChanged, // the file changed during the run, so those ranges were not checked
};
// Its bytes may be wrong or lazily read: measured, but never (fully) compared.
bool notChecked(Checksum c);

struct Cell {
    std::string strategy;
    std::uint64_t rangeBytes = 0;
    std::optional<std::uint32_t> bufferOffset; // pinned page offset; none: the allocator's
    OffsetCounts bufferPageOffsets;     // where the buffers read into started, over the rounds
    std::optional<unsigned> queueDepth; // reads in flight per worker (io_uring cells)
    // The point's own threads or queue depth, on a threads or queue-depth sweep (the run's
    // other cells say neither: the plan's threads, the reader's depth).
    std::optional<int> pointThreads;
    std::optional<unsigned> pointQueueDepth;
    // --consume all: the fold alone on a cache-warm buffer of this range size, GB/s; its
    // cost per GB (1000 / foldGbps ms) is part of every figure and can be subtracted.
    std::optional<double> foldGbps;
    // memset to 0 alone on a cache-warm buffer of this range size, GB/s: what zero-filling a
    // range costs here (timeSplit() prices the zeroing strategies' fills with it).
    std::optional<double> memsetGbps;
    // Warm runs: memcpy alone, from a source as large as a round reads (at most 128 MiB) into
    // a reused buffer of this range size, chunk by chunk, GB/s: the most a strategy that copies
    // the file's bytes into a buffer can reach here (an in-place mapping can pass it).
    std::optional<double> copyLimitGbps;
    // Warm runs: the kernel's own copy out of the page cache at this range size, GB/s (reads
    // into one reused buffer at the page offsets the cell's own buffers started at, weighted by
    // how many did, each read's null call and cached-page costs taken out; the median of the
    // passes at those offsets, after the run's rounds and, on a pinned point, before them too):
    // what a buffered read's copy costs here, page by page (timeSplit() prices kernel copies
    // with it).
    std::optional<double> kernelCopyGbps;
    // Warm runs: memcpy's typical rate here (the median of the passes whose best is the limit
    // above): what timeSplit() prices a mapping's copy with. A ceiling would under-price it.
    std::optional<double> memcpyGbps;
    // Warm runs of a strategy that maps the file: the cached file folded in place and copied
    // out with memcpy through one populated mapping, GB/s (medians of passes before and after
    // the run's rounds; the copy's into a buffer at the cell's own page offsets, as
    // kernelCopyGbps): what a mapping's fold and copy cost where its bytes lie, in memory when
    // the file is past the CPU's caches (timeSplit() prices mappings with them).
    std::optional<double> mappedFoldGbps, mappedCopyGbps;
    // Warm runs: the pause, seconds, each pass of this cell's copy price (and a mapping's
    // fault price) came after, where those were taken as its rounds ran because its rounds
    // touch more than L2 and paused between them (docs/measuring-in-detail.md, "Copies after a
    // pause"). None: taken back to back.
    std::optional<double> copyPauseSeconds;
    // Warm runs of a strategy that maps the file: a fault on the cached file's pages through a
    // fresh mapping, and one page unmapped, seconds (medians of passes before and after the
    // rounds, over the span the copy prices use: up to 128 MiB from the file's start, where a
    // sequential run's rounds begin): the first 4 MiB, which the run-wide unit cost takes, can
    // sit in folios of another size and cost 2-20 times as much a page.
    std::optional<double> mappedFaultSeconds, mappedUnmapSeconds;
    std::uint64_t rangesPerRound = 0;
    CellStatus status = CellStatus::Ok;
    std::string message; // why failed or unavailable (a loaded document's: all its notes)
    // What the figures must be read with, as the engine found it (a loaded document carries
    // these in its message instead).
    std::vector<CellCondition> conditions;
    Checksum checksum = Checksum::None;
    std::string residencyMethod;
    std::vector<Sample> samples;
    Summary summary;                      // over samples' GB/s
    std::optional<double> residentBefore; // median over rounds
    std::optional<double> residentAfter;  // median over the rounds that measured it
    // Bytes read per byte wanted, median over rounds, where a strategy asked for more than it
    // wanted (coalesced or populated spans); none for the others.
    std::optional<double> readAmplification;
    // Bytes fetched from storage per round and per byte wanted, medians over the rounds that
    // counted them: what the device really read (read-ahead, populate, fault-around) against
    // what the strategy asked for. None where not measured.
    std::optional<double> deviceBytesRead;
    std::optional<double> fetchedPerWanted;
    // A recovery file's cell caught between rounds (a run that crashed or was killed): its
    // rounds so far, which a resumed run goes on from. Written as "partial" only when set.
    bool partial = false;
    void summarize(); // recomputes summary, residency, readAmplification, fetched bytes,
                      // Ok/Noisy status
    // Has figures to show (ok, noisy or not-cold); failed and unavailable cells have none.
    bool measured() const {
        return status == CellStatus::Ok || status == CellStatus::Noisy ||
               status == CellStatus::NotCold || status == CellStatus::TooFewRounds ||
               status == CellStatus::Unverified;
    }
    SweepPoint point() const { return {rangeBytes, bufferOffset, pointThreads, pointQueueDepth}; }
    // Each round's GB/s, in the order the rounds were recorded (rounds without a time left out).
    std::vector<double> roundRates() const;
};

// The median over a cell's rounds of one sample field, e.g.
// medianOverRounds(cell, [](const Sample& s) { return s.minorFaults; }).
template <class Field> double medianOverRounds(const Cell& cell, Field field) {
    std::vector<double> values;
    values.reserve(cell.samples.size());
    for (const auto& s : cell.samples)
        values.push_back(static_cast<double>(field(s)));
    return median(values);
}

// CPU time per GB read: what the teaching panel compares with its expectation and the chart's
// CPU mode draws. None without rounds. The total is the median over rounds; the user/system
// split is the share over all of the cell's rounds, because the kernel splits a thread's
// (exact) run time by where its scheduler ticks landed: one round of a few ms holds a tick or
// two, and a mapping's system time reads 0 when none fell in the kernel. splitResolved says
// the rounds ran at least kCpuSplitSeconds, enough ticks (20 at the slowest 100 Hz) for the
// share to mean something.
inline constexpr double kCpuSplitSeconds = 0.2;
struct CpuPerGB {
    double userMs = 0, systemMs = 0;
    bool splitResolved = false;
    double totalMs() const { return userMs + systemMs; }
};
std::optional<CpuPerGB> cpuMsPerGB(const Cell& cell);

// The same for a field that may be absent (latency percentiles): the median over the rounds
// that have it; none when no round has.
template <class Field> std::optional<double> medianOfPresent(const Cell& cell, Field field) {
    std::vector<double> values;
    for (const auto& s : cell.samples)
        if (const std::optional<double> v = field(s))
            values.push_back(*v);
    if (values.empty())
        return std::nullopt;
    return median(values);
}

// Cold and direct runs: the most this file's device gave one large sequential read of it,
// measured untimed before the sweep, once per file per process (a later run reuses it; its
// date says when). 1 MiB reads of the file's first 256 MiB, timed after their first eighth
// (the ramp-up), three ways, the fastest kept:
// direct I/O one read at a time, direct I/O with 32 in flight (io_uring), and buffered reads
// right after eviction (the kernel's read-ahead, which on some machines beats direct I/O).
// A cold cell passing it was served by a cache below the page cache (the disk's own, a virtual
// machine host's) or by more threads than the probe's one.
struct DeviceLimit {
    double gbps = 0;        // the fastest way's
    std::string fastest;    // which way that was, for people ("buffered after eviction")
    std::string device;     // "vda (253:0)"; the volume on Windows
    std::string measuredAt; // ISO 8601, UTC
    std::uint64_t blockBytes = 0;
    std::uint64_t spanBytes = 0; // of the file each way read
    unsigned queueDepth = 0;     // the queued way's reads in flight
    std::optional<double> directGbps;
    std::optional<double> directQueuedGbps;
    std::optional<double> bufferedGbps;
    std::string skipped; // the ways not measured, and why ("; "-separated)
};

struct ResultDocument {
    int formatVersion = 1;
    Plan plan;
    std::uint64_t fileSize = 0;
    SystemInfo system;
    std::vector<Cell> cells;
    bool complete = true; // false when stopped before every cell finished
    // The target's bytes are readscope-cli generate's (its first 64 KiB matched): anyone can
    // make the same file, so a rerun command can start by generating it.
    bool fileGenerated = false;
    // A whole-file sweep's private folder of copies (removed when the run ends; named here so
    // that the recovery file lets removeLeftoverCopies() clear a crash's leftovers).
    std::string copiesFolder;
    // One lseek here, median seconds (measured untimed at the start): what the cost model
    // compares seek-read's extra fixed cost per range with. None when not measured.
    std::optional<double> lseekSeconds;
    // What single operations cost here, median seconds, measured untimed at the start (none
    // where not measured: Windows, older documents). The cost model's unit prices.
    struct UnitCosts {
        std::optional<double> nullSyscall;    // a system call that does nothing (getppid)
        std::optional<double> anonymousFault; // a fresh anonymous page's first write
        std::optional<double> fileFault;      // a mapped, cached file page's first read
        // The read path's work per cached page beyond copying its bytes (page-cache lookup,
        // the page's reference, the copy's per-page start): what a buffered read adds to a
        // memcpy of the same bytes, page by page.
        std::optional<double> cachedPage;
        // One mapped page of a cached file unmapped (munmap's page-table teardown, per page):
        // what a mapping made and dropped each round pays for every page it mapped.
        std::optional<double> unmapPage;
        bool operator==(const UnitCosts&) const = default;
    } unitCosts;
    // Cold and direct runs: see DeviceLimit; when there is none, why (deviceLimitMissing).
    std::optional<DeviceLimit> deviceLimit;
    std::string deviceLimitMissing;
    // The memory limit the run ran under (Plan::memoryLimit): the bytes in force and how it
    // was applied (which cgroup, which file, which value).
    struct MemoryLimit {
        std::uint64_t bytes = 0;
        std::string how;
    };
    std::optional<MemoryLimit> memoryLimit;
    // What the run said while it went that is kept with its figures, as values; `note` holds
    // words from elsewhere (a document read back, a refinement, a recovery). documentNote
    // (run_notes.h) says both, and that a run stopped.
    std::vector<RunWarning> notes;
    std::string note;
    // The first cell of this strategy at this range size (any buffer offset).
    const Cell* find(std::string_view strategy, std::uint64_t rangeBytes) const;
    const Cell* find(std::string_view strategy, const SweepPoint& point) const;
    // The distinct points of the cells, ascending along the run's sweep axis.
    std::vector<SweepPoint> points() const;
    // The distinct strategies of the cells, in the plan's order (then any not in the plan).
    std::vector<std::string> measuredStrategies() const;
};

// Ranges per second at the median (for a whole-file sweep, files per second): how fio and
// CrystalDiskMark readers read small-range figures. None for a cell without figures.
std::optional<double> medianIops(const Cell& cell);
// A range's bytes as the cell's rounds read them (the median round's bytes over its ranges):
// rangeBytes for a fixed-size pattern, a trace's mean read (its rangeBytes is the largest).
double bytesPerRange(const Cell& cell);
// The median as a percentage of the cell's memcpy limit; none without either.
std::optional<double> pctOfCopyLimit(const Cell& cell);

// The three ways the device limit reads the file. Their names ("direct", "direct queued",
// "buffered") head DeviceLimit::skipped; their texts ("direct 1 MiB reads, one at a time",
// "direct 1 MiB reads, 32 in flight (io_uring)", "buffered 1 MiB reads right after eviction")
// say which way set a limit.
enum class DeviceWay { Direct, DirectQueued, Buffered };
std::string_view deviceWayName(DeviceWay way);
std::string deviceWayText(DeviceWay way, const DeviceLimit& limit);

// The device limit a run's cells are held against: for cold runs the fastest way; for direct
// runs the faster direct way (a direct read gets no read-ahead), or the stored figure when the
// ways are unknown (a CSV keeps only the figure it was held against). None for warm runs,
// without a device limit, or a direct run whose direct ways did not run.
std::optional<double> deviceLimitGbps(const ResultDocument& doc);
// Cold and direct runs: the median as a percentage of deviceLimitGbps; none for a cell
// without figures or without a limit.
std::optional<double> pctOfDeviceLimit(const ResultDocument& doc, const Cell& cell);
// Whether the cell read faster than the device by more than kAboveDeviceLimitPct. A not-cold
// cell is never counted: its bytes came from the page cache itself, as its status says.
bool passesDeviceLimit(const ResultDocument& doc, const Cell& cell);
// The limit a run is held against: memcpy's for warm runs, the device's for cold and direct
// ones. The cell's percentage of it, and the limit's short name ("memcpy", "device").
std::optional<double> pctOfRunLimit(const ResultDocument& doc, const Cell& cell);
std::string_view runLimitName(const ResultDocument& doc);

bool touchesOnePerPage(std::string_view strategy, Consume consume);
// Whether the strategy copies each range's bytes into a buffer, range by range (so memcpy of
// range-sized chunks bounds it); an in-place mapping does not, nor does a coalescing read,
// which copies whole merged spans.
bool copiesTheBytes(std::string_view strategy);

// "1.00x" or "0.99-7.93x" over a strategy's measured cells; empty when none counted.
std::string fetchedText(const ResultDocument& doc, std::string_view strategy);
// Whether the run's figures are held against storage (cold and direct runs), where the bytes
// fetched per byte wanted say what the device read.
bool readsStorage(const ResultDocument& doc);

// "7.93x" or "0.99-7.93x": a strategy's bytes read per byte wanted over its measured cells;
// empty when none of them says (it read exactly what it wanted).
std::string readAmplificationText(const ResultDocument& doc, std::string_view strategy);

// How far past a limit a cell may read before it is said to pass it: measurement noise allowed
// for (run_findings.h words the warnings).
inline constexpr double kAboveCopyLimitPct = 102;
inline constexpr double kAboveDeviceLimitPct = 110;

// The measured cells a stopped or recovered run kept: those with every planned round and the
// partial ones, with the fewest and most rounds among these (of `planned`). A duration run
// plans no count of rounds: its cells are all complete.
struct KeptCells {
    std::size_t complete = 0, partial = 0;
    std::size_t fewest = 0, most = 0, planned = 0;
};
KeptCells keptCells(const ResultDocument& doc);

// A point's position on its axis (range bytes, the buffer offset, threads or queue depth) and
// its label for people ("64 KiB"; "16" / "4096+16" for an offset, "auto" where the allocator
// chose; "4" for threads or a queue depth).
double axisValue(SweepAxis axis, const SweepPoint& point);
std::string pointLabel(SweepAxis axis, const SweepPoint& point);
// A cell's row as a table names it: "trace" for a trace run's cells (their rangeBytes is only
// the largest read; the footer names the trace), else `label`, the table's own name for the
// point (pointText, pointLabel, a size).
std::string rowLabel(const ResultDocument& doc, std::string label);
// A trace run's bytes in one replay (its window, Trace::windowBytes: the whole trace without
// a --budget), and the seconds one replay takes at `gbps`; none without a trace or a rate.
std::optional<std::uint64_t> replayBytes(const ResultDocument& doc);
std::optional<double> replaySeconds(const ResultDocument& doc, double gbps);

// The cells in the order a table reads them: along the sweep's axis (axisValue), then in the
// plan's strategy order. A run's document holds them in the order they finished, which the
// interleaved rounds scramble (64 KiB, 1 MiB, 256 KiB...). The CLI's table and every
// comparison list them so.
std::vector<const Cell*> cellsInTableOrder(const ResultDocument& doc);

} // namespace readscope
