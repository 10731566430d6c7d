#pragma once
// readscope-cli run's options that set the plan, named once. The CLI declares its options by
// these names, and a document's rerun command is written from this table in this order, so a
// flag renamed, added or dropped on one side cannot be missed on the other (tst_rerun checks
// that every entry is a `run` option and every plan option of `run` is an entry, and parses
// rerun commands back through the CLI into the plan that made them).
#include "readscope/plan.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace readscope {

namespace flag {
inline constexpr std::string_view sizes = "--sizes", strategies = "--strategies",
                                  pattern = "--pattern", cache = "--cache", threads = "--threads",
                                  rounds = "--rounds", warmup = "--warmup", seed = "--seed",
                                  queueDepth = "--queue-depth", budget = "--budget",
                                  consume = "--consume", roundTime = "--round-time",
                                  timeCap = "--time-cap", bufferOffset = "--buffer-offset",
                                  dropCaches = "--drop-caches", repeat = "--repeat",
                                  precision = "--precision", maxTime = "--max-time",
                                  memoryLimit = "--memory-limit", duration = "--duration",
                                  trace = "--trace";
} // namespace flag

struct PlanFlag {
    std::string_view name;
    // The flag's value for a plan, as the CLI parses it back; none leaves the flag out (the
    // plan uses what leaving it out means), and an empty string writes the flag alone (a
    // switch such as --drop-caches).
    std::optional<std::string> (*value)(const Plan& plan);
};

// Every plan option of `readscope-cli run`, in the order a rerun command writes them.
std::span<const PlanFlag> planFlags();

} // namespace readscope
