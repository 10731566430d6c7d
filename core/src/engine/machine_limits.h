#pragma once
// What the machine itself allows, measured untimed before a sweep's cells: the memory-copy
// ceiling a buffered read cannot pass, and what one lseek costs (the cost model checks its
// fixed costs against it). Private to the engine.
#include "readscope/plan.h"
#include "unit_costs.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stop_token>
#include <vector>

namespace readscope {

struct ResultDocument;

// memcpy from a source as large as a round reads (at most kMaxSource) into a reused buffer of
// the range size, range by range: the shape of the copy a buffered read does from the page
// cache. The source is allocated and touched once; each gbps() call takes a few tens of ms.
class CopyLimit {
public:
    static constexpr std::uint64_t kMaxSource = 128ull << 20;
    // onWorkerStart runs on each copying thread as it starts, before the clock (tests make
    // a thread's start slow with it).
    explicit CopyLimit(std::uint64_t roundBytes, std::function<void()> onWorkerStart = {});
    // The best GB/s of a few passes over the source (after one untimed pass; a ceiling is
    // measured as one: noise only ever slows a copy down), copied by `workers` threads at once
    // (the run's --threads), each its own part into its own buffer, which starts at the page
    // offset the strategies' buffers are pinned at (none: where the allocator puts it). As a
    // round's workers are, the threads are started before the clock and released together; a
    // pass runs from the first one's start to the last one's end.
    // A stop request ends it between passes, with the passes done so far (0 with none).
    double gbps(std::uint64_t rangeBytes, int workers,
                std::optional<std::uint32_t> pageOffset = std::nullopt, int passes = kPasses,
                std::stop_token stop = {});
    static constexpr int kPasses = 5;
    std::uint64_t sourceBytes() const { return source_.size(); }
    // The GB/s of each timed pass of the last gbps() call.
    const std::vector<double>& lastRates() const { return rates_; }

private:
    std::vector<std::byte> source_;
    std::vector<double> rates_;
    std::function<void()> onWorkerStart_;
};

// Median seconds of one lseek(fd, offset, SEEK_SET) (SetFilePointerEx on Windows), over a
// few thousand calls at changing offsets below fileSize; 0 if a seek fails.
double lseekSeconds(int fd, std::uint64_t fileSize);

// The unit costs a run records before its rounds: one lseek (doc.lseekSeconds) and the rest
// (doc.unitCosts), on the file open at fd. A stop request leaves the ones not yet measured.
void measureUnitCosts(ResultDocument& doc, int fd, std::uint64_t fileSize,
                      std::stop_token stop = {});

// What the kernel's read path costs per cached page beyond copying the page's bytes (the
// page-cache lookup, the page's reference and accessed mark, the copy's per-page start): a
// 64 KiB read of cached, CPU-cache-warm pages, less one null call and a 64 KiB memcpy of warm
// bytes, over its pages. None without a null-call cost or a file of 64 KiB.
std::optional<double> cachedPageSeconds(int fd, std::uint64_t fileSize,
                                        std::optional<double> nullSyscall);

// --consume all's fold alone on a cache-warm buffer of this range size, GB/s (median of a few
// tens of ms of folds; untimed for the sweep).
double foldGbps(std::uint64_t rangeBytes);
// memset to 0 alone, the same way: what zero-filling a buffer of this range size costs here
// when the buffer is cache-warm (a zero-filled fresh buffer's pages are: the allocator reuses
// them, or the kernel just zeroed them in its page faults).
double memsetGbps(std::uint64_t rangeBytes);

// How a cell's rounds ran: each read passBytes on a worker, after a pause of gapSeconds in which
// the point's other cells read theirs (the medians over its rounds). A copy runs slower right
// after a pause on some machines: on the development VM, after 60 ms (bench/pause_effect.c),
// pread into 16 MiB ran 14% slower and the fold of what it read 40%; into 64 KiB-2 MiB, 4-8%
// and the fold no slower; a fresh mapping copied out 5-8% slower at every size. Prices taken
// back to back do not see that, so copies past L2 are priced in the rhythm. None before a
// cell's rounds or without their start times, and for a pause under kRhythmMinPause.
using Rhythm = platform::Rhythm;
inline constexpr double kRhythmMinPause = 0.005;
inline constexpr int kRhythmPasses = 3; // each a pause and a round: fewer than back to back
struct Cell;
std::optional<Rhythm> roundRhythm(const Cell& cell, int threads);

// What a price pass does around each of the kernel's copies as the priced cell does, timed
// apart, GB/s per pass added to each vector given: zeroing the buffer before its read
// (pread-zerofill's memset; a copy into lines the memset just wrote is not the copy into
// untouched ones), and folding what was read as --consume all folds it (each buffer after its
// read; every destination once all of them are read).
struct CopyCompanions {
    std::vector<double>* zero = nullptr;
    std::vector<double>* fold = nullptr;
};

// The kernel's own copy out of the page cache, GB/s per pass: reads of the range size into one
// reused buffer (or `destinations` of them in turn, as cellDestinations names) over the cached
// file's first spanBytes (back to back, after an untimed pass),
// each read's null call and its pages' cachedPage cost taken out. What a buffered read's copy
// costs here, which is not memcpy's (the kernel copies page by page). The buffer starts at
// pageOffset (none: where malloc puts it), as the priced cell's buffers did. Empty without both
// unit costs, or when a read fails. A stop request ends it between passes. In a rhythm, each
// timed pass is one round's reads after the round's pause, with its companions.
std::vector<double>
kernelCopyRates(int fd, std::uint64_t spanBytes, std::uint64_t rangeBytes,
                const ResultDocument& doc, int passes, std::stop_token stop = {},
                std::optional<std::uint32_t> pageOffset = std::nullopt, unsigned destinations = 1,
                std::optional<Rhythm> rhythm = std::nullopt, CopyCompanions around = {});

// Where a cell's reads land when that is not one reused buffer of the size it is priced at:
// `count` buffers of `bytes` each, written in turn. A coalescing cell reads its spans (bytes
// read over read calls, when more than the priced size) into one buffer; an io_uring cell reads
// into a buffer per read in flight (its deepest queue, as many as kMaxPricedDestinations bytes
// hold). None for other cells and before a cell's rounds.
struct Destinations {
    std::uint64_t bytes = 0;
    unsigned count = 1;
    auto operator<=>(const Destinations&) const = default;
};
std::optional<Destinations> cellDestinations(const Cell& cell, std::uint64_t pricedBytes);

// The rates a point's cells carry, measured untimed before its rounds.
struct PointRates {
    std::optional<double> fold, memset;
    void applyTo(Cell& cell) const;
};

// Which part of a sampling one take() is. The opening takes all of its passes at once. The
// closing is taken in kClosingSweeps sweeps over the run's points, each sweep a share of
// every price's passes, and a cell priced at the median of them all: taken point after
// point, one slow second of the machine's once priced every copy of the 16 KiB point from
// passes it ran through (a mapping's copy at 3.2 GB/s against 11.4-11.6 in three other
// runs, its faults at 19 us against 4.1-4.3) and left that cell 239% over-predicted.
struct PriceShare {
    int sweep = 0, sweeps = 1;
    // Of `passes` taken back to back after an untimed warming pass (CopyLimit, kernelCopyRates,
    // mappedRates), this sweep's: each sweep warms again (other points' passes ran since), so
    // the warming passes are counted in, and the closing costs what one sampling did (5 timed
    // and a warming pass, or 3 sweeps of one and one), at least one timed pass a sweep.
    int backToBack(int passes) const {
        return sweeps == 1 ? passes : std::max(1, (passes + 1) / sweeps - 1);
    }
    // Passes (or samples) that need no warm-up of their own, as a rhythm's each after its
    // pause: spread over the sweeps, the first sweeps taking the remainder (a late sweep
    // may have none).
    int spread(int passes) const { return passes / sweeps + (sweep < passes % sweeps ? 1 : 0); }
};

// Warm runs: what a point's copies cost, sampled before the run's rounds and again after all
// of them (untimed for the cells), so that a price spans the minutes of the figures it
// explains, not one moment of a machine whose speed drifts. Not between rounds: a pass there
// takes the file's pages out of the CPU's caches, and the rounds after it measure that. A
// cell's memcpy ceiling is the best pass and memcpyGbps the median of every pass; its copy
// prices (kernelCopyGbps, mappedCopyGbps) the medians of the passes at its own buffers'
// offsets: every pass on a pinned point, else the closing ones (its offsets are known once it
// has rounds; the opening ones, at malloc's placement, price it until then).
struct PointPrices {
    // Where a copy's destination starts within its page; none: where malloc put it.
    using Offset = std::optional<std::uint32_t>;
    // GB/s of each pass so far: memcpy's from an anonymous source, the kernel's copy out of the
    // page cache, and a mapping's fold and memcpy of the cached file in place (mappedRates).
    // The copies by the page offset of the buffer copied into: a cell is priced at its own
    // buffers' offsets (its rounds' most common ones, weighted by how many buffers started
    // there), known once it has rounds; before them, at the point's pinned offset or malloc's.
    std::vector<double> memcpy, mappedFold;
    // The fold's and memset's rates on a warm buffer of the range size (foldGbps, memsetGbps):
    // the one PointRates took as the point was set up, and two more with the closing prices.
    // A cell is priced at their median, as the copies are at theirs: one 20 ms sample taken
    // before the rounds once priced a 64 KiB fold at half the speed of the point before and
    // after it, and left its cells 17-29% over-predicted.
    std::vector<double> foldRates, memsetRates;
    std::map<Offset, std::vector<double>> kernelCopy, mappedCopy;
    // Seconds of each pass: a fault on the cached file's pages through a fresh mapping, and
    // one page unmapped (platform::mappedFaultCosts).
    std::vector<double> mappedFault, mappedUnmap;
    // The copies and folds of cells whose reads land in more than one range's buffer, by
    // where they land (cellDestinations): a coalescing cell's spans (up to kCoalesceMaxSpan;
    // priced at the range's size they were 40-55% unexplained), an io_uring cell's slot buffers
    // (32 in flight of 1 MiB write 32 MiB before the first is read again; priced at one buffer
    // they were 31-48% unexplained from 256 KiB up). Measured once the cell has rounds, so by
    // the closing prices.
    std::map<Destinations, std::vector<double>> destinationCopy, destinationFold;
    // Prices taken in a rhythm (roundRhythm) for a cell whose rounds touch more than L2 and
    // paused long enough between them, in place of the back-to-back ones, by destinations and
    // the cell's most common page offset: the kernel's copy, with its fold (kernelCopyRates),
    // and a mapping's memcpy out of the file (mappedRates); and, once a point, a fresh
    // mapping's faults and unmapped pages (mappedFaultCosts). Each with the pause it was taken
    // after. Measured once the cells have rounds (the closing prices).
    // A cell that zeroes its buffers before each read (pread-zerofill, calloc's reused memory)
    // is priced apart, with the memset in the same passes (rhythmZeroedCopy): priced as a
    // memset on a warm buffer and a copy into lines that no memset had just written,
    // pread-zerofill's 8 MiB cells came out 10-28% over-predicted.
    struct PausedRates {
        std::vector<double> copy, fold, zero; // GB/s per pass
        double pauseSeconds = 0;
    };
    std::map<std::pair<Destinations, Offset>, PausedRates> rhythmCopy, rhythmZeroedCopy,
        rhythmMappedCopy;
    platform::MappedFaults rhythmMappedFault;
    double rhythmFaultPause = 0;
    using Share = PriceShare;
    static constexpr int kClosingSweeps = 3;
    // Takes one sampling's passes, or its share of them (untimed for the cells): memcpy's
    // through `limit` with the point's threads and buffer offset, the others over the cached
    // file's first bytes (as many as memcpy's source) open at fd, once per buffer offset a cell
    // needs; then updates the cells that can run (not unavailable) from every pass so far. A
    // stop request ends the sampling between passes: no pass starts after it.
    void take(CopyLimit& limit, int fd, std::uint64_t fileSize, const SweepPoint& point,
              int threads, const ResultDocument& doc, std::vector<Cell>& cells,
              std::stop_token stop = {}, Share share = {});

private:
    // take()'s last steps (destination_prices.cpp): in its rounds' rhythm, the copy of each
    // cell that copies past L2 through the kernel (at its own destinations), and the copy and
    // faults of each cell whose rounds map more than L2 of the file; then, back to back, the
    // copy and fold of each other cell that cellDestinations names, at its own destinations.
    void priceDestinations(int fd, std::uint64_t span, const SweepPoint& point,
                           const ResultDocument& doc, std::vector<Cell>& cells,
                           std::stop_token stop, Share share);
    void priceInRhythm(int fd, std::uint64_t span, const SweepPoint& point, int threads,
                       const ResultDocument& doc, std::vector<Cell>& cells, std::stop_token stop,
                       Share share);
    // take()'s first step: the fold's and memset's rates sampled again once the cells have
    // rounds (two samples over the closing's sweeps), and every cell that has them priced at
    // their median.
    void sampleWarmRates(const SweepPoint& point, std::vector<Cell>& cells, Share share);
};

// Shared by the price steps. A strategy whose reads the kernel copies out of the page cache
// (kernelCopyRates' price); the page offsets a cell's copies are priced at, with their weights:
// the pinned one, else the most common ones its rounds' buffers started at (at most
// kPricedOffsets), else malloc's placement.
bool copiesThroughTheKernel(const Cell& cell);
inline constexpr std::size_t kPricedOffsets = 3;
std::vector<std::pair<PointPrices::Offset, double>> pricedOffsets(const Cell& cell,
                                                                  const SweepPoint& point);

} // namespace readscope
