#include "chart_series.h"
#include "qt_text.h"

#include "chart_over_time.h"

#include "readscope/cost_model.h"
#include "readscope/document_words.h"
#include "readscope/stats.h"
#include "readscope/strategy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace readscope::ui {

QString gbpsSpanText(double low, double top) {
    auto text = [](double v) { return QString::number(v, 'f', v >= 10 ? 0 : 1); };
    return std::abs(top - low) < 0.05 * top || text(low) == text(top)
               ? QString("%1 GB/s").arg(text(top))
               : QString("%1-%2 GB/s").arg(text(low), text(top));
}

QString limitLegendName(const Series& limit, double axisTop) {
    if (limit.y.isEmpty())
        return limit.name;
    const auto [low, top] = std::minmax_element(limit.y.begin(), limit.y.end());
    if (*top <= axisTop)
        return limit.name;
    if (*low > axisTop)
        return limit.offScaleName;
    // Inside the plot at some points: not "off scale", and the legend says where it goes.
    return limit.name + QString(" (runs above the plot, up to %1)").arg(gbpsSpanText(*top, *top));
}

namespace {

// One line per strategy from a per-cell value (nullopt: no point).
template <class F>
Series line(const ChartData& data, const ResultDocument& doc, const std::string& id, int color,
            F value) {
    Series s;
    s.name = QString::fromStdString(id);
    s.strategy = s.name;
    s.colorIndex = color;
    std::map<double, double> points;
    for (const auto& c : doc.cells)
        if (c.strategy == id && c.measured())
            if (auto v = value(c); v && chartX(data, c.point()) >= 0)
                points[chartX(data, c.point())] = *v;
    for (const auto& [x, y] : points) {
        s.x << x;
        s.y << y;
    }
    return s;
}

// The category points of a sweep at one range size (buffer offsets, threads, queue depths):
// the planned points and any a cell has, in ascending order.
void categoryAxis(ChartData& out, const ResultDocument& doc, const ResultDocument* baseline) {
    const SweepAxis axis = out.axis = sweepAxis(doc.plan);
    if (axis == SweepAxis::RangeSize)
        return;
    // One category per value on the axis: chartX matches by it, whatever the range size.
    std::vector<SweepPoint> points;
    auto add = [&](const SweepPoint& p) {
        if (std::none_of(points.begin(), points.end(), [&](const SweepPoint& q) {
                return axisValue(axis, q) == axisValue(axis, p);
            }))
            points.push_back(p);
    };
    if (!effectiveSizes(doc.plan, doc.fileSize).empty())
        for (const auto& p : sweepPoints(doc.plan, doc.fileSize))
            add(p);
    for (const auto& p : doc.points())
        add(p);
    if (baseline && sweepAxis(baseline->plan) == axis)
        for (const auto& p : baseline->points())
            add(p);
    std::stable_sort(points.begin(), points.end(),
                     [axis](const SweepPoint& a, const SweepPoint& b) {
                         return axisValue(axis, a) < axisValue(axis, b);
                     });
    out.points = points;
    for (const auto& p : points)
        out.labels << QString::fromStdString(pointLabel(axis, p));
}

// The bar's reach below and above the median.
std::pair<double, double> barOf(const Summary& s, BarKind bars) {
    switch (bars) {
    case BarKind::MedianInterval: return {s.median - s.ciLow, s.ciHigh - s.median};
    case BarKind::Quartiles: return {s.median - s.p25, s.p75 - s.median};
    case BarKind::MinMax: break;
    }
    return {s.median - s.min, s.max - s.median};
}

// Under --consume minimal an in-place mapping touched one byte per page while the copies had
// every byte: its line says so in the legend and is drawn dotted.
void markOnePerPage(Series& s, const ResultDocument& doc, const std::string& id) {
    if (!touchesOnePerPage(id, doc.plan.consume))
        return;
    s.name += " · 1 byte/page";
    s.dotted = true;
}

// A strategy that read more than it wanted (pread-coalesce's merged spans) says how much in
// the legend: its GB/s counts the bytes wanted, and a pasted chart must not hide the rest.
void markReadAmplification(Series& s, const ResultDocument& doc, const std::string& id) {
    if (const auto text = readAmplificationText(doc, id); !text.empty())
        s.name += QString(" · read %1 the bytes wanted").arg(QString::fromStdString(text));
}

// A limit known at one point only would draw nothing (its line has no points marked): a short
// level either side of it instead.
void spanLonePoint(Series& s, const ChartData& data) {
    if (s.x.size() != 1)
        return;
    const double x = s.x[0], y = s.y[0];
    const bool logX = data.axis == SweepAxis::RangeSize;
    s.x = {logX ? x / 1.4 : x - 0.3, logX ? x * 1.4 : x + 0.3};
    s.y = {y, y};
}

// Warm runs: memcpy's speed per point, measured before its cells (the first cell of the
// point that has it). Nothing for cold and direct runs, which never measure it.
Series copyLimitLine(const ChartData& data, const ResultDocument& doc) {
    Series s;
    s.name = "memcpy limit";
    s.limit = true;
    std::map<double, double> points;
    for (const auto& c : doc.cells)
        if (c.copyLimitGbps && chartX(data, c.point()) >= 0)
            points.try_emplace(chartX(data, c.point()), *c.copyLimitGbps);
    double low = 0, top = 0;
    for (const auto& [x, y] : points) {
        s.x << x;
        s.y << y;
        low = low > 0 ? std::min(low, y) : y;
        top = std::max(top, y);
    }
    s.offScaleName = QString("memcpy %1 (off scale)").arg(gbpsSpanText(low, top));
    // Copying cells above it: the line is not the ceiling it claims to be, and says so.
    const auto passed = std::count_if(doc.cells.begin(), doc.cells.end(), [](const Cell& c) {
        const auto pct = pctOfCopyLimit(c);
        return copiesTheBytes(c.strategy) && pct && *pct > kAboveCopyLimitPct;
    });
    if (passed) {
        const QString why = QString(" · passed by %1 copying cell%2: measured low?")
                                .arg(passed)
                                .arg(passed == 1 ? "" : "s");
        s.name += why;
        s.offScaleName += why;
    }
    spanLonePoint(s, data);
    return s;
}

// Cold and direct runs: the device limit, one level across every point. Cells that passed it
// say so in its name: a pasted chart with points above a "limit" must carry the reason.
Series deviceLimitLine(const ChartData& data, const ResultDocument& doc) {
    Series s;
    const auto limit = deviceLimitGbps(doc);
    if (!limit)
        return s;
    const double gbps = *limit;
    s.limit = true;
    s.name = QString("device limit %1 GB/s").arg(rateText(gbps));
    const auto passed = std::count_if(doc.cells.begin(), doc.cells.end(),
                                      [&](const Cell& c) { return passesDeviceLimit(doc, c); });
    if (passed)
        s.name += QString(" · passed by %1 cell%2: %3")
                      .arg(passed)
                      .arg(passed == 1 ? "" : "s")
                      .arg(QString::fromStdString(deviceLimitPassedShort(doc)));
    s.offScaleName = s.name + " (off scale)";
    std::set<double> xs;
    for (const auto& c : doc.cells)
        if (const double x = chartX(data, c.point()); x >= 0)
            xs.insert(x);
    for (double x : xs) {
        s.x << x;
        s.y << gbps;
    }
    spanLonePoint(s, data);
    return s;
}

// A fitted cost model across the measured sizes, 8 points per octave so that the curve of
// fixed + n / bandwidth reads as a curve on log-log axes.
Series fittedLine(const CostFit& fit, double from, double to, int color) {
    Series s;
    s.name = QString("%1 fit: %2 + n / %3 GB/s")
                 .arg(QString::fromStdString(fit.strategy))
                 .arg(fit.fixedResolved() ? QString("%1 µs").arg(fit.fixedSeconds * 1e6, 0, 'f', 2)
                                          : QString("fixed (not resolved)"))
                 .arg(rateText(fit.bytesPerSecond / 1e9));
    s.colorIndex = color;
    s.fitted = true;
    const int steps = std::max(1, int(std::ceil(std::log2(to / from) * 8)));
    for (int i = 0; i <= steps; ++i) {
        const double n = from * std::pow(to / from, double(i) / steps);
        s.x << n;
        s.y << (fit.fixedSeconds + n / fit.bytesPerSecond) * 1e6;
    }
    return s;
}

} // namespace

QString barDescription(BarKind bars, const ResultDocument& doc) {
    switch (bars) {
    case BarKind::MedianInterval:
        return QString("confidence interval of the median (coverage %1)")
            .arg(QString::fromStdString(intervalCoverageText(doc)));
    case BarKind::Quartiles: return "quartiles of the rounds";
    case BarKind::MinMax: break;
    }
    return "min-max of the rounds";
}

double chartX(const ChartData& data, const SweepPoint& point) {
    if (data.axis == SweepAxis::RangeSize)
        return double(point.rangeBytes);
    // Several range sizes cannot share a category axis: points are matched by the axis's
    // value (offset, threads, depth).
    for (std::size_t i = 0; i < data.points.size(); ++i)
        if (axisValue(data.axis, data.points[i]) == axisValue(data.axis, point))
            return double(i);
    return -1;
}

std::vector<std::string> strategyOrder(const ResultDocument& doc) {
    // The plan's strategies even before their first cell: a line keeps its colour all run.
    std::vector<std::string> order = doc.plan.strategies;
    for (const auto& id : doc.measuredStrategies())
        if (std::find(order.begin(), order.end(), id) == order.end())
            order.push_back(id);
    return order;
}

ChartData buildChart(const ResultDocument& doc, const ResultDocument* baseline, ChartMode mode,
                     const std::string& reference, BarKind bars) {
    if (overTimeMode(mode))
        return overTimeChart(doc, mode == ChartMode::ShootdownsOverTime);
    ChartData out;
    categoryAxis(out, doc, baseline);
    auto order = strategyOrder(doc);
    if (baseline)
        for (const auto& id : strategyOrder(*baseline))
            if (std::find(order.begin(), order.end(), id) == order.end())
                order.push_back(id);
    auto colorOf = [&](const std::string& id) {
        return int(std::find(order.begin(), order.end(), id) - order.begin());
    };
    switch (mode) {
    case ChartMode::Throughput:
        // Short enough for a 1024 px window; the footnote of an exported chart says the rest.
        out.yLabel =
            QString("GB/s%1 (median; bars: %2)")
                .arg(sweepAxis(doc.plan) == SweepAxis::Threads ? QString(", all threads")
                                                               : QString(),
                     bars == BarKind::MedianInterval
                         ? QString("CI %1").arg(QString::fromStdString(intervalCoverageText(doc)))
                         : barDescription(bars, doc));
        for (const auto& id : strategyOrder(doc)) {
            Series s;
            s.name = QString::fromStdString(id);
            s.strategy = s.name;
            s.colorIndex = colorOf(id);
            s.errorBars = true;
            markOnePerPage(s, doc, id);
            markReadAmplification(s, doc, id);
            // Beside memcpy's line: a mapping read in place copies nothing and may pass it.
            if (const auto* info = findStrategy(id);
                info && info->access == Access::MapInPlace &&
                std::any_of(doc.cells.begin(), doc.cells.end(),
                            [](const Cell& c) { return c.copyLimitGbps.has_value(); }))
                s.name += " (reads in place)";
            std::map<double, const Cell*> points;
            for (const auto& c : doc.cells) {
                if (c.strategy != id || chartX(out, c.point()) < 0)
                    continue;
                if (c.measured())
                    points[chartX(out, c.point())] = &c;
                else if (c.status == CellStatus::Failed) {
                    out.failedX << chartX(out, c.point());
                    out.failedY << 0;
                }
            }
            for (const auto& [x, c] : points) {
                s.x << x;
                s.y << c->summary.median;
                const auto [below, above] = barOf(c->summary, bars);
                s.below << below;
                s.above << above;
                if (c->status == CellStatus::Noisy) {
                    s.hollowX << x;
                    s.hollowY << c->summary.median;
                }
                if (c->status == CellStatus::TooFewRounds) {
                    out.tooFewX << x;
                    out.tooFewY << c->summary.median;
                }
                if (c->status == CellStatus::NotCold) {
                    out.notColdX << x;
                    out.notColdY << c->summary.median;
                }
                if (c->status == CellStatus::Unverified) {
                    out.unverifiedX << x;
                    out.unverifiedY << c->summary.median;
                }
                if (twoSpeeds(c->roundRates())) {
                    out.twoSpeedsX << x;
                    out.twoSpeedsY << c->summary.median;
                }
            }
            if (!s.x.isEmpty())
                out.series.push_back(s);
        }
        for (Series limit : {copyLimitLine(out, doc), deviceLimitLine(out, doc)})
            if (!limit.x.isEmpty()) {
                if (baseline) { // the baseline's own limit is not drawn
                    limit.name += " (this run)";
                    limit.offScaleName += " (this run)";
                }
                out.series.push_back(limit);
            }
        if (baseline)
            for (const auto& id : strategyOrder(*baseline)) {
                Series s = line(out, *baseline, id, colorOf(id),
                                [](const Cell& c) { return std::optional(c.summary.median); });
                s.name += " (baseline)";
                s.strategy.clear();
                s.dashed = s.baseline = true;
                if (!s.x.isEmpty())
                    out.series.push_back(s);
            }
        break;
    case ChartMode::Relative:
        out.yLabel = QString("× %1 (median GB/s ratio)").arg(QString::fromStdString(reference));
        for (const auto& id : strategyOrder(doc)) {
            Series s = line(out, doc, id, colorOf(id), [&](const Cell& c) -> std::optional<double> {
                const Cell* ref = doc.find(reference, c.point());
                if (!ref || !ref->measured() || ref->summary.median <= 0)
                    return std::nullopt;
                return c.summary.median / ref->summary.median;
            });
            markOnePerPage(s, doc, id);
            markReadAmplification(s, doc, id);
            if (!s.x.isEmpty())
                out.series.push_back(s);
        }
        break;
    case ChartMode::CpuPerGB:
        // The split is sampled at the scheduler's tick: drawn only where the cell's rounds ran
        // enough CPU time to hold the ticks it needs (CpuPerGB::splitResolved).
        out.yLabel = "CPU ms/GB: solid user + sys, dashed sys (tick-sampled)";
        for (const auto& id : strategyOrder(doc)) {
            Series total =
                line(out, doc, id, colorOf(id), [](const Cell& c) -> std::optional<double> {
                    const auto cpu = cpuMsPerGB(c);
                    return cpu ? std::optional(cpu->totalMs()) : std::nullopt;
                });
            Series sys =
                line(out, doc, id, colorOf(id), [](const Cell& c) -> std::optional<double> {
                    const auto cpu = cpuMsPerGB(c);
                    return cpu && cpu->splitResolved ? std::optional(cpu->systemMs) : std::nullopt;
                });
            sys.name += " (system)";
            sys.strategy.clear();
            sys.dashed = true;
            if (!total.x.isEmpty()) {
                out.series.push_back(total);
                out.series.push_back(sys);
            }
        }
        break;
    case ChartMode::Iops:
        out.yLabel = wholeFileSweep(doc.plan) ? "files read per second, at the median GB/s"
                                              : "IOPS: ranges per second, at the median GB/s";
        for (const auto& id : strategyOrder(doc)) {
            Series s = line(out, doc, id, colorOf(id), [](const Cell& c) { return medianIops(c); });
            markOnePerPage(s, doc, id);
            markReadAmplification(s, doc, id);
            if (!s.x.isEmpty())
                out.series.push_back(s);
        }
        break;
    case ChartMode::OverTime:
    case ChartMode::ShootdownsOverTime: break; // overTimeChart, above
    case ChartMode::TimeSplit: break;          // bars, drawn by chart_time_split
    case ChartMode::TimePerRange: {
        out.yLabel = QString("µs per %1 at the median; dashed: t(n) = fixed + n / bandwidth fitted")
                         .arg(wholeFileSweep(doc.plan) ? "file" : "range");
        for (const auto& id : strategyOrder(doc)) {
            // A worker's time per range, as the cost model fits it.
            Series s = line(out, doc, id, colorOf(id), [&](const Cell& c) -> std::optional<double> {
                const auto t = secondsPerRange(c, threadsAt(doc.plan, c.point()));
                return t ? std::optional(*t * 1e6) : std::nullopt;
            });
            if (!s.x.isEmpty())
                out.series.push_back(s);
        }
        if (out.axis != SweepAxis::RangeSize)
            break;
        for (const auto& fit : fitCosts(doc)) // across the sizes it was fitted to
            out.series.push_back(
                fittedLine(fit, fit.smallestBytes, fit.largestBytes, colorOf(fit.strategy)));
        break;
    }
    case ChartMode::Latency:
        out.yLabel = "latency per range (µs): solid p50, dashed p99";
        for (const auto& id : strategyOrder(doc)) {
            Series p50 = line(out, doc, id, colorOf(id), [](const Cell& c) {
                const auto v = medianOfPresent(c, [](const Sample& s) { return s.latencyP50; });
                return v ? std::optional(*v * 1e6) : std::nullopt;
            });
            Series p99 = line(out, doc, id, colorOf(id), [](const Cell& c) {
                const auto v = medianOfPresent(c, [](const Sample& s) { return s.latencyP99; });
                return v ? std::optional(*v * 1e6) : std::nullopt;
            });
            p99.name += " (p99)";
            p99.strategy.clear();
            p99.dashed = true;
            if (!p50.x.isEmpty()) {
                out.series.push_back(p50);
                out.series.push_back(p99);
            }
        }
        break;
    }
    return out;
}

} // namespace readscope::ui
