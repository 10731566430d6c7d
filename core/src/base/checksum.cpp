#include "readscope/checksum.h"

#include <algorithm>
#include <cstring>

namespace readscope {

namespace {

constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;

inline std::uint64_t load64(const std::byte* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline std::uint64_t rotl(std::uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }

inline std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return h;
}

} // namespace

void ChecksumStream::block(const std::byte* p) {
    // Four independent lanes keep the multiplier latency off the critical path, so the loop
    // runs near memory bandwidth; each lane is order-sensitive within itself.
    for (int lane = 0; lane < 4; ++lane)
        lanes_[lane] = rotl(lanes_[lane] ^ load64(p + 8 * lane), 31) * kMul;
}

void ChecksumStream::update(std::span<const std::byte> bytes) {
    const std::byte* p = bytes.data();
    std::size_t n = bytes.size();
    if (n == 0)
        return; // an empty span may carry a null pointer, which memcpy must never see
    total_ += n;
    if (tailSize_) {
        const std::size_t take = std::min(n, 32 - tailSize_);
        std::memcpy(tail_ + tailSize_, p, take);
        tailSize_ += take;
        p += take;
        n -= take;
        if (tailSize_ < 32)
            return;
        block(tail_);
        tailSize_ = 0;
    }
    while (n >= 32) {
        block(p);
        p += 32;
        n -= 32;
    }
    std::memcpy(tail_, p, n);
    tailSize_ = n;
}

std::uint64_t ChecksumStream::finish() const {
    std::uint64_t h = mix(lanes_[0]) ^ rotl(mix(lanes_[1]), 17) ^ rotl(mix(lanes_[2]), 34) ^
                      rotl(mix(lanes_[3]), 51);
    const std::byte* p = tail_;
    std::size_t n = tailSize_;
    while (n >= 8) {
        h = rotl(h ^ load64(p), 27) * kMul;
        p += 8;
        n -= 8;
    }
    while (n > 0) {
        h = rotl(h ^ static_cast<std::uint64_t>(*p), 11) * kMul;
        ++p;
        --n;
    }
    return mix(h ^ total_);
}

std::uint64_t checksum(std::span<const std::byte> bytes) {
    ChecksumStream s;
    s.update(bytes);
    return s.finish();
}

} // namespace readscope
