#include "machine_limits.h"

#include "clock.h"
#include "platform.h"
#include "readscope/stats.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace readscope {

namespace {
// The destination's first byte after each pass lands here, so no copy can be proven unused.
std::atomic<unsigned> gCopySink{0};
constexpr int kPasses = 5;
} // namespace

CopyLimit::CopyLimit(std::uint64_t roundBytes)
    : source_(static_cast<std::size_t>(std::clamp<std::uint64_t>(roundBytes, 1, kMaxSource)),
              std::byte{1}) {}

double CopyLimit::gbps(std::uint64_t rangeBytes) {
    const std::size_t total = source_.size();
    const std::size_t n = static_cast<std::size_t>(std::clamp<std::uint64_t>(rangeBytes, 1, total));
    std::vector<std::byte> destination(n, std::byte{0});
    std::vector<double> rates;
    for (int pass = 0; pass <= kPasses; ++pass) {
        const auto t0 = Clock::now();
        for (std::size_t off = 0; off < total; off += n)
            std::memcpy(destination.data(), source_.data() + off, std::min(n, total - off));
        const double seconds = secondsBetween(t0, Clock::now());
        gCopySink.fetch_xor(static_cast<unsigned>(destination[n / 2]), std::memory_order_relaxed);
        if (pass > 0 && seconds > 0) // the first pass warms what fits in the caches
            rates.push_back(static_cast<double>(total) / seconds / 1e9);
    }
    return rates.empty() ? 0 : median(rates);
}

double lseekSeconds(int fd, std::uint64_t fileSize) {
    constexpr int kBatches = 31, kPerBatch = 200;
    std::vector<double> perCall;
    std::uint64_t offset = 0;
    const std::uint64_t step = std::max<std::uint64_t>(4096, fileSize / kPerBatch);
    for (int b = 0; b < kBatches; ++b) {
        const auto t0 = Clock::now();
        for (int k = 0; k < kPerBatch; ++k) {
            offset = fileSize ? (offset + step) % fileSize : 0;
            if (!platform::seekTo(fd, offset))
                return 0;
        }
        perCall.push_back(secondsBetween(t0, Clock::now()) / kPerBatch);
    }
    return median(perCall);
}

} // namespace readscope
