#include "readscope/checksum.h"

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

std::uint64_t checksum(std::span<const std::byte> bytes) {
    // Four independent lanes keep the multiplier latency off the critical path, so the loop
    // runs near memory bandwidth; each lane is order-sensitive within itself.
    std::uint64_t a = 1, b = 2, c = 3, d = 4;
    const std::byte* p = bytes.data();
    std::size_t n = bytes.size();
    while (n >= 32) {
        a = rotl(a ^ load64(p), 31) * kMul;
        b = rotl(b ^ load64(p + 8), 31) * kMul;
        c = rotl(c ^ load64(p + 16), 31) * kMul;
        d = rotl(d ^ load64(p + 24), 31) * kMul;
        p += 32;
        n -= 32;
    }
    std::uint64_t h = mix(a) ^ rotl(mix(b), 17) ^ rotl(mix(c), 34) ^ rotl(mix(d), 51);
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
    return mix(h ^ bytes.size());
}

} // namespace readscope
