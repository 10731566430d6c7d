#include "consumer.h"

#include "readscope/checksum.h"

#include <algorithm>
#include <cstring>

namespace readscope {

namespace {
constexpr std::size_t kCacheLine = 64;
constexpr std::size_t kPrefetchLines = 8; // lines ahead when checksumming every byte
constexpr std::size_t kPrefetchPages = 4; // pages ahead when touching one byte per page
} // namespace

std::uint64_t foldBytes(std::span<const std::byte> bytes) {
    const std::byte* p = bytes.data();
    const std::size_t n = bytes.size();
    std::size_t i = 0;
#if defined(__GNUC__)
    // Two vectors of two 64-bit words: four independent sums, two SSE2 adds per 32 bytes.
    using Lane = std::uint64_t __attribute__((vector_size(16)));
    Lane a{}, b{};
    for (; i + 32 <= n; i += 32) {
        Lane x, y;
        std::memcpy(&x, p + i, 16);
        std::memcpy(&y, p + i + 16, 16);
        a += x;
        b += y;
    }
    std::uint64_t sum = a[0] ^ a[1] ^ b[0] ^ b[1];
#else
    std::uint64_t lanes[4] = {};
    for (; i + 32 <= n; i += 32) {
        std::uint64_t w[4];
        std::memcpy(w, p + i, 32);
        for (int k = 0; k < 4; ++k)
            lanes[k] += w[k];
    }
    std::uint64_t sum = lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3];
#endif
    for (; i < n; ++i)
        sum += static_cast<std::uint64_t>(p[i]);
    return sum;
}

void Consumer::buffer(std::span<const std::byte> bytes, std::uint64_t index) {
    switch (mode_) {
    case ConsumeMode::Touch:
        if (!bytes.empty())
            value_ += static_cast<std::uint64_t>(bytes[bytes.size() / 2]);
        break;
    case ConsumeMode::All: value_ ^= foldBytes(bytes); break;
    case ConsumeMode::Verify: value_ = combineRangeChecksum(value_, index, checksum(bytes)); break;
    }
}

void Consumer::inPlace(std::span<const std::byte> bytes, std::uint64_t index) {
    switch (mode_) {
    case ConsumeMode::Touch: touchPages(bytes); break;
    case ConsumeMode::All:
        if (prefetch_)
            foldWithPrefetch(bytes);
        else
            value_ ^= foldBytes(bytes);
        break;
    case ConsumeMode::Verify: value_ = combineRangeChecksum(value_, index, checksum(bytes)); break;
    }
}

void Consumer::touchPages(std::span<const std::byte> bytes) {
    // One byte in every page the range covers, the first one possibly partial.
    const auto* p = bytes.data();
    const auto* end = p + bytes.size();
    const auto page = static_cast<std::uintptr_t>(pageSize_);
    while (p < end) {
        if (prefetch_)
            __builtin_prefetch(p + kPrefetchPages * page);
        value_ += static_cast<std::uint64_t>(*p);
        const auto next = (reinterpret_cast<std::uintptr_t>(p) / page + 1) * page;
        p = reinterpret_cast<const std::byte*>(next);
    }
}

void Consumer::foldWithPrefetch(std::span<const std::byte> bytes) {
    const std::size_t block = pageSize_;
    for (std::size_t off = 0; off < bytes.size(); off += block) {
        const std::size_t n = std::min(block, bytes.size() - off);
        for (std::size_t line = 0; line < n; line += kCacheLine)
            __builtin_prefetch(bytes.data() + off + line + kPrefetchLines * kCacheLine);
        value_ ^= foldBytes(bytes.subspan(off, n));
    }
}

} // namespace readscope
