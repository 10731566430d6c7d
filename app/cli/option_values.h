#pragma once
// The values readscope-cli's options take, text to value. Each error names the flag and the
// value, and says what would be accepted.
#include "readscope/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace readscope::cli {

Result<int> parseInt(const std::string& flag, const std::string& value, int lo, int hi);
// "2" or "2.5" (percent) -> 0.02 / 0.025.
Result<double> parseThreshold(const std::string& value);
Result<std::uint64_t> parseSeed(const std::string& value);
Result<double> parseTimeCap(const std::string& value);
// "2" or "2%" -> 0.02, within kMinPrecision..kMaxPrecision.
Result<double> parsePrecision(const std::string& value);
// Seconds, 0 or more ("0": the default).
Result<double> parseMaxTime(const std::string& value);
// --duration: seconds, "30s" or "2m"; above 0, at most kMaxDurationSeconds.
Result<double> parseDuration(const std::string& value);
Result<double> parseRoundTime(const std::string& value);
// "all": every strategy of this platform; else ids separated by commas, each naming one.
Result<std::vector<std::string>> parseStrategyList(const std::string& value);

} // namespace readscope::cli
