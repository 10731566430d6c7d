#pragma once
// Command-line options of `readscope-cli run`. Every bad value is a usage error (exit 2) whose
// message names the flag and the value.
#include "option_values.h"

#include "readscope/compare.h"
#include "readscope/plan.h"
#include "readscope/result.h"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace readscope::cli {

struct RunOptions {
    Plan plan;
    bool allStrategies = true;
    std::optional<std::string> csvPath, samplesCsvPath, jsonPath, baselinePath, reportDir;
    std::optional<std::string> recoveryPath, resumePath;
    bool planFlagsGiven = false; // sizes, strategies, modes...: not allowed with --resume
    bool sizesGiven = false;
    std::optional<Pattern> patternGiven; // --pattern's value, kept apart from --trace's
    double threshold = kDefaultNoiseThreshold;
    bool markdown = false;
    bool quiet = false;
    bool help = false;
};

// Adds `run` to root: FILE and run's options, each writing into o as it is parsed.
CLI::App* addRunOptions(CLI::App& root, RunOptions& o);
// After parsing: what the options mean together (with the whole pattern, --sizes are file
// sizes; a queue-depth sweep's "all" is all io_uring strategies; a trace takes no sizes).
Status finishPlan(RunOptions& o);

} // namespace readscope::cli
