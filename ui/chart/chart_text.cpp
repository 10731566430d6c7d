#include "chart_text.h"
#include "qt_text.h"

#include "readscope/compare.h"
#include "readscope/condition_words.h"
#include "readscope/document_words.h"
#include "readscope/documents.h"
#include "readscope/mark_notes.h"
#include "readscope/state_words.h"
#include "readscope/units.h"

#include <algorithm>

namespace readscope::ui {

namespace {

// "per range size", "per buffer offset", "by number of threads", "by queue depth".
QString alongTheAxis(const Plan& plan) {
    switch (sweepAxis(plan)) {
    case SweepAxis::Threads: return "by number of threads";
    case SweepAxis::QueueDepth: return "by queue depth";
    default: return "per " + QString::fromStdString(std::string(axisName(plan)));
    }
}

} // namespace

QString modeTitle(ChartMode mode, const QString& reference, const Plan& plan) {
    switch (mode) {
    case ChartMode::Throughput:
        return plan.pattern == Pattern::Trace ? "GB/s per strategy (the trace's reads)"
                                              : "GB/s " + alongTheAxis(plan);
    case ChartMode::Relative: return "GB/s relative to " + reference;
    case ChartMode::CpuPerGB: return "CPU time per GB read";
    case ChartMode::Latency: return "Latency per range";
    case ChartMode::Iops:
        return wholeFileSweep(plan) ? "Files per second" : "IOPS " + alongTheAxis(plan);
    case ChartMode::OverTime: return "GB/s over time";
    case ChartMode::ShootdownsOverTime: return "TLB shootdowns over time";
    case ChartMode::TimeSplit: return "Where the time goes";
    case ChartMode::TimePerRange:
        return wholeFileSweep(plan) ? "Time per file and its cost model"
                                    : "Time per range and its cost model";
    }
    return {};
}

// What a category axis's values are, for its label.
QString categoryAxisName(SweepAxis axis) {
    switch (axis) {
    case SweepAxis::BufferOffset: return "page offset of the destination buffer (bytes)";
    case SweepAxis::Threads: return "threads reading together";
    case SweepAxis::QueueDepth: return "io_uring reads in flight per thread (queue depth)";
    case SweepAxis::RangeSize: break;
    }
    return "range size";
}

// Line 1: what was measured; line 2: where (CPU, cores, kernel, filesystem, version, date),
// so that a pasted chart says both (a document from Wine says "Wine ..., not Windows" in its
// kernel field). Two lines, so that a narrow window clips neither half; in the window the
// second line is the short form (CPU, kernel, filesystem), exports carry the whole of it.
QString planTitle(const ResultDocument& doc, ChartMode mode, const QString& reference,
                  bool fullSystemLine) {
    if (doc.cells.empty() && doc.plan.file.empty())
        return "readscope: press Run to measure";
    const auto& p = doc.plan;
    const QString what =
        QString("%1 · %2 · %3 · %4 · %5 file")
            .arg(modeTitle(mode, reference, p), qs(cacheConditionText(p)),
                 QString::fromStdString(patternWords(p)),
                 QString::fromStdString(concurrencyText(p)),
                 QString::fromStdString(formatSize(doc.fileSize))) +
        // In the window too: a pinned run is not comparable with an auto one.
        (p.bufferOffsets.size() == 1
             ? QString(" · buffers at page offset %1")
                   .arg(QString::fromStdString(formatBufferOffset(p.bufferOffsets[0])))
             : QString());
    if (doc.system.cpuModel.empty())
        return what;
    if (fullSystemLine)
        return what + "\n" + QString::fromStdString(systemLine(doc));
    const auto& s = doc.system;
    return what + "\n" +
           QString("%1 · %2 · %3")
               .arg(QString::fromStdString(s.cpuModel), QString::fromStdString(s.kernel),
                    QString::fromStdString(s.filesystem));
}

// Under an exported chart: how the figures were made and what its marks mean.
QString footnote(const ResultDocument& doc, BarKind bars, bool throughput) {
    const auto& p = doc.plan;
    // What a hollow point means is the legend's to say (it has the entry whenever one is
    // drawn): said here too, the picture repeated it.
    QString text = QString("GB/s = 10^9 bytes/s, %1 · consume %2 · bars: %3")
                       .arg(QString::fromStdString(roundsText(doc)))
                       .arg(QString::fromStdString(consumeNote(p.consume)))
                       .arg(barDescription(bars, doc));
    if (std::any_of(doc.cells.begin(), doc.cells.end(),
                    [](const Cell& c) { return c.status == CellStatus::NotCold; }))
        text += QString::fromStdString(" · red square: " + notColdNote());
    if (doc.memoryLimit)
        text += QString(" · memory limit %1")
                    .arg(QString::fromStdString(formatSize(doc.memoryLimit->bytes)));
    if (throughput && std::any_of(doc.cells.begin(), doc.cells.end(),
                                  [](const Cell& c) { return c.copyLimitGbps.has_value(); }))
        // A line of its own: appended, it ran the footnote past both edges of a 1200 px export.
        text +=
            QString::fromStdString("\ndash-dot: memcpy's speed here, which " + copyCeilingNote());
    if (const auto way = deviceLimitWay(doc); throughput && deviceLimitGbps(doc)) {
        text += QString::fromStdString("\ndash-dot: " + deviceLimitLineNote(doc.plan.cache));
        if (!way.empty()) // a CSV keeps only the figure
            text += QString(" (%1) on %2, %3")
                        .arg(QString::fromStdString(way),
                             QString::fromStdString(doc.deviceLimit->device),
                             QString::fromStdString(doc.deviceLimit->measuredAt.substr(0, 10)));
    }
    return text;
}

QString overTimeFootnote(const ResultDocument& doc, bool shootdowns) {
    const auto& p = doc.plan;
    QString text =
        QString("%1, at the time it started (no medians) · %2 · consume %3")
            .arg(shootdowns ? "TLB shootdowns per second of each round by itself, from the TLB "
                              "line of /proc/interrupts summed over every CPU: machine-wide, "
                              "other processes' count too"
                            : "GB/s = 10^9 bytes/s of each round by itself")
            .arg(p.durationSeconds > 0
                     ? QString("a %1 s run: each strategy's rounds read on through the ranges")
                           .arg(p.durationSeconds)
                     : QString::fromStdString(roundsText(doc)))
            .arg(QString::fromStdString(std::string(toString(p.consume))));
    if (doc.memoryLimit)
        text += QString(" · memory limit %1")
                    .arg(QString::fromStdString(formatSize(doc.memoryLimit->bytes)));
    const bool cached = std::any_of(doc.cells.begin(), doc.cells.end(), [](const Cell& c) {
        return std::any_of(c.samples.begin(), c.samples.end(),
                           [](const Sample& s) { return s.fileResidentAfter.has_value(); });
    });
    if (cached)
        text += "\ndash-dot, right axis: the whole file's share in the page cache after each "
                "round";
    return text;
}

QString overTimeTooltip(const QString& lineName, double seconds, double value, bool share,
                        bool shootdowns) {
    const QString what = share ? QString("%1% of the file").arg(value, 0, 'f', 1)
                         : shootdowns
                             ? QString("%1 TLB shootdowns/s (machine-wide)").arg(value, 0, 'f', 0)
                             : QString("%1 GB/s").arg(value, 0, 'g', 3);
    return QString("%1 at %2 s: %3")
        .arg(share ? QString("cached") : lineName)
        .arg(seconds, 0, 'f', 1)
        .arg(what);
}

QString pointTooltip(const QString& lineName, const QString& pointName, const Cell* cell,
                     bool throughput, double value, const QString& axisLabel) {
    QString text = QString("<b>%1</b> at %2<br>").arg(lineName.toHtmlEscaped(), pointName);
    if (throughput && cell) {
        const auto& s = cell->summary;
        const QString interval =
            s.ciCoverage > 0 ? QString("%1 interval %2 – %3 over %4 rounds")
                                   .arg(QString::fromStdString(coverageText(s)))
                                   .arg(rateText(s.ciLow))
                                   .arg(rateText(s.ciHigh))
                                   .arg(cell->samples.size())
                             : QString("no interval from %1 round").arg(cell->samples.size());
        text += QString("median %1 GB/s (±%2%)<br>%3<br>"
                        "quartiles %4 – %5 · min %6 · max %7%8")
                    .arg(rateText(s.median))
                    .arg(s.uncertainty() * 100, 0, 'f', 1)
                    .arg(interval)
                    .arg(rateText(s.p25))
                    .arg(rateText(s.p75))
                    .arg(rateText(s.min))
                    .arg(rateText(s.max))
                    .arg(QString::fromStdString(
                        twoSpeeds(cell->roundRates())
                            ? " — two speeds: " + twoSpeedsText(*twoSpeeds(cell->roundRates()))
                        : cell->status == CellStatus::Noisy ? " — noisy"
                        : cell->status == CellStatus::TooFewRounds
                            ? " — " + tooFewRoundsNote() + " whether it is noisy"
                        : cell->status == CellStatus::NotCold ? " — " + notColdNote()
                        : cell->status == CellStatus::Unverified
                            ? std::string(" — unverified: a check its figures rest on did not "
                                          "happen")
                            : std::string()));
    } else {
        text += QString("%1").arg(value, 0, 'f', 2) + " — " + axisLabel.toHtmlEscaped();
    }
    if (cell && !cellNotes(*cell).empty())
        text += "<br><i>" + QString::fromStdString(cellNotes(*cell)).toHtmlEscaped() + "</i>";
    return text;
}

} // namespace readscope::ui
