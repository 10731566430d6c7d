#pragma once
#include "readscope/plan.h"
#include "readscope/range.h"

#include <cstdint>
#include <span>
#include <vector>

namespace readscope {

// The ranges one round reads. Same plan and seed, same ranges, for every strategy.
std::vector<Range> makeRanges(Pattern pattern, std::uint64_t rangeSize, std::uint64_t fileSize,
                              std::uint64_t budget, std::uint64_t seed);

// A whole-file sweep's reads of one size's file: the file whole, as many times as the budget
// covers (at most kMaxWholeFileReads); once for a cold cache, whose first read warms it.
std::vector<Range> wholeFileReads(std::uint64_t fileSize, std::uint64_t budget, bool cold);

// Splits ranges over workers in contiguous blocks of (nearly) equal count.
std::vector<std::vector<Range>> splitRanges(const std::vector<Range>& ranges, int workers);
// A trace's reads by the thread that made each (threadOf[i] < workers), each in its order.
std::vector<std::vector<Range>> splitByThread(const std::vector<Range>& ranges,
                                              std::span<const std::uint32_t> threadOf, int workers);

} // namespace readscope
