#pragma once
// GB/s over time: each round's figure against when it started, one line per strategy (and per
// point, when the run has several), and the whole file's share in the page cache on the right
// axis where a duration run measured it. A memory-limited run shows its cache filling and what
// each strategy does once it is full; any run shows the machine's drift.
#include "chart_series.h"

namespace readscope::ui {

// Seconds since the run's first measured round on x (ChartData::timeAxis); rounds from
// documents that did not record when they started are left out. shootdowns: each round's TLB
// shootdowns per second (machine-wide) instead of its GB/s; rounds that counted none (a system
// without the count) are left out, and where no round has a count the y label says so.
ChartData overTimeChart(const ResultDocument& doc, bool shootdowns = false);

} // namespace readscope::ui
