#include "cli_options.h"

#include "readscope/buffer_offsets.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace readscope::cli {

const char* const kRunHelp = R"(Usage: readscope-cli run [FILE] [options]

Measures how fast each strategy reads byte ranges of FILE (GB/s = 10^9 bytes/s). Without FILE,
a 256 MiB test file is generated in the temporary folder and removed afterwards.

Options:
  --sizes LIST          range sizes, e.g. 16K,64K,256K,1M,8M (the default; 1K = 1024)
  --strategies LIST     strategy ids separated by commas, or 'all' (default: all);
                        see 'readscope-cli strategies'
  --pattern P           sequential (default), random, or whole (one range = the file)
  --cache MODE          warm (default), cold (evict before every round), or direct
  --threads N           workers per round (default 1)
  --rounds N            measured rounds per cell (default 15)
  --warmup N            unmeasured rounds first (default 2)
  --seed N              seed for the random pattern (default 42)
  --budget SIZE         bytes read per cell and round (default: min(file size, 256M))
  --time-cap SECONDS    per range size; stop adding rounds after it (default 60, >= 3 rounds)
  --round-time SECONDS  a round reads the budget or, sooner, about this long per strategy
                        (default 0.1; at least 64 ranges; 0 reads the whole budget)
  --consume MODE        all (default: every strategy reads every byte it obtained once, with
                        a cheap fold whose own speed each cell records) or minimal (one byte
                        per range; in-place mappings one byte per page, marked 1 byte/page)
  --buffer-offset OFFS  where destination buffers start within a page: auto (default: where
                        the allocator puts them), N (every buffer of every strategy at page
                        offset N, e.g. 16), or a list (0,8,16,32,64,2048,4096+16) to sweep
                        the offset at the one --sizes value; the chosen offsets are recorded
                        per cell (CSV buffer_page_offsets)
  --drop-caches         cold mode, Linux and root only: also write /proc/sys/vm/drop_caches
  --csv PATH            write the summary as CSV
  --samples-csv PATH    write every round as CSV
  --json PATH           write the full result document (JSON, reloadable)
  --markdown            print a Markdown table instead of the plain one
  --baseline PATH       after the run, compare it with this saved result (JSON or CSV)
  --threshold PCT       noise threshold for --baseline, in percent (default 2)
  --recovery PATH       where finished cells are appended as the run goes (default:
                        recovery-PID.jsonl in $XDG_STATE_HOME/readscope, or on Windows in
                        %LOCALAPPDATA%\readscope; removed when the run ends)
  --resume PATH         after a crash or kill: finish the run saved in that recovery file
  --report DIR          write DIR/readscope-report.md (table, comparison, system, the command
                        that reproduces the run) with the chart as readscope-chart.png beside
  --quiet               no progress bar and no warnings on stderr
  -h, --help            this text

Exit codes: 0 success, 1 a cell failed, a cold cell did not go cold (not-cold), or the run
could not finish, 2 a usage error.
)";

namespace {

Result<std::string> valueOf(const std::vector<std::string>& args, std::size_t& i) {
    if (i + 1 >= args.size() || args[i + 1].empty())
        return Error{fmt::format("{} needs a value (see 'readscope-cli run --help')", args[i])};
    return args[++i];
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto comma = text.find(',', start);
        if (comma == std::string::npos)
            comma = text.size();
        items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

Error flagError(const std::string& flag, const Error& e) {
    return Error{fmt::format("{}: {}", flag, e.message)};
}

} // namespace

Result<int> parseInt(const std::string& flag, const std::string& value, int lo, int hi) {
    long long v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc{} && (v < lo || v > hi)))
        return Error{fmt::format("{} {} is out of range: use {} to {}", flag, value, lo, hi)};
    if (ec != std::errc{} || end != value.data() + value.size())
        return Error{fmt::format("{} '{}' is not a whole number", flag, value)};
    return static_cast<int>(v);
}

Result<double> parseThreshold(const std::string& value) {
    double pct = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), pct);
    if (ec != std::errc{} || end != value.data() + value.size() || !std::isfinite(pct) || pct < 0 ||
        pct > 1000)
        return Error{fmt::format("--threshold '{}' must be a percentage from 0 to 1000", value)};
    return pct / 100;
}

Result<RunOptions> parseRunOptions(const std::vector<std::string>& args) {
    RunOptions o;
    Plan& p = o.plan;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            o.help = true;
            return o;
        }
        if (a == "--markdown") {
            o.markdown = true;
            continue;
        }
        if (a == "--quiet") {
            o.quiet = true;
            continue;
        }
        if (a == "--drop-caches") {
            p.dropCachesAsRoot = true;
            continue;
        }
        if (a.rfind("-", 0) != 0) {
            if (!p.file.empty())
                return Error{fmt::format("more than one file given ('{}' and '{}'): readscope "
                                         "measures one file per run",
                                         p.file, a)};
            p.file = a;
            continue;
        }
        auto v = valueOf(args, i);
        if (!v)
            return v.error();
        const std::string& value = *v;
        static const char* const planFlags[] = {
            "--sizes",    "--strategies", "--pattern",      "--cache", "--consume",
            "--threads",  "--rounds",     "--warmup",       "--seed",  "--budget",
            "--time-cap", "--round-time", "--buffer-offset"};
        for (const char* f : planFlags)
            o.planFlagsGiven |= a == f;
        if (a == "--sizes") {
            auto sizes = parseSizeList(value);
            if (!sizes)
                return flagError(a, sizes.error());
            p.sizes = *sizes;
        } else if (a == "--strategies") {
            p.strategies.clear();
            o.allStrategies = value == "all";
            if (!o.allStrategies)
                for (auto& id : splitList(value)) {
                    if (!findStrategy(id))
                        return Error{fmt::format("--strategies: unknown strategy '{}': see "
                                                 "'readscope-cli strategies'",
                                                 id)};
                    p.strategies.push_back(id);
                }
        } else if (a == "--pattern") {
            auto r = parsePattern(value);
            if (!r)
                return flagError(a, r.error());
            p.pattern = *r;
        } else if (a == "--cache") {
            auto r = parseCacheMode(value);
            if (!r)
                return flagError(a, r.error());
            p.cache = *r;
        } else if (a == "--consume") {
            auto r = parseConsume(value);
            if (!r)
                return flagError(a, r.error());
            p.consume = *r;
        } else if (a == "--threads" || a == "--rounds" || a == "--warmup") {
            const IntLimit limit = a == "--threads"  ? kThreadsLimit
                                   : a == "--rounds" ? kRoundsLimit
                                                     : kWarmupLimit;
            auto r = parseInt(a, value, limit.min, limit.max);
            if (!r)
                return r.error();
            (a == "--threads" ? p.threads : a == "--rounds" ? p.rounds : p.warmup) = *r;
        } else if (a == "--seed") {
            auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), p.seed);
            if (ec != std::errc{} || end != value.data() + value.size())
                return Error{
                    fmt::format("--seed '{}' is not a whole number from 0 to 2^64-1", value)};
        } else if (a == "--budget") {
            auto r = parseSize(value);
            if (!r)
                return flagError(a, r.error());
            p.budget = *r;
        } else if (a == "--time-cap") {
            double secs = 0;
            auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), secs);
            if (ec != std::errc{} || end != value.data() + value.size() || !(secs > 0) ||
                !std::isfinite(secs) || secs > 1e6)
                return Error{
                    fmt::format("--time-cap '{}' must be a number of seconds above 0", value)};
            p.timeCapSeconds = secs;
        } else if (a == "--round-time") {
            double secs = -1;
            auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), secs);
            if (ec != std::errc{} || end != value.data() + value.size() || !(secs >= 0) ||
                secs > kMaxRoundTimeSeconds)
                return Error{fmt::format("--round-time '{}' must be 0 to {} seconds", value,
                                         kMaxRoundTimeSeconds)};
            p.roundTimeSeconds = secs;
        } else if (a == "--buffer-offset") {
            auto offsets = parseBufferOffsets(value);
            if (!offsets)
                return flagError(a, offsets.error());
            p.bufferOffsets = *offsets;
        } else if (a == "--csv") {
            o.csvPath = value;
        } else if (a == "--samples-csv") {
            o.samplesCsvPath = value;
        } else if (a == "--json") {
            o.jsonPath = value;
        } else if (a == "--recovery") {
            o.recoveryPath = value;
        } else if (a == "--resume") {
            o.resumePath = value;
        } else if (a == "--report") {
            o.reportDir = value;
        } else if (a == "--baseline") {
            o.baselinePath = value;
        } else if (a == "--threshold") {
            auto t = parseThreshold(value);
            if (!t)
                return t.error();
            o.threshold = *t;
        } else {
            return Error{fmt::format("unknown option '{}' (see 'readscope-cli run --help')", a)};
        }
    }
    if (o.allStrategies)
        for (const auto& s : strategies())
            p.strategies.emplace_back(s.id);
    return o;
}

} // namespace readscope::cli
