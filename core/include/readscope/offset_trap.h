#pragma once
// "The 16-byte trap": what a buffer-offset sweep showed on this machine, and what that means
// for a cell whose buffers happened to start in the slow band.
#include "readscope/result_document.h"
#include "readscope/verdict.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

// A placement is slow when it reads below this fraction of page-aligned, round by round (the
// median of the per-round ratios), and the paired test says so (verdict.h: Holm over every
// offset of every strategy the sweep measured).
inline constexpr double kSlowPlacementRatio = 0.8;

struct OffsetSweepVerdict {
    bool cliff = false;                     // some offset was called slower, below the ratio
    std::vector<std::uint32_t> slowOffsets; // page offsets (mod the page size) that were
    std::vector<std::uint32_t> fastOffsets; // offsets told not slow (page-aligned included)
    // Offsets this run cannot tell from page-aligned (for some strategy, and slow for none),
    // and the verdict of the first such comparison: its cause and what would tell.
    std::vector<std::uint32_t> undecidedOffsets;
    std::optional<Verdict> undecided;
    std::size_t tests = 0; // the comparisons made (every strategy's offsets against its 0)
    double worstRatio = 0; // slowest offset's median / offset 0's median
                           // (above 1 when every offset was faster)
    std::uint32_t worstOffset = 0;
    std::string worstStrategy;
    std::uint64_t rangeBytes = 0;
    std::string machine;        // the CPU model the sweep ran on; empty when unknown
    std::uint32_t pageSize = 0; // the page the offsets are within
};
// finding_text.h's offsetVerdictText() says it in words.

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

// For a strategy that copies into a buffer (pread-reuse, pread-uninit, mmap-copy, ...): the
// page offsets the cell's buffers started at that fall in the band (finding_text.h's
// offsetTrapNote words it); empty when none does.
std::vector<std::uint32_t> offsetsInBand(const Cell& cell, const SlowBand& band,
                                         std::uint32_t pageSize);

} // namespace readscope
