#include "cli_options.h"

#include "cli_parse.h"
#include "option_values.h"

#include "readscope/buffer_offsets.h"
#include "readscope/compare.h"
#include "readscope/generator.h"
#include "readscope/plan_flags.h"
#include "readscope/plan_help.h"
#include "readscope/trace_formats.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <utility>

namespace readscope::cli {

namespace {

constexpr const char* kExitCodes =
    R"(Exit codes: 0 success, 1 a cell failed, a cold cell did not go cold (not-cold), or the run
could not finish, 2 a usage error.)";

std::string absolutePath(const std::string& path) {
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

// "all", or ids that all name a strategy.
Status setStrategies(RunOptions& o, const std::string& value) {
    o.allStrategies = value == "all";
    return assign(o.plan.strategies, parseStrategyList(value));
}

// A whole number within limit, into target.
Apply wholeNumber(int& target, std::string_view name, IntLimit limit) {
    return [&target, flag = std::string(name), limit](const std::string& v) {
        return assign(target, parseInt(flag, v, limit.min, limit.max));
    };
}

// "--threads: threads 0 is out of range: use 1 to 256".
Status prefixed(std::string_view flag, Status st) {
    if (st)
        return st;
    return Error{fmt::format("{}: {}", flag, st.error().message)};
}

// A setting's help, worded once in the core, in --help's style: lower case, no full stop,
// wrapped to the width of the other options' help.
std::string lowerFirst(std::string text) {
    if (!text.empty())
        text[0] = char(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

std::string flagHelp(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    text = lowerFirst(std::move(text));
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    std::string out, line;
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find(' ', at);
        if (end == std::string::npos)
            end = text.size();
        const auto word = text.substr(at, end - at);
        if (!line.empty() && line.size() + 1 + word.size() > 70) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        at = end + 1;
    }
    return out + line;
}

std::string sizeList(const std::vector<std::uint64_t>& sizes) {
    std::vector<std::string> items;
    for (auto s : sizes)
        items.push_back(formatSizeShort(s));
    return fmt::format("{}", fmt::join(items, ","));
}

// The options that shape the plan; --resume takes the plan from its recovery file instead.
void declarePlanOptions(CLI::App& run, RunOptions& o) {
    Plan& p = o.plan;
    const Plan defaults;
    auto planValue = [&run, &o](std::string_view name, const std::string& valueName,
                                const std::string& help, Apply apply) {
        return addValue(run, std::string(name), valueName, help,
                        [&o, apply = std::move(apply)](const std::string& v) {
                            o.planFlagsGiven = true;
                            return apply(v);
                        });
    };
    planValue(flag::sizes, "LIST",
              flagHelp(sizesHelp(false) + " With --pattern whole: " + lowerFirst(sizesHelp(true))),
              [&p, &o](const std::string& v) {
                  o.sizesGiven = true;
                  return assign(p.sizes, parseSizeList(v), flag::sizes);
              })
        ->default_str(sizeList(defaults.sizes));
    planValue(flag::strategies, "LIST",
              "strategy ids separated by commas, or 'all';\nsee 'readscope-cli strategies'",
              [&o](const std::string& v) { return setStrategies(o, v); })
        ->default_str("all");
    planValue(flag::pattern, "P", "sequential, random, or whole (open, read to the end, close)",
              [&p, &o](const std::string& v) {
                  auto st = assign(p.pattern, parsePattern(v), flag::pattern);
                  if (st)
                      o.patternGiven = p.pattern;
                  return st;
              })
        ->default_str(std::string(toString(defaults.pattern)));
    planValue(flag::trace, "TRACE",
              "replay a recorded program's reads (see 'readscope-cli record'):\n"
              "readscope's trace, an strace log, a fio I/O log or offset,length CSV",
              [&p](const std::string& v) -> Status {
                  auto trace = loadTrace(v);
                  if (!trace)
                      return Error{fmt::format("{}: {}", flag::trace, trace.error().message)};
                  p.trace = std::make_shared<const Trace>(std::move(*trace));
                  p.tracePath = absolutePath(v);
                  return okStatus();
              });
    planValue(
        flag::cache, "MODE",
        flagHelp(cacheHelp(CacheMode::Warm) + " " + cacheHelp(CacheMode::Cold) + " " +
                 cacheHelp(CacheMode::Direct)),
        [&p](const std::string& v) { return assign(p.cache, parseCacheMode(v), flag::cache); })
        ->default_str(std::string(toString(defaults.cache)));
    planValue(flag::threads, "N", flagHelp(threadsHelp()), [&p](const std::string& v) {
        return prefixed(flag::threads, setThreads(p, v));
    })->default_str(std::to_string(defaults.threads));
    planValue(flag::queueDepth, "N", flagHelp(queueDepthHelp()), [&p](const std::string& v) {
        return prefixed(flag::queueDepth, setQueueDepths(p, v));
    })->default_str("auto");
    planValue(flag::rounds, "N", "measured rounds per cell",
              wholeNumber(p.rounds, flag::rounds, kRoundsLimit))
        ->default_str(std::to_string(defaults.rounds));
    planValue(flag::warmup, "N", "unmeasured rounds first",
              wholeNumber(p.warmup, flag::warmup, kWarmupLimit))
        ->default_str(std::to_string(defaults.warmup));
    planValue(flag::seed, "N", "seed for the random pattern", [&p](const std::string& v) {
        return assign(p.seed, parseSeed(v));
    })->default_str(std::to_string(defaults.seed));
    planValue(flag::budget, "SIZE", "bytes read per cell and round",
              [&p](const std::string& v) { return assign(p.budget, parseSize(v), flag::budget); })
        ->default_str(fmt::format("min(file size, {}); with --duration min(file size, {})",
                                  formatSizeShort(kDefaultBudget),
                                  formatSizeShort(kDefaultDurationBudget)));
    planValue(flag::memoryLimit, "SIZE", flagHelp(memoryLimitHelp()), [&p](const std::string& v) {
        return assign(p.memoryLimit, parseSize(v), flag::memoryLimit);
    });
    planValue(flag::duration, "TIME", flagHelp(durationHelp() + " TIME: 30, 30s or 2m."),
              [&p](const std::string& v) { return assign(p.durationSeconds, parseDuration(v)); });
    planValue(flag::timeCap, "SECONDS", "per range size; no new rounds after it (>= 3 kept)",
              [&p](const std::string& v) { return assign(p.timeCapSeconds, parseTimeCap(v)); })
        ->default_str(fmt::format("{}", defaults.timeCapSeconds));
    planValue(flag::roundTime, "SECONDS",
              fmt::format("a round reads the budget or, sooner, about this long per strategy\n"
                          "(at least {} ranges, or {} of large ones, at least {};\n"
                          "0 reads the whole budget)",
                          kMinRangesPerRound, formatSizeShort(kFloorBytesPerRound),
                          kMinRangesPerRoundLarge),
              [&p](const std::string& v) { return assign(p.roundTimeSeconds, parseRoundTime(v)); })
        ->default_str(fmt::format("{}", defaults.roundTimeSeconds));
    planValue(flag::consume, "MODE", flagHelp(consumeHelp()), [&p](const std::string& v) {
        return assign(p.consume, parseConsume(v), flag::consume);
    })->default_str(std::string(toString(defaults.consume)));
    planValue(flag::bufferOffset, "OFFS",
              flagHelp(bufferOffsetHelp() + " (CSV: buffer_page_offsets)"),
              [&p](const std::string& v) {
                  return assign(p.bufferOffsets, parseBufferOffsets(v), flag::bufferOffset);
              })
        ->default_str("auto");
    planValue(flag::precision, "PCT",
              flagHelp(precisionHelp() + " PCT: e.g. 2 or 2%; the maximum time is --max-time."),
              [&p](const std::string& v) { return assign(p.precision, parsePrecision(v)); })
        ->default_str("none");
    planValue(flag::maxTime, "SECONDS", flagHelp(maxTimeHelp()), [&p](const std::string& v) {
        return assign(p.maxTimeSeconds, parseMaxTime(v));
    })->default_str(fmt::format("{}", kDefaultMaxTimeSeconds));
    planValue(flag::repeat, "N",
              "the whole run N times back to back (2: an A/A pair); the rounds are\n"
              "pooled, and how far the repeats drifted apart is the floor a change\n"
              "between this run and another must pass in 'compare'",
              wholeNumber(p.repeats, flag::repeat, kRepeatsLimit))
        ->default_str("1");
    run.add_flag(std::string(flag::dropCaches), p.dropCachesAsRoot,
                 "cold mode, Linux and root only: also write /proc/sys/vm/drop_caches");
}

// Where the results go, besides the table on stdout.
void declareOutputOptions(CLI::App& run, RunOptions& o) {
    auto path = [&run](const std::string& flag, const std::string& valueName,
                       const std::string& help, std::optional<std::string>& target) {
        return addValue(run, flag, valueName, help, [&target](const std::string& v) {
            target = v;
            return okStatus();
        });
    };
    path("--csv", "PATH", "write the summary as CSV", o.csvPath);
    path("--samples-csv", "PATH", "write every round as CSV", o.samplesCsvPath);
    path("--json", "PATH", "write the full result document (JSON, reloadable)", o.jsonPath);
    run.add_flag("--markdown", o.markdown, "print a Markdown table instead of the plain one");
    path("--baseline", "PATH", "after the run, compare it with this saved result (JSON or CSV)",
         o.baselinePath);
    addValue(run, "--threshold", "PCT", "noise threshold for --baseline, in percent",
             [&o](const std::string& v) { return assign(o.threshold, parseThreshold(v)); })
        ->default_str(fmt::format("{}", kDefaultNoiseThreshold * 100));
    path("--recovery", "PATH",
         "where finished cells are appended as the run goes (default:\n"
         "recovery-PID.jsonl in $XDG_STATE_HOME/readscope, or on Windows in\n"
         "%LOCALAPPDATA%\\readscope; removed when the run ends)",
         o.recoveryPath);
    path("--resume", "PATH", "after a crash or kill: finish the run saved in that recovery file",
         o.resumePath);
    path("--report", "DIR",
         "write DIR/readscope-report.md (table, comparison, system, the command\n"
         "that reproduces the run) with the chart as readscope-chart.png beside\n"
         "(and, for a --duration run, readscope-over-time.png, and\n"
         "readscope-tlb-shootdowns.png where its rounds counted TLB shootdowns)",
         o.reportDir);
    run.add_flag("--quiet", o.quiet, "no progress bar and no warnings on stderr");
}

} // namespace

Status finishPlan(RunOptions& o) {
    if (o.plan.trace && o.patternGiven && *o.patternGiven != Pattern::Trace)
        return Error{fmt::format("--pattern {} does not apply to a trace: its reads keep the "
                                 "offsets and order they were recorded in",
                                 toString(*o.patternGiven))};
    if (o.plan.trace)
        o.plan.pattern = Pattern::Trace;
    // A trace's reads keep their recorded lengths.
    if (o.plan.pattern == Pattern::Trace) {
        if (o.sizesGiven)
            return Error{"--sizes does not apply to a trace: its reads keep the lengths they "
                         "were recorded with"};
        o.plan.sizes.clear();
    }
    if (o.sizesGiven)
        takeSizesAsFileSizes(o.plan);
    // A queue-depth sweep measures io_uring strategies: "all" means all of those.
    if (o.allStrategies && sweepAxis(o.plan) == SweepAxis::QueueDepth)
        std::erase_if(o.plan.strategies,
                      [](const std::string& id) { return !queueDepthSweepExclusion(id).empty(); });
    return okStatus();
}

CLI::App* addRunOptions(CLI::App& root, RunOptions& o) {
    CLI::App* run = addCommand(
        root, "run",
        fmt::format("measure strategies on FILE (default: a generated {} temp file)\n\n"
                    "Measures how fast each strategy reads byte ranges of FILE (GB/s = 10^9 "
                    "bytes/s). Without FILE,\na {} test file is generated in the temporary "
                    "folder and removed afterwards.",
                    formatSize(kDefaultTestFileSize), formatSize(kDefaultTestFileSize)));
    run->footer(kExitCodes);
    addPositionals(*run, "FILE", [&o](const std::vector<std::string>& files) -> Status {
        if (files.size() > 1)
            return Error{fmt::format("more than one file given ('{}' and '{}'): readscope "
                                     "measures one file per run",
                                     files[0], files[1])};
        o.plan.file = files.front();
        return okStatus();
    });
    (void)setStrategies(o, "all");
    declarePlanOptions(*run, o);
    declareOutputOptions(*run, o);
    return run;
}

} // namespace readscope::cli
