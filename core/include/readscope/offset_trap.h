#pragma once
// "The 16-byte trap": what a buffer-offset sweep showed on this machine, and what that means
// for a cell whose buffers happened to start in the slow band.
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

// A placement is slow when its median is below this fraction of the page-aligned median.
inline constexpr double kSlowPlacementRatio = 0.8;

struct OffsetSweepVerdict {
    bool cliff = false;                     // some offset ran below kSlowPlacementRatio
    std::vector<std::uint32_t> slowOffsets; // page offsets (mod the page size) that did
    std::vector<std::uint32_t> fastOffsets; // the other measured page offsets, 0 included
    double worstRatio = 0;                  // slowest offset's median / offset 0's median
                                            // (above 1 when every offset was faster)
    std::uint32_t worstOffset = 0;
    std::string worstStrategy;
    std::uint64_t rangeBytes = 0;
    std::string text; // the verdict in a sentence or two
};

// Judges a buffer-offset sweep that measured offset 0: nullopt for any other document.
std::optional<OffsetSweepVerdict> judgeOffsetSweep(const ResultDocument& doc);

// The slow band a sweep measured on this machine: its slow and its fast page offsets. An
// offset between two measured ones is in the band only when both neighbours were slow.
struct SlowBand {
    std::vector<std::uint32_t> slow, fast; // ascending
    double worstRatio = 1;
    bool contains(std::uint32_t pageOffset) const;
};
std::optional<SlowBand> slowBand(const OffsetSweepVerdict& verdict);

// For a strategy that copies into a buffer (pread-reuse, pread-uninit, mmap-copy, ...): a
// sentence when the cell's recorded buffer offsets fall in the band; empty otherwise.
std::string offsetTrapNote(const Cell& cell, const SlowBand& band, std::uint32_t pageSize);

} // namespace readscope
