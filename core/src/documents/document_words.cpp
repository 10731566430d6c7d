#include "readscope/document_words.h"

#include "readscope/column_notes.h"
#include "readscope/mark_notes.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace readscope {

std::string sweepPointMeaning(const ResultDocument& doc) {
    const auto points = doc.points();
    const std::string size = points.empty() ? "?" : formatSize(points[0].rangeBytes);
    switch (sweepAxis(doc.plan)) {
    case SweepAxis::BufferOffset:
        return fmt::format("the page offset every destination buffer started at, at {} ranges",
                           size);
    case SweepAxis::Threads:
        return fmt::format("how many threads read {} ranges together, each its own share of a "
                           "round (GB/s is all of them together)",
                           size);
    case SweepAxis::QueueDepth:
        return fmt::format("io_uring reads kept in flight per thread, at {} ranges (only "
                           "io_uring strategies have a queue)",
                           size);
    case SweepAxis::RangeSize: break;
    }
    return {};
}

std::string fetchedLine(const ResultDocument& doc) {
    if (!readsStorage(doc))
        return {};
    std::string out;
    for (const auto& id : doc.measuredStrategies())
        if (const auto text = fetchedText(doc, id); !text.empty())
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", id, text);
    if (out.empty())
        return std::any_of(doc.cells.begin(), doc.cells.end(),
                           [](const Cell& c) { return c.measured(); })
                   ? "bytes fetched from storage: not measured on this platform"
                   : std::string();
    return fetchedMeaning() + ": " + out;
}

std::string readAmplificationLine(const ResultDocument& doc) {
    std::string out;
    for (const auto& id : doc.measuredStrategies())
        if (const auto text = readAmplificationText(doc, id); !text.empty())
            out +=
                fmt::format("{}{} read {} the bytes it wanted", out.empty() ? "" : "; ", id, text);
    if (out.empty())
        return {};
    return out + " (a merged or populated span covers the gaps between its ranges, and "
                 "overlapping ranges once; GB/s counts only the bytes wanted)";
}

namespace {
// Whether a cell read by more than one thread passed the limit (the limit's reader is one).
bool passedWithThreads(const ResultDocument& doc) {
    return std::any_of(doc.cells.begin(), doc.cells.end(), [&](const Cell& c) {
        return passesDeviceLimit(doc, c) && threadsAt(doc.plan, c.point()) > 1;
    });
}
} // namespace

std::string deviceLimitPassedWhy(const ResultDocument& doc) {
    // Causes not measured: said as possibilities, with what would tell them apart.
    return std::string("served by a cache below the page cache (the disk's own, a virtual "
                       "machine host's)") +
           (passedWithThreads(doc) ? ", read by more threads than the limit's one reader" : "") +
           ", or held against a limit measured low (a cold run of a file larger than any such "
           "cache would tell)";
}

std::string deviceLimitPassedShort(const ResultDocument& doc) {
    return passedWithThreads(doc) ? "more threads, a cache below, or a low limit?"
                                  : "a cache below, or a low limit?";
}

namespace {
struct WayFigure {
    DeviceWay way;
    double gbps;
    std::string label; // "direct x32"
};
// The ways that count for the run's limit (direct runs: the direct ones), as measured.
std::vector<WayFigure> countedWays(const ResultDocument& doc) {
    std::vector<WayFigure> out;
    if (!doc.deviceLimit)
        return out;
    const DeviceLimit& d = *doc.deviceLimit;
    if (d.directGbps)
        out.push_back({DeviceWay::Direct, *d.directGbps, "direct"});
    if (d.directQueuedGbps)
        out.push_back({DeviceWay::DirectQueued, *d.directQueuedGbps,
                       fmt::format("direct x{}", d.queueDepth)});
    if (d.bufferedGbps && doc.plan.cache != CacheMode::Direct)
        out.push_back({DeviceWay::Buffered, *d.bufferedGbps, "buffered"});
    return out;
}
} // namespace

std::string deviceLimitWay(const ResultDocument& doc) {
    if (!deviceLimitGbps(doc))
        return {};
    const auto ways = countedWays(doc);
    const auto fastest = std::max_element(
        ways.begin(), ways.end(), [](const auto& a, const auto& b) { return a.gbps < b.gbps; });
    return fastest != ways.end() ? deviceWayText(fastest->way, *doc.deviceLimit)
                                 : doc.deviceLimit->fastest;
}

std::string deviceLimitText(const ResultDocument& doc) {
    const auto gbps = deviceLimitGbps(doc);
    if (!gbps)
        return {};
    const DeviceLimit& limit = *doc.deviceLimit;
    std::string out = fmt::format("device limit {:.2f} GB/s", *gbps);
    if (doc.plan.cache == CacheMode::Direct)
        out += " for direct reads";
    if (!limit.device.empty())
        out += " on " + limit.device;
    if (const auto way = deviceLimitWay(doc); !way.empty())
        out += ": " + way;
    if (const auto ways = countedWays(doc); ways.size() > 1) {
        out += ways.size() == 2 ? ", the faster of " : ", the fastest of ";
        for (std::size_t i = 0; i < ways.size(); ++i)
            out += fmt::format("{}{} {:.2f}",
                               i == 0                 ? ""
                               : i + 1 == ways.size() ? " and "
                                                      : ", ",
                               ways[i].label, ways[i].gbps);
        out += " GB/s";
    }
    if (!limit.measuredAt.empty())
        out += "; measured " + limit.measuredAt;
    return out;
}

std::string bytesConsumed(const Cell& cell, Consume consume) {
    return touchesOnePerPage(cell.strategy, consume) ? "1/page" : "all";
}

std::string twoSpeedsText(const TwoSpeeds& t) {
    return fmt::format("{} round{} at about {} GB/s and {} at about {}", t.fastRounds,
                       t.fastRounds == 1 ? "" : "s", formatRate(t.fastMedian), t.slowRounds,
                       formatRate(t.slowMedian));
}

std::string statusText(const Cell& cell) {
    if (cell.measured())
        if (const auto t = twoSpeeds(cell.roundRates()))
            return fmt::format("two speeds: {} at {}, {} at {} GB/s", t->fastRounds,
                               formatRate(t->fastMedian), t->slowRounds, formatRate(t->slowMedian));
    // Documents from before the interval existed carry no interval (coverage 0): plain word.
    if (cell.status == CellStatus::Noisy && cell.summary.ciCoverage > 0)
        return fmt::format("noisy ±{:.1f}%", cell.summary.uncertainty() * 100);
    if (cell.status == CellStatus::TooFewRounds)
        return tooFewRoundsNote();
    return std::string(toString(cell.status));
}

std::string coverageText(const Summary& summary) {
    const double pct = summary.ciCoverage * 100;
    return std::abs(pct - std::round(pct)) < 0.05 ? fmt::format("{:.0f}%", pct)
                                                  : fmt::format("{:.1f}%", pct);
}

std::string intervalCoverageText(const ResultDocument& doc) {
    // A cell with rounds has the coverage its rounds give (0 for one round: no interval); a
    // CSV summary's cell, none of its rounds, the coverage its file gives, when it gives one.
    const Cell* least = nullptr;
    for (const auto& c : doc.cells)
        if (c.measured() && (!c.samples.empty() || c.summary.ciCoverage > 0) &&
            (!least || c.summary.ciCoverage < least->summary.ciCoverage))
            least = &c;
    if (!least || least->summary.ciCoverage >= 0.95)
        return "95%";
    if (least->summary.ciCoverage <= 0)
        return "none, 1 round";
    if (least->samples.empty())
        return coverageText(least->summary);
    return fmt::format("{} at {} rounds", coverageText(least->summary), least->samples.size());
}

std::string roundsText(const ResultDocument& doc) {
    std::size_t fewest = 0, most = 0;
    bool any = false;
    for (const auto& c : doc.cells) {
        if (!c.measured() || c.samples.empty())
            continue;
        fewest = any ? std::min(fewest, c.samples.size()) : c.samples.size();
        most = any ? std::max(most, c.samples.size()) : c.samples.size();
        any = true;
    }
    if (!any || fewest == most)
        return fmt::format("median of {} interleaved rounds",
                           any ? most : std::size_t(doc.plan.rounds));
    return fmt::format("median of {}-{} interleaved rounds (the time cap cut some cells short)",
                       fewest, most);
}

std::string memoryLimitSentence(const ResultDocument& doc) {
    if (!doc.memoryLimit)
        return {};
    std::string out =
        fmt::format("Under a memory limit of {}, the file's page cache included ({}).",
                    formatSize(doc.memoryLimit->bytes), doc.memoryLimit->how);
    if (warmCannotHold(doc.plan, doc.fileSize))
        out += fmt::format(" The file ({}) is larger, so this warm run cannot keep it cached: "
                           "the resident column shows how much of its ranges each round found "
                           "cached.",
                           formatSize(doc.fileSize));
    return out;
}

} // namespace readscope
