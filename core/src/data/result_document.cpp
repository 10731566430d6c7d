#include "readscope/result_document.h"

#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace readscope {

std::optional<double> Sample::gbps() const {
    if (seconds <= 0)
        return std::nullopt;
    return gigabytesPerSecond(bytes, seconds);
}

std::string_view toString(CellStatus s) {
    switch (s) {
    case CellStatus::Ok: return "ok";
    case CellStatus::Noisy: return "noisy";
    case CellStatus::Failed: return "failed";
    case CellStatus::Unavailable: return "unavailable";
    case CellStatus::NotCold: return "not-cold";
    case CellStatus::TooFewRounds: return "too-few-rounds";
    case CellStatus::Unverified: return "unverified";
    }
    return "?";
}

CellStatus parseCellStatus(std::string_view text) {
    for (auto s : {CellStatus::Ok, CellStatus::Noisy, CellStatus::Failed, CellStatus::Unavailable,
                   CellStatus::NotCold, CellStatus::TooFewRounds, CellStatus::Unverified})
        if (toString(s) == text)
            return s;
    return CellStatus::Failed;
}

KeptCells keptCells(const ResultDocument& doc) {
    KeptCells k;
    if (doc.plan.durationSeconds <= 0)
        k.planned =
            std::size_t(std::max(0, doc.plan.rounds)) * std::size_t(std::max(1, doc.plan.repeats));
    for (const auto& c : doc.cells) {
        if (!c.measured())
            continue;
        const std::size_t n = c.samples.size();
        if (k.planned == 0 || n >= k.planned) {
            ++k.complete;
            continue;
        }
        k.fewest = k.partial ? std::min(k.fewest, n) : n;
        k.most = std::max(k.most, n);
        ++k.partial;
    }
    return k;
}

bool notChecked(Checksum c) {
    return c == Checksum::NotChecked || c == Checksum::NotCheckedStopped ||
           c == Checksum::NotCheckedFileChanged;
}

std::vector<double> Cell::roundRates() const {
    std::vector<double> rates;
    for (const auto& s : samples)
        if (const auto g = s.gbps())
            rates.push_back(*g);
    return rates;
}

void Cell::summarize() {
    std::vector<double> rates;
    std::vector<double> resident, residentLeft;
    std::vector<double> amplification, fetched, fetchedRatio;
    for (const auto& s : samples) {
        if (s.deviceBytes) {
            fetched.push_back(*s.deviceBytes);
            if (s.bytes)
                fetchedRatio.push_back(*s.deviceBytes / double(s.bytes));
        }
        if (const auto g = s.gbps())
            rates.push_back(*g);
        if (s.residentBefore)
            resident.push_back(*s.residentBefore);
        if (s.residentAfter)
            residentLeft.push_back(*s.residentAfter);
        if (s.bytesRead && s.bytes)
            amplification.push_back(double(s.bytesRead) / double(s.bytes));
    }
    summary = readscope::summarize(rates);
    residentBefore.reset();
    if (!resident.empty())
        residentBefore = median(resident);
    residentAfter.reset();
    if (!residentLeft.empty())
        residentAfter = median(residentLeft);
    readAmplification.reset();
    if (!amplification.empty())
        readAmplification = median(amplification);
    deviceBytesRead.reset();
    fetchedPerWanted.reset();
    if (!fetched.empty())
        deviceBytesRead = median(fetched);
    if (!fetchedRatio.empty())
        fetchedPerWanted = median(fetchedRatio);
    if (status == CellStatus::Ok || status == CellStatus::Noisy ||
        status == CellStatus::TooFewRounds)
        status = summary.tooFewRounds ? CellStatus::TooFewRounds
                 : summary.noisy      ? CellStatus::Noisy
                                      : CellStatus::Ok;
}

const Cell* ResultDocument::find(std::string_view strategy, std::uint64_t rangeBytes) const {
    auto it = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) {
        return c.strategy == strategy && c.rangeBytes == rangeBytes;
    });
    return it == cells.end() ? nullptr : &*it;
}

const Cell* ResultDocument::find(std::string_view strategy, const SweepPoint& point) const {
    auto it = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) {
        return c.strategy == strategy && c.point() == point;
    });
    return it == cells.end() ? nullptr : &*it;
}

std::vector<std::string> ResultDocument::measuredStrategies() const {
    std::vector<std::string> out;
    auto add = [&out](const std::string& id) {
        if (std::find(out.begin(), out.end(), id) == out.end())
            out.push_back(id);
    };
    for (const auto& id : plan.strategies)
        if (std::any_of(cells.begin(), cells.end(),
                        [&](const Cell& c) { return c.strategy == id; }))
            add(id);
    for (const auto& c : cells)
        add(c.strategy);
    return out;
}

std::vector<SweepPoint> ResultDocument::points() const {
    std::vector<SweepPoint> out;
    for (const auto& c : cells)
        if (std::find(out.begin(), out.end(), c.point()) == out.end())
            out.push_back(c.point());
    const SweepAxis axis = sweepAxis(plan);
    std::stable_sort(out.begin(), out.end(), [axis](const SweepPoint& a, const SweepPoint& b) {
        return axisValue(axis, a) < axisValue(axis, b);
    });
    return out;
}

double axisValue(SweepAxis axis, const SweepPoint& point) {
    switch (axis) {
    case SweepAxis::BufferOffset: return point.bufferOffset ? double(*point.bufferOffset) : -1.0;
    case SweepAxis::Threads: return point.threads ? double(*point.threads) : -1.0;
    case SweepAxis::QueueDepth: return point.queueDepth ? double(*point.queueDepth) : -1.0;
    case SweepAxis::RangeSize: break;
    }
    return double(point.rangeBytes);
}

std::vector<const Cell*> cellsInTableOrder(const ResultDocument& doc) {
    std::vector<const Cell*> cells;
    for (const auto& c : doc.cells)
        cells.push_back(&c);
    const SweepAxis axis = sweepAxis(doc.plan);
    const auto& order = doc.plan.strategies;
    const auto key = [&](const Cell* c) {
        return std::pair(axisValue(axis, c->point()),
                         std::find(order.begin(), order.end(), c->strategy) - order.begin());
    };
    std::stable_sort(cells.begin(), cells.end(),
                     [&](const Cell* a, const Cell* b) { return key(a) < key(b); });
    return cells;
}

std::string pointLabel(SweepAxis axis, const SweepPoint& point) {
    switch (axis) {
    case SweepAxis::BufferOffset:
        return point.bufferOffset ? formatBufferOffset(*point.bufferOffset) : "auto";
    case SweepAxis::Threads: return point.threads ? std::to_string(*point.threads) : "?";
    case SweepAxis::QueueDepth:
        return point.queueDepth ? std::to_string(*point.queueDepth) : "auto";
    case SweepAxis::RangeSize: break;
    }
    return formatSize(point.rangeBytes);
}

bool touchesOnePerPage(std::string_view strategy, Consume consume) {
    const auto* s = findStrategy(strategy);
    return consume == Consume::Minimal && s && s->access == Access::MapInPlace;
}

bool copiesTheBytes(std::string_view strategy) {
    const StrategyInfo* s = findStrategy(strategy);
    // A coalescing read copies whole merged spans (overlapping ranges once), not range-sized
    // chunks: the range-sized memcpy does not bound it.
    return s && s->access != Access::MapInPlace && s->access != Access::Coalesce;
}

namespace {
// "1.00x" or "0.99-7.93x": the lowest and highest of one per-cell ratio over a strategy's
// measured cells; empty when none has it.
template <class Field>
std::string ratioSpan(const ResultDocument& doc, std::string_view strategy, Field field) {
    std::optional<std::pair<double, double>> span; // lowest, highest
    for (const auto& c : doc.cells)
        if (const std::optional<double> v = field(c); c.strategy == strategy && c.measured() && v)
            span = span ? std::pair(std::min(span->first, *v), std::max(span->second, *v))
                        : std::pair(*v, *v);
    if (!span)
        return {};
    const auto [lo, hi] = *span;
    return std::abs(hi - lo) < 0.005 ? fmt::format("{:.2f}x", lo)
                                     : fmt::format("{:.2f}-{:.2f}x", lo, hi);
}
} // namespace

std::string readAmplificationText(const ResultDocument& doc, std::string_view strategy) {
    return ratioSpan(doc, strategy, [](const Cell& c) { return c.readAmplification; });
}

bool readsStorage(const ResultDocument& doc) { return doc.plan.cache != CacheMode::Warm; }

std::string fetchedText(const ResultDocument& doc, std::string_view strategy) {
    return ratioSpan(doc, strategy, [](const Cell& c) { return c.fetchedPerWanted; });
}

std::optional<double> medianIops(const Cell& cell) {
    if (!cell.measured() || cell.rangeBytes == 0 || cell.summary.median <= 0)
        return std::nullopt;
    return cell.summary.median * 1e9 / bytesPerRange(cell);
}

std::string rowLabel(const ResultDocument& doc, std::string label) {
    return doc.plan.pattern == Pattern::Trace ? std::string("trace") : label;
}

std::optional<std::uint64_t> replayBytes(const ResultDocument& doc) {
    if (doc.plan.pattern != Pattern::Trace || !doc.plan.trace)
        return std::nullopt;
    return doc.plan.trace->windowBytes(doc.plan.budget);
}

std::optional<double> replaySeconds(const ResultDocument& doc, double gbps) {
    const auto bytes = replayBytes(doc);
    if (!bytes || *bytes == 0 || !(gbps > 0))
        return std::nullopt;
    return double(*bytes) / (gbps * 1e9);
}

double bytesPerRange(const Cell& cell) {
    if (cell.rangesPerRound > 0 && !cell.samples.empty())
        if (const double read = medianOverRounds(cell, [](const Sample& x) { return x.bytes; });
            read > 0)
            return read / static_cast<double>(cell.rangesPerRound);
    return static_cast<double>(cell.rangeBytes);
}

std::optional<double> pctOfCopyLimit(const Cell& cell) {
    if (!cell.measured() || !cell.copyLimitGbps || *cell.copyLimitGbps <= 0)
        return std::nullopt;
    return cell.summary.median / *cell.copyLimitGbps * 100;
}

std::string_view deviceWayName(DeviceWay way) {
    switch (way) {
    case DeviceWay::Direct: return "direct";
    case DeviceWay::DirectQueued: return "direct queued";
    case DeviceWay::Buffered: break;
    }
    return "buffered";
}

std::string deviceWayText(DeviceWay way, const DeviceLimit& limit) {
    const std::string reads = fmt::format("{} reads", formatSize(limit.blockBytes));
    switch (way) {
    case DeviceWay::Direct: return "direct " + reads + ", one at a time";
    case DeviceWay::DirectQueued:
        return fmt::format("direct {}, {} in flight (io_uring)", reads, limit.queueDepth);
    case DeviceWay::Buffered: break;
    }
    return "buffered " + reads + " right after eviction";
}

std::optional<double> deviceLimitGbps(const ResultDocument& doc) {
    if (doc.plan.cache == CacheMode::Warm || !doc.deviceLimit)
        return std::nullopt;
    const DeviceLimit& d = *doc.deviceLimit;
    double gbps = d.gbps;
    if (doc.plan.cache == CacheMode::Direct &&
        (d.directGbps || d.directQueuedGbps || d.bufferedGbps))
        gbps = std::max(d.directGbps.value_or(0), d.directQueuedGbps.value_or(0));
    return gbps > 0 ? std::optional(gbps) : std::nullopt;
}

std::optional<double> pctOfDeviceLimit(const ResultDocument& doc, const Cell& cell) {
    const auto limit = deviceLimitGbps(doc);
    if (!cell.measured() || !limit)
        return std::nullopt;
    return cell.summary.median / *limit * 100;
}

bool passesDeviceLimit(const ResultDocument& doc, const Cell& cell) {
    const auto pct = pctOfDeviceLimit(doc, cell);
    return pct && *pct > kAboveDeviceLimitPct && cell.status != CellStatus::NotCold;
}

std::optional<double> pctOfRunLimit(const ResultDocument& doc, const Cell& cell) {
    return doc.plan.cache == CacheMode::Warm ? pctOfCopyLimit(cell) : pctOfDeviceLimit(doc, cell);
}

std::string_view runLimitName(const ResultDocument& doc) {
    return doc.plan.cache == CacheMode::Warm ? "memcpy" : "device";
}

std::optional<CpuPerGB> cpuMsPerGB(const Cell& cell) {
    const double gb = medianOverRounds(cell, [](const Sample& s) { return s.bytes; }) / 1e9;
    if (cell.samples.empty() || !(gb > 0))
        return std::nullopt;
    const double totalMs =
        medianOverRounds(cell, [](const Sample& s) { return s.userSeconds + s.systemSeconds; }) *
        1e3 / gb;
    double user = 0, system = 0;
    for (const auto& s : cell.samples) {
        user += s.userSeconds;
        system += s.systemSeconds;
    }
    const double share = user + system > 0 ? system / (user + system) : 0;
    return CpuPerGB{totalMs * (1 - share), totalMs * share, user + system >= kCpuSplitSeconds};
}

} // namespace readscope
