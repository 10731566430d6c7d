#include "readscope/probe.h"
#include "readscope/strategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace readscope {

namespace texts {
extern const std::pair<std::string_view, std::string_view> kExplanations[];
extern const int kExplanationCount;
} // namespace texts

namespace {

using enum Access;
using enum BufferKind;
using enum Hint;
using enum Platform;
using enum MapLifetime;

constexpr std::string_view kRuntimeFamily = "Read a whole file, as a runtime does";

constexpr StrategyInfo kStrategies[] = {
    {"pread-zerofill", "pread, zero-filled buffer", "Positioned read",
     "fresh buffer per range, memset to 0, then pread", Pread, FreshZeroed, None},
    {"pread-uninit", "pread, uninitialised buffer", "Positioned read",
     "fresh uninitialised buffer per range, pread straight into it", Pread, FreshUninit, None},
    {"seek-read", "lseek + read", "Seek then read",
     "fresh uninitialised buffer, lseek then read: one more syscall per range", SeekRead,
     FreshUninit, None},
    {"read-grow", "read, growing buffer", "Read to end",
     "start empty, read into spare capacity, double and copy when full", ReadToEnd, Grown, None},
    {"read-prealloc", "read, preallocated length + 1", "Read to end",
     "reserve exactly length + 1, read until a read returns 0", ReadToEnd, Preallocated, None},
    {"pread-calloc", "pread, calloc'd buffer", "Positioned read",
     "fresh calloc'd buffer per range (zeroed by the allocator only when it must), then pread",
     Pread, FreshCalloc, None},
    {"pread-reuse", "pread, reused buffer", "Positioned read",
     "one buffer touched once and reused: no allocation, no page faults", Pread, Reused, None},
    {"mmap-copy", "mmap + memcpy", "Memory map",
     "map the file once per round per worker, memcpy each range into a fresh buffer", MapCopy,
     FreshUninit, None},
    {"mmap-copy-kept", "mmap kept + memcpy", "Memory map",
     "map the file once for the whole run, memcpy each range into a fresh buffer", MapCopy,
     FreshUninit, None, Posix, Kept},
    {"mmap-touch", "mmap, read in place", "Memory map",
     "map the file once per round per worker, consume the bytes in place", MapInPlace, InPlace,
     None},
    {"mmap-willneed", "mmap + MADV_WILLNEED", "Memory map",
     "as mmap-touch, with madvise(MADV_WILLNEED) on each range first", MapInPlace, InPlace,
     WillNeed},
    {"mmap-populate", "mmap + MADV_POPULATE_READ", "Memory map",
     "as mmap-touch, with the span populated up front", MapInPlace, InPlace, Populate},
    {"mmap-prefetch", "mmap + software prefetch", "Memory map",
     "as mmap-touch, with a prefetch instruction ahead of the consumer", MapInPlace, InPlace,
     Prefetch},
    {"direct-pread", "O_DIRECT pread", "Direct I/O",
     "bypass the page cache: aligned pread on an O_DIRECT descriptor", Direct, Reused, None},
    {"uring-batch", "io_uring batch", "Batched",
     "up to 32 reads in flight through io_uring into pooled buffers, submitted together",
     UringBatch, Reused, None},
    {"pread-coalesce", "pread, coalesced ranges", "Coalesced",
     "each batch of up to 1024 ranges sorted; neighbours at most 1 MiB apart merged into one "
     "pread into a fresh buffer, the ranges sliced out (object_store's get_ranges)",
     Coalesce, FreshUninit, None},
    {"pread-sequential", "pread + POSIX_FADV_SEQUENTIAL", "Access hint",
     "as pread-reuse, on a descriptor advised POSIX_FADV_SEQUENTIAL: twice the read-ahead "
     "window",
     Pread, Reused, SequentialScan},
    {"pread-random", "pread + POSIX_FADV_RANDOM", "Access hint",
     "as pread-reuse, on a descriptor advised POSIX_FADV_RANDOM: no read-ahead", Pread, Reused,
     RandomAccess},
    {"mmap-sequential", "mmap + MADV_SEQUENTIAL", "Access hint",
     "as mmap-touch, with the mapping advised MADV_SEQUENTIAL: aggressive read-ahead on faults",
     MapInPlace, InPlace, SequentialScan},
    {"mmap-random", "mmap + MADV_RANDOM", "Access hint",
     "as mmap-touch, with the mapping advised MADV_RANDOM: a fault on an uncached page reads "
     "that page only, no read-ahead",
     MapInPlace, InPlace, RandomAccess},
    {"pread-dontcache", "pread, uncached (RWF_DONTCACHE)", "Positioned read",
     "fresh uninitialised buffer per range, preadv2 with RWF_DONTCACHE: the kernel drops the "
     "pages it read for this range once copied (Linux 6.14 and later)",
     Pread, FreshUninit, DontCache},
    // Windows forms (Win32 API). They follow the POSIX rows, so that strategies() can hand
    // out one platform's rows as a contiguous span.
    {"readfile-offset", "ReadFile at an offset", "Positioned read",
     "fresh uninitialised buffer per range, ReadFile with the offset in an OVERLAPPED on a "
     "synchronous handle",
     Pread, FreshUninit, None, Windows},
    {"setpointer-readfile", "SetFilePointerEx + ReadFile", "Seek then read",
     "fresh uninitialised buffer, SetFilePointerEx then ReadFile: one more call per range",
     SeekRead, FreshUninit, None, Windows},
    {"readfile-calloc", "ReadFile, calloc'd buffer", "Positioned read",
     "fresh calloc'd buffer per range (zeroed pages from the OS need no memset), ReadFile at "
     "an offset",
     Pread, FreshCalloc, None, Windows},
    {"readfile-reuse", "ReadFile, reused buffer", "Positioned read",
     "one buffer touched once and reused, ReadFile at an offset: no allocation, no faults", Pread,
     Reused, None, Windows},
    {"readfile-sequential", "ReadFile + FILE_FLAG_SEQUENTIAL_SCAN", "Access hint",
     "as readfile-reuse, on a handle opened with FILE_FLAG_SEQUENTIAL_SCAN", Pread, Reused,
     SequentialScan, Windows},
    {"readfile-random", "ReadFile + FILE_FLAG_RANDOM_ACCESS", "Access hint",
     "as readfile-reuse, on a handle opened with FILE_FLAG_RANDOM_ACCESS", Pread, Reused,
     RandomAccess, Windows},
    {"mapview-copy", "MapViewOfFile + memcpy", "Memory map",
     "map a view of the file once per round per worker, memcpy each range into a fresh "
     "buffer",
     MapCopy, FreshUninit, None, Windows},
    {"mapview-copy-kept", "MapViewOfFile kept + memcpy", "Memory map",
     "map a view of the file once for the whole run, memcpy each range into a fresh buffer",
     MapCopy, FreshUninit, None, Windows, Kept},
    {"mapview-touch", "MapViewOfFile, read in place", "Memory map",
     "map a view of the file once per round per worker, consume the bytes in place", MapInPlace,
     InPlace, None, Windows},
    {"mapview-prefetch", "MapViewOfFile + PrefetchVirtualMemory", "Memory map",
     "as mapview-touch, with PrefetchVirtualMemory on each range first", MapInPlace, InPlace,
     WillNeed, Windows},
    {"readfile-nobuffering", "ReadFile + FILE_FLAG_NO_BUFFERING", "Direct I/O",
     "bypass the cache manager: sector-aligned ReadFile into a VirtualAlloc buffer", Direct, Reused,
     None, Windows},
    {"readfile-coalesce", "ReadFile, coalesced ranges", "Coalesced",
     "as pread-coalesce: nearby ranges of a batch merged into one ReadFile at an offset into a "
     "fresh buffer, the ranges sliced out",
     Coalesce, FreshUninit, None, Windows},
    // Whole-file reads as runtimes make them (runtime_reads.cpp). They follow both platforms'
    // rows, so that strategies() leaves them out; runtimeStrategies() hands them out.
    {"rust-read-to-end", "Rust read_to_end, no size hint", kRuntimeFamily,
     "Rust 1.95 read_to_end through a reader with no size hint: a 32-byte probe, then reads of "
     "32, 64, 128... bytes into a vector grown by realloc, each zero-filled first",
     AsRuntime, Grown, None, Posix, PerRound, Runtime::RustReadToEnd},
    {"rust-fs-read", "Rust std::fs::read", kRuntimeFamily,
     "Rust 1.95 std::fs::read: statx, one read of the size into a vector of exactly that "
     "capacity, a 32-byte probe read that returns 0",
     AsRuntime, Preallocated, None, Posix, PerRound, Runtime::RustFsRead},
    {"python-read", "Python open(p, 'rb').read()", kRuntimeFamily,
     "CPython 3.11: fstat, isatty, two lseeks, fstat, read(size + 1) into a bytes object, "
     "read(1) returns 0, realloc trims the spare byte",
     AsRuntime, Preallocated, None, Posix, PerRound, Runtime::Python},
    {"node-readfilesync", "Node fs.readFileSync", kRuntimeFamily,
     "Node 20: statx, one read of exactly the size into Buffer.allocUnsafe (pooled below "
     "4 KiB), no read that returns 0",
     AsRuntime, Preallocated, None, Posix, PerRound, Runtime::Node},
    {"java-readallbytes", "Java Files.readAllBytes", kRuntimeFamily,
     "OpenJDK 17: fstat, a zeroed byte[size], one read through a cached direct buffer copied "
     "into it, a 1-byte read that returns 0",
     AsRuntime, Preallocated, None, Posix, PerRound, Runtime::Java},
    {"go-readfile", "Go os.ReadFile", kRuntimeFamily,
     "Go 1.19: the netpoller refuses the file (epoll_ctl), fstat, a zeroed slice of size + 1 "
     "(at least 512), reads until one returns 0",
     AsRuntime, Preallocated, None, Posix, PerRound, Runtime::Go},
    {"cpp-ifstream", "C++ ifstream + istreambuf_iterator", kRuntimeFamily,
     "libstdc++ 12: std::string from istreambuf_iterator: 8191-byte reads into the filebuf, "
     "copied character by character into a string that doubles",
     AsRuntime, Grown, None, Posix, PerRound, Runtime::CppIterator},
    {"cpp-ifstream-seek", "C++ ifstream seekg/tellg + read", kRuntimeFamily,
     "libstdc++ 12: open at the end, tellg, seekg(0) (three lseeks), a zeroed vector of the "
     "size, in.read: straight into it above 8191 bytes, through the filebuf below",
     AsRuntime, Preallocated, None, Posix, PerRound, Runtime::CppSeekRead},
};

constexpr Platform kCurrent =
#ifdef _WIN32
    Windows;
#else
    Posix;
#endif

} // namespace

Platform currentPlatform() { return kCurrent; }

std::string_view toString(Platform p) { return p == Windows ? "Windows" : "POSIX"; }

std::span<const StrategyInfo> allStrategies() { return kStrategies; }

std::span<const StrategyInfo> strategies() {
    const auto first = std::find_if(std::begin(kStrategies), std::end(kStrategies),
                                    [](const StrategyInfo& s) { return s.platform == kCurrent; });
    const auto last = std::find_if(first, std::end(kStrategies),
                                   [](const StrategyInfo& s) { return s.platform != kCurrent; });
    return {first, last};
}

std::span<const StrategyInfo> runtimeStrategies() {
    const auto first =
        std::find_if(std::begin(kStrategies), std::end(kStrategies),
                     [](const StrategyInfo& s) { return s.access == Access::AsRuntime; });
    return {first, std::end(kStrategies)};
}

std::vector<const StrategyInfo*> offeredStrategies() {
    std::vector<const StrategyInfo*> out;
    for (const auto& s : strategies())
        out.push_back(&s);
    for (const auto& s : runtimeStrategies())
        if (s.platform == kCurrent)
            out.push_back(&s);
    return out;
}

const StrategyInfo* findStrategy(std::string_view id) {
    auto it = std::find_if(std::begin(kStrategies), std::end(kStrategies),
                           [&](const StrategyInfo& s) { return s.id == id; });
    return it == std::end(kStrategies) ? nullptr : &*it;
}

std::string_view strategyExplanation(std::string_view id) {
    for (int i = 0; i < texts::kExplanationCount; ++i)
        if (texts::kExplanations[i].first == id)
            return texts::kExplanations[i].second;
    return {};
}

// The same way of reading (access, buffer, hint) on this platform, if it has one.
const StrategyInfo* counterpart(const StrategyInfo& other) {
    for (const auto& s : strategies())
        if (s.access == other.access && s.buffer == other.buffer && s.hint == other.hint &&
            s.mapping == other.mapping)
            return &s;
    return nullptr;
}

Availability availability(const StrategyInfo& strategy, const FileProbe& probe) {
    if (strategy.platform != kCurrent) {
        std::string reason =
            strategy.platform == Windows
                ? fmt::format("{} uses the Win32 API: it runs on Windows only", strategy.id)
                : fmt::format("{} uses POSIX calls that Windows does not have: it runs on "
                              "Linux and macOS only",
                              strategy.id);
        if (const auto* twin = counterpart(strategy))
            reason += fmt::format("; its {} form is {}", toString(kCurrent), twin->id);
        return {false, std::move(reason)};
    }
#ifndef __linux__
    if (strategy.hint == Hint::Populate)
        return {false, "MADV_POPULATE_READ and MAP_POPULATE exist on Linux only"};
#endif
    if (strategy.access == Access::Direct && !probe.directSupported)
        return {false, probe.directReason};
    if (strategy.access == Access::UringBatch && !probe.uringSupported)
        return {false, probe.uringReason};
    if (strategy.hint == Hint::DontCache && !probe.dontcacheSupported)
        return {false, probe.dontcacheReason};
    return {};
}

} // namespace readscope
