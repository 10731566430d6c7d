#include "readscope/residency.h"
#include "platform.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

namespace readscope {

namespace {

#ifdef __linux__
#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif
#endif

struct CachestatRange {
    std::uint64_t off, len;
};
struct Cachestat {
    std::uint64_t cache, dirty, writeback, evicted, recentlyEvicted;
};

std::optional<double> viaCachestat(int fd, std::uint64_t size, long pageSize) {
#ifndef __linux__
    (void)fd, (void)size, (void)pageSize;
    return std::nullopt; // cachestat is Linux 6.5+ only
#else
    CachestatRange range{0, size};
    Cachestat cs{};
    if (syscall(SYS_cachestat, fd, &range, &cs, 0) != 0)
        return std::nullopt; // ENOSYS before Linux 6.5
    const auto pages =
        (size + static_cast<std::uint64_t>(pageSize) - 1) / static_cast<std::uint64_t>(pageSize);
    return pages ? static_cast<double>(cs.cache) / static_cast<double>(pages) : 1.0;
#endif
}

std::optional<double> viaMincore(int fd, std::uint64_t size, long pageSize) {
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return std::nullopt;
    const auto pages =
        (size + static_cast<std::uint64_t>(pageSize) - 1) / static_cast<std::uint64_t>(pageSize);
#ifdef __APPLE__
    std::vector<char> vec(pages);
#else
    std::vector<unsigned char> vec(pages);
#endif
    std::optional<double> result;
    if (::mincore(map, size, vec.data()) == 0) {
        std::uint64_t resident = 0;
        for (auto v : vec)
            resident += static_cast<unsigned>(v) & 1;
        result = static_cast<double>(resident) / static_cast<double>(pages);
    }
    ::munmap(map, size);
    return result;
}

// The page numbers to probe: every stride-th page of the ranges, at most kResidencyProbes.
std::vector<std::uint64_t> probePages(std::uint64_t size, std::span<const Range> ranges,
                                      std::uint64_t page) {
    std::uint64_t total = 0;
    for (const auto& r : ranges)
        if (r.offset < size && r.length)
            total += (std::min(r.offset + r.length, size) - 1) / page - r.offset / page + 1;
    const std::uint64_t stride =
        std::max<std::uint64_t>(1, (total + kResidencyProbes - 1) / kResidencyProbes);
    std::vector<std::uint64_t> pages;
    pages.reserve(std::min<std::uint64_t>(total, kResidencyProbes));
    std::uint64_t index = 0;
    for (const auto& r : ranges) {
        if (r.offset >= size || !r.length)
            continue;
        const std::uint64_t first = r.offset / page;
        const std::uint64_t last = (std::min(r.offset + r.length, size) - 1) / page;
        // The next page of this range that falls on the stride.
        std::uint64_t p = first + (index % stride ? stride - index % stride : 0);
        for (; p <= last; p += stride)
            pages.push_back(p);
        index += last - first + 1;
    }
    return pages;
}

std::optional<double> sampledViaCachestat(int fd, const std::vector<std::uint64_t>& pages,
                                          std::uint64_t page) {
#ifndef __linux__
    (void)fd, (void)pages, (void)page;
    return std::nullopt;
#else
    std::uint64_t resident = 0;
    for (auto p : pages) {
        CachestatRange range{p * page, page};
        Cachestat cs{};
        if (syscall(SYS_cachestat, fd, &range, &cs, 0) != 0)
            return std::nullopt;
        resident += cs.cache ? 1 : 0;
    }
    return pages.empty() ? 1.0 : double(resident) / double(pages.size());
#endif
}

// The ranges' pages as runs of consecutive pages (first page, page count), in file order,
// overlapping and touching ranges merged: a sequential round is one run.
std::vector<std::pair<std::uint64_t, std::uint64_t>>
pageRuns(std::uint64_t size, std::span<const Range> ranges, std::uint64_t page) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans; // [first, last] pages
    for (const auto& r : ranges)
        if (r.offset < size && r.length)
            spans.emplace_back(r.offset / page, (std::min(r.offset + r.length, size) - 1) / page);
    if (!std::is_sorted(spans.begin(), spans.end()))
        std::sort(spans.begin(), spans.end());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
    for (const auto& [first, last] : spans) {
        if (!runs.empty() && first <= runs.back().first + runs.back().second) {
            const std::uint64_t end = std::max(runs.back().first + runs.back().second, last + 1);
            runs.back().second = end - runs.back().first;
        } else {
            runs.emplace_back(first, last - first + 1);
        }
    }
    return runs;
}

// Every page of the runs, counted by one cachestat call per run: exact, and for a sequential
// round one system call instead of one per sampled page (4096 calls cost about 5 ms a round
// here, 6 of a default sweep's 114 s).
std::optional<double>
runsViaCachestat(int fd, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& runs,
                 std::uint64_t page, std::uint64_t& pages) {
#ifndef __linux__
    (void)fd, (void)runs, (void)page, (void)pages;
    return std::nullopt;
#else
    std::uint64_t resident = 0;
    pages = 0;
    for (const auto& [first, count] : runs) {
        CachestatRange range{first * page, count * page};
        Cachestat cs{};
        if (syscall(SYS_cachestat, fd, &range, &cs, 0) != 0)
            return std::nullopt;
        resident += std::min(cs.cache, count);
        pages += count;
    }
    return pages ? double(resident) / double(pages) : 1.0;
#endif
}

std::optional<double> sampledViaMincore(int fd, std::uint64_t size,
                                        const std::vector<std::uint64_t>& pages,
                                        std::uint64_t page) {
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return std::nullopt;
    std::optional<double> result;
    std::uint64_t resident = 0;
    bool ok = true;
    for (auto p : pages) {
#ifdef __APPLE__
        char v = 0;
#else
        unsigned char v = 0;
#endif
        if (::mincore(static_cast<char*>(map) + p * page, page, &v) != 0) {
            ok = false;
            break;
        }
        resident += static_cast<unsigned>(v) & 1;
    }
    ::munmap(map, size);
    if (ok)
        result = pages.empty() ? 1.0 : double(resident) / double(pages.size());
    return result;
}

#ifdef RWF_NOWAIT
// 1: cached, 0: not cached, -1: the question cannot be asked this way (errno says why).
int cachedNowait(int fd, std::uint64_t offset) {
    char byte = 0;
    iovec v{&byte, 1};
    for (;;) {
        const ssize_t n = ::preadv2(fd, &v, 1, static_cast<off_t>(offset), RWF_NOWAIT);
        if (n >= 0)
            return 1; // 0 would be end of file: the page is not past it, so n is 1
        if (errno == EAGAIN)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

// The bytes this thread has had read from storage (/proc/thread-self/io's read_bytes, counted
// when a read is submitted): a RWF_NOWAIT read of a page that was not cached starts a read
// of it, and on a fast device that read can finish before the call looks again and returns
// the byte. Only this counter tells that "hit" from a page that was cached all along.
class ThreadStorageReads {
public:
    ThreadStorageReads() : fd_(::open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)) {}
    ~ThreadStorageReads() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    ThreadStorageReads(const ThreadStorageReads&) = delete;
    ThreadStorageReads& operator=(const ThreadStorageReads&) = delete;

    std::optional<std::uint64_t> bytes() const {
        if (fd_ < 0)
            return std::nullopt;
        char text[512];
        const ssize_t n = ::pread(fd_, text, sizeof text - 1, 0);
        if (n <= 0)
            return std::nullopt;
        text[n] = '\0';
        return platform::readBytesField(text);
    }

private:
    int fd_;
};

// The aligned block of pages a read that fetched this many bytes may have filled: a folio is
// a power of two pages, aligned to its size.
std::uint64_t blockPagesOf(std::uint64_t fetched, std::uint64_t page) {
    return std::bit_ceil(std::max<std::uint64_t>(1, (fetched + page - 1) / page));
}
#endif

} // namespace

void finishNowaitProbes(int fd, std::uint64_t size, std::span<const Range> ranges) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    char byte = 0;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    for (auto p : probePages(size, ranges, page))
        while (::pread(fd, &byte, 1, static_cast<off_t>(p * page)) < 0 && errno == EINTR) {
        }
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
}

Residency sampleResidencyNowait(int fd, std::uint64_t size, std::span<const Range> ranges) {
#ifdef RWF_NOWAIT
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const auto pages = probePages(size, ranges, page);
    // A miss reads ahead from the page asked about, and the next probes would find that
    // read-ahead: as random access, a miss reads that one page only. Asked from the last page
    // to the first, what a miss brings in lies behind the probes still to come.
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    // A probe that made this thread read from storage was a miss, whatever it returned (a
    // block device's reads are counted as they are submitted). A miss that fetched more than
    // its page filled an aligned folio around it: a later hit in that block is the probe's own
    // doing, not counted. A miss that moved no counter (a read already under way; a
    // filesystem that counts its reads elsewhere, as FUSE and network ones may; no counter
    // to read) is taken to have filled a 64 KiB block, the rule from before the counter.
    const ThreadStorageReads reads;
    const bool counted = reads.bytes().has_value();
    constexpr std::uint64_t kUncountedBlockPages = 16;
    struct Block {
        std::uint64_t first, count;
    };
    std::vector<Block> filled; // blocks of pages a miss may have filled
    std::uint64_t resident = 0, silentMisses = 0;
    int failure = 0;
    auto filledBy = [&](std::uint64_t p) {
        return std::any_of(filled.begin(), filled.end(),
                           [p](const Block& b) { return p >= b.first && p - b.first < b.count; });
    };
    for (auto p = pages.rbegin(); p != pages.rend() && !failure; ++p) {
        const auto before = reads.bytes();
        const int cached = cachedNowait(fd, *p * page);
        const auto after = reads.bytes();
        const std::uint64_t fetched = before && after && *after > *before ? *after - *before : 0;
        if (cached < 0) {
            failure = errno;
            continue;
        }
        const bool miss = cached == 0 || fetched > 0;
        if (miss) {
            silentMisses += fetched == 0;
            const std::uint64_t block =
                fetched > 0 ? blockPagesOf(fetched, page) : kUncountedBlockPages;
            if (block > 1)
                filled.push_back({*p / block * block, block});
        } else if (!filledBy(*p)) {
            ++resident;
        }
    }
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
    if (failure)
        return {std::nullopt,
                fmt::format("unverified: a RWF_NOWAIT read failed: {}", std::strerror(failure))};
    const double fraction = pages.empty() ? 1.0 : double(resident) / double(pages.size());
    std::string how =
        counted ? "a read that fetched from storage is a miss even when it returned the byte "
                  "(this thread's read_bytes)"
                : "this thread's read_bytes could not be read: a miss whose own read came back "
                  "in time cannot be told from a hit, and a hit in the 64 KiB block of a miss "
                  "is not counted";
    if (counted && silentMisses > 0)
        how += fmt::format("; {} miss{} moved no counter (a read under way, or a filesystem "
                           "that counts its reads elsewhere): a hit in the 64 KiB block of such "
                           "a miss is not counted",
                           silentMisses, silentMisses == 1 ? "" : "es");
    return {fraction,
            fmt::format("nowait-sample: {} pages of the round's ranges (RWF_NOWAIT reads; {}; "
                        "each miss starts read-ahead, so cold rounds evict again after the probe)",
                        pages.size(), how),
            resident < pages.size()};
#else
    (void)fd, (void)size, (void)ranges;
    return {std::nullopt, "unverified: this system has no RWF_NOWAIT reads"};
#endif
}

Residency measureRangeResidency(int fd, std::uint64_t size, std::span<const Range> ranges,
                                bool verifiable, const std::string& whyNot) {
    if (!verifiable)
        return {std::nullopt, "unverified: " + whyNot};
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    if (const auto runs = pageRuns(size, ranges, page); runs.size() <= kResidencyProbes) {
        std::uint64_t counted = 0;
        if (auto f = runsViaCachestat(fd, runs, page, counted))
            return {f, fmt::format("cachestat: all {} pages of the round's ranges, in {} call{}",
                                   counted, runs.size(), runs.size() == 1 ? "" : "s")};
    }
    const auto pages = probePages(size, ranges, page);
    const std::string of = fmt::format("{} sampled pages of the round's ranges", pages.size());
    if (auto f = sampledViaCachestat(fd, pages, page))
        return {f, "cachestat: " + of};
    if (auto f = sampledViaMincore(fd, size, pages, page))
        return {f, "mincore: " + of};
    return {std::nullopt, "unverified: neither cachestat nor mincore answered"};
}

Residency measureResidency(int fd, std::uint64_t size, bool verifiable, const std::string& whyNot) {
    if (!verifiable)
        return {std::nullopt, "unverified: " + whyNot};
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    if (auto f = viaCachestat(fd, size, pageSize))
        return {f, "cachestat"};
    if (auto f = viaMincore(fd, size, pageSize))
        return {f, "mincore"};
    return {std::nullopt, "unverified: neither cachestat nor mincore answered"};
}

Status evictFile(int fd, const std::string& path) {
#ifdef __APPLE__
    // macOS has no posix_fadvise: invalidate the file's pages through a mapping of it.
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size == 0)
        return Error{fmt::format("could not evict '{}': {}", path, std::strerror(errno))};
    void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return Error{
            fmt::format("could not evict '{}': mmap failed: {}", path, std::strerror(errno))};
    const int rc =
        ::msync(map, static_cast<std::size_t>(st.st_size), MS_INVALIDATE) == 0 ? 0 : errno;
    ::munmap(map, static_cast<std::size_t>(st.st_size));
#else
#ifdef __linux__
    // Dirty pages (a file written moments ago, and not yet synced) and pages under writeback
    // are skipped by DONTNEED, which only starts their writeback: on a slow disk the file's
    // first cold rounds then start partly cached. Write them out and wait, as eviction
    // needs; no data changes, and a clean file returns at once. (Any reader may ask this.)
    ::sync_file_range(
        fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
#endif
    const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
    if (rc != 0)
        return Error{
            fmt::format("could not evict '{}' from the page cache: {}", path, std::strerror(rc))};
    return okStatus();
}

Status dropAllCaches() {
#ifndef __linux__
    return Error{platform::dropAllCachesLinuxOnly()};
#else
    ::sync();
    const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{fmt::format("cannot open /proc/sys/vm/drop_caches: {} (it needs root; "
                                 "leave the option off to evict with posix_fadvise)",
                                 std::strerror(errno))};
    const ssize_t n = ::write(fd, "1", 1);
    const int err = errno;
    ::close(fd);
    if (n != 1)
        return Error{
            fmt::format("writing /proc/sys/vm/drop_caches failed: {}", std::strerror(err))};
    return okStatus();
#endif
}

} // namespace readscope
