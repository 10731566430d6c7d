#pragma once
// One worker's reader for one strategy: owns its descriptors, reused buffers and io_uring
// ring (set up untimed), and reads a list of ranges the strategy's way (timed by the caller).
#include "readscope/buffer_offsets.h"
#include "readscope/consume.h"
#include "readscope/probe.h"
#include "readscope/range.h"
#include "readscope/result.h"
#include "readscope/strategy.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <vector>

namespace readscope {

// io_uring batches: how many reads a worker keeps in flight for ranges of this size: 32, or
// fewer for large ranges so that the pool of slot buffers stays within 128 MiB. Decided from
// each cell's own range size, never from the other sizes of the sweep.
inline constexpr unsigned kUringMaxDepth = 32;
inline constexpr std::uint64_t kUringPoolBytes = 128ull << 20;
// The deepest queue a plan may ask for (kQueueDepthLimit).
inline constexpr unsigned kUringMaxAskedDepth = 256;
inline unsigned uringQueueDepth(std::uint64_t rangeBytes) {
    const std::uint64_t fit = kUringPoolBytes / (rangeBytes ? rangeBytes : 1);
    return static_cast<unsigned>(fit < 1 ? 1 : fit > kUringMaxDepth ? kUringMaxDepth : fit);
}
// The depth an io_uring reader keeps for ranges of this size: the one asked for, or its own.
inline unsigned effectiveQueueDepth(std::optional<unsigned> asked, std::uint64_t rangeBytes) {
    return asked ? *asked : uringQueueDepth(rangeBytes);
}

// pread-coalesce, as object_store's get_ranges: the ranges of a round go in batches of
// kCoalesceBatch (one call each); a batch sorted by offset merges neighbours whose gap is at
// most kCoalesceGap (object_store's OBJECT_STORE_COALESCE_DEFAULT) into one read, which never
// spans more than kCoalesceMaxSpan (object_store has no such cap; it keeps memory bounded, and
// below glibc's largest mmap threshold, 32 MiB: a fresh 64 MiB buffer is always a new
// mapping, and a pread into one ran at 0.3 GB/s on the development VM against 1.4 at 8 MiB).
inline constexpr std::size_t kCoalesceBatch = 1024;
inline constexpr std::uint64_t kCoalesceBatchBytes = 16ull << 20;
inline constexpr std::uint64_t kCoalesceGap = 1ull << 20;
inline constexpr std::uint64_t kCoalesceMaxSpan = 16ull << 20;
// Ranges per batch: up to kCoalesceBatch, and no more than kCoalesceBatchBytes of them (at
// least one), as a reader asks for a row group's column chunks in one call: 1024 ranges of
// 8 KiB, 256 of 64 KiB, 2 of 8 MiB. readscope's choice; object_store merges whatever one call
// asks for.
inline std::size_t coalesceBatchRanges(std::uint64_t rangeBytes) {
    const std::uint64_t fit = kCoalesceBatchBytes / (rangeBytes ? rangeBytes : 1);
    return static_cast<std::size_t>(fit < 1 ? 1 : fit > kCoalesceBatch ? kCoalesceBatch : fit);
}

struct ReadOutcome {
    std::uint64_t bytes = 0;       // bytes obtained (ranges clipped at end of file)
    std::uint64_t value = 0;       // what consuming produced (checksum in All/Verify)
    std::uint64_t syscalls = 0;    // system calls the read loop issued
    std::uint64_t seeks = 0;       // of which lseek
    std::uint64_t bytesRead = 0;   // asked of the file, when more than bytes (0: the same)
    std::vector<double> latencies; // seconds per range, when asked for
    OffsetCounts bufferOffsets;    // page offsets of the buffers read into (none: in place)
    unsigned queueDepth = 0;       // most reads in flight at once (io_uring); 0: one at a time
    bool stopped = false;          // the stop token ended the read early
};

class RangeReader {
public:
    RangeReader();          // calls the reader-call hook (Open), when a test set one
    virtual ~RangeReader(); // and Close
    RangeReader(const RangeReader&) = delete;
    RangeReader& operator=(const RangeReader&) = delete;
    virtual Result<ReadOutcome> read(std::span<const Range> ranges, ConsumeMode mode,
                                     bool recordLatencies, std::stop_token stop) = 0;
    // Untimed, before a round: allocate and touch what the strategy keeps across ranges (the
    // reused buffer, the aligned direct-I/O buffer, the io_uring buffer pool), sized for
    // ranges of rangeBytes. read() prepares by itself when this was not called.
    virtual Status prepare(std::uint64_t /*rangeBytes*/) { return okStatus(); }
    // After the round: give back kept buffers over 64 MiB, so that only one strategy's huge
    // buffers live at a time and peak memory stays near threads x largest range.
    virtual void release() {}
    // Where destination buffers start from now on: nullopt leaves it to the allocator, N puts
    // every buffer at page offset N; largestOffset is the largest the run will ask for (see
    // BufferPlacement). Kept buffers made for another placement are made again by the next
    // prepare(). Direct-I/O buffers keep the device's alignment whatever is asked.
    virtual void placeBuffers(std::optional<std::uint32_t> /*offset*/,
                              std::uint32_t /*largestOffset*/) {}
    // io_uring readers: how many reads to keep in flight from now on (nullopt: their own
    // choice per range size, uringQueueDepth). The next prepare() remakes the pool if needed.
    // Readers that read one range at a time ignore it.
    virtual void useQueueDepth(std::optional<unsigned> /*depth*/) {}
    // Around an eviction (cold runs, untimed): let go of whatever keeps the file's pages
    // cached, then take it back. A kept mapping must go (pages mapped by any process survive
    // POSIX_FADV_DONTNEED); on Windows every cached handle must close (the cache manager
    // purges a file only when no cached handle is open). The next read() works only after
    // takeBackFile() succeeded.
    virtual void letGoOfFile() {}
    virtual Status takeBackFile() { return okStatus(); }
    // A whole-file sweep's reads: every range opens the file, reads it (mapping and unmapping
    // it, for the mapping strategies) and closes it, all inside the timed read, as a program
    // that reads files whole pays. Readers that cannot (io_uring batches, kept mappings) are
    // not offered such runs (see wholeFileReadExclusion).
    virtual void openEachRead(bool /*on*/) {}
};

// Why a strategy has no whole-file-sweep form (empty: it has one).
std::string wholeFileReadExclusion(const StrategyInfo& strategy);

// Fails with a reason when the strategy cannot run on this file (the same reason
// availability() gives). Kept buffers up to 64 MiB are made here for maxRange; larger ones
// by prepare() before each round.
Result<std::unique_ptr<RangeReader>> openReader(const StrategyInfo& strategy, const FileProbe& file,
                                                std::uint64_t maxRange);

// The device limit's queued reader: io_uring on an O_DIRECT descriptor, keeping `depth` reads
// in flight into page-aligned pooled buffers (offsets and lengths must be aligned as direct
// I/O asks). Not a strategy; fails with the reason where io_uring or direct I/O is missing.
Result<std::unique_ptr<RangeReader>> openDirectUringReader(const FileProbe& file, unsigned depth);

// Test seam: when set, called on the reading thread after each range that a platform reader
// obtained, with the range's index in the read() call. Lets a test act at a known point of a
// read (truncate the file after range 2) instead of sleeping and hoping the read is still
// going. Nothing in the product sets it; unset, it costs one atomic load (acquire, a plain
// load on x86) and a call per range: under 0.1% of a 4 KiB pread.
using RangeReadHook = void (*)(std::size_t index, void* context);
void setRangeReadHookForTesting(RangeReadHook hook, void* context);

// Test seam: when set, called on the calling thread whenever a reader is made (Open), obtains a
// range (Read, where the range-read hook is called) or is destroyed (Close), so that a test can
// see which threads use the engine's readers (a window's GUI thread must never). Nothing in the
// product sets it.
enum class ReaderCall { Open, Read, Close };
using ReaderCallHook = void (*)(ReaderCall call, void* context);
void setReaderCallHookForTesting(ReaderCallHook hook, void* context);

// The file's own bytes for these ranges, read plainly: what every strategy must match.
Result<std::uint64_t> referenceChecksum(const FileProbe& file, std::span<const Range> ranges);
// The same, one checksum per range; combinePrefix(sums, k) is the reference of the first k
// ranges, so that strategies reading different prefixes of one sequence share one pass.
Result<std::vector<std::uint64_t>> referenceRangeChecksums(const FileProbe& file,
                                                           std::span<const Range> ranges);
std::uint64_t combinePrefix(std::span<const std::uint64_t> rangeSums, std::size_t count);

} // namespace readscope
