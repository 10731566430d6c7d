#include "readscope/teaching_words.h"

#include "readscope/reader.h"
#include "readscope/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace readscope {

namespace {

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
    e.calls = expectedCalls(s, n);
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
        e.words = {
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
        e.words = {fmt::format("{} per range", calls.seek), copy, "one per range", freshFaults};
        break;
    case Access::ReadToEnd: {
        const double reads = grownReads(n);
        e.words = {s.buffer == BufferKind::Grown
                       ? fmt::format("about {:.0f} reads per range (each limited to the spare "
                                     "capacity), one more at end of file",
                                     reads)
                       : "one read per range, one more that returns 0 at end of file",
                   s.buffer == BufferKind::Grown
                       ? "about two: the kernel's copy plus the copies of "
                         "each reallocation"
                       : "one: the kernel's copy",
                   s.buffer == BufferKind::Grown ? "one per doubling from 8 KiB" : "one per range",
                   freshFaults};
        break;
    }
    case Access::AsRuntime: {
        // The runtime's calls for a file of this size, from the code that makes them.
        e.words = {runtimeCallsText(runtimeCalls(s, n)), runtimePasses(s.runtime),
                   runtimeAllocations(s.runtime), freshFaults};
        break;
    }
    case Access::MapCopy:
        if (s.mapping == MapLifetime::Kept) {
            e.words = {"none per range (mapped once for the whole run, untimed; one rt_sigprocmask "
                       "per round and worker: the SIGBUS guard saving the signal mask)",
                       "one: the memcpy out of the mapping", "one per range",
                       "none for cached pages: the warm-up rounds took the mapping's first-touch "
                       "faults (cold rounds fault again: the mapping is dropped around each "
                       "eviction); only the fresh buffer's"};
            break;
        }
        e.words = {
            fmt::format("none per range ({} per round and worker)", calls.map),
            "one: the memcpy out of the mapping", "one per range",
            "one minor fault per page of the mapping on first touch (fewer with the kernel's "
            "fault-around), plus the fresh buffer's"};
        break;
    case Access::MapInPlace:
        e.words = {s.hint == Hint::WillNeed
                       ? fmt::format("{} per range", calls.advice)
                       : fmt::format("none per range ({} per round and worker)", calls.map),
                   "none: the bytes are used where they are", "none",
                   s.hint == Hint::Populate ? "taken up front by the populate call, not per touch"
                                            : "one minor fault per page on first touch (fewer with "
                                              "fault-around)"};
        break;
    case Access::Direct:
        e.words = {fmt::format("{} per range", calls.direct),
                   "one: the device's DMA into the buffer", "none (reused aligned buffer)", "none"};
        break;
    case Access::Coalesce:
        // Merged spans: from one pread for a whole batch down to one per range (gaps > 1 MiB).
        e.words = {fmt::format("one pread per merged span: a batch of up to {} ranges merges "
                               "neighbours at most {} apart, so from one call per batch to one per "
                               "range",
                               kCoalesceBatch, formatSize(kCoalesceGap)),
                   "one: the kernel's copy of the whole span, gaps included (see bytes read)",
                   "one fresh buffer per merged span",
                   "up to one minor fault per 4 KiB page of each fresh span buffer"};
        break;
    case Access::UringBatch:
        e.words = {fmt::format("one io_uring_enter per batch (up to {} ranges of {} in flight, "
                               "unless the run chose a queue depth)",
                               uringQueueDepth(n), formatSize(n)),
                   "one: the kernel's copy", "none (pooled buffers)", "none"};
        break;
    }
    return e;
}

std::string disagreementText(const StrategyInfo& s, const Disagreement& d) {
    switch (d.kind) {
    case Disagreement::Syscalls:
        return fmt::format("system calls: expected {}, measured {:.2f} per range",
                           expectedCost(s, d.rangeBytes).words.syscalls, d.measured);
    case Disagreement::FaultsWhereNone:
        return fmt::format("page faults: expected none, measured {:.1f} minor faults per MiB",
                           d.measured);
    case Disagreement::FreshBuffersWarm:
        return fmt::format("page faults: a fresh {} buffer per range would fault in every page "
                           "({:.0f} per MiB), but only {:.1f} per MiB were measured: malloc kept "
                           "reusing freed memory (glibc raises its mmap threshold after frees), "
                           "so the fresh buffers were warm",
                           formatSize(d.rangeBytes), d.expected, d.measured);
    case Disagreement::NoMappingFaults:
        return "page faults: a fresh mapping should fault on first touch, yet none were measured";
    }
    return {};
}

std::vector<std::string> disagreementLines(const StrategyInfo& s,
                                           const std::vector<Disagreement>& found) {
    std::vector<std::string> lines;
    for (const auto& d : found)
        lines.push_back(disagreementText(s, d));
    return lines;
}

} // namespace readscope
