#include "readscope/machine_drift.h"

#include "readscope/system_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
    if (runs.size() < 2)
        return Error{"the drift between runs needs at least two runs of one plan"};
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
    std::vector<double> changes;
    for (std::size_t i = 0; i < runs.size(); ++i)
        for (std::size_t j = i + 1; j < runs.size(); ++j)
            for (const auto& a : runs[i].cells) {
                const Cell* b = runs[j].find(a.strategy, a.point());
                if (a.measured() && b && b->measured() && a.summary.median > 0 &&
                    b->summary.median > 0)
                    changes.push_back(std::abs(b->summary.median / a.summary.median - 1));
            }
    if (changes.empty())
        return Error{"these runs have no measured cell in common"};
    MachineDrift d;
    d.cpuModel = runs[0].system.cpuModel;
    d.kernel = runs[0].system.kernel;
    d.filesystem = runs[0].system.filesystem;
    d.drift = *std::max_element(changes.begin(), changes.end());
    std::nth_element(changes.begin(), changes.begin() + std::ptrdiff_t(changes.size() / 2),
                     changes.end());
    d.medianDrift = changes[changes.size() / 2];
    d.runs = int(runs.size());
    d.cells = int(runs[0].cells.size());
    d.measuredAt = utcTimestamp();
    return d;
}

bool measuredWhere(const MachineDrift& d, const ResultDocument& doc) {
    return d.cpuModel == doc.system.cpuModel && d.kernel == doc.system.kernel &&
           d.filesystem == doc.system.filesystem;
}

std::optional<MachineDrift> machineDriftFor(const std::vector<MachineDrift>& kept,
                                            const ResultDocument& a, const ResultDocument& b) {
    for (const auto& d : kept)
        if (measuredWhere(d, a) && measuredWhere(d, b))
            return d;
    return std::nullopt;
}

} // namespace readscope
