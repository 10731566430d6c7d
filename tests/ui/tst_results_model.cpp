#include "results_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace readscope;
using namespace readscope::ui;

namespace {
Cell cell(const char* id, std::uint64_t size, double seconds, CellStatus status = CellStatus::Ok) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    c.status = status;
    for (int r = 1; r <= 3; ++r) {
        Sample s;
        s.round = r;
        s.bytes = 1'000'000'000;
        s.seconds = seconds * (1 + r * 0.001);
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}
} // namespace

class TestResultsModel : public QObject {
    Q_OBJECT
private slots:
    // A live cell's conditions (the engine's, not yet in any document) show in its Message
    // column and tooltip, after its reason.
    void conditionsShowAsTheCellsMessage() {
        ResultsModel model;
        ResultDocument header;
        header.plan.strategies = {"a"};
        model.beginRun(header);
        Cell capped = cell("a", 4096, 1.0);
        capped.conditions.push_back({RoundsCut{3, 15, false}});
        model.addCell(capped);
        const QString want = "time cap reached: 3 of 15 rounds";
        QCOMPARE(model.index(0, ResultsModel::Message).data().toString(), want);
        QCOMPARE(model.index(0, ResultsModel::Median).data(Qt::ToolTipRole).toString(), want);
    }

    // The columns' tooltips say what the CLI's footnotes say, in the same words.
    void columnTooltipsAreTheFootnotes() {
        ResultsModel model;
        ResultDocument header;
        header.plan.strategies = {"a"};
        header.plan.cache = CacheMode::Cold;
        header.deviceLimitMissing = "the probe was stopped";
        model.beginRun(header);
        model.addCell(cell("a", 4096, 1.0));
        const auto tip = [&](int column) {
            return model.index(0, column).data(Qt::ToolTipRole).toString();
        };
        QVERIFY2(tip(ResultsModel::Buffers)
                     .startsWith("Page offsets the destination buffers started at (offset x "
                                 "ranges read into a buffer there)."),
                 qPrintable(tip(ResultsModel::Buffers)));
        QCOMPARE(tip(ResultsModel::Iops), QString("Ranges per second at the median."));
        QCOMPARE(tip(ResultsModel::OfLimit),
                 QString("Device: no device limit: the probe was stopped."));
    }

    void testerDuringARun() {
        ResultsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ResultDocument header;
        header.plan.strategies = {"a", "b"};
        model.beginRun(header);
        QCOMPARE(model.rowCount(), 0);
        model.addCell(cell("a", 4096, 1.0));
        model.addCell(cell("b", 4096, 0.5));
        Cell failed;
        failed.strategy = "b";
        failed.rangeBytes = 65536;
        failed.status = CellStatus::Failed;
        failed.message = "checksum mismatch";
        model.addCell(failed);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(ResultsModel::ColumnCount));
        QCOMPARE(model.index(1, ResultsModel::Median).data().toString(), QString("2.00"));
        QCOMPARE(model.index(2, ResultsModel::Median).data().toString(), QString("–"));
        QCOMPARE(model.index(2, ResultsModel::Status).data().toString(), QString("failed"));
        QCOMPARE(model.index(0, ResultsModel::Range).data().toString(), QString("4 KiB"));
        ResultDocument final = model.document();
        final.complete = false;
        model.finishRun(final);
        QVERIFY(!model.document().complete);
        QCOMPARE(model.rowCount(), 3);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsByNumbersNotText() {
        ResultsModel model;
        ResultDocument doc;
        doc.cells = {cell("a", 8 << 20, 1.0), cell("a", 64 << 10, 0.1), cell("a", 1 << 20, 0.25)};
        model.setDocument(doc);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(ResultsModel::SortRole);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(ResultsModel::Range);
        QCOMPARE(proxy.index(0, ResultsModel::Range).data().toString(), QString("64 KiB"));
        QCOMPARE(proxy.index(2, ResultsModel::Range).data().toString(), QString("8 MiB"));
        proxy.sort(ResultsModel::Median, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, ResultsModel::Median).data().toString(), QString("9.98"));
    }
};

QTEST_MAIN(TestResultsModel)
#include "tst_results_model.moc"
