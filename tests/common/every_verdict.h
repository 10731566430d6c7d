#pragma once
// One comparison holding a row of every verdict the policy gives (faster, slower, the same,
// and "cannot tell" for each of its causes), each made by verdict.h from rounds built to have
// it: what the golden files hold as the terminal, the Markdown and the Compare tab word it.
#include "readscope/compare.h"

#include <algorithm>
#include <string>
#include <vector>

namespace readscope::testing {

inline Comparison everyVerdict() {
    const std::vector<double> twelve = {10.0, 10.1, 9.9,   10.05, 9.95,  10.02,
                                        9.98, 10.0, 10.03, 9.97,  10.01, 9.99};
    auto times = [](std::vector<double> v, double f) {
        for (auto& x : v)
            x *= f;
        return v;
    };
    auto paired = [](const std::vector<double>& a, const std::vector<double>& b) {
        RowRounds row{a, b, {}};
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
            row.pairs.push_back({a[i], b[i]});
        return row;
    };
    std::vector<double> wide, speeds;
    for (std::size_t i = 0; i < twelve.size(); ++i) {
        wide.push_back(twelve[i] * (i % 2 ? 1.1 : 0.9));
        speeds.push_back(twelve[i] * (i % 2 ? 1.0 : 0.1));
    }
    Comparison c;
    c.title = "every verdict";
    c.policy.betweenRuns = true;
    c.policy.drift = 0.10;
    auto add = [&](const char* who, const std::vector<RowRounds>& rows,
                   const VerdictPolicy& policy) {
        const auto verdicts = judgeRows(rows, policy);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            CellComparison cc;
            cc.strategy = cc.baselineStrategy = who;
            cc.at = SweepPoint{65536ull << i};
            cc.baselineMedian = rows[i].baseline.empty() ? 0 : rows[i].baseline.front();
            cc.currentMedian = rows[i].current.empty() ? 0 : rows[i].current.front();
            if (!rows[i].measured)
                cc.currentStatus = CellStatus::Failed;
            cc.verdict = verdicts[i];
            c.cells.push_back(cc);
            c.tests = std::max(c.tests, verdicts[i].tests);
        }
    };
    const VerdictPolicy within;
    add("faster", {paired(twelve, times(twelve, 1.2))}, within);
    add("slower", {paired(twelve, times(twelve, 0.8))}, within);
    add("same", {paired(twelve, twelve)}, within);
    add("wide-interval", {paired(twelve, wide)}, within);
    add("two-speeds", {paired(twelve, speeds)}, within);
    const std::vector<double> nine(twelve.begin(), twelve.begin() + 9);
    add("too-few-rounds", std::vector<RowRounds>(14, paired(nine, times(nine, 0.2))), within);
    c.cells.resize(c.cells.size() - 13); // one row of the 14 speaks for them
    add("not-measured", {RowRounds{twelve, {}, {}, false}}, within);
    add("medians-only", {RowRounds{{10}, {12}, {}, true, true}}, within);
    VerdictPolicy between;
    between.betweenRuns = true;
    add("no-drift", {RowRounds{twelve, times(twelve, 1.5), {}}}, between);
    between.drift = 0.3;
    add("within-drift", {RowRounds{twelve, times(twelve, 1.2), {}}}, between);
    between.drift = 0.1;
    between.machineDiffered = true;
    add("machine-differed", {RowRounds{twelve, times(twelve, 1.2), {}}}, between);
    return c;
}

} // namespace readscope::testing
