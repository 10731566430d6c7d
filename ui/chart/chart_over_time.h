#pragma once
// GB/s over time: each round's figure against when it started, one line per strategy (and per
// point, when the run has several), and the whole file's share in the page cache on the right
// axis where a duration run measured it. A memory-limited run shows its cache filling and what
// each strategy does once it is full; any run shows the machine's drift.
#include "chart_series.h"

#include <optional>
#include <vector>

namespace readscope::ui {

// Seconds since the run's first measured round on x (ChartData::timeAxis); rounds from
// documents that did not record when they started are left out. shootdowns: each round's TLB
// shootdowns per second (machine-wide) instead of its GB/s; rounds that counted none (a system
// without the count) are left out, and where no round has a count the y label says so.
// only: the rounds of that point alone (a line per strategy); none: every cell's.
ChartData overTimeChart(const ResultDocument& doc, bool shootdowns = false,
                        const std::optional<SweepPoint>& only = std::nullopt);

// Past this many lines the over-time chart shows one point at a time: 30 lines in repeated
// colours with a 30-entry legend read as none.
inline constexpr std::size_t kMaxOverTimeLines = 8;

// What the over-time chart's picker offers on a run of several points: "every size" (only
// while the cells are at most kMaxOverTimeLines), then each point by its label. Empty on a
// run of one point: there is nothing to pick.
struct OverTimeChoice {
    QString label;
    std::optional<SweepPoint> point;
};
std::vector<OverTimeChoice> overTimeChoices(const ResultDocument& doc);

} // namespace readscope::ui
