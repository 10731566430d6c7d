#pragma once
// A fast, order-sensitive 64-bit checksum: cheap enough to run inside a timed round
// (--consume all) and strong enough to catch a byte read from the wrong offset.
#include <cstddef>
#include <cstdint>
#include <span>

namespace readscope {

std::uint64_t checksum(std::span<const std::byte> bytes);

// The same checksum fed in pieces: ChecksumStream s; s.update(a); s.update(b); s.finish() equals
// checksum(a + b). Lets a reference read huge ranges in small chunks.
class ChecksumStream {
public:
    void update(std::span<const std::byte> bytes);
    std::uint64_t finish() const;

private:
    void block(const std::byte* p);
    std::uint64_t lanes_[4] = {1, 2, 3, 4};
    std::byte tail_[32]{};
    std::size_t tailSize_ = 0;
    std::uint64_t total_ = 0;
};

// Combines per-range checksums so that completion order does not matter (io_uring reaps out of
// order) but the range index does.
inline std::uint64_t combineRangeChecksum(std::uint64_t total, std::uint64_t rangeIndex,
                                          std::uint64_t rangeSum) {
    return total + rangeSum * (2 * rangeIndex + 1);
}

} // namespace readscope
