#pragma once
// What the POSIX and Windows readers share: the kept buffer (reused, or aligned for direct
// reads), read()'s opening and closing, the dispatch of one range to the strategy's way of
// reading it, and the loops that read until a range is done. Derived supplies the calls that
// differ between platforms: readAt (one positioned read), seekTo and readNext (seek, then
// read), adviseWillNeed, readToEnd, and mapKept (the kept mapping of a MapLifetime::Kept
// strategy, made when missing), and its platform's name, kPlatform.
// Also the loop every reader's read() shares and the platform readers' factories. Private to
// the core.
#include "buffers.h"
#include "clock.h"
#include "consumer.h"
#include "readscope/reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <numeric>
#include <utility>
#include <vector>

namespace readscope {

// This platform's reader for an available strategy: posix_reader.cpp or win_reader.cpp.
Result<std::unique_ptr<RangeReader>>
openPlatformReader(const StrategyInfo& strategy, const FileProbe& file, std::uint64_t maxRange);
Result<std::unique_ptr<RangeReader>> openUringReader(const StrategyInfo& strategy,
                                                     const FileProbe& file, std::uint64_t maxRange);

inline std::uint64_t clippedLength(const Range& r, std::uint64_t fileSize) {
    if (r.offset >= fileSize)
        return 0;
    return std::min(r.length, fileSize - r.offset);
}

// Buffers a strategy keeps across ranges are allocated when the reader opens and kept for the
// whole run while each is at most this large; larger ones are allocated before each round
// (untimed) and freed after it, so that peak memory stays near threads x largest range.
// (Allocating even small kept buffers per round measured 10-80% slower kernel copies into
// them on the test VM, for reasons not understood; buffers made at open do not show it.)
inline constexpr std::uint64_t kKeepBufferLimit = 64ull << 20;

// Times at most kMaxLatencySamples evenly spaced ranges per read() call: two clock reads per
// range cost 2-3% of a 64 KiB pread, and 10% of mmap-copy-kept's 64 KiB memcpy at 22 GB/s
// (kvm-clock reads take ~100 ns here), which the overhead benchmark sees; one range in k costs
// 1/k. 128 samples per round still give a p99 per round (between its two slowest), and the
// cell's figure is the median over rounds.
inline constexpr std::size_t kMaxLatencySamples = 128;
inline std::size_t latencyStride(bool enabled, std::size_t ranges) {
    if (!enabled)
        return 0;
    return std::max<std::size_t>(1, (ranges + kMaxLatencySamples - 1) / kMaxLatencySamples);
}

// Calls the hook set by setRangeReadHookForTesting(), if any.
void callRangeReadHook(std::size_t index);

// What one range's read obtained: its bytes, or a failure whose words the reader keeps
// (ReaderBase::fail), built only when a read fails. Returning a Result<std::uint64_t> (a
// variant holding an error's string) through the calls a range takes instead cost 17 user
// instructions per 16 KiB pread and 33 per lseek + read (callgrind: 695 -> 678 and 647 -> 614
// per range; the plainest C loop takes 340, scripts/count-overhead.sh).
class Count {
public:
    constexpr Count(std::uint64_t bytes) : bytes_(bytes) {}
    static constexpr Count failure() {
        Count c(0);
        c.ok_ = false;
        return c;
    }
    constexpr explicit operator bool() const { return ok_; }
    constexpr std::uint64_t operator*() const { return bytes_; }

private:
    std::uint64_t bytes_;
    bool ok_ = true;
};

// The loop every reader's read() shares: ends early when asked to stop, and times every
// stride-th range. readOne(range, index) returns the Count it obtained; false when a range
// failed (the reader holds its words: ReaderBase::failedRead).
template <class ReadOne>
bool readEachRange(std::span<const Range> ranges, bool recordLatencies, std::stop_token stop,
                   ReadOutcome& out, ReadOne&& readOne) {
    const std::size_t stride = latencyStride(recordLatencies, ranges.size());
    if (stride)
        out.latencies.reserve(ranges.size() / stride + 1);
    // Counts down to the next timed range: a division per range (i % stride) was one of the
    // loop's dearest instructions.
    std::size_t untilTimed = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (stop.stop_requested()) {
            out.stopped = true;
            break;
        }
        const bool timed = stride && untilTimed-- == 0;
        if (timed)
            untilTimed = stride - 1;
        const auto t0 = timed ? Clock::now() : Clock::time_point{};
        const Count got = readOne(ranges[i], i);
        if (!got)
            return false;
        out.bytes += *got;
        if (timed)
            out.latencies.push_back(secondsBetween(t0, Clock::now()));
        callRangeReadHook(i);
    }
    return true;
}

template <class Derived> class ReaderBase : public RangeReader {
public:
    // The kept buffer, then the kept mapping of a MapLifetime::Kept strategy (Derived's
    // mapKept(), a no-op for the others): both untimed.
    Status prepare(std::uint64_t rangeBytes) override {
        if (auto st = prepareBuffer(rangeBytes); !st)
            return st;
        return derived().mapKept();
    }

private:
    Status prepareBuffer(std::uint64_t rangeBytes) {
        if (!needsBuffer())
            return okStatus();
        const std::uint64_t bytes = bufferBytesFor(rangeBytes);
        if (buffer_.size() >= bytes && buffer_.offset() == keptOffset())
            return okStatus();
        buffer_ = {};
        try {
            buffer_ = AlignedBuffer(
                bytes, s_.access == Access::Direct ? f_.directAlign : f_.pageSize, keptOffset());
        } catch (const std::bad_alloc&) {
            return Error{fmt::format("cannot allocate a {}-byte buffer for {}", bytes, s_.id)};
        }
        return okStatus();
    }

public:
    void release() override {
        if (buffer_.size() > kKeepBufferLimit)
            buffer_ = {};
    }

    void openEachRead(bool on) override { eachRead_ = on; }

    void placeBuffers(std::optional<std::uint32_t> offset, std::uint32_t largest) override {
        placement_.offset = offset; // a kept buffer elsewhere is remade by prepare()
        placement_.largestOffset = largest;
    }

protected:
    ReaderBase(const StrategyInfo& s, const FileProbe& f)
        : s_(s), f_(f), placement_{std::nullopt, f.pageSize, 0} {}

    // The reused buffer at the pinned offset (page-aligned under auto: it is the engine's own
    // allocation, and page-aligned is where a program that cares puts one); the direct-I/O
    // buffer always at the device's alignment.
    std::size_t keptOffset() const {
        return s_.access == Access::Direct ? 0 : placement_.offset.value_or(0);
    }

    // The tally of this read() call's buffers, handed to its outcome.
    OffsetCounts takeBufferOffsets() { return std::exchange(tally_, OffsetTally{}).counts(); }

    bool mapsFile() const { return s_.mapsFile(); }
    bool keepsMapping() const { return mapsFile() && s_.mapping == MapLifetime::Kept; }

    // "pread on 'f' at offset N failed: why", the same words on every platform.
    std::string ioError(const char* call, std::uint64_t offset, const std::string& why) const {
        return fmt::format("{} on '{}' at offset {} failed: {}", call, f_.path, offset, why);
    }

    // A whole-file read that sizes its buffer or mapping from the file asks the file for its
    // size after opening it, inside the timed read (as std::fs::read's statx, or a program's
    // fstat): every strategy but growing-to-end, which needs no size.
    bool asksForSize() const {
        return !(s_.access == Access::ReadToEnd && s_.buffer == BufferKind::Grown);
    }

    // The size a whole-file read found, checked against the size the run planned for.
    Status checkSize(std::uint64_t size, std::uint64_t offset) const {
        if (size == f_.size)
            return okStatus();
        return Error{ioError("a size check", offset,
                             fmt::format("the file is now {} bytes, not {}", size, f_.size))};
    }

    bool needsBuffer() const {
        return s_.access == Access::Direct ||
               (s_.access == Access::Pread && s_.buffer == BufferKind::Reused);
    }

    std::uint64_t bufferBytesFor(std::uint64_t rangeBytes) const {
        const std::uint64_t n = std::min(rangeBytes, f_.size);
        if (s_.access == Access::Direct)
            return alignUp(n, f_.directAlign) + 2 * f_.directAlign;
        return alignUp(n ? n : 1, f_.pageSize);
    }

    // Before a read() whose caller did not prepare(): the kept buffer for its longest range.
    Status prepareFor(std::span<const Range> ranges) {
        if (!needsBuffer())
            return okStatus();
        std::uint64_t longest = 0;
        for (const auto& r : ranges)
            longest = std::max(longest, r.length);
        return buffer_.size() < bufferBytesFor(longest) || buffer_.offset() != keptOffset()
                   ? prepare(longest)
                   : okStatus();
    }

    // read()'s opening: a fresh seek count and buffer tally, the kept buffer ready.
    Status beginRead(std::span<const Range> ranges) {
        seeks_ = 0;
        tally_ = {};
        return prepareFor(ranges);
    }

    // read()'s closing: what consuming produced, the seeks and where the buffers were.
    ReadOutcome finishRead(ReadOutcome& out, const Consumer& consumer) {
        out.value = consumer.value();
        out.seeks = std::exchange(seeks_, 0);
        out.bufferOffsets = takeBufferOffsets();
        return std::move(out);
    }

    // One range, the strategy's way. map is the file's mapping for the mapping strategies.
    Count readOne(const Range& r, std::uint64_t index, Consumer& consumer, std::byte* map,
                  std::uint64_t& syscalls) {
        const std::uint64_t want = clippedLength(r, f_.size);
        switch (s_.access) {
        case Access::Pread: return readPositioned(r, index, consumer, syscalls);
        case Access::SeekRead: return readAfterSeek(r, index, consumer, syscalls);
        case Access::ReadToEnd: return counted(derived().readToEnd(r, index, consumer, syscalls));
        case Access::AsRuntime: // the file itself, whole (validatePlan refuses other patterns)
            if (r.offset != 0 || want != f_.size)
                return fail(fmt::format("{} reads whole files only (--pattern whole)", s_.id));
            return counted(derived().readRuntime(r, index, consumer, syscalls));
        case Access::MapCopy: {
            // A member, not a local: a SIGBUS guard's jump out of the copy must not leak it.
            scratch_ = freshBuffer(want, placement_);
            tally_.add(scratch_.get(), f_.pageSize);
            std::memcpy(scratch_.get(), map + r.offset, want);
            consumer.buffer({scratch_.get(), want}, index);
            scratch_.reset();
            return want;
        }
        case Access::MapInPlace: {
            if (s_.hint == Hint::WillNeed && want) {
                const auto start = alignDown(r.offset, f_.pageSize);
                if (auto st = derived().adviseWillNeed(map + start, start, r.offset + want - start,
                                                       syscalls);
                    !st)
                    return fail(st.error());
            }
            consumer.inPlace({map + r.offset, want}, index);
            return want;
        }
        case Access::Direct: return readAligned(r, index, consumer, syscalls);
        case Access::UringBatch:
        case Access::Coalesce: break; // whole batches: readCoalesced(), the io_uring reader
        }
        return fail(fmt::format("strategy '{}' has no {} read loop", s_.id, Derived::kPlatform));
    }

    // pread-coalesce: batches of coalesceBatchRanges() ranges (the cell's ranges all have one
    // length), each sorted by offset; neighbours whose
    // gap is at most kCoalesceGap merge into one span (at most kCoalesceMaxSpan, or one range),
    // read with positioned reads into a fresh buffer; every range is consumed from inside its
    // span under its own index, so the checksum is the one range-by-range reads give.
    Status readCoalesced(std::span<const Range> ranges, Consumer& consumer, std::stop_token stop,
                         ReadOutcome& out) {
        std::vector<std::size_t> order;
        const std::size_t batch = coalesceBatchRanges(ranges.empty() ? 1 : ranges[0].length);
        for (std::size_t first = 0; first < ranges.size(); first += batch) {
            if (stop.stop_requested()) {
                out.stopped = true;
                break;
            }
            order.resize(std::min(batch, ranges.size() - first));
            std::iota(order.begin(), order.end(), first);
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                return ranges[a].offset < ranges[b].offset;
            });
            for (std::size_t i = 0; i < order.size();) {
                // Ends clipped at the end of the file: a range past it adds nothing to read.
                auto endOf = [&](const Range& r) {
                    return std::min(r.offset + clippedLength(r, f_.size), f_.size);
                };
                // A span that starts past the end of the file ends where it starts: nothing
                // to read, whatever merges into it.
                const std::uint64_t start = ranges[order[i]].offset;
                std::uint64_t end = std::max(start, endOf(ranges[order[i]]));
                std::size_t j = i + 1;
                for (; j < order.size(); ++j) {
                    const Range& r = ranges[order[j]];
                    const std::uint64_t rEnd = endOf(r);
                    if (r.offset > end + kCoalesceGap ||
                        std::max(end, rEnd) - start > kCoalesceMaxSpan)
                        break;
                    end = std::max(end, rEnd);
                }
                if (auto st =
                        readSpan({order.data() + i, j - i}, ranges, start, end, consumer, out);
                    !st)
                    return st;
                i = j;
            }
        }
        return okStatus();
    }

    // One merged span [start, end) of the ranges at `members`, read and sliced.
    Status readSpan(std::span<const std::size_t> members, std::span<const Range> ranges,
                    std::uint64_t start, std::uint64_t end, Consumer& consumer, ReadOutcome& out) {
        FreshBuffer span = freshBuffer(end > start ? end - start : 1, placement_);
        tally_.add(span.get(), f_.pageSize);
        std::uint64_t got = 0;
        if (end > start) {
            auto n = readAtFull(span.get(), end - start, start, out.syscalls);
            if (!n)
                return std::exchange(failure_, Error{});
            got = *n;
        }
        out.bytesRead += got;
        for (const std::size_t index : members) {
            const Range& r = ranges[index];
            const std::uint64_t skip = r.offset - start;
            const std::uint64_t usable =
                got > skip ? std::min(clippedLength(r, f_.size), got - skip) : 0;
            // A range past the end of the file has nothing in the span (and no pointer past it).
            consumer.buffer({usable ? span.get() + skip : span.get(), usable}, index);
            out.bytes += usable;
            callRangeReadHook(index);
        }
        return okStatus();
    }

    // Positioned reads until want bytes or the end of the file.
    Count readAtFull(std::byte* buf, std::uint64_t want, std::uint64_t off,
                     std::uint64_t& syscalls) {
        return untilDone(want, [&](std::uint64_t got) {
            return derived().readAt(buf + got, want - got, off + got, syscalls);
        });
    }

    // One seek, then reads until want bytes or the end of the file.
    Count seekReadFull(std::byte* buf, std::uint64_t want, std::uint64_t off,
                       std::uint64_t& syscalls) {
        if (!derived().seekTo(off, syscalls))
            return Count::failure();
        return untilDone(want, [&](std::uint64_t got) {
            return derived().readNext(buf + got, want - got, off + got, syscalls);
        });
    }

    // Calls readSome(bytes so far) until want bytes or a read of 0 (the end of the file).
    // Inlined, with the common case (one call reads it all) first: called once a range in the
    // timed loop, it was 50 of the reader's 240 user instructions a 16 KiB range (callgrind).
    template <class ReadSome>
    [[gnu::always_inline]] static Count untilDone(std::uint64_t want, ReadSome&& readSome) {
        if (want == 0)
            return Count(0);
        const Count first = readSome(0);
        if (!first || *first == want || *first == 0)
            return first;
        std::uint64_t got = *first;
        while (got < want) {
            const Count n = readSome(got);
            if (!n)
                return n;
            if (*n == 0)
                break;
            got += *n;
        }
        return got;
    }

    // pread / ReadFile at an offset, into a fresh (zeroed or not) or the reused buffer.
    Count readPositioned(const Range& r, std::uint64_t index, Consumer& consumer,
                         std::uint64_t& syscalls) {
        const std::uint64_t want = clippedLength(r, f_.size);
        FreshBuffer fresh;
        std::byte* buf = buffer_.data();
        if (s_.buffer != BufferKind::Reused) {
            fresh = freshBuffer(want, placement_,
                                s_.buffer == BufferKind::FreshCalloc ? Zeroing::ByAllocator
                                                                     : Zeroing::None);
            buf = fresh.get();
            if (s_.buffer == BufferKind::FreshZeroed)
                zeroFill(buf, want);
        }
        tally_.add(buf, f_.pageSize);
        auto got = readAtFull(buf, want, r.offset, syscalls);
        if (got)
            consumer.buffer({buf, *got}, index);
        return got;
    }

    // lseek + read / SetFilePointerEx + ReadFile, into a fresh buffer.
    Count readAfterSeek(const Range& r, std::uint64_t index, Consumer& consumer,
                        std::uint64_t& syscalls) {
        const std::uint64_t want = clippedLength(r, f_.size);
        auto fresh = freshBuffer(want, placement_);
        tally_.add(fresh.get(), f_.pageSize);
        ++seeks_;
        auto got = seekReadFull(fresh.get(), want, r.offset, syscalls);
        if (got)
            consumer.buffer({fresh.get(), *got}, index);
        return got;
    }

    // O_DIRECT / FILE_FLAG_NO_BUFFERING: the range rounded out to the alignment, read into the
    // aligned buffer, the wanted bytes taken from inside it.
    Count readAligned(const Range& r, std::uint64_t index, Consumer& consumer,
                      std::uint64_t& syscalls) {
        const std::uint64_t want = clippedLength(r, f_.size);
        const std::uint64_t a = f_.directAlign;
        const std::uint64_t start = alignDown(r.offset, a);
        const std::uint64_t end = alignUp(r.offset + want, a);
        if (end - start > buffer_.size())
            return fail(fmt::format("direct read of {} bytes exceeds its buffer", end - start));
        tally_.add(buffer_.data(), f_.pageSize);
        auto got = readAtFull(buffer_.data(), end - start, start, syscalls);
        if (!got)
            return got;
        const std::uint64_t skip = r.offset - start;
        const std::uint64_t usable = *got > skip ? std::min(want, *got - skip) : 0;
        consumer.buffer({buffer_.data() + skip, usable}, index);
        return usable;
    }

    // A failed range's words, kept for read() to return: the hot path carries only a Count.
    Count fail(std::string message) {
        failure_ = Error{std::move(message)};
        return Count::failure();
    }
    Count fail(const Error& error) { return fail(error.message); }
    Count counted(const Result<std::uint64_t>& got) {
        return got ? Count(*got) : fail(got.error());
    }
    // The failed range's words as the read's error, made out of line: no string is built in a
    // read() frame that a SIGBUS guard may jump back into (-Wclobbered).
    [[gnu::noinline]] Result<ReadOutcome> failedRead() { return std::exchange(failure_, Error{}); }

    const StrategyInfo& s_;
    FileProbe f_;
    Error failure_;
    AlignedBuffer buffer_; // reused buffer, or the aligned direct-I/O buffer
    BufferPlacement placement_;
    OffsetTally tally_;
    std::uint64_t seeks_ = 0;
    bool eachRead_ = false; // a whole-file sweep: every range opens and closes the file
    FreshBuffer scratch_;   // a mapping copy's fresh buffer, owned outside the fault path

private:
    Derived& derived() { return static_cast<Derived&>(*this); }
};

} // namespace readscope
