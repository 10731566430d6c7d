#include "chart_over_time.h"

#include "readscope/mark_notes.h"
#include "readscope/units.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace readscope::ui {

std::vector<OverTimeChoice> overTimeChoices(const ResultDocument& doc) {
    std::vector<OverTimeChoice> out;
    const auto points = doc.points();
    if (points.size() <= 1)
        return out;
    if (doc.cells.size() <= kMaxOverTimeLines)
        out.push_back({"every size", std::nullopt});
    const SweepAxis axis = sweepAxis(doc.plan);
    for (const auto& p : points)
        out.push_back({QString("at %1").arg(QString::fromStdString(pointLabel(axis, p))), p});
    return out;
}

ChartData overTimeChart(const ResultDocument& doc, bool shootdowns,
                        const std::optional<SweepPoint>& only) {
    ChartData out;
    out.timeAxis = true;
    out.yLabel = shootdowns ? "TLB shootdowns per second while each round ran (machine-wide)"
                            : "GB/s of each round";
    auto value = [shootdowns](const Sample& r) -> std::optional<double> {
        if (!shootdowns)
            return r.gbps();
        if (!r.tlbShootdowns || r.seconds <= 0)
            return std::nullopt;
        return *r.tlbShootdowns / r.seconds;
    };
    double first = std::numeric_limits<double>::infinity();
    for (const auto& c : doc.cells)
        for (const auto& s : c.samples)
            if (s.startedAt)
                first = std::min(first, *s.startedAt);
    if (!std::isfinite(first))
        return out;
    const auto order = strategyOrder(doc);
    const auto points = sweepPoints(doc.plan, doc.fileSize);
    // The file's residency after each round, over every cell's rounds in time.
    std::map<double, double> cached;
    for (const auto& id : order) {
        for (const auto& c : doc.cells) {
            if (c.strategy != id || c.samples.empty() || (only && c.point() != *only))
                continue;
            Series s;
            s.name = QString::fromStdString(id);
            if (points.size() > 1 && !only)
                s.name += QString(" · %1").arg(QString::fromStdString(pointText(c.point())));
            s.strategy = QString::fromStdString(id);
            // A strategy's lines at other points take colours of their own.
            const auto at = std::find(points.begin(), points.end(), c.point()) - points.begin();
            s.colorIndex = int(std::find(order.begin(), order.end(), id) - order.begin()) +
                           (only ? 0 : int(at) * int(order.size()));
            s.plain = true;
            std::vector<const Sample*> rounds;
            for (const auto& sample : c.samples)
                if (sample.startedAt && value(sample))
                    rounds.push_back(&sample);
            std::sort(rounds.begin(), rounds.end(), [](const Sample* a, const Sample* b) {
                return *a->startedAt < *b->startedAt;
            });
            for (const Sample* r : rounds) {
                s.x << *r->startedAt - first;
                s.y << *value(*r);
                if (r->fileResidentAfter)
                    cached[*r->startedAt - first] = *r->fileResidentAfter * 100;
            }
            if (!s.x.isEmpty())
                out.series.push_back(std::move(s));
        }
    }
    // No round carried a count: an empty plot would read as "none happened".
    if (shootdowns && out.series.empty())
        out.yLabel = QString::fromStdString("TLB shootdowns: " + tlbUncountedNote(doc));
    if (!cached.empty()) {
        Series c;
        c.name = "file in the page cache (%, right axis)";
        c.rightAxis = true; // grey, no points
        for (const auto& [x, pct] : cached) {
            c.x << x;
            c.y << pct;
        }
        out.series.push_back(std::move(c));
    }
    return out;
}

} // namespace readscope::ui
