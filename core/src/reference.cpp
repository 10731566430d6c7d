#include "platform.h"
#include "unique_fd.h"
#include "readers.h"
#include "readscope/checksum.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

namespace readscope {

Result<std::unique_ptr<RangeReader>> openReader(const StrategyInfo& strategy,
                                                const FileProbe& file, std::uint64_t maxRange) {
    if (auto a = availability(strategy, file); !a.available)
        return Error{a.reason};
    return openPlatformReader(strategy, file, maxRange);
}

namespace {
// Set by tests between reads, read once per range. The context is published before the hook
// (and the hook cleared first), so a reader that sees a hook sees its context.
std::atomic<RangeReadHook> gHook{nullptr};
std::atomic<void*> gHookContext{nullptr};
} // namespace

void setRangeReadHookForTesting(RangeReadHook hook, void* context) {
    gHook.store(nullptr, std::memory_order_release);
    gHookContext.store(context, std::memory_order_release);
    gHook.store(hook, std::memory_order_release);
}

void callRangeReadHook(std::size_t index) {
    if (const auto hook = gHook.load(std::memory_order_acquire))
        hook(index, gHookContext.load(std::memory_order_acquire));
}

Result<std::uint64_t> referenceChecksum(const FileProbe& file, std::span<const Range> ranges) {
    auto sums = referenceRangeChecksums(file, ranges);
    if (!sums)
        return sums.error();
    return combinePrefix(*sums, sums->size());
}

std::uint64_t combinePrefix(std::span<const std::uint64_t> rangeSums, std::size_t count) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < count && i < rangeSums.size(); ++i)
        total = combineRangeChecksum(total, i, rangeSums[i]);
    return total;
}

Result<std::vector<std::uint64_t>> referenceRangeChecksums(const FileProbe& file,
                                                           std::span<const Range> ranges) {
    // Deliberately the plainest code: a vector, one pread loop, no strategy machinery.
    UniqueFd fd(platform::openForReading(file.path));
    if (!fd.valid())
        return Error{fmt::format("cannot open '{}': {}", file.path, std::strerror(errno))};
    // In 1 MiB chunks, so that checking a 1 GiB range costs 1 MiB of memory, not 1 GiB.
    constexpr std::uint64_t kChunk = 1 << 20;
    std::vector<std::uint64_t> sums;
    sums.reserve(ranges.size());
    std::vector<std::byte> bytes(kChunk);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const auto want = clippedLength(ranges[i], file.size);
        ChecksumStream sum;
        std::uint64_t got = 0;
        while (got < want) {
            const auto n = platform::readAt(fd.get(), bytes.data(), std::min(kChunk, want - got),
                                            ranges[i].offset + got);
            if (n < 0)
                return Error{fmt::format("reading '{}' at offset {} failed: {}", file.path,
                                         ranges[i].offset + got, std::strerror(errno))};
            if (n == 0)
                break;
            sum.update({bytes.data(), static_cast<std::size_t>(n)});
            got += static_cast<std::uint64_t>(n);
        }
        sums.push_back(sum.finish());
    }
    return sums;
}

} // namespace readscope
