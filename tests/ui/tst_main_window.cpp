// The real main window, offscreen: a tiny sweep run to completion, Stop, close mid-run,
// export round trips, and bad files that must give a message rather than a crash.
#include "chart_series.h"
#include "chart_view.h"
#include "generate_dialog.h"
#include "lessons.h"
#include "readscope/finding.h"
#include "readscope/plan_verdicts.h"

#include "as_nobody.h"
#include "compare_view.h"
#include "exporter.h"
#include "file_inspector.h"
#include "results_model.h"
#include "run_controller.h"
#include "run_worker.h"
#include "settings_store.h"
#include "strategy_picker.h"
#include "window_fixture.h"
#include <qcustomplot.h>

#include "readscope/document_words.h"
#include "readscope/documents.h"
#include "readscope/generator.h"
#include "readscope/recovery.h"
#include "readscope/strategy.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidgetItemIterator>
#include <QWheelEvent>

#include <unistd.h>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

// A lesson's place in the Lessons menu, by its title (the menu's order may change).
int lessonIndex(const QString& title) {
    const auto all = loadLessons();
    for (int i = 0; i < all.size(); ++i)
        if (all[i].title == title)
            return i;
    return -1;
}

namespace {
// A window in the middle of a long run (5000 rounds), a round of it measured.
bool windowMidRun(MainWindow& w, const testing::TestFile& file) {
    w.show();
    if (!testing::openAndWait(w, file.path()))
        return false;
    w.config()->setPlan(testing::tinyPlan(file, 5000));
    return w.startRun() && testing::waitForMeasuredRound(w);
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    // In minimal mode an in-place mapping touched one byte per page: its line says so.
    // From a finished run to an issue in two pastes: the chart as an image, the table as
    // Markdown, from the Edit menu and from the chart's own context menu.
    void chartAndTableGoToTheClipboard() {
        MainWindow w;
        w.show();
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QAction* copy = w.findChild<QAction*>("copyChartAction");
        QVERIFY(copy && copy->isEnabled());
        QCOMPARE(copy->shortcut(), QKeySequence("Ctrl+Shift+C"));
        QApplication::clipboard()->clear();
        copy->trigger();
        const QImage image = QApplication::clipboard()->image();
        QCOMPARE(image.size(), QSize(2400, 1400)); // 1200 x 700 at 2x, as the PNG export
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, "the copied chart is blank");
        const auto urls = QApplication::clipboard()->mimeData()->urls();
        QVERIFY(urls.size() == 1 && QImage(urls[0].toLocalFile()).size() == image.size());
        const QString offeredFile = urls[0].toLocalFile();

        // The chart's context menu offers the same, and its Copy as Markdown copies the table
        // with the command that reruns it.
        QStringList offered;
        QTimer::singleShot(200, [&offered] {
            if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
                for (QAction* a : menu->actions())
                    offered << a->text();
                for (QAction* a : menu->actions())
                    if (a->text() == "Copy as Markdown")
                        menu->setActiveAction(a);
                QTest::keyClick(menu, Qt::Key_Return);
            }
        });
        auto* plot = w.chart()->plot();
        emit plot->customContextMenuRequested(QPoint(plot->width() / 2, plot->height() / 2));
        QCOMPARE(offered, (QStringList{"Copy chart", "Save chart as…", "Copy as Markdown"}));
        const QString md = QApplication::clipboard()->text();
        QVERIFY2(md.startsWith("| range |") && md.contains("Rerun: `readscope-cli"),
                 qPrintable(md));
        // The chart's PNG lived as long as the clipboard offered it: the next copy took it.
        QTRY_VERIFY2(!QFile::exists(offeredFile), qPrintable(offeredFile));
    }

    void onePerPageLinesAreMarked() {
        ResultDocument doc;
        doc.plan.sizes = {65536};
        doc.plan.strategies = {"pread-uninit", "mmap-touch"};
        for (const char* id : {"pread-uninit", "mmap-touch"}) {
            Cell c;
            c.strategy = id;
            c.rangeBytes = 65536;
            Sample s;
            s.bytes = 1 << 20;
            s.seconds = 0.001;
            c.samples = {s, s, s};
            c.summarize();
            doc.cells.push_back(c);
        }
        for (auto consume : {Consume::Minimal, Consume::All}) {
            doc.plan.consume = consume;
            const auto data = buildChart(doc, nullptr, ChartMode::Throughput, "");
            QCOMPARE(data.series.size(), std::size_t(2));
            const bool minimal = consume == Consume::Minimal;
            QCOMPARE(data.series[1].name,
                     QString(minimal ? "mmap-touch · 1 byte/page" : "mmap-touch"));
            QCOMPARE(data.series[1].dotted, minimal);
            QCOMPARE(data.series[0].name, QString("pread-uninit"));
        }
    }

    // A strategy that read more than it wanted says how much in the legend, in every mode
    // that draws its GB/s; one that read what it wanted says nothing.
    void readAmplificationIsInTheLegend() {
        ResultDocument doc;
        doc.plan.sizes = {8192, 65536};
        doc.plan.strategies = {"pread-uninit", "pread-coalesce"};
        for (const char* id : {"pread-uninit", "pread-coalesce"})
            for (std::uint64_t size : {8192u, 65536u}) {
                Cell c;
                c.strategy = id;
                c.rangeBytes = size;
                Sample s;
                s.bytes = 1 << 20;
                s.seconds = 0.001;
                if (std::string_view(id) == "pread-coalesce")
                    s.bytesRead = size == 8192 ? 8 << 20 : 1 << 20;
                c.samples = {s, s, s};
                c.summarize();
                doc.cells.push_back(c);
            }
        for (auto mode : {ChartMode::Throughput, ChartMode::Relative, ChartMode::Iops}) {
            const auto data = buildChart(doc, nullptr, mode, "pread-uninit");
            QCOMPARE(data.series[0].name, QString("pread-uninit"));
            QCOMPARE(data.series[1].name,
                     QString("pread-coalesce · read 1.00-8.00x the bytes wanted"));
        }
    }

    // Cold runs draw the device limit as one level across the points, in the legend with the
    // cells that passed it; the table's limit column is the device's. Warm runs have neither.
    void deviceLimitIsALevelLine() {
        ResultDocument doc;
        doc.plan.cache = CacheMode::Cold;
        doc.plan.sizes = {65536, 1 << 20};
        doc.plan.strategies = {"pread-uninit"};
        doc.deviceLimit.emplace();
        doc.deviceLimit->gbps = 2;
        doc.deviceLimit->fastest = "buffered 1 MiB reads right after eviction";
        doc.deviceLimit->device = "vda (254:0)";
        doc.deviceLimit->measuredAt = "2026-12-02T00:41:07Z";
        for (std::uint64_t size : {65536u, 1u << 20}) {
            Cell c;
            c.strategy = "pread-uninit";
            c.rangeBytes = size;
            Sample s;
            s.bytes = 1000000;
            s.seconds = size == 65536 ? 1e-3 : 1e-3 / 3; // 1 and 3 GB/s
            c.samples = {s, s, s};
            c.summarize();
            doc.cells.push_back(c);
        }
        auto data = buildChart(doc, nullptr, ChartMode::Throughput, "");
        QCOMPARE(data.series.size(), std::size_t(2));
        const Series& limit = data.series[1];
        QVERIFY(limit.limit);
        QCOMPARE(limit.name,
                 QString("device limit 2.00 GB/s · passed by 1 cell: a cache below, or a low "
                         "limit?"));
        QCOMPARE(limit.y, (QVector<double>{2, 2}));
        QCOMPARE(limit.x.size(), 2);
        // Beside a baseline it is this run's; at a single point it still draws a level.
        ResultDocument one = doc;
        one.cells.resize(1);
        data = buildChart(one, &one, ChartMode::Throughput, "");
        const auto level = std::find_if(data.series.begin(), data.series.end(),
                                        [](const Series& s) { return s.limit; });
        QVERIFY(level != data.series.end());
        QCOMPARE(level->name, QString("device limit 2.00 GB/s (this run)"));
        QCOMPARE(level->x.size(), 2);
        QVERIFY(level->x[0] < 65536 && level->x[1] > 65536);
        MainWindow w;
        w.model()->setDocument(doc);
        QCOMPARE(w.model()->headerData(ResultsModel::OfLimit, Qt::Horizontal).toString(),
                 QString("% device"));
        QCOMPARE(w.model()->index(1, ResultsModel::OfLimit).data().toString(), QString("150 %"));
        auto* plot = w.chart()->plot();
        QCPGraph* drawn = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name().startsWith("device limit 2.00 GB/s"))
                drawn = plot->graph(i);
        QVERIFY(drawn);
        QCOMPARE(drawn->pen().style(), Qt::DashDotLine);
        doc.plan.cache = CacheMode::Warm;
        data = buildChart(doc, nullptr, ChartMode::Throughput, "");
        QCOMPARE(data.series.size(), std::size_t(1));
        w.model()->setDocument(doc);
        QCOMPARE(w.model()->headerData(ResultsModel::OfLimit, Qt::Horizontal).toString(),
                 QString("% memcpy"));
    }

    // The buttons beside the file field open their dialogs when a person clicks them (their
    // signals once reached nothing).
    void fileButtonsOpenTheirDialogs() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const auto& [button, title] : {std::pair{"browseButton", "File to measure"},
                                            std::pair{"generateButton", "Generate test file"}}) {
            auto* b = w.findChild<QPushButton*>(button);
            QVERIFY2(b && b->isVisible(), button);
            QString seen;
            // The dialog is modal: look at it and close it from inside its own event loop.
            QTimer::singleShot(200, [&seen] {
                if (QWidget* dialog = QApplication::activeModalWidget()) {
                    seen = dialog->windowTitle();
                    dialog->close();
                }
            });
            QTest::mouseClick(b, Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty(), 5000);
            QCOMPARE(seen, QString(title));
        }
    }

    void tinyRunFillsChartAndTable() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.config()->setPlan(testing::tinyPlan(*file_));
        QAbstractItemModelTester tester(w.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun());
        QVERIFY(w.isRunning());
        QVERIFY(!w.startRun()); // a second start while running is refused
        QVERIFY(finished.wait(120000));
        QVERIFY(!w.isRunning());
        QCOMPARE(w.model()->rowCount(), 6);
        // The Table opens sorted by range size, the plan's strategy order within a size.
        auto* table = w.findChild<QTableView*>();
        QVERIFY(table);
        const auto* view = table->model();
        for (int row = 0; row + 1 < view->rowCount(); ++row)
            QVERIFY(
                view->index(row, ResultsModel::Range).data(ResultsModel::SortRole).toULongLong() <=
                view->index(row + 1, ResultsModel::Range)
                    .data(ResultsModel::SortRole)
                    .toULongLong());
        QCOMPARE(view->index(0, ResultsModel::Strategy).data().toString(),
                 QString::fromStdString(testing::tinyPlan(*file_).strategies.front()));
        QCOMPARE(w.chart()->graphCountForStrategies(), 2);
        QCOMPARE(w.chart()->pointCount("pread-uninit"), 3);
        QCOMPARE(w.chart()->pointCount("mmap-touch"), 3);
        QVERIFY(w.bannerText().isEmpty());
        QVERIFY(w.exports().markdown().contains("| 64 KiB |"));
    }

    void notColdCellsAreMarkedEverywhere() {
        QTemporaryDir shm("/dev/shm/readscope-test-XXXXXX");
        if (!shm.isValid())
            QSKIP("no /dev/shm to put a tmpfs file in");
        const std::string path = shm.filePath("tmpfs.bin").toStdString();
        QVERIFY(generateFile(path, 4 << 20).ok());
        MainWindow w;
        w.show();
        Plan plan = testing::tinyPlan(*file_);
        plan.file = path;
        plan.sizes = {64 << 10};
        plan.strategies = {"pread-uninit"};
        plan.cache = CacheMode::Cold;
        QVERIFY(testing::runToEnd(w, plan));
        QCOMPARE(w.model()->index(0, ResultsModel::Status).data().toString(), QString("not-cold"));
        QVERIFY2(w.statusText().contains("1 cell was not cold"), qPrintable(w.statusText()));
        bool marked = false;
        for (int i = 0; i < w.chart()->plot()->graphCount(); ++i)
            marked |= w.chart()->plot()->graph(i)->name().startsWith("not cold");
        QVERIFY(marked);
        QVERIFY(w.exports().markdown().contains("†"));
    }

    void exportsRoundTrip() {
        MainWindow w;
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QTemporaryDir dir;
        const QString json = dir.filePath("r.json"), csv = dir.filePath("r.csv");
        QCOMPARE(w.exports().saveResults(json), QString());
        QCOMPARE(w.exports().exportSummaryCsv(csv), QString());
        QCOMPARE(w.exports().exportSamplesCsv(dir.filePath("s.csv")), QString());
        for (const QString ext : {"png", "pdf", "svg"}) {
            const QString path = dir.filePath("chart." + ext);
            QCOMPARE(w.exports().exportChart(path), QString());
            QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
        }
        QImage png(dir.filePath("chart.png"));
        QCOMPARE(png.size(), QSize(2400, 1400)); // 1200 x 700 at 2x
        // Fit for an issue report: the system line in the title, the footnote saying what the
        // bars mean, and a PDF that is a standard page.
        QFile svg(dir.filePath("chart.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("interleaved rounds"));
        // The bars' coverage is the one this run's rounds give, never a promised 95%.
        const QByteArray coverage =
            QByteArray::fromStdString(intervalCoverageText(w.model()->document()));
        QVERIFY2(
            svgText.contains("bars: confidence interval of the median (coverage " + coverage + ")"),
            coverage.constData());
        QVERIFY(svgText.contains("dash-dot: memcpy's speed here")); // a warm run's limit line
        QVERIFY(svgText.contains(QByteArray::fromStdString(w.model()->document().system.kernel)));
        QFile pdf(dir.filePath("chart.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().contains("/MediaBox [0 0 842.000000 595.000000]")); // A4 landscape
        // The footnote is for exports only: the window's chart is back to title and plot (and
        // the legend's row, when the window is narrow).
        auto* layout = w.chart()->plot()->plotLayout();
        for (int i = 0; i < layout->elementCount(); ++i)
            if (auto* text = qobject_cast<QCPTextElement*>(layout->elementAt(i)))
                QVERIFY2(!text->text().contains("interleaved rounds"), qPrintable(text->text()));
        QVERIFY(QDir(dir.path()).entryList({"*.readscope-tmp", "*.tmp"}).isEmpty());

        for (const QString& path : {json, csv}) {
            MainWindow reopened;
            QCOMPARE(reopened.openResults(path), QString());
            QCOMPARE(reopened.model()->rowCount(), w.model()->rowCount());
            for (int row = 0; row < w.model()->rowCount(); ++row) {
                const Cell* a = w.model()->cellAt(row);
                const Cell* b = reopened.model()->cellAt(row);
                QCOMPARE(b->strategy, a->strategy);
                QCOMPARE(b->summary.median, a->summary.median);
                QCOMPARE(b->summary.max, a->summary.max);
            }
            QCOMPARE(reopened.chart()->graphCountForStrategies(), 2);
        }
        QVERIFY(!w.exports().exportSummaryCsv(dir.filePath("missing/x.csv")).isEmpty());
        QVERIFY(!w.exports().exportChart(dir.filePath("chart.bmpx")).isEmpty());
    }

    void compareChartModesTeachingAndReport() {
        MainWindow w;
        auto plan = testing::tinyPlan(*file_, 5);
        plan.strategies = {"pread-zerofill", "pread-uninit", "seek-read"};
        QVERIFY(testing::runToEnd(w, plan));
        QTemporaryDir dir;
        const QString baseline = dir.filePath("baseline.json");
        QCOMPARE(w.exports().saveResults(baseline), QString());

        // A baseline: dashed lines beside the current ones, and a Compare table against it,
        // shown, even when the tab was comparing with a strategy of the run.
        w.compareView()->setReference("pread-zerofill");
        QCOMPARE(w.compareView()->rowCount(), 6);
        QCOMPARE(w.loadBaseline(baseline), QString());
        QCOMPARE(w.findChild<QTabWidget*>()->currentWidget(), (QWidget*)w.compareView());
        QCOMPARE(w.chart()->baselineGraphCount(), 3);
        QCOMPARE(w.chart()->graphCountForStrategies(), 3);
        QCOMPARE(w.compareView()->rowCount(), 9);
        // Identical documents, and no drift between runs measured for this machine yet: every
        // row cannot tell, the first line says why, and Measure drift is at hand.
        const QString before = w.compareView()->markdown();
        QVERIFY2(before.startsWith("Cannot tell any row") &&
                     before.contains("cannot tell (separate runs"),
                 qPrintable(before));
        QVERIFY(!before.contains("| faster") && !before.contains("within noise"));
        auto* measure = w.compareView()->findChild<QPushButton*>("measureDrift");
        QVERIFY(measure && !measure->isHidden());
        // Clicked: three runs of the plan, the drift kept, the table judged again against it;
        // the results on screen stay this run's.
        const int rows = w.model()->rowCount();
        QSignalSpy measured(w.findChild<RunController*>(), &RunController::driftMeasured);
        QTest::mouseClick(measure, Qt::LeftButton);
        QVERIFY(w.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(measured.count(), 1, 120000);
        QVERIFY2(measured.at(0).at(1).toString().isEmpty(),
                 qPrintable(measured.at(0).at(1).toString()));
        QCOMPARE(w.model()->rowCount(), rows);
        const QString after = w.compareView()->markdown();
        QVERIFY2(after.startsWith("Drift between runs: ±") && !after.contains("| faster") &&
                     !after.contains("| slower") && !after.contains("separate runs"),
                 qPrintable(after));
        QVERIFY(measure->isHidden());
        QVERIFY(!w.loadBaseline(dir.filePath("nope.json")).isEmpty());
        w.clearBaseline();
        QCOMPARE(w.chart()->baselineGraphCount(), 0);

        // Within the run: against a reference strategy.
        w.compareView()->setReference("pread-zerofill");
        QCOMPARE(w.compareView()->rowCount(), 6);
        QVERIFY(w.compareView()->markdown().contains("pread-uninit vs pread-zerofill"));
        // Its Copy as Markdown button: the table, the method, where it ran, how to rerun it.
        QPushButton* copy = nullptr;
        for (auto* b : w.compareView()->findChildren<QPushButton*>())
            if (b->text() == "Copy as Markdown")
                copy = b;
        QVERIFY(copy);
        w.show();
        w.findChild<QTabWidget*>()->setCurrentWidget(w.compareView());
        QApplication::clipboard()->clear();
        QTest::mouseClick(copy, Qt::LeftButton);
        const QString pasted = QApplication::clipboard()->text();
        QVERIFY2(pasted.contains("pread-uninit vs pread-zerofill") &&
                     pasted.contains("Wilcoxon signed-rank") && pasted.contains("Measured on: ") &&
                     pasted.contains("Rerun: `readscope-cli"),
                 qPrintable(pasted));
        w.hide();

        // Chart modes.
        w.chart()->setMode(ChartMode::Relative, "pread-zerofill");
        QCOMPARE(w.chart()->pointValue("pread-zerofill", 65536), 1.0);
        QVERIFY(w.chart()->pointValue("pread-uninit", 65536) > 0);
        w.chart()->setMode(ChartMode::CpuPerGB);
        QCOMPARE(w.chart()->graphCountForStrategies(), 3);
        QCOMPARE(w.chart()->plot()->graphCount(), 6); // total and system per strategy
        w.chart()->setMode(ChartMode::Latency);
        QCOMPARE(w.chart()->plot()->graphCount(), 6); // p50 and p99 per strategy
        QVERIFY(w.chart()->pointValue("seek-read", 16384) > 0);
        w.chart()->setMode(ChartMode::Throughput);

        // Bars: the median's 95% interval unless asked otherwise, said on the axis; log scale
        // from the check box a person clicks.
        auto* plot = w.chart()->plot();
        QVERIFY2(plot->yAxis->label().contains(
                     "bars: CI " +
                     QString::fromStdString(intervalCoverageText(w.model()->document())) + ")"),
                 qPrintable(plot->yAxis->label()));
        auto* bars = w.findChild<QComboBox*>("chartBars");
        QVERIFY(bars && bars->isVisibleTo(w.chart()));
        bars->setCurrentIndex(bars->findData(int(BarKind::MinMax)));
        QVERIFY(plot->yAxis->label().contains("min-max"));
        auto* logY = w.findChild<QCheckBox*>("chartLogY");
        QVERIFY(logY);
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);
        w.show();
        QTest::mouseClick(logY, Qt::LeftButton, {}, QPoint(6, logY->height() / 2));
        QVERIFY(logY->isChecked());
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QTest::mouseClick(logY, Qt::LeftButton, {}, QPoint(6, logY->height() / 2));
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);
        w.hide();

        // The teaching panel: definition, measurement, and any disagreement.
        w.config()->strategyPicker()->setCurrentItem(
            w.config()->strategyPicker()->findItems("seek-read", Qt::MatchRecursive).value(0));
        const QString teach = w.findChild<QTextBrowser*>("explanation")->toPlainText();
        QVERIFY2(teach.contains("one lseek + one read per range"), qPrintable(teach));
        QVERIFY(teach.contains("Measured"));

        // The report.
        QCOMPARE(w.exports().exportReport(dir.path()), QString());
        QFile report(dir.filePath("readscope-report.md"));
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QString md = report.readAll();
        QVERIFY(md.contains("readscope-cli run"));
        QVERIFY(md.contains("![GB/s per range size](readscope-chart.png)"));
        QVERIFY(QImage(dir.filePath("readscope-chart.png")).width() > 1000);
    }

    void restoresWhatAKilledRunLeftBehind() {
        // A killed run leaves its recovery file: header plus finished cells.
        QFile::remove(recoveryFilePath());
        {
            struct Quiet : RunSink {
            } quiet;
            RecoverySink sink(quiet, recoveryFilePath().toStdString());
            ResultDocument header;
            header.plan = testing::tinyPlan(*file_);
            sink.onStarted(header);
            for (std::uint64_t size : {16 << 10, 64 << 10}) {
                Cell c;
                c.strategy = "pread-uninit";
                c.rangeBytes = size;
                c.summary.median = 3.5;
                sink.onCellFinished(c);
            }
        } // no discard(): as after kill -9
        MainWindow w;
        QVERIFY(recoveryFileExists());
        QCOMPARE(w.restoreRecovery(), QString());
        QCOMPARE(w.model()->rowCount(), 2);
        QCOMPARE(w.chart()->pointCount("pread-uninit"), 2);
        QVERIFY(!recoveryFileExists());
    }

    void runsLeaveNoRecoveryFileBehind() {
        MainWindow w;
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QVERIFY(!recoveryFileExists());
    }

    // The teaching panel follows the run: a strategy this run did not measure says so, instead
    // of showing the previous run's figures.
    void teachingPanelFollowsTheRun() {
        MainWindow w;
        auto plan = testing::tinyPlan(*file_);
        plan.strategies = {"pread-uninit", "mmap-touch"};
        QVERIFY(testing::runToEnd(w, plan));
        auto* picker = w.config()->strategyPicker();
        picker->setCurrentItem(picker->findItems("mmap-touch", Qt::MatchRecursive).value(0));
        auto* panel = w.findChild<QTextBrowser*>("explanation");
        QVERIFY(panel->toPlainText().contains("Measured"));
        plan.strategies = {"pread-uninit"};
        QVERIFY(testing::runToEnd(w, plan));
        const QString text = panel->toPlainText();
        QVERIFY2(!text.contains("Measured") && text.contains("This run did not measure mmap-touch"),
                 qPrintable(text));
    }

    // A strategy's tooltip is its whole description, not the short name the column shows.
    void strategyTooltipsSayTheWholeDescription() {
        MainWindow w;
        auto* picker = w.config()->strategyPicker();
        for (const auto& s : strategies()) {
            auto* item = picker
                             ->findItems(QString::fromLatin1(s.id.data(), qsizetype(s.id.size())),
                                         Qt::MatchRecursive)
                             .value(0);
            QVERIFY(item);
            const QString summary =
                QString::fromUtf8(s.summary.data(), qsizetype(s.summary.size())).toHtmlEscaped();
            QVERIFY2(item->toolTip(0).contains(summary) && item->toolTip(1).contains(summary),
                     qPrintable(item->toolTip(0)));
        }
    }

    // The wheel over a box the person has not picked scrolls the panel and changes nothing
    // (at 1366x768 the Queue depth box passed under the pointer and went to "1,4,16,64");
    // once the box has the focus, the wheel is the box's.
    void theWheelChangesNoSettingItWasNotGiven() {
        MainWindow w;
        w.resize(1366, 500);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* depth = w.findChild<QComboBox*>("queueDepth");
        auto* scroll = w.findChild<QScrollArea*>("configScroll");
        QVERIFY(depth && scroll);
        const QString before = depth->currentText();
        const int scrolledBefore = scroll->verticalScrollBar()->value();
        const QPoint at = depth->rect().center();
        for (int i = 0; i < 3; ++i) {
            QWheelEvent wheel(at, depth->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(depth, &wheel);
        }
        QCOMPARE(depth->currentText(), before);
        if (scroll->verticalScrollBar()->maximum() > 0) // the panel scrolled instead
            QVERIFY(scroll->verticalScrollBar()->value() > scrolledBefore);
        depth->setFocus();
        QVERIFY(depth->hasFocus() || !QApplication::focusWidget()); // offscreen may lack focus
        if (depth->hasFocus()) {
            QWheelEvent wheel(at, depth->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(depth, &wheel);
            QVERIFY(depth->currentText() != before);
        }
    }

    // After the "Generating test file" dialog the keyboard works at once: the window is
    // active and Run has the focus (Ctrl+R, F1 and Tab did nothing until a click).
    void theKeyboardWorksAfterGenerating() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir dir;
        QString why;
        QVERIFY(generateWithProgress(&w, dir.filePath("g.bin"), 1 << 20, &why));
        auto* run = w.findChild<QPushButton*>("runButton");
        QVERIFY(run);
        QTRY_VERIFY(run->hasFocus());
        QCOMPARE(QApplication::activeWindow(), &w);
        // The result tabs from anywhere: Ctrl+Tab from the Run button, Ctrl+PgDn from a field
        // of the panel, Ctrl+PgUp back.
        auto* tabs = w.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->currentIndex(), 0);
        QTest::keyClick(run, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 1);
        auto* sizes = w.config()->findChild<QLineEdit*>("sizes");
        QVERIFY(sizes);
        sizes->setFocus();
        QTest::keyClick(sizes, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 2);
        QTest::keyClick(sizes, Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 1);
        QTest::keyClick(sizes, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentIndex(), 0);
    }

    // Typing 0 rounds is refused with the reason, not reverted without a word; one round is
    // run, and shown as too few rounds to tell, never as a certain "ok".
    void zeroRoundsAreRefusedAndOneIsNotCertain() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.config()->setPlan(testing::tinyPlan(*file_));
        auto* rounds = w.findChild<QSpinBox*>("rounds");
        QVERIFY(rounds);
        rounds->setFocus();
        rounds->selectAll();
        QTest::keyClicks(rounds, "0");
        QTest::keyClick(rounds, Qt::Key_Return);
        QCOMPARE(rounds->value(), 0);
        QVERIFY(!w.startRun());
        QVERIFY2(w.bannerText().contains("rounds 0 is out of range: use 1 to"),
                 qPrintable(w.bannerText()));
        // Fixed, the red banner goes by itself.
        QTest::keyClick(rounds, Qt::Key_Up);
        QCOMPARE(rounds->value(), 1);
        QCOMPARE(w.bannerText(), QString());
        auto plan = testing::tinyPlan(*file_);
        plan.rounds = 1;
        QVERIFY(testing::runToEnd(w, plan));
        for (const auto& c : w.model()->document().cells)
            if (c.measured())
                QCOMPARE(statusText(c), std::string("too few rounds to tell"));
        QVERIFY2(w.chart()->plot()->yAxis->label().contains("CI none, 1 round"),
                 qPrintable(w.chart()->plot()->yAxis->label()));
    }

    // Every comparison a lesson's verdicts make can be called with the lesson's own rounds:
    // its Compare tab (every strategy against its reference at every point), its finding's
    // own comparisons (the sizes it names, its tie sizes), and an offset sweep's trap (every
    // offset against page-aligned). A lesson whose test could never reach p < 0.05 after Holm
    // would only ever say "cannot tell", however large the difference (the 16-byte trap's 9
    // rounds over 14 comparisons did: 0.055 at best).
    void everyLessonsVerdictIsReachable() {
        int judged = 0;
        auto reach = [](const Lesson& lesson, const char* what, const PlannedVerdicts& p) {
            return p.reachable()
                       ? QString()
                       : QString("%1, %2: %3 rounds cannot call any of %4 comparisons (p %5 at "
                                 "best); %6 can")
                             .arg(lesson.title, what)
                             .arg(p.rounds)
                             .arg(p.tests)
                             .arg(p.bestP)
                             .arg(p.roundsToCall);
        };
        for (const auto& lesson : loadLessons()) {
            if (lesson.fill) { // judged across the fill: a duration run under a memory limit
                const auto& ids = lesson.plan.strategies;
                QVERIFY2(lesson.plan.durationSeconds > 0 && lesson.plan.memoryLimit > 0 &&
                             std::find(ids.begin(), ids.end(), lesson.fill->falls) != ids.end(),
                         qPrintable(lesson.title));
                // Its strategies' rounds before and after the fill, one family, unpaired: the
                // rounds it asks of each side must be able to call one.
                const auto fill = plannedVerdicts(ids.size(), kRoundsEachSideOfFill, false);
                QVERIFY2(fill.reachable(), qPrintable(reach(lesson, "the fill", fill)));
                ++judged;
                continue;
            }
            if (!lesson.reference.isEmpty()) {
                const auto compare =
                    referenceVerdicts(lesson.plan, lesson.reference.toStdString(), 1ull << 30);
                QVERIFY2(compare, qPrintable(lesson.title + ": its reference is not measured"));
                QVERIFY2(compare->reachable(),
                         qPrintable(reach(lesson, "the Compare tab", *compare)));
            }
            if (const auto trap = offsetTrapVerdicts(lesson.plan))
                QVERIFY2(trap->reachable(), qPrintable(reach(lesson, "the offset trap", *trap)));
            if (!lesson.finding)
                continue;
            const auto& f = *lesson.finding;
            const auto& sizes =
                lesson.plan.pattern == Pattern::Whole ? lesson.plan.fileSizes : lesson.plan.sizes;
            const std::size_t comparisons =
                (f.sizes.empty() ? sizes.size() : f.sizes.size()) + f.ties.size();
            const auto finding = plannedVerdicts(comparisons, lesson.plan.rounds, true);
            QVERIFY2(finding.reachable(), qPrintable(reach(lesson, "its finding", finding)));
            for (auto size : f.sizes)
                QVERIFY2(std::find(sizes.begin(), sizes.end(), size) != sizes.end(),
                         qPrintable(lesson.title)); // a size the lesson does not measure
            for (auto size : f.ties)
                QVERIFY2(std::find(sizes.begin(), sizes.end(), size) != sizes.end(),
                         qPrintable(lesson.title));
            ++judged;
        }
        QVERIFY(judged >= 7);
    }

    void lessonsSetUpSweeps() {
        MainWindow w;
        QVERIFY(testing::openAndWait(w, file_->path()));
        w.applyLesson(lessonIndex("The extra lseek at small ranges"));
        auto plan = w.config()->plan();
        QVERIFY(plan.ok());
        QCOMPARE(plan->strategies, (std::vector<std::string>{"pread-uninit", "seek-read"}));
        QCOMPARE(testing::name(plan->pattern), testing::name(Pattern::Random));
        QCOMPARE(plan->file, file_->path());
        QVERIFY(w.lessonText().contains("22-32%"));
        // Reproducing a published table that did not consume the bytes: minimal, said so.
        QCOMPARE(testing::name(plan->consume), testing::name(Consume::Minimal));
        QVERIFY(w.lessonText().contains("minimally"));
        w.applyLesson(lessonIndex("Growing versus preallocating a whole-file read"));
        QCOMPARE(testing::name(w.config()->plan()->pattern), testing::name(Pattern::Whole));
        // A lesson that says nothing about it consumes every byte, as a new run does; a person
        // can pick minimal from the Consume box.
        w.applyLesson(lessonIndex("mmap with and without advice on a cold cache"));
        QCOMPARE(testing::name(w.config()->plan()->consume), testing::name(Consume::All));
        QCOMPARE(w.chart()->mode(), ChartMode::Throughput); // a lesson without a chart of its own
        auto* consume = w.findChild<QComboBox*>("consume");
        QVERIFY(consume);
        consume->setCurrentIndex(consume->findData(int(Consume::Minimal)));
        QCOMPARE(testing::name(w.config()->plan()->consume), testing::name(Consume::Minimal));
        // Larger than memory: a duration run under a memory limit, its fields set and Rounds
        // greyed out (its rounds are its time); turning the duration off gives Rounds back.
        w.applyLesson(lessonIndex("Larger than memory: mmap against pread"));
        QCOMPARE(w.chart()->mode(), ChartMode::OverTime); // its rounds over time, as it says
        auto limited = w.config()->plan();
        QVERIFY(limited.ok());
        QCOMPARE(limited->durationSeconds, 30.0);
        QCOMPARE(limited->memoryLimit, std::uint64_t(256) << 20);
        auto* rounds = w.findChild<QSpinBox*>("rounds");
        auto* duration = w.findChild<QSpinBox*>("duration");
        QVERIFY(rounds && duration && !rounds->isEnabled());
        duration->setFocus();
        duration->selectAll();
        QTest::keyClicks(duration, "0");
        QTest::keyClick(duration, Qt::Key_Tab);
        QCOMPARE(w.config()->plan()->durationSeconds, 0.0);
        QVERIFY(rounds->isEnabled());
    }

    void stopButtonEndsTheRunPromptly() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        auto plan = testing::tinyPlan(*file_, 5000); // minutes of rounds: never ends by itself
        plan.sizes = {1 << 20, 16 << 10};
        w.config()->setPlan(plan);
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun());
        QVERIFY(testing::waitForMeasuredRound(w));
        // Mid-run, before any size has finished: the chart says what is being measured.
        auto* title = qobject_cast<QCPTextElement*>(w.chart()->plot()->plotLayout()->element(0, 0));
        QVERIFY(title);
        QVERIFY2(!title->text().contains("press Run"), qPrintable(title->text()));
        QVERIFY(title->text().contains("warm cache"));
        QCOMPARE(w.windowTitle(), QString("readscope"));
        auto* stopButton = w.findChild<QPushButton*>("stopButton");
        QVERIFY(stopButton && stopButton->isEnabled());
        QElapsedTimer sinceStop;
        sinceStop.start();
        QTest::mouseClick(stopButton, Qt::LeftButton);
        QVERIFY(finished.wait(10000));
        qInfo("Stop returned control %lld ms after it was pressed", sinceStop.elapsed());
        // Time is what is tested: the worker checks the stop before every range read, so a
        // stop lands in milliseconds; 2 s is beyond any loaded machine's scheduling delay.
        QVERIFY(sinceStop.elapsed() < 2000);
        QVERIFY(!w.isRunning());
        QVERIFY(!w.model()->document().complete);
    }

    void startAndStopAHundredTimes() {
        // Through the app's own worker: no crash, no hung thread, every run reports back.
        RunController controller;
        auto plan = testing::tinyPlan(*file_, 1000);
        int finishedRuns = 0;
        connect(&controller, &RunController::finished, this, [&] { ++finishedRuns; });
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 100; ++i) {
            controller.start(plan);
            QVERIFY(controller.isRunning());
            // Not synchronisation: a 1 ms pause on two of three cycles varies where the stop
            // lands (before the worker starts, while it warms, mid-round). Every outcome
            // must pass, so the machine's speed cannot change the verdict.
            if (i % 3)
                QTest::qWait(1);
            controller.stop();
            QTRY_VERIFY_WITH_TIMEOUT(!controller.isRunning(), 10000);
        }
        QCOMPARE(finishedRuns, 100);
        qInfo("100 start/stop cycles took %lld ms", t.elapsed());
    }

    void closingMidRunStopsCleanly() {
        auto* w = new MainWindow;
        QVERIFY(windowMidRun(*w, *file_));
        // Closing asks first; a person's click on its buttons decides.
        auto answer = [](const char* button) {
            QTimer::singleShot(100, [button] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (box && box->objectName() == "confirmClose")
                    QTest::mouseClick(box->findChild<QPushButton*>(button), Qt::LeftButton);
            });
        };
        answer("keepRunning");
        QVERIFY(!w->close());
        QVERIFY(w->isRunning());
        QElapsedTimer t;
        t.start();
        answer("stopAndClose");
        QVERIFY(w->close());
        QVERIFY(!w->isRunning());
        qInfo("closing mid-run took %lld ms", t.elapsed());
        delete w; // joins the run thread; must not hang or crash
        // As the dialog promised: the rounds recorded are in the recovery file, and the next
        // start offers them (the real close event, the dialog's own button).
        MainWindow next;
        QVERIFY(recoveryFileExists());
        QCOMPARE(next.restoreRecovery(), QString());
        QVERIFY(next.model()->rowCount() > 0);
        QVERIFY(!recoveryFileExists());
    }

    // The close question goes away by itself when the run ends while it is up, and the window
    // closes as it was asked to.
    void theCloseQuestionClearsWhenTheRunEnds() {
        auto* w = new MainWindow;
        QVERIFY(windowMidRun(*w, *file_));
        bool asked = false;
        QTimer::singleShot(100, [w, &asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            asked = box && box->objectName() == "confirmClose";
            w->stopRun(); // the run ends while the question is up (as a last round would)
        });
        QVERIFY(w->close()); // the run ended under the question: closed, no click needed
        QVERIFY(asked);
        QVERIFY(!w->isRunning());
        delete w;
    }

    void exportDialogsSuggestANameInTheLastFolder() {
        // File > Export CSV summary, as a person picks it: the dialog opens in the folder used
        // last, on a name that says what the file holds.
        QTemporaryDir last;
        {
            QSettings s;
            rememberFolder(s, "results", last.path());
        }
        MainWindow w;
        w.show();
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QAction* exportCsv = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == "Export &CSV summary…")
                exportCsv = a;
        QVERIFY(exportCsv && exportCsv->isEnabled());
        QString folder, name;
        QTimer::singleShot(200, [&] {
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                folder = dialog->directory().absolutePath();
                const auto files = dialog->selectedFiles();
                name = files.isEmpty() ? QString() : QFileInfo(files.front()).fileName();
                dialog->reject();
            }
        });
        exportCsv->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!folder.isEmpty(), 5000);
        QCOMPARE(folder, QDir(last.path()).absolutePath());
        const QString date =
            QString::fromStdString(w.model()->document().system.date.substr(0, 10));
        QCOMPARE(name, QString("readscope-%1-sequential-warm.csv").arg(date));
        QSettings().remove("folders");
    }

    void helpPagesOpenFromTheHelpMenu() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // F1, as a person presses it: the measuring page, its Markdown rendered.
        QTest::keyClick(&w, Qt::Key_F1);
        QDialog* measuring = nullptr;
        QTRY_VERIFY((measuring = w.findChild<QDialog*>("measuringHelp")) != nullptr);
        auto* text = measuring->findChild<QTextBrowser*>("measuringText");
        QVERIFY(text);
        QVERIFY(text->toPlainText().startsWith("How readscope measures")); // the # heading
        QVERIFY(!text->toPlainText().contains("## ")); // rendered, not shown as source
        QVERIFY(text->toHtml().contains("<h2"));
        // Written for a person using the tool; the building history lives in docs/.
        QVERIFY(text->toPlainText().contains("How to read a figure"));
        QVERIFY(!text->toPlainText().contains("development VM"));
        measuring->close();
        // Help > Keyboard shortcuts, clicked in the open menu.
        QMenu* help = nullptr;
        for (QMenu* m : w.menuBar()->findChildren<QMenu*>())
            if (m->title() == "&Help")
                help = m;
        QVERIFY(help);
        auto* item = w.findChild<QAction*>("shortcutsHelpAction");
        QVERIFY(item);
        help->popup(w.mapToGlobal(QPoint(10, 10)));
        QTRY_VERIFY(help->isVisible());
        QTest::mouseClick(help, Qt::LeftButton, {}, help->actionGeometry(item).center());
        QDialog* keys = nullptr;
        QTRY_VERIFY((keys = w.findChild<QDialog*>("shortcutsHelp")) != nullptr);
        auto* table = keys->findChild<QTableWidget*>("shortcutsTable");
        QVERIFY(table && table->rowCount() > 5);
        bool runListed = false;
        for (int r = 0; r < table->rowCount(); ++r)
            runListed |= table->item(r, 0)->text() == "Run" &&
                         table->item(r, 1)->text() ==
                             QKeySequence("Ctrl+R").toString(QKeySequence::NativeText);
        QVERIFY(runListed);
    }

    void compareShowsItsVerdictOnA1366Window() {
        MainWindow w;
        w.resize(1366, 740);
        w.show();
        auto* splitter = w.findChild<QSplitter*>("mainSplitter");
        QVERIFY(splitter);
        splitter->setSizes({390, 1366 - 390 - 280, 280}); // both side panels open
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QTemporaryDir dir;
        const QString saved = dir.filePath("base.json");
        QVERIFY(w.exports().saveResults(saved).isEmpty());
        QVERIFY(w.loadBaseline(saved).isEmpty()); // switches to Compare
        auto* table = w.findChild<QTableView*>("compareTable");
        QVERIFY(table && table->isVisible() && table->model()->rowCount() > 0);
        QCOMPARE(table->model()->headerData(3, Qt::Horizontal).toString(), QString("Verdict"));
        const QRect verdict = table->visualRect(table->model()->index(0, 3));
        QVERIFY2(table->viewport()->rect().contains(verdict),
                 qPrintable(QString("verdict at x %1..%2, viewport %3 wide")
                                .arg(verdict.left())
                                .arg(verdict.right())
                                .arg(table->viewport()->width())));
        // Scrolled away, then a new comparison: it starts at the first column again.
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        QVERIFY(w.loadBaseline(saved).isEmpty());
        QCOMPARE(table->horizontalScrollBar()->value(), 0);
    }

    void lessonsStayInViewAndJudgeTheirRun() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        QAction* lessonAction = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == "Zero-filled versus uninitialised buffers")
                lessonAction = a;
        QVERIFY(lessonAction);
        lessonAction->trigger(); // Lessons > Zero-filled versus uninitialised buffers
        QVERIFY2(w.lessonText().contains("Lesson: Zero-filled"), qPrintable(w.lessonText()));
        // A shorter run of the same comparison, so the test takes seconds.
        auto plan = w.config()->plan();
        QVERIFY(plan.ok());
        plan->sizes = {64 << 10};
        plan->rounds = 8;
        plan->roundTimeSeconds = 0.01;
        QVERIFY(testing::runToEnd(w, *plan));
        // Still in view after the run, with what this machine says about the finding.
        auto* panel = w.findChild<QTextBrowser*>("lessonPanel");
        QVERIFY(panel && panel->isVisible());
        const QString text = w.lessonText();
        qInfo("%s", qPrintable(text.section("This machine:", 1)));
        QVERIFY2(text.contains("This machine: pread-uninit against pread-zerofill at 64 KiB here"),
                 qPrintable(text));
        QVERIFY2(text.contains("published: +8% … +19%"), qPrintable(text));
        QVERIFY2(text.contains("agrees") || text.contains("does not agree") ||
                     text.contains("This run cannot tell"),
                 qPrintable(text));
    }

    void badFilesGiveMessages_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("directory") << QDir::tempPath() << "is a directory";
        QTest::newRow("missing") << QDir::tempPath() + "/readscope-no-such-file"
                                 << "does not exist: check the path, or generate a test file "
                                    "with the Generate… button";
        QTest::newRow("device") << "/dev/zero"
                                << "character device";
    }
    void badFilesGiveMessages() {
        QFETCH(QString, path);
        QFETCH(QString, mentions);
        MainWindow w;
        QVERIFY(!testing::openAndWait(w, path));
        QVERIFY2(w.bannerText().contains(mentions), qPrintable(w.bannerText()));
        QVERIFY(!w.startRun());
        QVERIFY(!w.isRunning());
    }

    void unreadableFileGivesMessage() {
        READSCOPE_AS_NOBODY("unreadableFileGivesMessage"); // root can read any file
        QTemporaryDir dir;
        const QString path = dir.filePath("secret.bin");
        QVERIFY(QFile::copy(QString::fromStdString(file_->path()), path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
        MainWindow w;
        QVERIFY(!testing::openAndWait(w, path));
        QVERIFY(w.bannerText().contains("cannot open"));
    }

    void filesAreLookedAtOffTheGuiThread() {
        // inspectFile (statx, a trial O_DIRECT read, io_uring, residency) can take seconds on a
        // network file: the window hands it to the thread pool and answers when it is done.
        MainWindow w;
        w.openTargetFile(QString::fromStdString(file_->path()));
        QVERIFY(w.isInspectingFile()); // returned before the answer: nothing ran inline
        auto* info = w.findChild<QLabel*>("fileInfo");
        QVERIFY(info);
        QCOMPARE(info->text(), QString("Looking at the file…"));
        QVERIFY(!w.startRun()); // not yet: says so
        QVERIFY2(w.bannerText().contains("Still looking"), qPrintable(w.bannerText()));
        QSignalSpy inspected(&w, &MainWindow::fileInspected);
        QVERIFY(inspected.wait(30000));
        QVERIFY(inspected.at(0).at(0).toBool());
        QVERIFY(!w.isInspectingFile());
        QVERIFY2(info->text().contains("MiB"), qPrintable(info->text()));
        // A path typed into the field without Return was never looked at: Run looks at it
        // first instead of checking the plan against the previous file's status.
        auto* field = w.findChild<QLineEdit*>("filePath");
        QVERIFY(field);
        field->setText("/nonexistent/typed.bin"); // no editingFinished
        QVERIFY(!w.startRun());
        QVERIFY2(w.bannerText().contains("Still looking"), qPrintable(w.bannerText()));
        QTRY_VERIFY(!w.isInspectingFile());
        QVERIFY(!w.startRun());
        QVERIFY2(w.bannerText().contains("does not exist"), qPrintable(w.bannerText()));
    }

    void onlyTheLatestLookAtAFileIsAnswered() {
        // The inspector's own job filter, without the window's check of the field's text: of
        // two looks in a row, only the second is answered, even at the same path.
        FileInspector inspector;
        QSignalSpy answers(&inspector, &FileInspector::inspected);
        QSignalSpy ended(&inspector, &FileInspector::lookEnded);
        const QString path = QString::fromStdString(file_->path());
        inspector.inspect(path);
        inspector.inspect(path);
        QVERIFY(inspector.busy());
        QTRY_COMPARE(ended.count(), 2); // both looks are over, whichever finished first
        QVERIFY(!inspector.busy());
        QCOMPARE(answers.count(), 1);
        QCOMPARE(answers.at(0).at(0).toString(), path);
        int answered = 0;
        for (const auto& look : ended)
            answered += look.at(1).toBool() ? 1 : 0;
        QCOMPARE(answered, 1);
    }

    // The whole pattern's sizes are file sizes, typed into the same field, whose title says
    // so; each kind of size keeps its own text; a run reads copies and leaves none behind.
    void wholePatternTakesFileSizes() {
        MainWindow w;
        w.show();
        QVERIFY(testing::openAndWait(w, file_->path()));
        auto* pattern = w.findChild<QComboBox*>("pattern");
        auto* sizes = w.findChild<QLineEdit*>("sizes");
        auto* box = w.findChild<QGroupBox*>("sizeBox");
        auto* error = w.findChild<QLabel*>("sizeError");
        QVERIFY(pattern && sizes && box && error);
        w.config()->setPlan(testing::tinyPlan(*file_));
        const QString rangeSizes = sizes->text();
        pattern->setCurrentIndex(pattern->findData(int(Pattern::Whole)));
        QCOMPARE(box->title(), QString("File sizes"));
        QCOMPARE(sizes->text(), QString()); // the file itself, as before
        auto chosen = w.config()->plan();
        QVERIFY2(chosen.ok(), chosen.ok() ? "" : chosen.error().message.c_str());
        QVERIFY(chosen->fileSizes.empty());
        sizes->setFocus();
        QTest::keyClicks(sizes, "128,8K,16M");
        QVERIFY2(error->isVisibleTo(&w) && error->text().contains("16 MiB is larger than the "
                                                                  "file (8 MiB): skipped"),
                 qPrintable(error->text()));
        QCOMPARE(w.config()->plan()->fileSizes,
                 (std::vector<std::uint64_t>{128, 8 << 10, 16 << 20}));
        pattern->setCurrentIndex(pattern->findData(int(Pattern::Sequential)));
        QCOMPARE(box->title(), QString("Range sizes"));
        QCOMPARE(sizes->text(), rangeSizes);
        pattern->setCurrentIndex(pattern->findData(int(Pattern::Whole)));
        QCOMPARE(sizes->text(), QString("128,8K,16M"));

        auto plan = *w.config()->plan();
        plan.fileSizes = {128, 8 << 10};
        plan.strategies = {"read-grow", "read-prealloc"};
        QVERIFY(testing::runToEnd(w, plan));
        QCOMPARE(w.model()->rowCount(), 4);
        QCOMPARE(w.chart()->pointCount("read-prealloc"), 2);
        // The chart names its axis: file sizes, not range sizes.
        QCOMPARE(w.findChild<QComboBox*>("chartMode")->itemText(0), QString("GB/s per file size"));
        QCOMPARE(w.chart()->plot()->xAxis->label(), QString("file size (log scale)"));
        QCOMPARE(QDir(file_->dir()).entryList({".readscope-copies-*"}, QDir::Dirs | QDir::Hidden),
                 QStringList{});
        // The lesson reproduces the published sweep of eight file sizes.
        w.applyLesson(lessonIndex("Growing versus preallocating a whole-file read"));
        QCOMPARE(w.config()->plan()->fileSizes,
                 (std::vector<std::uint64_t>{128, 1 << 10, 8 << 10, 64 << 10, 512 << 10, 2 << 20,
                                             8 << 20, 32 << 20}));
        QCOMPARE(box->title(), QString("File sizes"));
    }

    // What the machine allows and what each range costs, as a person finds them: the memcpy
    // limit in the GB/s chart of a warm run (named, dash-dot, no points), the table's IOPS and
    // share of that limit, and the time-per-range mode with each strategy's fitted cost model
    // drawn dashed through its points on log axes.
    void limitsAndTheCostModelAreShown() {
        MainWindow w;
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        auto* plot = w.chart()->plot();
        QCPGraph* limit = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name().startsWith("memcpy"))
                limit = plot->graph(i);
        QVERIFY(limit);
        QCOMPARE(limit->dataCount(), 3);
        QCOMPARE(limit->pen().style(), Qt::DashDotLine);
        const auto* model = w.model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const double iops =
                model->index(row, ResultsModel::Iops).data(ResultsModel::SortRole).toDouble();
            const double pct =
                model->index(row, ResultsModel::OfLimit).data(ResultsModel::SortRole).toDouble();
            QVERIFY(iops > 0);
            QVERIFY(pct > 0);
        }
        // The fits themselves are tested in tst_cost_model; here the chart must draw one per
        // strategy, so the rounds are given exact costs (2 us + n / 5 GB/s): a two-round run
        // on a loaded machine may measure anything.
        ResultDocument exact = w.model()->document();
        for (auto& c : exact.cells) {
            const double perRange = 2e-6 + double(c.rangeBytes) / 5e9;
            for (auto& sample : c.samples)
                sample.seconds = perRange * double(sample.bytes) / double(c.rangeBytes);
            c.summarize();
        }
        w.model()->setDocument(exact);
        auto* mode = w.findChild<QComboBox*>("chartMode");
        mode->setCurrentIndex(mode->findData(int(ChartMode::TimePerRange)));
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
        int fitted = 0;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->pen().style() == Qt::DashLine &&
                plot->graph(i)->scatterStyle().shape() == QCPScatterStyle::ssNone) {
                ++fitted;
                QVERIFY(plot->graph(i)->dataCount() > 3); // a curve across the sizes
            }
        QCOMPARE(fitted, 2); // one per strategy, each measured at three sizes
        QCOMPARE(w.chart()->pointCount("pread-uninit"), 3);
        mode->setCurrentIndex(mode->findData(int(ChartMode::Iops)));
        QCOMPARE(w.chart()->pointCount("mmap-touch"), 3);
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(!w.findChild<QCheckBox*>("chartLogY")->isEnabled()); // always log here
        mode->setCurrentIndex(mode->findData(int(ChartMode::Throughput)));
        QVERIFY(w.findChild<QCheckBox*>("chartLogY")->isEnabled());
    }

    // A narrow chart keeps its plot wide: the legend moves under it and the title wraps
    // between its parts; a wide one has the legend beside the plot, as exports do.
    void narrowChartsPutTheLegendBelow() {
        MainWindow w;
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        ChartView chart(w.model());
        auto* plot = chart.plot();
        auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
        QVERIFY(title);
        chart.resize(450, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        auto legendBelow = [&] {
            return plot->legend->outerRect().top() > plot->axisRect()->outerRect().bottom();
        };
        QVERIFY(legendBelow());
        QVERIFY2(title->text().count('\n') >= 2, qPrintable(title->text()));
        const QImage image = chart.imageForSharing();
        QVERIFY(!image.isNull());
        QTRY_VERIFY(legendBelow()); // back after the image (at the next replot)
        chart.resize(1300, 600);
        QTRY_VERIFY(!legendBelow());
        QVERIFY(plot->legend->outerRect().left() > plot->axisRect()->outerRect().right());
        QCOMPARE(title->text().count('\n'), 1); // what, then where
    }

    // The plot keeps the chart's width with its legend below: a legend caps the width of the
    // layout column it sits in, which once squeezed an empty chart to a 120 px strip.
    void aNarrowChartKeepsItsWidthForThePlot() {
        MainWindow w;
        w.resize(900, 740);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* plot = w.chart()->plot();
        QTRY_VERIFY(plot->width() < 760 && plot->width() > 200);
        plot->replot();
        QVERIFY2(plot->axisRect()->outerRect().width() >= plot->width() - 2,
                 qPrintable(QString("plot %1 px, axis rect %2 px")
                                .arg(plot->width())
                                .arg(plot->axisRect()->outerRect().width())));
        QVERIFY(plot->legend->outerRect().top() > plot->axisRect()->outerRect().bottom());
    }

    // What a crashed whole-file sweep left goes with its recovery file.
    void discardingARecoveryRemovesItsCopies() {
        QFile::remove(recoveryFilePath());
        const QString folder = file_->dir() + "/.readscope-copies-feedf00d";
        QVERIFY(QDir().mkdir(folder));
        QFile copy(folder + "/8192.bin");
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.close();
        {
            struct Quiet : RunSink {
            } quiet;
            RecoverySink sink(quiet, recoveryFilePath().toStdString());
            ResultDocument header;
            header.plan = testing::tinyPlan(*file_);
            header.plan.pattern = Pattern::Whole;
            header.plan.fileSizes = {8 << 10};
            header.copiesFolder = folder.toStdString();
            sink.onStarted(header);
        } // no discard(): as after kill -9
        MainWindow w;
        QVERIFY(recoveryFileExists());
        removeRecoveryFile();
        QVERIFY(!recoveryFileExists());
        QVERIFY(!QFile::exists(folder));
    }

    void badSizesAreRefusedWithAMessage() {
        MainWindow w;
        QVERIFY(testing::openAndWait(w, file_->path()));
        auto plan = testing::tinyPlan(*file_);
        plan.sizes = {64 << 20}; // larger than the 8 MiB file
        w.config()->setPlan(plan);
        QVERIFY(!w.startRun());
        QVERIFY2(w.bannerText().contains("larger than the file"), qPrintable(w.bannerText()));
    }

    void settingsPersist() {
        auto plan = testing::tinyPlan(*file_, 7);
        plan.cache = CacheMode::Cold;
        plan.pattern = Pattern::Random;
        plan.threads = 2;
        plan.memoryLimit = 256ull << 20;
        plan.durationSeconds = 45;
        {
            MainWindow w;
            QVERIFY(testing::openAndWait(w, file_->path()));
            w.config()->setPlan(plan);
            w.close(); // settings are saved on close
        }
        MainWindow again;
        again.restoreSettings();
        auto restored = again.config()->plan();
        QVERIFY(restored.ok());
        QCOMPARE(restored->file, plan.file);
        QCOMPARE(restored->sizes, plan.sizes);
        QCOMPARE(restored->strategies, plan.strategies);
        QCOMPARE(restored->rounds, 7);
        QCOMPARE(restored->threads, 2);
        QCOMPARE(testing::name(restored->cache), testing::name(CacheMode::Cold));
        QCOMPARE(testing::name(restored->pattern), testing::name(Pattern::Random));
        QCOMPARE(restored->memoryLimit, std::uint64_t(256) << 20);
        QCOMPARE(restored->durationSeconds, 45.0);
    }

    void settingsThatNameNothingFallBackToDefaults() {
        // Older versions saved enums as integers; a hand-edited file can say anything. What
        // is read back is validated, not cast into an enum value nobody defined.
        {
            QSettings s;
            s.setValue("file", QString::fromStdString(file_->path()));
            s.setValue("pattern", 7);
            s.setValue("cache", "lukewarm");
            s.setValue("consume", "all");
            s.setValue("rounds", 0);
            s.setValue("threads", 100000);
            s.setValue("sizes", QStringList{"65536", "many"});
        }
        MainWindow w;
        w.restoreSettings();
        auto plan = w.config()->plan();
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
        const Plan defaults;
        QCOMPARE(testing::name(plan->pattern), testing::name(defaults.pattern));
        QCOMPARE(testing::name(plan->cache), testing::name(defaults.cache));
        QCOMPARE(testing::name(plan->consume), testing::name(Consume::All));
        QCOMPARE(plan->rounds, defaults.rounds);
        QCOMPARE(plan->threads, defaults.threads);
        QCOMPARE(plan->sizes, std::vector<std::uint64_t>{65536});
        QSettings().clear();
    }

    void firstStartFitsTheScreen() {
        // On a small screen the window opens inside the available area, and the chart keeps
        // the largest share (the offscreen platform's screen is 800 x 600).
        QSettings().clear();
        MainWindow w;
        w.restoreSettings(); // nothing saved: the first-start fit
        w.show();
        const QRect avail = w.screen()->availableGeometry();
        QVERIFY2(avail.contains(w.geometry()), qPrintable(QString("%1x%2 on %3x%4")
                                                              .arg(w.width())
                                                              .arg(w.height())
                                                              .arg(avail.width())
                                                              .arg(avail.height())));
        auto* splitter = w.findChild<QSplitter*>("mainSplitter");
        QVERIFY(splitter);
        const auto sizes = splitter->sizes();
        QVERIFY2(sizes[1] >= sizes[0] && sizes[1] >= sizes[2], "the chart's share is the largest");
    }

    void panelsFoldAwayForTheChart() {
        MainWindow w;
        w.resize(1300, 800);
        w.show();
        auto* splitter = w.findChild<QSplitter*>("mainSplitter");
        auto* teaching = w.findChild<QAction*>("toggleTeachingPanel");
        auto* config = w.findChild<QAction*>("toggleConfigPanel");
        QVERIFY(splitter && teaching && config);
        splitter->setSizes({390, 600, 280});
        const int chartBefore = splitter->sizes()[1];
        teaching->trigger(); // View > Teaching panel, unchecked
        QTRY_COMPARE(splitter->sizes()[2], 0);
        QVERIFY(splitter->sizes()[1] > chartBefore);
        config->trigger(); // View > Configuration panel, unchecked
        QTRY_COMPARE(splitter->sizes()[0], 0);
        teaching->trigger(); // shown again
        QTRY_VERIFY(splitter->sizes()[2] > 0);
    }

    void chartFollowsDarkPalette() {
        MainWindow w;
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::Window, QColor(45, 45, 45));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        w.chart()->resize(600, 400);
        w.chart()->setPalette(dark);
        w.chart()->plot()->replot();
        const QImage image = w.chart()->grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY2(qGray(image.pixel(image.width() / 2, image.height() / 2)) < 80,
                 "the plot background follows the palette's base colour");
    }

    void explanationFollowsSelection() {
        MainWindow w;
        w.show();
        auto* text = w.findChild<QTextBrowser*>("explanation");
        auto* picker = w.findChild<StrategyPicker*>("strategies");
        QVERIFY(text && picker);
        QVERIFY(text->toPlainText().contains("memset")); // pread-zerofill, before any click
        // A person clicks a strategy's row: the panel explains that strategy.
        auto click = [picker](const QString& id) {
            for (QTreeWidgetItemIterator it(picker); *it; ++it) {
                if ((*it)->text(0) != id)
                    continue;
                picker->scrollToItem(*it);
                const QRect row = picker->visualItemRect(*it);
                QTest::mouseClick(picker->viewport(), Qt::LeftButton, {}, row.center());
                return true;
            }
            return false;
        };
        QVERIFY(click("mmap-touch"));
        QVERIFY2(text->toPlainText().contains("mmap-touch"), qPrintable(text->toPlainText()));
        QVERIFY(!text->toPlainText().contains("memset"));
        QVERIFY(click("seek-read"));
        QVERIFY2(text->toPlainText().contains("lseek"), qPrintable(text->toPlainText()));
    }

    void spinBoxesAllowWhatThePlanAllows() {
        // One set of limits: what the CLI and validatePlan accept, the app offers.
        MainWindow w;
        auto* rounds = w.findChild<QSpinBox*>("rounds");
        auto* warmup = w.findChild<QSpinBox*>("warmup");
        QVERIFY(rounds && warmup);
        QCOMPARE(rounds->maximum(), kRoundsLimit.max);
        QCOMPARE(warmup->maximum(), kWarmupLimit.max);
        // Threads take a count or a list, checked by the plan's own limits
        // (tst_threads_and_depth types both).
    }

    void staleJobsAreDropped() {
        // A run the window abandoned must not draw into the next one: the controller passes on
        // only what the current job's worker says.
        RunController controller;
        QSignalSpy cells(&controller, &RunController::cellFinished);
        QSignalSpy warnings(&controller, &RunController::warned);
        controller.start(testing::tinyPlan(*file_, 5000)); // job 1, runs until stopped
        QVERIFY(controller.isRunning());
        Cell stale;
        stale.strategy = "from-an-old-job";
        emit controller.workerForTesting()->cellFinished(0, stale); // job 0: never current
        emit controller.workerForTesting()->warned(0, "old");
        QCOMPARE(cells.count(), 0);
        QCOMPARE(warnings.count(), 0);
        emit controller.workerForTesting()->warned(1, "current");
        QCOMPARE(warnings.count(), 1);
        controller.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isRunning(), 10000);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
