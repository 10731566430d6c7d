#include "platform.h"
#include "reader_base.h"
#include "runtime_reads.h"
#include "sigbus_guard.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace readscope {

namespace {

constexpr std::size_t kGrowStart = 8 << 10;

// One file mapping: for the duration of one read() call (mapped and unmapped inside the timed
// round, so cold rounds find nothing mapped and eviction works), or kept by the reader for
// the whole run (MapLifetime::Kept; let go of around evictions).
class Mapping {
public:
    Mapping() = default;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping() {
        if (base_)
            ::munmap(base_, size_);
    }
    Status map(int fd, std::uint64_t size, bool populateAtMap, std::uint64_t& syscalls) {
        void* p = platform::mapFile(fd, size, populateAtMap);
        ++syscalls;
        if (!p)
            return Error{fmt::format("mmap failed: {}", std::strerror(errno))};
        base_ = static_cast<std::byte*>(p);
        size_ = size;
        return okStatus();
    }
    void unmap(std::uint64_t& syscalls) {
        if (base_) {
            ::munmap(base_, size_);
            ++syscalls;
            base_ = nullptr;
        }
    }
    std::byte* base() const { return base_; }

private:
    std::byte* base_ = nullptr;
    std::uint64_t size_ = 0;
};

class PosixReader final : public ReaderBase<PosixReader> {
    friend class ReaderBase<PosixReader>;

public:
    PosixReader(const StrategyInfo& s, const FileProbe& f, UniqueFd fd)
        : ReaderBase(s, f), fd_(std::move(fd)) {}

    void letGoOfFile() override {
        std::uint64_t untimed = 0;
        kept_.unmap(untimed);
    }

    Status takeBackFile() override { return mapKept(); }

    Result<ReadOutcome> read(std::span<const Range> ranges, ConsumeMode mode, bool recordLatencies,
                             std::stop_token stop) override {
        ReadOutcome out;
        if (auto st = beginRead(ranges); !st)
            return st.error();
        Consumer consumer(mode, f_.pageSize, s_.hint == Hint::Prefetch);
        Mapping mapping;
        const bool mapped = mapsFile();
        if (mapped && !eachRead_) {
            if (auto st = keepsMapping()
                              ? mapKept()
                              : setUpMapping(mapping, ranges, out.syscalls, &out.bytesRead);
                !st)
                return st.error();
        }
        // A file that shrinks while mapped turns the next touch past its new end into SIGBUS;
        // the guard turns that into this cell's error. Nothing that owns memory lives in the
        // frames a fault unwinds: the copy buffer is a member (scratch_).
        SigbusGuard guard;
        std::optional<ScopedSigbusGuard> scope;
        if (mapped) {
            scope.emplace(guard);
            // Saving the signal mask is a system call (rt_sigprocmask), once per read: counted,
            // as strace sees it (tst_syscall_counts).
            ++out.syscalls;
            // The whole controlling expression, as C requires of setjmp; and in this frame,
            // which stays alive while the guarded reads run.
            if (sigsetjmp(guard.env, 1) != 0)
                return shrankWhileMapped(guard, mappedBase(mapping));
        }
        if (s_.access == Access::Coalesce) {
            if (auto st = readCoalesced(ranges, consumer, stop, out); !st)
                return st.error();
            return finishRead(out, consumer);
        }
        const bool ok =
            readEachRange(ranges, recordLatencies, stop, out, [&](const Range& r, std::size_t i) {
                if (eachRead_)
                    return readWholeFile(r, i, consumer, mapping, out.syscalls);
                return readOne(r, i, consumer, mappedBase(mapping), out.syscalls);
            });
        if (eachRead_)
            fd_.reset(); // a read that failed midway leaves nothing open
        if (!ok)
            return failedRead();
        mapping.unmap(out.syscalls);
        return finishRead(out, consumer);
    }

    // The descriptor this strategy reads through: O_DIRECT (F_NOCACHE) for direct I/O; advised
    // for pread-random and pread-sequential.
    static int openFor(const StrategyInfo& s, const std::string& path) {
        const int fd = s.access == Access::Direct ? platform::openUncached(path)
                                                  : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && advisesDescriptor(s))
            platform::adviseDescriptor(fd, s.hint == Hint::RandomAccess);
        return fd;
    }

    static bool advisesReadAhead(const StrategyInfo& s) {
        return s.hint == Hint::RandomAccess || s.hint == Hint::SequentialScan;
    }
    static bool advisesDescriptor(const StrategyInfo& s) {
        return advisesReadAhead(s) && s.access != Access::MapInPlace && s.access != Access::MapCopy;
    }

private:
    // A whole-file sweep's read: open, map (for the mapping strategies), read, unmap, close.
    Count readWholeFile(const Range& r, std::size_t index, Consumer& consumer, Mapping& mapping,
                        std::uint64_t& syscalls) {
        if (s_.access == Access::AsRuntime) // the runtime's own open, size, reads and close
            return counted(readRuntime(r, index, consumer, syscalls));
        fd_ = UniqueFd(openFor(s_, f_.path));
        syscalls += advisesDescriptor(s_) ? 2 : 1; // the open, and its advice
        if (!fd_.valid())
            return fail(ioError("open", r.offset, std::strerror(errno)));
        if (asksForSize()) {
            struct stat st {};
            ++syscalls;
            if (::fstat(fd_.get(), &st) != 0)
                return fail(ioError("fstat", r.offset, std::strerror(errno)));
            if (auto st2 = checkSize(static_cast<std::uint64_t>(st.st_size), r.offset); !st2)
                return fail(st2.error());
        }
        if (mapsFile())
            if (auto st = setUpMapping(mapping, std::span(&r, 1), syscalls); !st)
                return fail(st.error());
        const Count got = readOne(r, index, consumer, mapping.base(), syscalls);
        mapping.unmap(syscalls);
        fd_.reset();
        ++syscalls;
        return got;
    }

    // The error for a SIGBUS in a guarded read: the file shrank under its mapping.
    Error shrankWhileMapped(const SigbusGuard& guard, const std::byte* base) {
        scratch_.reset();
        const auto* at = static_cast<const std::byte*>(guard.faultAddress);
        const std::string where =
            at >= base && at < base + f_.size
                ? fmt::format(" at offset {}", static_cast<std::uint64_t>(at - base))
                : std::string();
        return Error{fmt::format("'{}' shrank while it was mapped: reading{} raised SIGBUS "
                                 "(was the file truncated by another process?)",
                                 f_.path, where)};
    }

    // The mapping this read uses: the kept one, or this read's own.
    std::byte* mappedBase(const Mapping& own) const {
        return keepsMapping() ? kept_.base() : own.base();
    }

    // The kept mapping, made (untimed) if it is not there: the mapping call is paid once, and
    // its first-touch faults by the warm-up rounds, outside every measured round.
    Status mapKept() {
        if (!keepsMapping() || kept_.base())
            return okStatus();
        std::uint64_t untimed = 0;
        if (auto st = kept_.map(fd_.get(), f_.size, false, untimed); !st)
            return Error{fmt::format("mapping '{}': {}", f_.path, st.error().message)};
        adviseMapping(kept_, untimed);
        return okStatus();
    }

    // mmap-random and mmap-sequential: the whole mapping advised, one madvise.
    void adviseMapping(const Mapping& mapping, std::uint64_t& syscalls) const {
        if (!advisesReadAhead(s_))
            return;
        platform::adviseMapping(mapping.base(), f_.size, s_.hint == Hint::RandomAccess);
        ++syscalls;
    }

    // mmap-populate reads the file's pages from its workers' lowest range to their highest:
    // `populated`, where given, gets those bytes (a round's ranges can be far apart, and the
    // gaps between them are read too).
    Status setUpMapping(Mapping& mapping, std::span<const Range> ranges, std::uint64_t& syscalls,
                        std::uint64_t* populated = nullptr) {
        if (auto st = mapping.map(fd_.get(), f_.size, false, syscalls); !st)
            return Error{fmt::format("mapping '{}': {}", f_.path, st.error().message)};
        adviseMapping(mapping, syscalls);
        if (s_.hint != Hint::Populate || ranges.empty())
            return okStatus();
        // Populate the span this worker will read, inside the timed round.
        std::uint64_t lo = f_.size, hi = 0;
        for (const auto& r : ranges) {
            lo = std::min(lo, r.offset);
            hi = std::max(hi, r.offset + clippedLength(r, f_.size));
        }
        if (hi <= lo)
            return okStatus();
        const auto start = alignDown(lo, f_.pageSize);
        ++syscalls;
        if (platform::populateMapping(mapping.base() + start, hi - start)) {
            if (populated)
                *populated += hi - start;
            return okStatus();
        }
        if (errno != EINVAL)
            return Error{fmt::format("madvise(MADV_POPULATE_READ) on '{}' failed: {}", f_.path,
                                     std::strerror(errno))};
        // Before Linux 5.14: populate the whole mapping at mmap time instead.
        mapping.unmap(syscalls);
        if (populated)
            *populated += f_.size;
        return mapping.map(fd_.get(), f_.size, true, syscalls);
    }

    // mmap-willneed's read-ahead request for the mapped range (platform::adviseWillNeed).
    Status adviseWillNeed(std::byte* at, std::uint64_t offset, std::uint64_t length,
                          std::uint64_t& syscalls) {
        ++syscalls; // advice: a refusal changes nothing read
        platform::adviseWillNeed(fd_.get(), at, offset, length);
        return okStatus();
    }

    // One pread (again after EINTR): the bytes it read, 0 at the end of the file.
    Count readAt(std::byte* buf, std::uint64_t n, std::uint64_t off, std::uint64_t& syscalls) {
        for (;;) {
            const ssize_t got = s_.hint == Hint::DontCache
                                    ? platform::readAtUncached(fd_.get(), buf, n, off)
                                    : ::pread(fd_.get(), buf, n, static_cast<off_t>(off));
            ++syscalls;
            if (got >= 0)
                return static_cast<std::uint64_t>(got);
            if (errno != EINTR)
                return fail(
                    ioError(s_.hint == Hint::DontCache ? "preadv2 (RWF_DONTCACHE)" : "pread", off,
                            std::strerror(errno)));
        }
    }

    // False, with the failure kept, when the seek fails.
    bool seekTo(std::uint64_t off, std::uint64_t& syscalls) {
        ++syscalls;
        if (::lseek(fd_.get(), static_cast<off_t>(off), SEEK_SET) >= 0)
            return true;
        fail(ioError("lseek", off, std::strerror(errno)));
        return false;
    }

    // One read at the file position (off names it in an error).
    Count readNext(std::byte* buf, std::uint64_t n, std::uint64_t off, std::uint64_t& syscalls) {
        for (;;) {
            const ssize_t got = ::read(fd_.get(), buf, n);
            ++syscalls;
            if (got >= 0)
                return static_cast<std::uint64_t>(got);
            if (errno != EINTR)
                return fail(ioError("read", off, std::strerror(errno)));
        }
    }

    // The file read whole as its runtime reads it (its own open, size, reads and close).
    Result<std::uint64_t> readRuntime(const Range& r, std::uint64_t index, Consumer& consumer,
                                      std::uint64_t& syscalls) {
        auto got = readAsRuntime(s_.runtime, f_.path, syscalls, nullptr);
        if (!got)
            return got.error();
        if (auto st = checkSize(got->size, r.offset); !st)
            return st.error();
        tally_.add(got->data, f_.pageSize);
        consumer.buffer({got->data, got->size}, index); // before the next read reuses a pool
        return got->size;
    }

    // Read-to-end into a growable buffer: reads are limited to the spare capacity; a full
    // buffer doubles (allocate, copy, free). Reaching end of file costs one read returning 0.
    Result<std::uint64_t> readToEnd(const Range& r, std::uint64_t index, Consumer& consumer,
                                    std::uint64_t& syscalls) {
        const std::uint64_t limit = clippedLength(r, f_.size);
        const bool reachesEof = r.offset + r.length >= f_.size;
        std::uint64_t capacity = s_.buffer == BufferKind::Preallocated ? limit + 1 : 0;
        FreshBuffer buf;
        if (capacity) {
            buf = freshBuffer(capacity, placement_);
            tally_.add(buf.get(), f_.pageSize);
        }
        std::uint64_t filled = 0;
        for (;;) {
            if (filled == limit && !reachesEof)
                break; // a bounded reader ends at its limit without a system call
            if (filled == capacity) {
                const std::uint64_t grown = std::max<std::uint64_t>(kGrowStart, capacity * 2);
                auto bigger = freshBuffer(grown, placement_);
                tally_.add(bigger.get(), f_.pageSize);
                if (filled)
                    std::memcpy(bigger.get(), buf.get(), filled);
                buf = std::move(bigger);
                capacity = grown;
            }
            std::uint64_t ask = capacity - filled;
            if (!reachesEof)
                ask = std::min(ask, limit - filled);
            const ssize_t n =
                ::pread(fd_.get(), buf.get() + filled, ask, static_cast<off_t>(r.offset + filled));
            ++syscalls;
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return Error{ioError("read", r.offset + filled, std::strerror(errno))};
            }
            if (n == 0)
                break;
            filled += static_cast<std::uint64_t>(n);
        }
        consumer.buffer({buf.get(), filled}, index);
        return filled;
    }

    static constexpr const char* kPlatform = "POSIX";
    UniqueFd fd_;
    Mapping kept_; // mmap-copy-kept's mapping, for the whole run
};

} // namespace

namespace {

Result<std::unique_ptr<RangeReader>> openPosixReader(const StrategyInfo& s, const FileProbe& f,
                                                     std::uint64_t maxRange) {
    UniqueFd fd(PosixReader::openFor(s, f.path));
    if (!fd.valid())
        return Error{
            fmt::format("cannot open '{}' for {}: {}", f.path, s.id, std::strerror(errno))};
    auto reader = std::make_unique<PosixReader>(s, f, std::move(fd));
    if (std::min(maxRange, f.size) <= kKeepBufferLimit)
        if (auto st = reader->prepare(maxRange); !st)
            return st.error();
    return std::unique_ptr<RangeReader>(std::move(reader));
}

} // namespace

Result<std::unique_ptr<RangeReader>> openPlatformReader(const StrategyInfo& s, const FileProbe& f,
                                                        std::uint64_t maxRange) {
    if (s.access == Access::UringBatch)
        return openUringReader(s, f, maxRange);
    return openPosixReader(s, f, maxRange);
}

} // namespace readscope
