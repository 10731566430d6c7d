#include "consume.h"

#include "readscope/checksum.h"

#include <algorithm>

namespace readscope {

namespace {
constexpr std::size_t kCacheLine = 64;
constexpr std::size_t kPrefetchLines = 8; // lines ahead when checksumming every byte
constexpr std::size_t kPrefetchPages = 4; // pages ahead when touching one byte per page
} // namespace

void Consumer::buffer(std::span<const std::byte> bytes, std::uint64_t index) {
    switch (mode_) {
    case ConsumeMode::Touch:
        if (!bytes.empty())
            value_ += static_cast<std::uint64_t>(bytes[bytes.size() / 2]);
        break;
    case ConsumeMode::All:
        value_ ^= checksum(bytes);
        break;
    case ConsumeMode::Verify:
        value_ = combineRangeChecksum(value_, index, checksum(bytes));
        break;
    }
}

void Consumer::inPlace(std::span<const std::byte> bytes, std::uint64_t index) {
    switch (mode_) {
    case ConsumeMode::Touch:
        touchPages(bytes);
        break;
    case ConsumeMode::All:
        if (prefetch_)
            checksumWithPrefetch(bytes);
        else
            value_ ^= checksum(bytes);
        break;
    case ConsumeMode::Verify:
        value_ = combineRangeChecksum(value_, index, checksum(bytes));
        break;
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

void Consumer::checksumWithPrefetch(std::span<const std::byte> bytes) {
    const std::size_t block = pageSize_;
    for (std::size_t off = 0; off < bytes.size(); off += block) {
        const std::size_t n = std::min(block, bytes.size() - off);
        for (std::size_t line = 0; line < n; line += kCacheLine)
            __builtin_prefetch(bytes.data() + off + line + kPrefetchLines * kCacheLine);
        value_ ^= checksum(bytes.subspan(off, n));
    }
}

} // namespace readscope
