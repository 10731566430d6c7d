#pragma once
// Prepared sweeps that each reproduce a published finding, with what to look for
// (resources/lessons.json).
#include "readscope/cache_fill.h"
#include "readscope/finding.h"
#include "readscope/plan.h"

#include "chart_series.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace readscope::ui {

struct Lesson {
    QString title;
    QString text;
    QString reference;              // strategy to compare the others against
    Plan plan;                      // without a file: the lesson runs on whatever file is chosen
    std::optional<Finding> finding; // what the run is checked against when it ends
    std::optional<CacheFillFinding> fill; // ... or, for a duration run, this (judgeCacheFill)
    // The finding is judged by judgeZeroing: the gap, and the zeroing's share of it per size.
    bool explainsZeroing = false;
    // What the chart shows when the lesson is chosen ("chart": "time-split", "over-time";
    // GB/s per range size without one), and for time-split, whose bars per size
    // ("chart_strategy").
    ChartMode chart = ChartMode::Throughput;
    QString chartStrategy;
    // The smallest file the lesson can show its finding on ("min_file_size"; 0: any): a
    // smaller one gets the offer to generate one this large.
    std::uint64_t minFileBytes = 0;
};

QList<Lesson> loadLessons();

} // namespace readscope::ui
