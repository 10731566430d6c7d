#include "readscope/machine_drift.h"

#include "readscope/system_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace readscope {

namespace {
bool samePlan(const Plan& a, const Plan& b) {
    return a.strategies == b.strategies && a.sizes == b.sizes && a.fileSizes == b.fileSizes &&
           a.pattern == b.pattern && a.cache == b.cache && a.threads == b.threads &&
           a.consume == b.consume && a.bufferOffsets == b.bufferOffsets;
}
bool sameMachine(const SystemInfo& a, const SystemInfo& b) {
    return a.cpuModel == b.cpuModel && a.kernel == b.kernel && a.filesystem == b.filesystem;
}
} // namespace

Result<MachineDrift> measureMachineDrift(const std::vector<ResultDocument>& runs) {
    if (runs.size() < 3)
        return Error{"the drift between runs needs at least three runs of one plan (5 or 6, "
                     "some minutes apart, show more of what the machine does)"};
    for (std::size_t i = 1; i < runs.size(); ++i) {
        if (!samePlan(runs[0].plan, runs[i].plan))
            return Error{fmt::format("run {} has another plan than run 1: the drift is measured "
                                     "between runs of one plan with nothing changed",
                                     i + 1)};
        if (!sameMachine(runs[0].system, runs[i].system))
            return Error{fmt::format("run {} was measured on another machine or kernel than "
                                     "run 1",
                                     i + 1)};
    }
    // Pooled over the cells every run measured: the squared deviations of log(median) from
    // the cell's mean, over the runs' degrees of freedom.
    double squares = 0, largest = 0;
    int freedom = 0, cells = 0;
    for (const auto& first : runs[0].cells) {
        std::vector<double> levels;
        for (const auto& run : runs)
            if (const Cell* c = run.find(first.strategy, first.point());
                c && c->measured() && c->summary.median > 0)
                levels.push_back(std::log(c->summary.median));
        if (levels.size() != runs.size())
            continue;
        ++cells;
        const double mean =
            std::accumulate(levels.begin(), levels.end(), 0.0) / double(levels.size());
        for (double x : levels)
            squares += (x - mean) * (x - mean);
        freedom += int(levels.size()) - 1;
        const auto [lo, hi] = std::minmax_element(levels.begin(), levels.end());
        largest = std::max(largest, std::exp(*hi - *lo) - 1);
    }
    if (cells == 0)
        return Error{"these runs have no measured cell in common"};
    if (!(squares > 0))
        return Error{"these runs have the same median in every cell: copies of one run, not "
                     "runs of their own"};
    MachineDrift d;
    d.cpuModel = runs[0].system.cpuModel;
    d.kernel = runs[0].system.kernel;
    d.filesystem = runs[0].system.filesystem;
    d.cache = std::string(toString(runs[0].plan.cache));
    d.spread = std::sqrt(squares / freedom);
    d.drift = std::exp(kDriftSpreads * std::sqrt(2.0) * d.spread) - 1;
    d.largestSeen = largest;
    d.runs = int(runs.size());
    d.cells = cells;
    d.measuredAt = utcTimestamp();
    return d;
}

Result<MachineDrift> measureMachineDriftFromRepeats(const ResultDocument& repeated) {
    int repeats = 0;
    for (const auto& c : repeated.cells)
        for (const auto& s : c.samples)
            repeats = std::max(repeats, s.repeat + 1);
    std::vector<ResultDocument> runs(static_cast<std::size_t>(repeats));
    for (int k = 0; k < repeats; ++k) {
        ResultDocument& run = runs[std::size_t(k)];
        run.plan = repeated.plan;
        run.system = repeated.system;
        for (const auto& c : repeated.cells) {
            Cell one = c;
            std::erase_if(one.samples, [k](const Sample& s) { return s.repeat != k; });
            if (one.samples.empty())
                continue;
            one.summarize();
            run.cells.push_back(std::move(one));
        }
    }
    return measureMachineDrift(runs);
}

bool measuredWhere(const MachineDrift& d, const ResultDocument& doc) {
    return d.cpuModel == doc.system.cpuModel && d.kernel == doc.system.kernel &&
           d.filesystem == doc.system.filesystem && d.cache == toString(doc.plan.cache);
}

std::optional<MachineDrift> machineDriftFor(const std::vector<MachineDrift>& kept,
                                            const ResultDocument& a, const ResultDocument& b) {
    for (const auto& d : kept)
        if (measuredWhere(d, a) && measuredWhere(d, b))
            return d;
    return std::nullopt;
}

} // namespace readscope
