#pragma once
// Command-line parsing for `readscope-cli run`. Every bad value is a usage error (exit 2)
// whose message names the flag and the value.
#include "readscope/plan.h"
#include "readscope/result.h"

#include <optional>
#include <string>
#include <vector>

namespace readscope::cli {

struct RunOptions {
    Plan plan;
    bool allStrategies = true;
    std::optional<std::string> csvPath, samplesCsvPath, jsonPath, baselinePath, reportDir;
    std::optional<std::string> recoveryPath, resumePath;
    bool planFlagsGiven = false; // sizes, strategies, modes...: not allowed with --resume
    double threshold = 0.02;
    bool markdown = false;
    bool quiet = false;
    bool help = false;
};

Result<RunOptions> parseRunOptions(const std::vector<std::string>& args);
Result<int> parseInt(const std::string& flag, const std::string& value, int lo, int hi);
// "2" or "2.5" (percent) -> 0.02 / 0.025.
Result<double> parseThreshold(const std::string& value);

extern const char* const kRunHelp;

} // namespace readscope::cli
