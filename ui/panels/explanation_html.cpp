#include "explanation_html.h"
#include "qt_text.h"

#include "readscope/compare.h"
#include "readscope/cost_model.h"
#include "readscope/cost_model_words.h"
#include "readscope/finding_text.h"
#include "readscope/mark_notes.h"
#include "readscope/strategy.h"
#include "readscope/teaching_words.h"
#include "readscope/time_split.h"
#include "readscope/time_split_words.h"
#include "readscope/units.h"

#include <QStringList>

#include <cmath>

namespace readscope::ui {

namespace {} // namespace

QString strategyHtml(const std::string& id, const ResultDocument& doc, const SlowBand* band) {
    const StrategyInfo* s = findStrategy(id);
    if (!s)
        return {};
    QString html =
        QString("<h3>%1</h3><p><i>%2</i> — %3</p>").arg(qs(s->name), qs(s->id), qs(s->family));
    for (const auto& para : qs(strategyExplanation(s->id)).split('\n'))
        if (!para.trimmed().isEmpty())
            html += "<p>" + para.toHtmlEscaped() + "</p>";

    std::vector<const Cell*> cells;
    for (const auto& c : doc.cells)
        if (c.strategy == id && !c.samples.empty())
            cells.push_back(&c);
    const std::uint64_t typical = cells.empty() ? 64 << 10 : cells.front()->rangeBytes;
    const ExpectedCost e = expectedCost(*s, typical);
    html += "<h4>Per range, by definition</h4><ul>";
    html += "<li><b>System calls:</b> " + qs(e.words.syscalls).toHtmlEscaped() + "</li>";
    html += "<li><b>Passes over the bytes:</b> " + qs(e.words.passes).toHtmlEscaped() + "</li>";
    html += "<li><b>Allocations:</b> " + qs(e.words.allocations).toHtmlEscaped() + "</li>";
    html += "<li><b>Page faults:</b> " + qs(e.words.faults).toHtmlEscaped() + "</li></ul>";
    if (cells.empty())
        return html + (doc.cells.empty()
                           ? "<p><i>Run a sweep with this strategy to see what it measured.</i></p>"
                           : "<p><i>This run did not measure " + qs(id).toHtmlEscaped() +
                                 ": tick it and run again to see its figures.</i></p>");

    html += "<h4>Measured (medians of rounds)</h4><table cellspacing=3>"
            "<tr><th align=left>range</th><th>calls/range</th><th>minor faults/MiB</th>"
            "<th>major/MiB</th><th>CPU ms/GB user + sys</th><th>TLB shootdowns/MiB*</th></tr>";
    QStringList disagree, placement;
    const bool faults = doc.system.faultsCounted;
    bool everyTlbCounted = true;
    const auto pageSize = std::uint32_t(doc.system.pageSize ? doc.system.pageSize : 4096);
    for (const Cell* c : cells) {
        const MeasuredCost m = measuredCost(*c);
        everyTlbCounted &= m.tlbShootdownsPerMiB.has_value();
        html +=
            QString("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                    "<td align=right>%4</td><td align=right>%5</td><td align=right>%6</td></tr>")
                .arg(qs(pointText(c->point())))
                .arg(m.syscallsPerRange, 0, 'f', 2)
                .arg(faults ? QString::number(m.minorFaultsPerMiB, 'f', 1) : "n/c")
                .arg(faults ? QString::number(m.majorFaultsPerMiB, 'f', 1) : "n/c")
                .arg(m.cpuSplitResolved
                         ? QString("%1 + %2")
                               .arg(m.userMsPerGB, 0, 'f', 1)
                               .arg(m.systemMsPerGB, 0, 'f', 1)
                         // Too few scheduler ticks to split: the total alone is measured.
                         : QString("%1 in all").arg(m.userMsPerGB + m.systemMsPerGB, 0, 'f', 1))
                .arg(m.tlbShootdownsPerMiB ? QString::number(*m.tlbShootdownsPerMiB, 'g', 3)
                                           : QString("n/c"));
        for (const auto& line :
             disagreementLines(*s, disagreements(*s, *c, pageSize, doc.system.faultsCounted,
                                                 threadsAt(doc.plan, c->point()))))
            disagree << QString("<b>%1:</b> %2")
                            .arg(qs(pointText(c->point())), qs(line).toHtmlEscaped());
        if (band)
            if (const auto note = offsetTrapNote(*c, *band, pageSize); !note.empty())
                placement << qs(note).toHtmlEscaped();
    }
    html += "</table><p>* " + qs(tlbMachineWideNote()).toHtmlEscaped() +
            ". Unmapping or evicting pages that another CPU may still have in its TLB sends "
            "these interrupts.</p><p>" +
            qs(syscallsCountedNote()).toHtmlEscaped() + ".</p>";
    const auto fits = fitCosts(doc);
    for (const auto& fit : fits) {
        if (fit.strategy != id)
            continue;
        const QString unit = wholeFileSweep(doc.plan) ? "file" : "range";
        html +=
            QString("<h4>Cost per %1, fitted</h4><p>t(n) = %2 + n / %3 GB/s over %4 "
                    "sizes (worst misfit %5 %). ")
                .arg(unit)
                .arg(fit.fixedResolved() ? QString("%1 µs").arg(fit.fixedSeconds * 1e6, 0, 'f', 2)
                                         : QString("fixed"))
                .arg(fit.bytesPerSecond / 1e9, 0, 'f', 2)
                .arg(fit.points)
                .arg(fit.worstMisfit * 100, 0, 'f', 0);
        html += fit.fixedResolved()
                    ? QString("Below %1 %2s, half the time or more is this fixed cost per %2.")
                          .arg(qs(formatSize(std::uint64_t(fit.halfFixedBytes()))))
                          .arg(unit)
                    : QString("The fixed cost is %1.")
                          .arg(qs(unresolvedFixedText(fit)).toHtmlEscaped());
        if (const auto cut = fitCut(doc))
            html += " " + qs(cacheCutSentence(*cut)).toHtmlEscaped();
        html += "</p>";
        if (const auto check = seekCheck(doc, fits); check && id == "seek-read")
            html += "<p>" + qs(seekCheckSentence(*check)).toHtmlEscaped() + "</p>";
    }
    if (const auto why = costFitMissing(doc, id); !why.empty())
        html += "<h4>Cost per range, fitted</h4><p>" + qs(why).toHtmlEscaped() + ". " +
                qs(cacheCutSentence(*fitCut(doc))).toHtmlEscaped() + "</p>";
    // Where each cell's time went: its counts times this machine's unit costs.
    QStringList splits;
    for (const Cell* c : cells)
        if (const auto sentence = timeSplitSentence(doc, *c); !sentence.empty())
            splits << qs(sentence).toHtmlEscaped();
    if (!splits.isEmpty())
        html += "<h4>Where the time goes</h4><ul><li>" + splits.join("</li><li>") +
                "</li></ul><p><small>" + qs(unitCostsSentence(doc)).toHtmlEscaped() +
                "</small></p>";
    else if (const auto why = timeSplitMissing(doc, *cells.front()); !why.empty())
        html += "<p><i>Where the time goes: not split, " + qs(why).toHtmlEscaped() + ".</i></p>";
    if (!faults)
        html += "<p>n/c: page faults were not counted on the system this was measured on (" +
                qs(faultsNotCountedNote()).toHtmlEscaped() + ").</p>";
    if (!everyTlbCounted)
        html +=
            "<p>n/c under TLB shootdowns: " + qs(tlbUncountedNote(doc)).toHtmlEscaped() + ".</p>";
    if (!placement.isEmpty())
        html += "<h4>Where the buffers landed</h4><ul><li>" + placement.join("</li><li>") +
                "</li></ul>";
    if (disagree.isEmpty())
        html += "<p>The measurements agree with the explanation.</p>";
    else
        html += "<h4>Where measurement and explanation disagree</h4><ul><li>" +
                disagree.join("</li><li>") + "</li></ul>";
    return html;
}

} // namespace readscope::ui
