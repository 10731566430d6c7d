#include "cell_details.h"
#include "qt_text.h"

#include "readscope/condition_words.h"
#include "readscope/cost_model.h"
#include "readscope/state_words.h"

#include "readscope/buffer_offsets.h"
#include "readscope/compare.h"
#include "readscope/cost_model_words.h"
#include "readscope/document_words.h"
#include "readscope/mark_notes.h"
#include "readscope/reader.h"
#include "readscope/stats.h"
#include "readscope/strategy.h"
#include "readscope/teaching.h"
#include "readscope/time_split.h"
#include "readscope/time_split_words.h"
#include "readscope/units.h"

#include <vector>

namespace readscope::ui {

namespace {

QString row(const QString& name, const QString& value) {
    return QString("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name, value);
}

} // namespace

// What the memcpy limit means for this strategy's figure.
QString copyLimitReading(const std::string& strategy) {
    if (copiesTheBytes(strategy))
        return QString::fromStdString(": " + copyCeilingNote() + " it");
    const StrategyInfo* s = findStrategy(strategy);
    if (s && s->access == Access::Coalesce)
        return ": it copies whole merged spans (overlapping ranges once), not range-sized "
               "chunks, so it may pass the limit";
    return ": an in-place mapping copies nothing, so it may pass the limit";
}

QString cellDetailsHtml(const Cell& c, const ResultDocument& doc) {
    QString html =
        QString("<h3>%1 at %2</h3><table cellspacing=4>")
            .arg(QString::fromStdString(c.strategy), QString::fromStdString(pointText(c.point())));
    html += row("Status", QString::fromStdString(statusText(c)));
    if (!cellNotes(c).empty())
        html += row("Message", QString::fromStdString(cellNotes(c)).toHtmlEscaped());
    html += row("Checksum", QString::fromUtf8(checksumText(c.checksum)));
    if (c.queueDepth)
        html += row("Queue depth",
                    QString("%1 reads in flight per worker (io_uring)").arg(*c.queueDepth));
    html +=
        row("Buffers placed",
            c.bufferOffset ? QString("pinned at page offset %1 (--buffer-offset)")
                                 .arg(QString::fromStdString(formatBufferOffset(*c.bufferOffset)))
                           : QString("auto: where the allocator put them"));
    // The tally counts ranges read into a buffer at each offset: for a strategy that reuses
    // one buffer per worker, that is one buffer read into again and again, not thousands.
    QString seen;
    for (const auto& o : c.bufferPageOffsets)
        seen += QString("%1%2: %3 range%4")
                    .arg(seen.isEmpty() ? "" : ", ")
                    .arg(o.offset == kOtherOffsets ? QString("other offsets")
                                                   : QString("offset %1").arg(o.offset))
                    .arg(o.count)
                    .arg(o.count == 1 ? "" : "s");
    const auto* info = findStrategy(c.strategy);
    const bool reused = info && info->buffer == BufferKind::Reused;
    html += row(
        "Buffer page offsets",
        seen.isEmpty()
            ? QString("none: the strategy reads the mapping in place")
            : seen + QString(" read into %1, on %2")
                         .arg(reused ? "one reused buffer per thread" : "a buffer allocated for it")
                         .arg(QString::fromStdString(doc.system.cpuModel).toHtmlEscaped()));
    html += row("Rounds",
                QString("%1 measured, %2 ranges each").arg(c.samples.size()).arg(c.rangesPerRound));
    html += row("Resident before round",
                c.residentBefore
                    ? QString("%1 % (%2)")
                          .arg(*c.residentBefore * 100, 0, 'f', 2)
                          .arg(QString::fromStdString(c.residencyMethod))
                    : QString::fromStdString(c.residencyMethod.empty() ? "not measured"
                                                                       : c.residencyMethod));
    if (c.residentAfter)
        html += row("Resident after round",
                    QString("%1 % of the pages the round read, left in the page cache")
                        .arg(*c.residentAfter * 100, 0, 'f', 2));
    if (!c.samples.empty()) {
        const auto& s = c.summary;
        html += row("GB/s", QString("median %1, interval of the median %7 – %8 (±%9 %, "
                                    "coverage %10 % over %11 rounds); min %2, max %3, "
                                    "quartiles %4 – %5, CV %6 %")
                                .arg(rateText(s.median))
                                .arg(rateText(s.min))
                                .arg(rateText(s.max))
                                .arg(rateText(s.p25))
                                .arg(rateText(s.p75))
                                .arg(s.cv * 100, 0, 'f', 1)
                                .arg(rateText(s.ciLow))
                                .arg(rateText(s.ciHigh))
                                .arg(s.uncertainty() * 100, 0, 'f', 1)
                                .arg(s.ciCoverage * 100, 0, 'f', 1)
                                .arg(c.samples.size()));
        if (const auto iops = medianIops(c))
            html += row(wholeFileSweep(doc.plan) ? "Files per second" : "IOPS",
                        QString("%1 %2 per second at the median")
                            .arg(*iops >= 100 ? QString::number(*iops, 'f', 0)
                                              : QString::number(*iops, 'g', 3))
                            .arg(wholeFileSweep(doc.plan) ? "files" : "ranges"));
        if (const auto pct = pctOfCopyLimit(c))
            html += row("memcpy limit",
                        QString("memcpy alone copies %1 GB/s here in this shape (range-sized "
                                "copies from a source as large as a round reads); this cell is "
                                "%2 % of it%3")
                            .arg(*c.copyLimitGbps, 0, 'f', 1)
                            .arg(*pct, 0, 'f', 0)
                            .arg(copyLimitReading(c.strategy)));
        if (const auto pct = pctOfDeviceLimit(doc, c))
            html += row("Device limit",
                        QString("%1; this cell is %2 % of it%3")
                            .arg(QString::fromStdString(deviceLimitText(doc)).toHtmlEscaped())
                            .arg(*pct, 0, 'f', 0)
                            .arg(passesDeviceLimit(doc, c)
                                     ? QString(": faster than the device; it may have been %1")
                                           .arg(QString::fromStdString(deviceLimitPassedWhy(doc)))
                                     : QString()));
        const StrategyInfo* info = findStrategy(c.strategy);
        if (c.readAmplification)
            html += row("Bytes read",
                        info && info->access == Access::Coalesce
                            ? QString("%1 × the bytes wanted, median over rounds: merged spans "
                                      "read the gaps between their ranges too (batches of %2 "
                                      "ranges, gaps up to %3 merged); GB/s counts only the "
                                      "bytes wanted")
                                  .arg(*c.readAmplification, 0, 'f', 2)
                                  .arg(kCoalesceBatch)
                                  .arg(QString::fromStdString(formatSize(kCoalesceGap)))
                            : QString("%1 × the bytes wanted, median over rounds: each worker "
                                      "populated its mapping from its lowest range to its "
                                      "highest, gaps included; GB/s counts only the bytes "
                                      "wanted")
                                  .arg(*c.readAmplification, 0, 'f', 2));
        if (readsStorage(doc))
            html += row("Fetched from storage",
                        c.fetchedPerWanted
                            ? QString("%1 × the bytes wanted (%2 per round, median): what the "
                                      "device read, read-ahead, populate and fault-around "
                                      "included")
                                  .arg(*c.fetchedPerWanted, 0, 'f', 2)
                                  .arg(QString::fromStdString(
                                      formatSize(std::uint64_t(c.deviceBytesRead.value_or(0)))))
                            : QString("not measured: this platform keeps no count of the bytes "
                                      "a process read from storage"));
        if (c.foldGbps && *c.foldGbps > 0)
            html += row("Consuming the bytes",
                        QString("every byte folded once inside the timed round; the fold alone "
                                "runs at %1 GB/s on a warm buffer of this size, so it adds "
                                "%2 ms to every GB of this figure")
                            .arg(*c.foldGbps, 0, 'f', 1)
                            .arg(1e3 / *c.foldGbps, 0, 'f', 1));
        else if (touchesOnePerPage(c.strategy, doc.plan.consume))
            html += row("Consuming the bytes",
                        QString::fromStdString("1 byte/page: " + onePerPageNote()));
        const double user = medianOverRounds(c, [](const Sample& x) { return x.userSeconds; });
        const double sys = medianOverRounds(c, [](const Sample& x) { return x.systemSeconds; });
        html += row("CPU per round", QString("user %1 ms, system %2 ms")
                                         .arg(user * 1e3, 0, 'f', 2)
                                         .arg(sys * 1e3, 0, 'f', 2));
        const MeasuredCost m = measuredCost(c);
        html += row("Page faults per MiB",
                    doc.system.faultsCounted
                        ? QString("minor %1, major %2")
                              .arg(m.minorFaultsPerMiB, 0, 'f', 1)
                              .arg(m.majorFaultsPerMiB, 0, 'f', 1)
                        : QString::fromStdString("not counted (" + faultsNotCountedNote() + ")"));
        html += row("System calls per MiB", QString("%1 (the strategy's own; not the allocator's)")
                                                .arg(m.syscallsPerMiB, 0, 'f', 1));
        if (const auto tlb = medianOfPresent(c, [](const Sample& x) { return x.tlbShootdowns; }))
            html += row("TLB shootdowns", QString("%1 per round, median, %2")
                                              .arg(*tlb, 0, 'f', 0)
                                              .arg(QString::fromStdString(tlbMachineWideNote())));
        const auto p50 = medianOfPresent(c, [](const Sample& x) { return x.latencyP50; });
        const auto p99 = medianOfPresent(c, [](const Sample& x) { return x.latencyP99; });
        auto micros = [](const std::optional<double>& v) {
            return v ? QString("%1 µs").arg(*v * 1e6, 0, 'f', 1) : QString("–");
        };
        html += row("Latency per range", QString("p50 %1, p99 %2").arg(micros(p50), micros(p99)));
    }
    html += "</table>";
    const int threads = threadsAt(doc.plan, c.point());
    html += QString("<p><small>%1, %2, %3 thread%4, consume %5.</small></p>")
                .arg(QString::fromStdString(cacheConditionText(doc.plan)),
                     QString::fromStdString(patternWords(doc.plan)))
                .arg(threads)
                .arg(threads == 1 ? "" : "s")
                .arg(QString::fromStdString(std::string(toString(doc.plan.consume))));
    if (const auto split = timeSplitSentence(doc, c); !split.empty())
        html += "<p><b>Where the time goes:</b> " + QString::fromStdString(split).toHtmlEscaped() +
                "</p>";
    if (const auto units = unitCostsSentence(doc); !units.empty())
        html += "<p><small>" + QString::fromStdString(units).toHtmlEscaped() + "</small></p>";
    return html;
}

} // namespace readscope::ui
