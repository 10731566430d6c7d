#pragma once
// Sizes and rates in one place: sizes are binary (1K = 1024), rates are decimal
// (GB/s = 10^9 bytes per second), as the published figures readscope reproduces use them.
#include "readscope/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace readscope {

// "4096", "64K", "1M", "8MiB", "2G" -> bytes. Rejects 0, negatives, junk and overflow.
Result<std::uint64_t> parseSize(std::string_view text);
// "16K,64K,1M" -> sizes, in the given order, duplicates removed.
Result<std::vector<std::uint64_t>> parseSizeList(std::string_view text);
// 65536 -> "64 KiB"; 1000 -> "1000 B".
std::string formatSize(std::uint64_t bytes);
// 65536 -> "64K" (the CLI's own spelling, accepted back by parseSize).
std::string formatSizeShort(std::uint64_t bytes);

// A fraction as whole percent: 0.125 -> "13%"; signed: "+13%", -0.04 -> "-4%".
std::string formatPercent(double fraction);
std::string formatSignedPercent(double fraction);

// A rate (GB/s, or any positive figure) with three significant digits: "17.3", "1.02",
// "0.0213", "123"; "0" for 0. A small rate never rounds to zero.
std::string formatRate(double value);

// The one place where a rate is computed: 10^9 bytes per second.
double gigabytesPerSecond(std::uint64_t bytes, double seconds);

} // namespace readscope
