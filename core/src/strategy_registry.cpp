#include "readscope/probe.h"
#include "readscope/strategy.h"

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
    {"pread-reuse", "pread, reused buffer", "Positioned read",
     "one buffer touched once and reused: no allocation, no page faults", Pread, Reused, None},
    {"mmap-copy", "mmap + memcpy", "Memory map",
     "map the file once, memcpy each range into a fresh buffer", MapCopy, FreshUninit, None},
    {"mmap-touch", "mmap, read in place", "Memory map",
     "map the file once, consume the bytes in place (one byte per page)", MapInPlace, InPlace,
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
};

} // namespace

std::span<const StrategyInfo> strategies() { return kStrategies; }

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

Availability availability(const StrategyInfo& strategy, const FileProbe& probe) {
    if (strategy.access == Access::Direct && !probe.directSupported)
        return {false, probe.directReason};
    if (strategy.access == Access::UringBatch && !probe.uringSupported)
        return {false, probe.uringReason};
    return {};
}

} // namespace readscope
