#include "readscope/teaching.h"

#include "readscope/reader.h"
#include "readscope/stats.h"
#include "readscope/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace readscope {

namespace {

// glibc serves allocations this large from fresh mmaps at first (its threshold then grows).
constexpr std::uint64_t kMmapThreshold = 128 << 10;

bool freshBuffer(const StrategyInfo& s) {
    return s.buffer == BufferKind::FreshZeroed || s.buffer == BufferKind::FreshUninit ||
           s.buffer == BufferKind::FreshCalloc || s.buffer == BufferKind::Grown ||
           s.buffer == BufferKind::Preallocated;
}

// The calls a strategy's platform names its steps with.
struct Calls {
    const char* read;   // positioned read
    const char* seek;   // seek then read
    const char* map;    // map and unmap, per round
    const char* advice; // per-range advice on a mapping
    const char* direct; // uncached read
    const char* copy;   // who copies cached bytes into the buffer
};

const Calls& callsOf(const StrategyInfo& s) {
    static const Calls posix{"one pread",
                             "one lseek + one read",
                             "one mmap, one munmap and one rt_sigprocmask (the SIGBUS guard "
                             "saving the signal mask)",
                             "one madvise",
                             "one pread on the O_DIRECT descriptor",
                             "the kernel's copy"};
    static const Calls windows{"one ReadFile (offset in an OVERLAPPED)",
                               "one SetFilePointerEx + one ReadFile",
                               "CreateFileMapping, MapViewOfFile, UnmapViewOfFile, CloseHandle",
                               "one PrefetchVirtualMemory",
                               "one ReadFile on the FILE_FLAG_NO_BUFFERING handle",
                               "the cache manager's copy"};
    return s.platform == Platform::Windows ? windows : posix;
}

// "5 calls per file: openat O_CLOEXEC, statx, read 8192 = 8192, read 32 = 0, close"; more
// than four reads run together ("13 reads (read 32 = 32 ... read 65536 = 0)").
std::string runtimeCallsText(const std::vector<std::string>& trace) {
    std::vector<std::string> words;
    std::size_t reads = 0;
    for (const auto& call : trace)
        reads += call.starts_with("read ");
    for (std::size_t i = 0; i < trace.size(); ++i) {
        if (reads > 4 && trace[i].starts_with("read ")) {
            words.push_back(
                fmt::format("{} reads ({} ... {})", reads, trace[i], trace[i + reads - 1]));
            i += reads - 1;
            continue;
        }
        words.push_back(trace[i]);
    }
    return fmt::format("{} calls per file: {}", trace.size(), fmt::join(words, ", "));
}

std::string runtimePasses(Runtime r) {
    switch (r) {
    case Runtime::RustReadToEnd:
        return "about three: each read's region zero-filled first, the kernel's copy, and the "
               "copies of the reallocations that move";
    case Runtime::Java:
        return "three: the JVM zeroes the array, the kernel copies into the direct buffer, which "
               "is copied into the array";
    case Runtime::Go: return "two: the zeroed allocation, then the kernel's copy";
    case Runtime::CppSeekRead:
        return "two: the zeroed vector, then the kernel's copy (three up to 8191 bytes, copied "
               "out of the filebuf)";
    case Runtime::CppIterator:
        return "three and more: the kernel's copy into the filebuf, one character at a time into "
               "the string, and the copies of each doubling";
    default: return "one: the kernel's copy";
    }
}

std::string runtimeAllocations(Runtime r) {
    switch (r) {
    case Runtime::RustReadToEnd: return "one, grown by realloc at every doubling from 32 bytes";
    case Runtime::Python:
        return "the BufferedReader's buffer, and the bytes object of size + 1, trimmed by realloc";
    case Runtime::Node: return "one (a slice of the shared 8 KiB pool below 4 KiB)";
    case Runtime::Java: return "one array, and the thread's cached direct buffer when too small";
    case Runtime::CppIterator: return "the filebuf's 8 KiB buffer, and one per string doubling";
    case Runtime::CppSeekRead: return "the filebuf's 8 KiB buffer and the vector";
    default: return "one, of the file's size";
    }
}

} // namespace

ExpectedCost expectedCost(const StrategyInfo& s, std::uint64_t n) {
    ExpectedCost e;
    const Calls& calls = callsOf(s);
    const std::string copy = fmt::format("one: {}", calls.copy);
    const bool bigFresh = freshBuffer(s) && n >= kMmapThreshold;
    const std::string freshFaults =
        bigFresh ? fmt::format("up to {} minor faults per range (one per 4 KiB page of a fresh "
                               "{} buffer), none once malloc reuses freed memory",
                               n / 4096, formatSize(n))
                 : "none expected: a buffer this small comes from malloc's heap";
    switch (s.access) {
    case Access::Pread:
        e = {1,
             1,
             fmt::format("{} per range (more only if the kernel returns short reads)",
                         s.hint == Hint::DontCache ? "one preadv2 with RWF_DONTCACHE" : calls.read),
             s.buffer == BufferKind::FreshZeroed
                 ? fmt::format("two: the memset, then {}", calls.copy)
             : s.buffer == BufferKind::FreshCalloc
                 ? fmt::format("one or two: calloc memsets reused heap memory but not memory "
                               "fresh from the kernel (already zero), then {}",
                               calls.copy)
                 : copy,
             s.buffer == BufferKind::Reused ? "none" : "one per range",
             s.buffer == BufferKind::Reused ? "none: the buffer was touched before measuring"
                                            : freshFaults};
        break;
    case Access::SeekRead:
        e = {2, 2, fmt::format("{} per range", calls.seek), copy, "one per range", freshFaults};
        break;
    case Access::ReadToEnd: {
        double reads = 1;
        if (s.buffer == BufferKind::Grown)
            for (std::uint64_t cap = 8 << 10; cap < n; cap *= 2)
                ++reads;
        e = {reads,
             reads + 1,
             s.buffer == BufferKind::Grown
                 ? fmt::format("about {:.0f} reads per range (each limited to the spare "
                               "capacity), one more at end of file",
                               reads)
                 : "one read per range, one more that returns 0 at end of file",
             s.buffer == BufferKind::Grown ? "about two: the kernel's copy plus the copies of "
                                             "each reallocation"
                                           : "one: the kernel's copy",
             s.buffer == BufferKind::Grown ? "one per doubling from 8 KiB" : "one per range",
             freshFaults};
        break;
    }
    case Access::AsRuntime: {
        // The runtime's calls for a file of this size, from the code that makes them.
        const auto trace = runtimeCalls(s, n);
        const double count = double(trace.size());
        e = {count,
             count,
             runtimeCallsText(trace),
             runtimePasses(s.runtime),
             runtimeAllocations(s.runtime),
             freshFaults};
        break;
    }
    case Access::MapCopy:
        if (s.mapping == MapLifetime::Kept) {
            e = {0,
                 0.05,
                 "none per range (mapped once for the whole run, untimed; one rt_sigprocmask "
                 "per round and worker: the SIGBUS guard saving the signal mask)",
                 "one: the memcpy out of the mapping",
                 "one per range",
                 "none for cached pages: the warm-up rounds took the mapping's first-touch "
                 "faults (cold rounds fault again: the mapping is dropped around each "
                 "eviction); only the fresh buffer's"};
            break;
        }
        e = {0,
             0.1,
             fmt::format("none per range ({} per round and worker)", calls.map),
             "one: the memcpy out of the mapping",
             "one per range",
             "one minor fault per page of the mapping on first touch (fewer with the kernel's "
             "fault-around), plus the fresh buffer's"};
        break;
    case Access::MapInPlace:
        e = {s.hint == Hint::WillNeed ? 1.0 : 0.0,
             s.hint == Hint::WillNeed ? 1.0 : 0.1,
             s.hint == Hint::WillNeed
                 ? fmt::format("{} per range", calls.advice)
                 : fmt::format("none per range ({} per round and worker)", calls.map),
             "none: the bytes are used where they are",
             "none",
             s.hint == Hint::Populate ? "taken up front by the populate call, not per touch"
                                      : "one minor fault per page on first touch (fewer with "
                                        "fault-around)"};
        break;
    case Access::Direct:
        e = {1,
             1,
             fmt::format("{} per range", calls.direct),
             "one: the device's DMA into the buffer",
             "none (reused aligned buffer)",
             "none"};
        break;
    case Access::Coalesce:
        // Merged spans: from one pread for a whole batch down to one per range (gaps > 1 MiB).
        e = {0,
             1,
             fmt::format("one pread per merged span: a batch of up to {} ranges merges "
                         "neighbours at most {} apart, so from one call per batch to one per "
                         "range",
                         kCoalesceBatch, formatSize(kCoalesceGap)),
             "one: the kernel's copy of the whole span, gaps included (see bytes read)",
             "one fresh buffer per merged span",
             "up to one minor fault per 4 KiB page of each fresh span buffer"};
        break;
    case Access::UringBatch:
        e = {0,
             1,
             fmt::format("one io_uring_enter per batch (up to {} ranges of {} in flight, "
                         "unless the run chose a queue depth)",
                         uringQueueDepth(n), formatSize(n)),
             "one: the kernel's copy",
             "none (pooled buffers)",
             "none"};
        break;
    }
    // A mapping per round: map, unmap, advice, populate and the guard's signal mask (POSIX);
    // CreateFileMapping, MapViewOfFile, UnmapViewOfFile and CloseHandle (Windows). A kept
    // mapping: the signal mask only.
    if (s.mapsFile())
        e.perRoundCallsMax = s.mapping == MapLifetime::Kept ? 1 : 5;
    return e;
}

MeasuredCost measuredCost(const Cell& c) {
    MeasuredCost m;
    if (c.samples.empty())
        return m;
    const double bytes = medianOverRounds(c, [](const Sample& s) { return s.bytes; });
    const double mib = bytes / (1 << 20);
    const double calls = medianOverRounds(c, [](const Sample& s) { return s.syscalls; });
    m.syscallsPerRange = c.rangesPerRound ? calls / double(c.rangesPerRound) : 0;
    m.syscallsPerMiB = mib > 0 ? calls / mib : 0;
    m.minorFaultsPerMiB =
        mib > 0 ? medianOverRounds(c, [](const Sample& s) { return s.minorFaults; }) / mib : 0;
    m.majorFaultsPerMiB =
        mib > 0 ? medianOverRounds(c, [](const Sample& s) { return s.majorFaults; }) / mib : 0;
    m.tlbShootdownsPerMiB = medianOfPresent(c, [](const Sample& s) -> std::optional<double> {
        if (!s.tlbShootdowns || s.bytes <= 0)
            return std::nullopt;
        return *s.tlbShootdowns / (double(s.bytes) / (1 << 20));
    });
    if (const auto cpu = cpuMsPerGB(c)) {
        m.userMsPerGB = cpu->userMs;
        m.systemMsPerGB = cpu->systemMs;
        m.cpuSplitResolved = cpu->splitResolved;
    }
    return m;
}

std::vector<std::string> disagreements(const StrategyInfo& s, const Cell& c, std::uint32_t pageSize,
                                       bool faultsCounted, int threads) {
    std::vector<std::string> out;
    if (c.samples.empty())
        return out;
    const ExpectedCost e = expectedCost(s, c.rangeBytes);
    const MeasuredCost m = measuredCost(c);
    const double perRound =
        c.rangesPerRound ? e.perRoundCallsMax * std::max(threads, 1) / double(c.rangesPerRound) : 0;
    if (m.syscallsPerRange < e.syscallsPerRangeMin * 0.9 ||
        m.syscallsPerRange > e.syscallsPerRangeMax * 1.1 + 0.05 + perRound)
        out.push_back(fmt::format("system calls: expected {}, measured {:.2f} per range",
                                  e.syscalls, m.syscallsPerRange));
    if (!faultsCounted)
        return out; // zeros that mean "not counted" contradict nothing
    const double pagesPerMiB = double(1 << 20) / pageSize;
    if ((s.buffer == BufferKind::Reused || s.access == Access::Direct) && m.minorFaultsPerMiB > 1)
        out.push_back(fmt::format("page faults: expected none, measured {:.1f} minor faults per "
                                  "MiB",
                                  m.minorFaultsPerMiB));
    if (freshBuffer(s) && c.rangeBytes >= kMmapThreshold && s.access != Access::MapCopy &&
        s.access != Access::Coalesce && m.minorFaultsPerMiB < pagesPerMiB * 0.1)
        out.push_back(fmt::format("page faults: a fresh {} buffer per range would fault in "
                                  "every page ({:.0f} per MiB), but only {:.1f} per MiB were "
                                  "measured: malloc kept reusing freed memory (glibc raises its "
                                  "mmap threshold after frees), so the fresh buffers were warm",
                                  formatSize(c.rangeBytes), pagesPerMiB, m.minorFaultsPerMiB));
    if (s.access == Access::MapInPlace && s.hint != Hint::Populate && m.minorFaultsPerMiB < 0.5 &&
        m.majorFaultsPerMiB < 0.5)
        out.push_back("page faults: a fresh mapping should fault on first touch, yet none were "
                      "measured");
    return out;
}

} // namespace readscope
