#pragma once
// "Where the time goes": one stacked bar per strategy at a chosen range size, or per range size
// for one strategy, each part of a range's time (system calls, page faults, zeroing, the
// page-cache work, the copy, the fold) from the run's unit costs (time_split.h), with the
// measured time per range beside it as a mark. The stack below the mark is what the unit costs
// explain; the gap up to the mark is unexplained (a stack above the mark: they predict more).
#include "readscope/result_document.h"
#include "readscope/time_split.h"

#include <QString>
#include <QVector>

#include <optional>
#include <vector>

class QCustomPlot;
class QColor;
class QMargins;

namespace readscope::ui {

// What the bars stand for: every strategy at one range size, or one strategy at every size.
struct SplitChoice {
    std::optional<std::uint64_t> rangeBytes; // set: strategies at this size
    std::string strategy;                    // else: this strategy per size
    QString label() const;                   // "at 1 MiB", "pread-zerofill, per size"
};
// The choices a document offers: each measured size, then each strategy; empty without a cell
// that has a split.
std::vector<SplitChoice> splitChoices(const ResultDocument& doc);

struct SplitBars {
    QVector<QString> labels; // one per bar
    // µs per range; for one strategy per size (percent), % of each bar's measured time
    bool percent = false;
    QVector<double> measured;
    std::vector<std::pair<TimePart, QVector<double>>> parts;
    // Why a cell has no bar ("a cold run's time is ..."): the first left out's reason, kept
    // when some have bars too, with how many were left out of how many.
    QString missing;
    int leftOut = 0, cells = 0;
};
SplitBars splitBars(const ResultDocument& doc, const SplitChoice& choice);

// Draws the bars into an emptied plot (its own x and y axes), legend entries included.
void drawTimeSplit(QCustomPlot& plot, const SplitBars& bars, const QColor& text);

// QCustomPlot leaves out a tick label that would cross the widget's edge, and a slanted bar
// label runs right of its bar: the last bars of a wide chart lost theirs. Sets the axis rect's
// minimum margins to `base`, widened on the right by what the x axis's slanted labels need at
// `width` (0: the plot's present width); `base` alone when they are level.
void keepSlantedLabelsInside(QCustomPlot& plot, const QMargins& base, int width = 0);

} // namespace readscope::ui
