// What the chart's marks say: a noisy point keeps its line's colour and shape (hollow), a log
// axis labels its decades and their 2x/5x steps, the memcpy line's legend names what is drawn,
// and the CPU chart draws a system-time split only where the ticks can tell it.
#include "chart_caches.h"
#include "chart_frame.h"
#include "chart_series.h"
#include "chart_view.h"
#include "decade_ticker.h"
#include "exporter.h"
#include "results_model.h"

#include "readscope/report.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace readscope;
using namespace readscope::ui;

namespace {
// A cell at `gbps`: twelve rounds, each with this much user and system CPU time.
Cell cellAt(const std::string& id, std::uint64_t size, double gbps, double userSeconds = 0.001,
            double systemSeconds = 0.001) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    Sample s;
    s.bytes = 1000000;
    s.seconds = 1e-3 / gbps;
    s.userSeconds = userSeconds;
    s.systemSeconds = systemSeconds;
    for (int r = 1; r <= 12; ++r) {
        s.round = r;
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

ResultDocument twoLines() {
    ResultDocument doc;
    doc.plan.sizes = {16384, 65536, 1 << 20};
    doc.plan.strategies = {"pread-uninit", "mmap-copy"};
    for (auto size : doc.plan.sizes) {
        doc.cells.push_back(cellAt("pread-uninit", size, 3 + size / 1e6));
        doc.cells.push_back(cellAt("mmap-copy", size, 5 + size / 1e6));
    }
    return doc;
}

// A 2 s duration run of two strategies, each round when it ran, the file's residency after it
// and (from the second round on) the machine's TLB shootdowns during it.
ResultDocument roundsOverTime() {
    ResultDocument doc;
    doc.plan.sizes = {4096};
    doc.plan.strategies = {"pread-uninit", "mmap-random"};
    doc.plan.durationSeconds = 2;
    for (int k = 0; k < 2; ++k) {
        Cell c = cellAt(doc.plan.strategies[std::size_t(k)], 4096, 1.0 + k);
        for (std::size_t r = 0; r < c.samples.size(); ++r) {
            c.samples[r].startedAt = 1000.0 + 0.2 * double(r) + 0.1 * k;
            c.samples[r].fileResidentAfter = 0.05 * double(r);
            if (r > 0) // the first round counted none: a gap, not a zero
                c.samples[r].tlbShootdowns = 100.0 * double(r) * (k + 1);
        }
        doc.cells.push_back(c);
    }
    return doc;
}

QCPGraph* graphNamed(QCustomPlot* plot, const QString& prefix) {
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name().startsWith(prefix))
            return plot->graph(i);
    return nullptr;
}
} // namespace

class TestChartMarks : public QObject {
    Q_OBJECT
private slots:
    // Over time with 30 cells (6 strategies x 5 sizes): one size at a time, picked in the
    // chart's own box (no "every size" past 8 lines), a line per strategy, and the title
    // saying which rounds; with few cells "every size" comes first.
    // While a run goes on, memcpy's limit has only its price from before the rounds (a busy
    // machine once put it under the copying strategies): the line waits for the run's end.
    void theMemcpyLimitWaitsForTheRunsEnd() {
        ResultDocument doc;
        doc.plan.sizes = {64 << 10, 1 << 20};
        doc.plan.strategies = {"pread-uninit"};
        ResultsModel model;
        ChartView chart(&model);
        chart.resize(1000, 600);
        chart.show();
        model.beginRun(doc);
        for (auto size : doc.plan.sizes) {
            Cell c = cellAt("pread-uninit", size, 5.0);
            c.copyLimitGbps = 7.5;
            model.addCell(c);
            doc.cells.push_back(c);
        }
        QVERIFY(model.isLive());
        QVERIFY(graphNamed(chart.plot(), "pread-uninit"));
        QVERIFY(!graphNamed(chart.plot(), "memcpy"));
        for (auto& c : doc.cells)
            c.copyLimitGbps = 20.0; // the closing prices' best
        model.finishRun(doc);
        QVERIFY(!model.isLive());
        QCPGraph* limit = graphNamed(chart.plot(), "memcpy");
        QVERIFY(limit);
        QCOMPARE(limit->data()->at(0)->value, 20.0);
    }

    void overTimeWithManyCellsShowsOneSizeAtATime() {
        ResultDocument doc;
        doc.plan.sizes = {16 << 10, 64 << 10, 256 << 10, 1 << 20, 8 << 20};
        doc.plan.strategies = {"pread-zerofill", "pread-uninit", "seek-read",
                               "pread-reuse",    "mmap-copy",    "mmap-touch"};
        double start = 1000;
        for (auto size : doc.plan.sizes)
            for (const auto& id : doc.plan.strategies) {
                Cell c = cellAt(id, size, 2.0);
                for (auto& r : c.samples)
                    r.startedAt = (start += 0.01);
                doc.cells.push_back(c);
            }
        ResultsModel model;
        model.setDocument(doc);
        ChartView chart(&model);
        chart.resize(1000, 600);
        chart.show();
        chart.setMode(ChartMode::OverTime);
        auto* pick = chart.findChild<QComboBox*>("overTimePoint");
        QVERIFY(pick && pick->isVisible());
        QCOMPARE(pick->count(), 5);
        QCOMPARE(pick->itemText(0), QString("at 16 KiB"));
        QCOMPARE(chart.plot()->graphCount(), 6);
        QVERIFY(graphNamed(chart.plot(), "pread-uninit"));
        pick->setFocus();
        QTest::keyClick(pick, Qt::Key_Down);
        QCOMPARE(pick->currentText(), QString("at 64 KiB"));
        QCOMPARE(chart.plot()->graphCount(), 6);
        auto* title = qobject_cast<QCPTextElement*>(chart.plot()->plotLayout()->element(0, 0));
        QVERIFY(title);
        QVERIFY2(title->text().contains("the rounds at 64 KiB"), qPrintable(title->text()));
        // Six cells: every size fits, and comes first.
        doc.cells.resize(6 * 1);
        doc.cells.push_back(cellAt("pread-uninit", 64 << 10, 2.0));
        doc.cells.back().samples.front().startedAt = 999;
        doc.plan.strategies.resize(6);
        model.setDocument(doc);
        QCOMPARE(pick->itemText(0), QString("every size"));
        QCOMPARE(pick->currentText(), QString("at 64 KiB")); // the choice made stays
        QCOMPARE(chart.plot()->graphCount(), 1);
        QTest::keyClick(pick, Qt::Key_Home);
        QCOMPARE(chart.plot()->graphCount(), 7);
        // One size: nothing to pick.
        doc.cells.pop_back();
        model.setDocument(doc);
        QVERIFY(!pick->isVisible());
        chart.setMode(ChartMode::Throughput);
        QVERIFY(!pick->isVisible());
    }

    // GB/s over time, chosen in the chart's own mode box from the keyboard: a line per
    // strategy through each round's figure at the seconds since the first round started, and
    // the file's residency on the right axis in percent.
    void overTimeDrawsEachRoundWhenItRan() {
        ResultDocument doc = roundsOverTime();
        ResultsModel model;
        model.setDocument(doc);
        ChartView chart(&model);
        chart.resize(1000, 600);
        chart.show();
        QComboBox* box = nullptr;
        for (auto* b : chart.findChildren<QComboBox*>())
            if (b->findData(int(ChartMode::OverTime)) >= 0)
                box = b;
        QVERIFY(box);
        box->setFocus();
        QTest::keyClick(box, Qt::Key_End); // the last mode: where the time goes
        QCOMPARE(chart.mode(), ChartMode::TimeSplit);
        QTest::keyClick(box, Qt::Key_Up); // the one before: TLB shootdowns over time
        QCOMPARE(chart.mode(), ChartMode::ShootdownsOverTime);
        {
            QCPGraph* shot = graphNamed(chart.plot(), "mmap-random");
            QVERIFY(shot);
            QCOMPARE(shot->dataCount(), 11);
            const Sample& second = doc.cells[1].samples[1];
            QCOMPARE(shot->data()->at(0)->key, 0.1 + 0.2);
            QCOMPARE(shot->data()->at(0)->value, 200.0 / second.seconds);
            QVERIFY(chart.plot()->yAxis->label().startsWith("TLB shootdowns per second"));
        }
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(chart.mode(), ChartMode::OverTime);
        QCPGraph* mmap = graphNamed(chart.plot(), "mmap-random");
        QVERIFY(mmap);
        QCOMPARE(mmap->dataCount(), 12);
        QCOMPARE(mmap->data()->at(0)->key, 0.1); // pread-uninit's first round started first
        QCOMPARE(mmap->data()->at(11)->key, 0.1 + 0.2 * 11);
        QCOMPARE(mmap->data()->at(0)->value, 2.0);
        QCPGraph* cached = graphNamed(chart.plot(), "file in the page cache");
        QVERIFY(cached);
        QCOMPARE(cached->valueAxis(), chart.plot()->yAxis2);
        QVERIFY(chart.plot()->yAxis2->visible());
        QCOMPARE(cached->data()->at(cached->dataCount() - 1)->value, 0.05 * 11 * 100);
        QCOMPARE(chart.plot()->xAxis->scaleType(), QCPAxis::stLinear);
        // A run on a system that counted no shootdowns: an empty plot that says why, not one
        // that reads as "none".
        for (auto& c : doc.cells)
            for (auto& r : c.samples)
                r.tlbShootdowns.reset();
        model.setDocument(doc);
        QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(chart.mode(), ChartMode::ShootdownsOverTime);
        QVERIFY(!graphNamed(chart.plot(), "mmap-random"));
        QCOMPARE(
            chart.plot()->yAxis->label(),
            QString("TLB shootdowns: not counted in this run (the system it ran on keeps none)"));
        doc.note = "this kernel flushes other CPUs' TLBs without the interrupt ...";
        model.setDocument(doc);
        QCOMPARE(chart.plot()->yAxis->label(),
                 QString("TLB shootdowns: not counted in this run (its notes say why)"));
        QTest::keyClick(box, Qt::Key_Up);
        // Back to GB/s per range size: the right axis goes.
        QTest::keyClick(box, Qt::Key_Home);
        QCOMPARE(chart.mode(), ChartMode::Throughput);
        QVERIFY(!chart.plot()->yAxis2->visible());
    }

    // A report of a duration run carries its rounds over time, and their TLB shootdowns where
    // the rounds counted them; a run whose rounds counted none has no empty shootdown chart.
    void aReportDrawsTheChartsItsRunHas() {
        auto charts = [](const ResultDocument& doc) {
            QTemporaryDir dir;
            ResultsModel model;
            model.setDocument(doc);
            ChartView chart(&model);
            chart.resize(1000, 600);
            QStringList found;
            const QString error = saveReport(doc, chart, nullptr, dir.path());
            if (!error.isEmpty())
                return QStringList{"error: " + error};
            QFile md(dir.filePath(ReportFiles::markdown));
            if (!md.open(QIODevice::ReadOnly))
                return QStringList{"no report"};
            const QString text = md.readAll();
            for (const char* name :
                 {ReportFiles::chart, ReportFiles::overTimeChart, ReportFiles::shootdownsChart})
                if (QImage(dir.filePath(name)).width() > 0 &&
                    text.contains(QString("](%1)").arg(name)))
                    found << name;
            return found;
        };
        ResultDocument doc = roundsOverTime();
        QCOMPARE(charts(doc), (QStringList{ReportFiles::chart, ReportFiles::overTimeChart,
                                           ReportFiles::shootdownsChart}));
        for (auto& cell : doc.cells)
            for (auto& sample : cell.samples)
                sample.tlbShootdowns.reset();
        QCOMPARE(charts(doc), (QStringList{ReportFiles::chart, ReportFiles::overTimeChart}));
        doc.plan.durationSeconds = 0;
        QCOMPARE(charts(doc), QStringList{ReportFiles::chart});
    }

    void noisyPointsKeepTheirLinesColourAndShape() {
        auto doc = twoLines();
        doc.cells[3].status = CellStatus::Noisy; // mmap-copy at 64 KiB
        ResultsModel model;
        ChartView chart(&model);
        chart.resize(900, 600);
        model.setDocument(doc);
        QCustomPlot* plot = chart.plot();
        QCPGraph* line = graphNamed(plot, "mmap-copy");
        QVERIFY(line);
        QCPGraph* hollow = nullptr;
        int drawnInTextColour = 0;
        const QColor text = chart.palette().color(QPalette::WindowText);
        for (int i = 0; i < plot->graphCount(); ++i) {
            QCPGraph* g = plot->graph(i);
            if (g->property("readscopeHollow").toString() == "mmap-copy")
                hollow = g;
            if (g->scatterStyle().shape() != QCPScatterStyle::ssNone &&
                g->scatterStyle().pen().color() == text && !g->data()->isEmpty())
                ++drawnInTextColour;
        }
        QVERIFY2(hollow, "the noisy point is drawn by its own line's mark");
        QCOMPARE(hollow->dataCount(), 1);
        QCOMPARE(hollow->data()->at(0)->key, 65536.0);
        QCOMPARE(hollow->scatterStyle().shape(), line->scatterStyle().shape());
        QCOMPARE(hollow->scatterStyle().pen().color(), line->pen().color());
        QVERIFY(hollow->scatterStyle().brush().color() != line->pen().color()); // hollow
        QCOMPARE(hollow->layer()->name(), QString("hollows"));                  // above every line
        QCOMPARE(drawnInTextColour, 0); // no black ring over the point
        // The legend names the mark once.
        QCPGraph* legend = graphNamed(plot, "hollow: noisy");
        QVERIFY(legend);
        QVERIFY(plot->legend->hasItemWithPlottable(legend));
        QVERIFY(legend->data()->isEmpty());
    }

    void logAxisLabelsDecadesAndTheirSteps() {
        QCOMPARE(DecadeTicker::ticksFor(QCPRange(2.5, 16)), (QVector<double>{5, 10}));
        QCOMPARE(DecadeTicker::ticksFor(QCPRange(0.15, 60)),
                 (QVector<double>{0.2, 0.5, 1, 2, 5, 10, 20, 50}));
        // Many decades: decades only.
        QCOMPARE(DecadeTicker::ticksFor(QCPRange(0.5, 2e6)),
                 (QVector<double>{1, 10, 100, 1000, 1e4, 1e5, 1e6}));
        // Inside one stretch of a decade, every integer step.
        QCOMPARE(DecadeTicker::ticksFor(QCPRange(3.2, 4.9)), (QVector<double>{4}));
        QCOMPARE(DecadeTicker::ticksFor(QCPRange(3.2, 7.9)), (QVector<double>{4, 5, 6, 7}));
        QCOMPARE(DecadeTicker::label(0.2), QString("0.2"));
        QCOMPARE(DecadeTicker::label(5000), QString("5k"));
        QCOMPARE(DecadeTicker::label(2e6), QString("2M"));

        // The real chart, its log box ticked: figures of 3-30 GB/s get the steps between.
        auto doc = twoLines();
        for (auto& c : doc.cells)
            if (c.strategy == "mmap-copy")
                c = cellAt(c.strategy, c.rangeBytes, 25 + c.rangeBytes / 1e6);
        ResultsModel model;
        ChartView chart(&model);
        chart.resize(900, 600);
        chart.show();
        model.setDocument(doc);
        auto* log = chart.findChild<QCheckBox*>("chartLogY");
        QVERIFY(log);
        QTest::mouseClick(log, Qt::LeftButton);
        QVERIFY(log->isChecked());
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QStringList labels = chart.plot()->yAxis->tickVectorLabels();
        QVERIFY2(labels.contains("5") && labels.contains("10") && labels.contains("20"),
                 qPrintable(labels.join(" ")));
    }

    void memcpyLegendNamesWhatIsDrawn() {
        QCOMPARE(gbpsSpanText(10.6, 11.4), QString("11 GB/s")); // not "11-11"
        QCOMPARE(gbpsSpanText(9.6, 10.4), QString("9.6-10 GB/s"));
        QCOMPARE(gbpsSpanText(4.5, 14.3), QString("4.5-14 GB/s"));
        Series limit;
        limit.name = "memcpy limit";
        limit.offScaleName = "memcpy 4.5-14 GB/s (off scale)";
        limit.y = {14.3, 6.2, 4.5};
        QCOMPARE(limitLegendName(limit, 20), QString("memcpy limit"));
        QCOMPARE(limitLegendName(limit, 4), limit.offScaleName);
        QCOMPARE(limitLegendName(limit, 8),
                 QString("memcpy limit (runs above the plot, up to 14 GB/s)"));

        // In the chart: figures near 3-6 GB/s, memcpy 14 at 16 KiB and 2.5 at 1 MiB. Part of
        // the line is inside the plot: the legend does not call it off scale.
        auto doc = twoLines();
        const double copy[] = {14, 14, 9, 9, 2.5, 2.5};
        for (std::size_t i = 0; i < doc.cells.size(); ++i)
            doc.cells[i].copyLimitGbps = copy[i];
        ResultsModel model;
        ChartView chart(&model);
        model.setDocument(doc);
        QCPGraph* drawn = graphNamed(chart.plot(), "memcpy");
        QVERIFY(drawn);
        QVERIFY2(!drawn->name().contains("off scale"), qPrintable(drawn->name()));
        QVERIFY2(drawn->name().contains("runs above the plot, up to 14 GB/s"),
                 qPrintable(drawn->name()));
    }

    // The run's CPU caches as labelled lines on a range-size axis, each known level (those
    // past the axis come into view when a person zooms out); none on a threads axis.
    void cacheMarkersStandWhereTheSizesCrossThem() {
        auto doc = twoLines(); // 16 KiB - 1 MiB, and 8 MiB below: the axis ends near 13 MiB
        doc.system.caches = {48 << 10, 2 << 20, 260ull << 20};
        doc.plan.sizes.push_back(8 << 20);
        for (const char* id : {"pread-uninit", "mmap-copy"})
            doc.cells.push_back(cellAt(id, 8 << 20, 2));
        ResultsModel model;
        ChartView chart(&model);
        model.setDocument(doc);
        const auto markers = [&] {
            QMap<QString, double> at;
            for (int i = 0; i < chart.plot()->itemCount(); ++i)
                if (auto* line = qobject_cast<QCPItemStraightLine*>(chart.plot()->item(i)))
                    at[line->property(kCacheMarkerProperty).toString()] =
                        line->point1->coords().x();
            return at;
        };
        auto at = markers();
        QCOMPARE(at.size(), 3);
        QCOMPARE(at.value("L1d 48 KiB"), double(48 << 10));
        QCOMPARE(at.value("L2 2 MiB"), double(2 << 20));
        // L3 (260 MiB) lies past the axis: clipped away until a person zooms out to it with the
        // wheel over the plot, and there it stands.
        QVERIFY(!chart.plot()->xAxis->range().contains(at.value("L3 260 MiB")));
        chart.resize(800, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot* plot = chart.plot();
        const QPointF centre = plot->axisRect()->rect().center();
        for (int notch = 0; notch < 12 && !plot->xAxis->range().contains(260.0 * (1 << 20));
             ++notch) {
            QWheelEvent wheel(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, -120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(plot, &wheel);
        }
        QVERIFY2(plot->xAxis->range().contains(260.0 * (1 << 20)),
                 qPrintable(QString::number(plot->xAxis->range().upper)));
        QCOMPARE(markers().value("L3 260 MiB"), 260.0 * (1 << 20));
        model.setDocument(doc); // rebuilt: the old markers go, not doubled
        int lines = 0;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            lines += qobject_cast<QCPItemStraightLine*>(chart.plot()->item(i)) ? 1 : 0;
        QCOMPARE(lines, 3);
        doc.plan.threadCounts = {1, 2};
        doc.plan.sizes = {1 << 20};
        doc.cells.clear();
        for (int t : {1, 2}) {
            Cell c = cellAt("pread-uninit", 1 << 20, 3);
            c.pointThreads = t;
            doc.cells.push_back(c);
        }
        model.setDocument(doc);
        QVERIFY(markers().isEmpty());
    }

    // Under a narrow plot the legend takes one column when two would clip its entries.
    void legendEntriesAreNeverClipped() {
        auto doc = twoLines();
        doc.cells[2].status = CellStatus::Noisy;
        for (auto& c : doc.cells) // passed: "memcpy limit · passed by 3 copying cells: ..."
            c.copyLimitGbps = 4;
        ResultsModel model;
        // In a window the chart gets the width its column has, whatever its legend wants.
        QWidget host;
        host.resize(1000, 600);
        auto* chart = new ChartView(&model, &host);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        model.setDocument(doc);
        for (int width : {900, 640, 560}) {
            chart->setGeometry(0, 0, width, 560);
            QCoreApplication::processEvents();
            chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
            auto* legend = chart->plot()->legend;
            QVERIFY(legend->itemCount() >= 4);
            for (int i = 0; i < legend->itemCount(); ++i) {
                auto* item = legend->item(i);
                if (!item)
                    continue; // an empty place in the grid
                // Drawn only inside the legend's box and the chart: an entry past either
                // edge is cut off.
                const QRect box = legend->outerRect();
                QVERIFY2(
                    item->outerRect().width() >= item->minimumOuterSizeHint().width() &&
                        item->outerRect().right() <= std::min(box.right(), chart->width()),
                    qPrintable(
                        QString("%1 px chart: '%2' gets %3 px of the %4 it needs")
                            .arg(width)
                            .arg(static_cast<QCPPlottableLegendItem*>(item)->plottable()->name())
                            .arg(item->outerRect().width())
                            .arg(item->minimumOuterSizeHint().width())));
            }
        }
    }

    // An export's title and footnote wrap between their " · " parts to the image's width: a
    // 1200 px export clipped the footnote's first line at both edges.
    void exportTextWrapsToTheImage() {
        QCustomPlot plot;
        plot.resize(1200, 700);
        ChartFrame frame(&plot, QFont(plot.font().family(), 10, QFont::Bold));
        const QString parts = "GB/s = 10^9 bytes/s, median of 5 interleaved rounds · consume all "
                              "(every byte read once) · bars: confidence interval of the median "
                              "(coverage 93.8% at 5 rounds) · hollow point: noisy (median "
                              "uncertain by more than ±5%)\ndash-dot: memcpy's speed here";
        auto* note = new QCPTextElement(&plot, parts, QFont(plot.font().family(), 9));
        frame.beginExport("a title · " + parts, note, 600);
        for (const auto* element : {note, frame.title()}) {
            const QStringList lines = element->text().split('\n');
            QVERIFY2(lines.size() > 2, qPrintable(element->text()));
            for (const auto& line : lines)
                QVERIFY2(QFontMetrics(element->font()).horizontalAdvance(line) <= 584,
                         qPrintable(line));
        }
        QCOMPARE(note->text().split('\n').join(" · ").remove("\n"),
                 QString(parts).replace('\n', " · ")); // every word kept
        frame.endExport(note);
    }

    void cpuChartSplitsOnlyWhatTheTicksCanTell() {
        ResultDocument doc;
        doc.plan.sizes = {65536, 1 << 20};
        doc.plan.strategies = {"mmap-touch"};
        doc.cells.push_back(cellAt("mmap-touch", 65536, 3, 0.001, 0));       // 12 ms of CPU in all
        doc.cells.push_back(cellAt("mmap-touch", 1 << 20, 3, 0.012, 0.008)); // 240 ms
        const auto data = buildChart(doc, nullptr, ChartMode::CpuPerGB, "");
        const auto sys = std::find_if(data.series.begin(), data.series.end(),
                                      [](const Series& s) { return s.name.endsWith("(system)"); });
        QVERIFY(sys != data.series.end());
        QCOMPARE(sys->x, (QVector<double>{1 << 20})); // not the 0 ms/GB of 12 ms of ticks
        QVERIFY(data.yLabel.contains("tick-sampled"));
    }
};

QTEST_MAIN(TestChartMarks)
#include "tst_chart_marks.moc"
