// The results table as a person scrolls it: Strategy and Range stay in view while the figures
// scroll sideways, a new run starts at the top left, and Details counts a reused buffer as one.
#include "cell_details.h"
#include "chart_text.h"
#include "frozen_table_view.h"
#include "qt_text.h"
#include "results_model.h"
#include "window_fixture.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QWheelEvent>

using namespace readscope;
using namespace readscope::ui;
using readscope::testing::TestFile;

namespace {
ResultDocument manyRows() {
    ResultDocument doc;
    doc.plan.strategies = {"pread-uninit", "pread-reuse", "mmap-copy"};
    for (int i = 0; i < 14; ++i)
        doc.plan.sizes.push_back(4096ull << i);
    for (auto size : doc.plan.sizes)
        for (const auto& id : doc.plan.strategies) {
            Cell c;
            c.strategy = id;
            c.rangeBytes = size;
            Sample s;
            s.bytes = 1000000;
            s.seconds = 1e-3;
            c.samples = {s, s, s};
            c.summarize();
            doc.cells.push_back(c);
        }
    return doc;
}
} // namespace

class TestResultsTable : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

    static FrozenTableView* tableOf(MainWindow& w) {
        auto* table = w.findChild<FrozenTableView*>("resultsTable");
        if (auto* tabs = w.findChild<QTabWidget*>(); tabs && table)
            tabs->setCurrentWidget(table);
        return table;
    }

    // A 1024 x 700 window showing many rows, its table too wide for it.
    static FrozenTableView* showManyRows(MainWindow& w) {
        w.resize(1024, 700);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w))
            return nullptr;
        w.model()->setDocument(manyRows());
        FrozenTableView* table = tableOf(w);
        if (!table || !QTest::qWaitFor([&] { return table->horizontalScrollBar()->maximum() > 0; }))
            return nullptr;
        return table;
    }

private slots:
    void initTestCase() {
        testing::isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
    }

    void strategyAndRangeStayInView() {
        MainWindow w;
        FrozenTableView* table = showManyRows(w);
        QVERIFY(table);
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        QTableView* frozen = table->frozenView();
        QVERIFY(frozen->isVisible());
        QCOMPARE(frozen->width(), table->columnWidth(0) + table->columnWidth(1));
        // What lies at the table's left edge, scrolled right, is still the strategy's name.
        const QPoint left = frozen->viewport()->mapFrom(
            table, QPoint(table->frameWidth() + 4, table->horizontalHeader()->height() + 4));
        const QModelIndex under = frozen->indexAt(left);
        QCOMPARE(under.column(), int(ResultsModel::Strategy));
        QVERIFY(!under.data().toString().isEmpty());
        // Down together: the wheel over the frozen columns scrolls the rows of both.
        QVERIFY(table->verticalScrollBar()->maximum() > 0);
        QWheelEvent wheel(QPointF(10, 30), frozen->viewport()->mapToGlobal(QPointF(10, 30)),
                          QPoint(), QPoint(0, -240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(frozen->viewport(), &wheel);
        QVERIFY(table->verticalScrollBar()->value() > 0);
        QCOMPARE(frozen->verticalScrollBar()->value(), table->verticalScrollBar()->value());
        // One row at a time, as the table itself; a frozen column resized by its own header
        // resizes the table's column under it.
        QCOMPARE(frozen->selectionMode(), QAbstractItemView::SingleSelection);
        frozen->horizontalHeader()->resizeSection(0, 211);
        QCOMPARE(table->columnWidth(0), 211);
        QCOMPARE(frozen->width(), 211 + table->columnWidth(1));
    }

    // A warm run at auto offsets, one thread and no io_uring: Offset, Threads, In flight and
    // Fetched would repeat "auto", "1", "–", "–" on every row; they go, and the median stands
    // beside the range. A threads sweep brings Threads back.
    void columnsThatSayNothingAreHidden() {
        MainWindow w;
        FrozenTableView* table = showManyRows(w);
        QVERIFY(table);
        for (int col : {ResultsModel::Offset, ResultsModel::Threads, ResultsModel::InFlight,
                        ResultsModel::Fetched})
            QVERIFY2(table->isColumnHidden(col), qPrintable(QString::number(col)));
        QVERIFY(!table->isColumnHidden(ResultsModel::Median));
        QCOMPARE(table->horizontalHeader()->visualIndex(ResultsModel::Median),
                 ResultsModel::Median);
        QVERIFY(table->columnViewportPosition(ResultsModel::Median) <
                table->columnViewportPosition(ResultsModel::Min));
        // Status right after the figures it qualifies, before the percentiles.
        QCOMPARE(table->horizontalHeader()->visualIndex(ResultsModel::Status),
                 table->horizontalHeader()->visualIndex(ResultsModel::Max) + 1);
        QVERIFY(table->columnViewportPosition(ResultsModel::Status) <
                table->columnViewportPosition(ResultsModel::P25));
        ResultDocument swept = manyRows();
        swept.plan.threadCounts = {1, 2};
        for (std::size_t i = 0; i < swept.cells.size(); ++i)
            swept.cells[i].pointThreads = int(i % 2) + 1;
        w.model()->setDocument(swept);
        QVERIFY(!table->isColumnHidden(ResultsModel::Threads));
        QVERIFY(table->isColumnHidden(ResultsModel::Offset));
    }

    void aNewRunStartsAtTheTopLeft() {
        MainWindow w;
        FrozenTableView* table = showManyRows(w);
        QVERIFY(table);
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
        QVERIFY(testing::runToEnd(w, testing::tinyPlan(*file_)));
        QCOMPARE(table->horizontalScrollBar()->value(), 0);
        QCOMPARE(table->verticalScrollBar()->value(), 0);
    }

    void detailsCountAReusedBufferAsOne() {
        auto doc = manyRows();
        Cell& reuse = doc.cells[1];
        QCOMPARE(reuse.strategy, std::string("pread-reuse"));
        reuse.bufferPageOffsets = {{0, 4020}};
        const QString html = cellDetailsHtml(reuse, doc);
        QVERIFY2(html.contains("offset 0: 4020 ranges read into one reused buffer per thread"),
                 qPrintable(html));
        QVERIFY(!html.contains("buffers"));
        Cell& fresh = doc.cells[0];
        fresh.bufferPageOffsets = {{16, 3}, {kOtherOffsets, 1}};
        QVERIFY2(cellDetailsHtml(fresh, doc)
                     .contains("offset 16: 3 ranges, other offsets: 1 range read into a buffer "
                               "allocated for it"),
                 qPrintable(cellDetailsHtml(fresh, doc)));
    }

    // The selected cell's Details follow its figures: a refinement's rounds arriving for it
    // show at once, not only after another row is selected.
    void detailsFollowTheSelectedCellsRounds() {
        MainWindow w;
        FrozenTableView* table = showManyRows(w);
        QVERIFY(table);
        table->setCurrentIndex(table->model()->index(0, 0));
        auto* details = w.findChild<QTextBrowser*>("details");
        QVERIFY(details);
        QVERIFY2(details->toPlainText().contains("over 3 rounds"),
                 qPrintable(details->toPlainText()));
        // The cell on the selected row (the table sorts the model's rows).
        const QString strategy = table->model()->index(0, ResultsModel::Strategy).data().toString();
        const QString range = table->model()->index(0, ResultsModel::Range).data().toString();
        const auto& cells = w.model()->document().cells;
        const auto at = std::find_if(cells.begin(), cells.end(), [&](const Cell& c) {
            return qs(c.strategy) == strategy && qs(formatSize(c.rangeBytes)) == range;
        });
        QVERIFY(at != cells.end());
        Cell more = *at;
        for (int r = 0; r < 3; ++r)
            more.samples.push_back(more.samples.back());
        more.summarize();
        w.model()->addCell(more);
        QVERIFY2(details->toPlainText().contains("over 6 rounds"),
                 qPrintable(details->toPlainText()));
    }

    // A slow cell (4 KiB random reads from a cold file: tens of MB/s) shows its rates with
    // three significant digits in the table and in Details, never as 0.00.
    void smallRatesKeepThreeSignificantDigits() {
        ResultsModel model;
        auto doc = manyRows();
        Cell& slow = doc.cells[0];
        for (auto& s : slow.samples)
            s.seconds = 1000000 / 0.0213e9; // 1 MB at 0.0213 GB/s
        slow.samples[0].seconds = 1000000 / 0.00456e9;
        slow.summarize();
        model.setDocument(doc);
        const auto text = [&](int column) {
            return model.index(0, column).data(Qt::DisplayRole).toString();
        };
        QCOMPARE(model.index(0, ResultsModel::Strategy).data().toString(), QString("pread-uninit"));
        QCOMPARE(text(ResultsModel::Median), QString("0.0213"));
        QCOMPARE(text(ResultsModel::Min), QString("0.00456"));
        QCOMPARE(text(ResultsModel::Max), QString("0.0213"));
        QVERIFY2(cellDetailsHtml(slow, doc).contains("median 0.0213, "),
                 qPrintable(cellDetailsHtml(slow, doc)));
        QCOMPARE(model.index(1, ResultsModel::Median).data().toString(), QString("1.00"));
    }

    // A memory-limited run says so wherever it says its cache mode: the chart's title (the
    // exported chart's too) and Details; its figures are half the unlimited ones otherwise
    // unexplained on screen.
    void aMemoryLimitIsSaidWithTheCacheMode() {
        auto doc = manyRows();
        doc.plan.cache = CacheMode::Warm;
        doc.plan.memoryLimit = 256ull << 20;
        doc.system.cpuModel = "Test CPU";
        for (bool full : {false, true}) {
            const QString title = planTitle(doc, ChartMode::Throughput, {}, full);
            QVERIFY2(title.contains("warm cache under a 256 MiB memory limit"), qPrintable(title));
        }
        QVERIFY2(cellDetailsHtml(doc.cells[0], doc)
                     .contains("warm cache under a 256 MiB memory limit, "),
                 qPrintable(cellDetailsHtml(doc.cells[0], doc)));
        doc.plan.memoryLimit = 0;
        doc.plan.durationSeconds = 30;
        QVERIFY(planTitle(doc, ChartMode::Throughput, {}, false)
                    .contains("warm cache, measured for 30 s · "));
    }

    // Details end with the unit costs measured at the run's start, only those measured.
    void detailsGiveTheUnitCostsMeasuredHere() {
        auto doc = manyRows();
        QVERIFY(!cellDetailsHtml(doc.cells[0], doc).contains("Unit costs"));
        doc.unitCosts.nullSyscall = 1.5e-7;
        doc.unitCosts.anonymousFault = 1.25e-6;
        const QString html = cellDetailsHtml(doc.cells[0], doc);
        QVERIFY2(html.contains("Unit costs here, measured at the start: a system call that does "
                               "nothing 0.15 µs; a page fault on a fresh anonymous page"),
                 qPrintable(html));
        QVERIFY2(!html.contains("file page"), qPrintable(html));
    }
};

QTEST_MAIN(TestResultsTable)
#include "tst_results_table.moc"
