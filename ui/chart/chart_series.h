#pragma once
// What the chart draws, per mode, from a result document (and a baseline): plain data, so the
// drawing code stays generic and the modes can be tested without pixels.
#include "readscope/result_document.h"

#include <QString>
#include <QVector>

#include <vector>

namespace readscope::ui {

// Iops: ranges per second at the median; TimePerRange: time per range with each strategy's
// fitted cost model t(n) = fixed + n / bandwidth (cost_model.h) drawn through it.
// OverTime: each round's GB/s against when it ran (chart_over_time.h); ShootdownsOverTime: the
// TLB shootdowns per second while each round ran, machine-wide, against the same time.
enum class ChartMode {
    Throughput,
    Relative,
    CpuPerGB,
    Latency,
    Iops,
    TimePerRange,
    OverTime,
    ShootdownsOverTime,
    TimeSplit // where a range's time goes (chart_time_split.h): stacked bars, not lines
};
// Whether the mode draws rounds against time (chart_over_time.h).
inline bool overTimeMode(ChartMode mode) {
    return mode == ChartMode::OverTime || mode == ChartMode::ShootdownsOverTime;
}
// What the bars around a GB/s median span: the 95% confidence interval of the median (the
// default: how sure the figure is), the quartiles of the rounds, or their whole range.
enum class BarKind { MedianInterval, Quartiles, MinMax };
// "confidence interval of the median (95%)", with the coverage the document's intervals have
// ("(75%, at 3 rounds)"); "quartiles of the rounds", ...
QString barDescription(BarKind bars, const ResultDocument& doc);

struct Series {
    QString name;
    QString strategy;    // empty for marker overlays
    int colorIndex = 0;  // same strategy, same colour, in the current run and the baseline
    bool dashed = false; // baseline, or the second line of a pair (system time, p99)
    bool baseline = false;
    bool dotted = false; // an in-place mapping that touched 1 byte/page (consume minimal)
    bool errorBars = false;
    // A ceiling measured on this machine (memcpy's for warm runs, the device's for cold and
    // direct ones): grey, dash-dot, no points; offScaleName is its legend entry when it lies
    // far above the figures on a linear axis and is left out of the scale.
    bool limit = false;
    QString offScaleName;
    bool fitted = false;    // a cost model's line: the strategy's colour, dashed, no points
    bool plain = false;     // a line without points (each round's figure, over time)
    bool rightAxis = false; // on the right axis (the file's residency over time, in %)
    QVector<double> x, y, below, above;
    // Noisy points of this line: drawn hollow, in the line's own colour and shape.
    QVector<double> hollowX, hollowY;
};

// A limit line's legend entry on an axis whose top is axisTop: its name while it is inside
// the plot, offScaleName while all of it lies above, and its name with how far it reaches
// while only a part of it does.
QString limitLegendName(const Series& limit, double axisTop);
// "10 GB/s" or "6.2-14 GB/s": one figure when the two would print alike.
QString gbpsSpanText(double low, double top);

struct ChartData {
    std::vector<Series> series;
    QVector<double> failedX, failedY;         // noisy points: each series' hollowX, hollowY
    QVector<double> tooFewX, tooFewY;         // too few rounds to tell noisy from quiet
    QVector<double> notColdX, notColdY;       // cold-cache cells whose file stayed cached
    QVector<double> twoSpeedsX, twoSpeedsY;   // cells whose rounds ran at two speeds
    QVector<double> unverifiedX, unverifiedY; // a check their figures rest on did not happen
    QString yLabel;
    // The x axis: range bytes (log scale) for a size sweep; for a sweep at one range size the
    // points are evenly spaced categories 0, 1, 2 ... labelled "0", "16", "4096+16" (buffer
    // offsets), "1", "2", "4" (threads) or "1", "16", "64" (queue depths).
    SweepAxis axis = SweepAxis::RangeSize;
    std::vector<SweepPoint> points; // x = index, for a category axis
    QVector<QString> labels;
    bool timeAxis = false; // x: seconds since the run's first measured round
};

// Where a cell sits on the chart's x axis.
double chartX(const ChartData& data, const SweepPoint& point);

ChartData buildChart(const ResultDocument& doc, const ResultDocument* baseline, ChartMode mode,
                     const std::string& reference, BarKind bars = BarKind::MedianInterval);

// Strategies of the document (plan order first), the ones a reference can be chosen from.
std::vector<std::string> strategyOrder(const ResultDocument& doc);

} // namespace readscope::ui
