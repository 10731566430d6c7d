#include "readscope/cost_model.h"

#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace readscope {

namespace {

// Weighted least squares of t = a + b n with weights w: {a, b}; nothing when singular.
std::optional<std::pair<double, double>> weightedLine(std::span<const CostPoint> points,
                                                      bool throughOrigin) {
    double sw = 0, sn = 0, snn = 0, st = 0, snt = 0;
    for (const auto& p : points) {
        const double w = 1 / (p.seconds * p.seconds);
        sw += w;
        sn += w * p.bytes;
        snn += w * p.bytes * p.bytes;
        st += w * p.seconds;
        snt += w * p.bytes * p.seconds;
    }
    if (throughOrigin)
        return snn > 0 ? std::optional(std::pair(0.0, snt / snn)) : std::nullopt;
    const double det = sw * snn - sn * sn;
    if (!(std::abs(det) > 0))
        return std::nullopt;
    return std::pair((st * snn - sn * snt) / det, (sw * snt - sn * st) / det);
}

} // namespace

std::string microseconds(double seconds) {
    const double us = seconds * 1e6;
    return us >= 10 ? fmt::format("{:.1f}", us) : fmt::format("{:.2f}", us);
}

std::optional<double> secondsPerRange(const Cell& cell, int threads) {
    if (!cell.measured() || cell.summary.median <= 0)
        return std::nullopt;
    return bytesPerRange(cell) * threads / (cell.summary.median * 1e9);
}

std::optional<CostFit> fitCost(std::span<const CostPoint> points) {
    std::vector<CostPoint> usable;
    for (const auto& p : points)
        if (p.bytes > 0 && p.seconds > 0 && std::isfinite(p.seconds))
            usable.push_back(p);
    if (usable.size() < 3)
        return std::nullopt;
    auto line = weightedLine(usable, false);
    if (line && line->first < 0) // no negative fixed cost: the best line through zero
        line = weightedLine(usable, true);
    if (!line || !(line->second > 0))
        return std::nullopt;
    CostFit fit;
    const auto [smallest, largest] = std::minmax_element(
        usable.begin(), usable.end(),
        [](const CostPoint& a, const CostPoint& b) { return a.bytes < b.bytes; });
    fit.smallestBytes = smallest->bytes;
    fit.smallestSeconds = smallest->seconds;
    fit.largestBytes = largest->bytes;
    fit.fixedSeconds = line->first;
    fit.bytesPerSecond = 1 / line->second;
    fit.points = static_cast<int>(usable.size());
    // Relative residuals, and R^2 on the same weighting as the fit.
    double mean = 0, sw = 0;
    for (const auto& p : usable) {
        const double w = 1 / (p.seconds * p.seconds);
        mean += w * p.seconds;
        sw += w;
    }
    mean /= sw;
    double residual = 0, total = 0;
    for (const auto& p : usable) {
        const double w = 1 / (p.seconds * p.seconds);
        const double predicted = line->first + line->second * p.bytes;
        residual += w * (predicted - p.seconds) * (predicted - p.seconds);
        total += w * (p.seconds - mean) * (p.seconds - mean);
        fit.worstMisfit = std::max(fit.worstMisfit, std::abs(predicted - p.seconds) / p.seconds);
    }
    fit.r2 = total > 0 ? 1 - residual / total : 1;
    return fit;
}

std::optional<CacheCut> cacheCut(const CpuCaches& caches, std::span<const std::uint64_t> sizes) {
    for (const auto& [level, bytes] : cacheLevels(caches)) {
        if (!bytes)
            continue;
        CacheCut cut{level, bytes, {}};
        std::size_t below = 0;
        for (auto n : sizes) {
            if (n <= bytes)
                ++below;
            else
                cut.leftOut.push_back(n);
        }
        if (below >= 3 && !cut.leftOut.empty())
            return cut;
        if (below < 3 && !cut.leftOut.empty())
            continue;        // too few sizes fit under this level: try the next
        return std::nullopt; // every size fits under it: nothing crossed
    }
    return std::nullopt;
}

std::optional<CacheCut> fitCut(const ResultDocument& doc) {
    if (sweepAxis(doc.plan) != SweepAxis::RangeSize)
        return std::nullopt;
    std::vector<std::uint64_t> sizes;
    for (const auto& c : doc.cells)
        if (c.measured() && std::find(sizes.begin(), sizes.end(), c.rangeBytes) == sizes.end())
            sizes.push_back(c.rangeBytes);
    std::sort(sizes.begin(), sizes.end());
    return cacheCut(doc.system.caches, sizes);
}

std::vector<CostFit> fitCosts(const ResultDocument& doc) {
    std::vector<CostFit> fits;
    if (sweepAxis(doc.plan) != SweepAxis::RangeSize)
        return fits;
    const auto cut = fitCut(doc);
    for (const auto& id : doc.measuredStrategies()) {
        // A strategy that read more (or less) than it wanted did different work per byte at
        // each size (pread-coalesce: 7.9x at 8 KiB, 1x at 64 KiB): no one line fits that.
        if (!readAmplificationText(doc, id).empty())
            continue;
        std::map<std::uint64_t, double> perSize; // one point per size
        for (const auto& c : doc.cells)
            if (const auto t = secondsPerRange(c, threadsAt(doc.plan, c.point()));
                t && c.strategy == id && (!cut || c.rangeBytes <= cut->bytes))
                perSize[c.rangeBytes] = *t;
        std::vector<CostPoint> points;
        for (const auto& [bytes, seconds] : perSize)
            points.push_back({static_cast<double>(bytes), seconds});
        if (auto fit = fitCost(points)) {
            fit->strategy = id;
            fits.push_back(*fit);
        }
    }
    return fits;
}

std::optional<SeekCheck> seekCheck(const ResultDocument& doc, std::span<const CostFit> fits) {
    const auto find = [&](std::string_view id) -> const CostFit* {
        for (const auto& f : fits)
            if (f.strategy == id)
                return &f;
        return nullptr;
    };
    const CostFit* seek = find("seek-read");
    const CostFit* pread = find("pread-uninit");
    if (!seek || !pread)
        return std::nullopt;
    SeekCheck check;
    if (seek->fixedResolved() && pread->fixedResolved())
        check.extraFixedSeconds = seek->fixedSeconds - pread->fixedSeconds;
    std::vector<double> perRange;
    for (const auto& c : doc.cells)
        if (c.strategy == "seek-read" && c.measured() && c.rangesPerRound > 0 && !c.samples.empty())
            perRange.push_back(medianOverRounds(c, [](const Sample& s) { return s.seeks; }) /
                               static_cast<double>(c.rangesPerRound));
    if (!perRange.empty())
        check.seeksPerRange = median(perRange);
    check.lseekSeconds = doc.lseekSeconds;
    return check;
}

} // namespace readscope
