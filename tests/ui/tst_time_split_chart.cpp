// "Where the time goes", chosen from the chart's own mode box as a person would: one stacked
// bar per strategy at the chosen size with the measured time as a mark, a choice of size or
// strategy beside it, bars in % for one strategy per size, and a cold run saying why it has none;
// the teaching panel and a cell's Details say it in a sentence.
#include "cell_details.h"
#include "chart_series.h"
#include "chart_time_split.h"
#include "chart_view.h"
#include "explanation_html.h"
#include "results_model.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QTest>
#include <QtMath>

using namespace readscope;
using namespace readscope::ui;

namespace {

// Ten ranges a round at `us` µs each, one call per range; pread-zerofill also zero-fills.
Cell cellAt(const std::string& id, std::uint64_t size, double us) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    c.rangesPerRound = 10;
    c.copyLimitGbps = 10;
    c.memsetGbps = 40;
    c.foldGbps = 50;
    for (int r = 1; r <= 6; ++r) {
        Sample s;
        s.round = r;
        s.bytes = 10 * size;
        s.seconds = 10 * us * 1e-6;
        s.syscalls = 10;
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

ResultDocument warmRun() {
    ResultDocument doc;
    doc.plan.cache = CacheMode::Warm;
    doc.plan.sizes = {65536, 1 << 20};
    doc.plan.strategies = {"pread-zerofill", "pread-uninit"};
    doc.system.pageSize = 4096;
    doc.unitCosts = {0.1e-6, 1e-6, 2e-6, 0.05e-6, std::nullopt};
    for (auto size : doc.plan.sizes) {
        doc.cells.push_back(cellAt("pread-zerofill", size, double(size) / 5e3));
        doc.cells.push_back(cellAt("pread-uninit", size, double(size) / 6e3));
    }
    return doc;
}

QComboBox* child(ChartView& chart, const char* name) { return chart.findChild<QComboBox*>(name); }

int barsNamed(QCustomPlot* plot, const QString& name) {
    int n = 0;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i)); b && b->name() == name)
            ++n;
    return n;
}

} // namespace

class TestTimeSplitChart : public QObject {
    Q_OBJECT
private slots:
    void chosenFromTheModeBoxItDrawsStackedParts() {
        ResultsModel model;
        model.setDocument(warmRun());
        ChartView chart(&model);
        chart.resize(1000, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QComboBox* split = child(chart, "chartSplit");
        QVERIFY(split && !split->isVisible());
        QComboBox* mode = child(chart, "chartMode");
        mode->setFocus();
        QTest::keyClick(mode, Qt::Key_End);
        QCOMPARE(chart.mode(), ChartMode::TimeSplit);
        QVERIFY(split->isVisible());
        QStringList items;
        for (int i = 0; i < split->count(); ++i)
            items << split->itemText(i);
        QCOMPARE(items, QStringList({"at 64 KiB", "at 1 MiB", "pread-zerofill, per size",
                                     "pread-uninit, per size"}));
        // At 64 KiB: two bars (one per strategy) in each part; zeroing only where it happens.
        QCustomPlot* plot = chart.plot();
        auto* copy = qobject_cast<QCPBars*>(plot->plottable(0));
        QVERIFY(copy);
        QCOMPARE(barsNamed(plot, "copy (kernel's or memcpy)"), 1);
        QCOMPARE(barsNamed(plot, "zeroing (memset)"), 1);
        QCOMPARE(barsNamed(plot, "page faults"), 0); // none counted: not drawn
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i)))
                QCOMPARE(b->dataCount(), 2);
        QCPGraph* measured = plot->graph(0);
        QVERIFY(measured->name().startsWith("measured time per range"));
        QCOMPARE(measured->dataCount(), 2);
        QVERIFY(std::abs(measured->data()->at(0)->value - 65536 / 5e3) < 1e-9);
        QVERIFY(plot->yAxis->label().startsWith("µs per range"));
        // One strategy per size, chosen without a mouse: in % of each bar's measured time.
        split->setFocus();
        QTest::keyClick(split, Qt::Key_Down);
        QTest::keyClick(split, Qt::Key_Down);
        QCOMPARE(split->currentText(), QString("pread-zerofill, per size"));
        QVERIFY(plot->yAxis->label().startsWith("% of the measured time"));
        QCPGraph* hundred = plot->graph(0);
        QCOMPARE(hundred->dataCount(), 2);
        QCOMPARE(hundred->data()->at(1)->value, 100.0);
        // A rebuild (a new round) keeps the choice.
        chart.rebuild();
        QCOMPARE(split->currentText(), QString("pread-zerofill, per size"));
    }

    // QCustomPlot drops a tick label that would cross the widget's edge, and a slanted label
    // runs right of its bar: a default run's 20 bars at 16 KiB drew the last three without a
    // name. Every bar keeps its name, on screen and after a resize; zoomed in, the bars shown
    // keep theirs and the plot keeps its width.
    void everyBarKeepsItsName() {
        ResultDocument doc = warmRun();
        doc.cells.clear();
        doc.plan.sizes = {16384};
        doc.plan.strategies = {
            "pread-zerofill",  "pread-uninit",   "seek-read",        "read-grow",
            "read-prealloc",   "pread-calloc",   "pread-reuse",      "mmap-copy",
            "mmap-copy-kept",  "mmap-touch",     "mmap-willneed",    "mmap-populate",
            "mmap-prefetch",   "pread-coalesce", "pread-sequential", "pread-random",
            "mmap-sequential", "mmap-random",    "pread-dontcache"};
        for (const auto& id : doc.plan.strategies)
            doc.cells.push_back(cellAt(id, 16384, 3));
        ResultsModel model;
        model.setDocument(doc);
        ChartView chart(&model);
        chart.resize(660, 700);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setMode(ChartMode::TimeSplit);
        QCustomPlot* plot = chart.plot();
        auto labelsFit = [plot](int width) {
            plot->replot(QCustomPlot::rpImmediateRefresh);
            auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
            if (!ticker || ticker->ticks().size() != 19)
                return QString("not 19 labels");
            const QFontMetrics metrics(plot->xAxis->tickLabelFont());
            const double angle = qDegreesToRadians(plot->xAxis->tickLabelRotation());
            for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it) {
                if (!plot->xAxis->range().contains(it.key()))
                    continue; // not drawn
                // The slanted text's box: its width along the slant, half its height beyond.
                const double end = plot->xAxis->coordToPixel(it.key()) +
                                   metrics.horizontalAdvance(it.value()) * std::cos(angle) +
                                   metrics.height() * std::sin(angle) / 2;
                if (end > width)
                    return QString("%1 ends at %2 of %3").arg(it.value()).arg(end).arg(width);
            }
            return QString();
        };
        // Narrow, the legend goes under the bars and the last bar's label has the least room.
        QCOMPARE(labelsFit(plot->width()), QString());
        // Wide, the legend goes beside them; then narrow again.
        const int narrow = plot->width();
        chart.resize(1100, 700);
        QTRY_VERIFY(plot->width() > narrow + 300);
        QCOMPARE(labelsFit(plot->width()), QString());
        chart.resize(660, 700);
        QTRY_COMPARE(plot->width(), narrow);
        QCOMPARE(labelsFit(plot->width()), QString());
        // Zoomed in on four bars (the wheel and a drag do this): the bars past the edge have no
        // label drawn, so they take no room, and the plot keeps most of its width.
        plot->xAxis->setRange(-0.6, 3.6);
        QCOMPARE(labelsFit(plot->width()), QString());
        QVERIFY2(plot->axisRect()->width() > plot->width() / 2,
                 qPrintable(QString::number(plot->axisRect()->width())));
        // Back to a line chart: the room the labels took is given back.
        chart.setMode(ChartMode::Throughput);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(plot->axisRect()->minimumMargins().right(), 15);
    }

    void aColdRunSaysWhyItHasNone() {
        auto doc = warmRun();
        doc.plan.cache = CacheMode::Cold;
        ResultsModel model;
        model.setDocument(doc);
        ChartView chart(&model);
        chart.setMode(ChartMode::TimeSplit);
        QCOMPARE(child(chart, "chartSplit")->count(), 0);
        QVERIFY2(chart.plot()->xAxis->label().contains("cold run"),
                 qPrintable(chart.plot()->xAxis->label()));
    }

    // Cells with no split beside ones with bars: how many were left out, and why.
    void cellsLeftOutAreCounted() {
        auto doc = warmRun();
        doc.cells[2].rangesPerRound = 0; // pread-zerofill at 1 MiB: no counts per range
        doc.cells[2].samples.clear();
        const auto bars = splitBars(doc, SplitChoice{std::nullopt, "pread-zerofill"});
        QCOMPARE(bars.labels.size(), 1);
        QCOMPARE(bars.leftOut, 1);
        QCOMPARE(bars.cells, 2);
        QVERIFY(!bars.missing.isEmpty());
        ResultsModel model;
        model.setDocument(doc);
        ChartView chart(&model);
        chart.preferSplitOf("pread-zerofill");
        chart.setMode(ChartMode::TimeSplit);
        QVERIFY2(chart.plot()->xAxis->label().startsWith("1 of 2 cells have no split: "),
                 qPrintable(chart.plot()->xAxis->label()));
    }

    void theTeachingPanelAndDetailsSayIt() {
        const auto doc = warmRun();
        const QString html = strategyHtml("pread-zerofill", doc, nullptr);
        QVERIFY(html.contains("<h4>Where the time goes</h4>"));
        QVERIFY2(html.contains("pread-zerofill at 64 KiB, 13.1 µs per range: kernel copy"),
                 qPrintable(html));
        QVERIFY(html.contains("zeroing (memset)"));
        QVERIFY(html.contains("a cached page through a read"));
        // Its rounds carry no TLB count: the n/c in that column says why.
        QVERIFY2(html.contains("n/c under TLB shootdowns: not counted in this run (the system it "
                               "ran on keeps none)"),
                 qPrintable(html));
        auto counted = doc;
        for (auto& c : counted.cells)
            for (auto& s : c.samples)
                s.tlbShootdowns = 10;
        QVERIFY(!strategyHtml("pread-zerofill", counted, nullptr).contains("n/c under TLB"));
        const QString details = cellDetailsHtml(doc.cells[3], doc); // pread-uninit at 1 MiB
        QVERIFY2(details.contains("Where the time goes:</b> pread-uninit at 1 MiB"),
                 qPrintable(details));
        auto cold = doc;
        cold.plan.cache = CacheMode::Cold;
        QVERIFY(strategyHtml("pread-zerofill", cold, nullptr)
                    .contains("Where the time goes: not split, a cold run's time"));
    }

    // A strategy that the cache cut leaves with too few sizes to fit says so where its fit
    // would be, instead of having no fit section at all.
    void aStrategyWithoutAFitSaysWhy() {
        ResultDocument doc = warmRun();
        doc.system.caches = {48 << 10, 2 << 20, 260ull << 20};
        doc.plan.sizes = {16 << 10, 65536, 256 << 10, 1 << 20, 8 << 20};
        doc.cells.clear();
        for (auto size : doc.plan.sizes) {
            doc.cells.push_back(cellAt("pread-zerofill", size, 1 + double(size) / 5e3));
            if (size >= (256u << 10))
                doc.cells.push_back(cellAt("pread-uninit", size, 1 + double(size) / 6e3));
        }
        QVERIFY(strategyHtml("pread-zerofill", doc, nullptr).contains("t(n) = "));
        const QString html = strategyHtml("pread-uninit", doc, nullptr);
        QVERIFY(!html.contains("t(n) = "));
        QVERIFY2(html.contains("not fitted: only 2 of its sizes lie at or below the L2 cache"),
                 qPrintable(html));
    }
};

QTEST_MAIN(TestTimeSplitChart)
#include "tst_time_split_chart.moc"
