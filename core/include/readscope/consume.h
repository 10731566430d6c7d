#pragma once
// What a strategy does with the bytes it obtained, and the fold that reads every one of them.
#include <cstddef>
#include <cstdint>
#include <span>

namespace readscope {

// What a read does with the bytes it obtained.
enum class ConsumeMode {
    Touch,  // the minimum that keeps a strategy honest: one byte per range (buffers) or one
            // byte per page (in-place mappings, which read nothing until touched)
    All,    // read every byte once with foldBytes(), inside the timed region (--consume all)
    Verify, // per-range checksums combined by range index (untimed verification pass)
};

// What --consume all does to every byte a strategy obtained: a plain word-wise fold (sums of
// 64-bit words in independent lanes) that the compiler vectorises, so that it costs little
// next to the read it follows. Not the verification checksum: at ~5 GB/s that would flatten
// every difference between strategies. Its own speed is measured per cell (foldGbps).
std::uint64_t foldBytes(std::span<const std::byte> bytes);

} // namespace readscope
