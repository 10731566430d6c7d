// The Compare tab's model, as QAbstractItemModelTester checks every model: its rows are the
// comparison's cells with the same words as the Markdown, the verdict coloured and explained.
#include "compare_view.h"
#include "comparison_model.h"

#include "every_verdict.h"
#include "readscope/comparison_text.h"
#include "readscope/machine_drift_store.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace readscope;
using namespace readscope::ui;

namespace {

// A cell whose twelve rounds read at `gbps`, spread by ±1%.
Cell cellAt(const std::string& id, std::uint64_t size, double gbps) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    for (int r = 1; r <= 12; ++r) {
        Sample s;
        s.round = r;
        s.bytes = 1000000000;
        s.seconds = 1.0 / (gbps * (1 + 0.01 * ((r % 3) - 1)));
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

ResultDocument run(double uninitGbps) {
    ResultDocument doc;
    doc.plan.sizes = {65536, 1 << 20};
    doc.plan.strategies = {"pread-zerofill", "pread-uninit"};
    for (auto size : doc.plan.sizes) {
        doc.cells.push_back(cellAt("pread-zerofill", size, 5));
        doc.cells.push_back(cellAt("pread-uninit", size, uninitGbps));
    }
    return doc;
}

} // namespace

class TestComparisonModel : public QObject {
    Q_OBJECT
    QTemporaryDir data_;
private slots:
    // No machine drift the user keeps reaches these comparisons.
    void initTestCase() { qputenv("READSCOPE_DATA_DIR", data_.path().toUtf8()); }

    void rowsAreTheComparisonsCells() {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        const Comparison c = compareToReference(run(8), "pread-zerofill", 0.02);
        model.setComparison(c);
        QCOMPARE(model.rowCount(), int(c.cells.size()));
        QCOMPARE(model.columnCount(), int(ComparisonModel::ColumnCount));
        QCOMPARE(model.headerData(ComparisonModel::VerdictColumn, Qt::Horizontal).toString(),
                 QString("Verdict"));
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto text = comparisonRowText(c.cells[std::size_t(row)]);
            QCOMPARE(model.index(row, ComparisonModel::Who).data().toString(),
                     QString::fromStdString(text.who));
            QCOMPARE(model.index(row, ComparisonModel::VerdictColumn).data().toString(),
                     QString::fromStdString(text.verdict));
            QCOMPARE(model.index(row, ComparisonModel::Change).data().toString(),
                     QString::fromStdString(text.change));
        }
        // pread-uninit at 8 GB/s against 5: faster, in green.
        const QModelIndex verdict = model.index(0, ComparisonModel::VerdictColumn);
        QCOMPARE(verdict.data().toString(), QString("faster"));
        QCOMPARE(verdict.data(Qt::ForegroundRole).value<QColor>(), QColor(0x2c, 0xa0, 0x2c));
        // The same speeds: the same within the threshold, which an equivalence test says.
        model.setComparison(compareToReference(run(5), "pread-zerofill", 0.02));
        const QModelIndex same = model.index(0, ComparisonModel::VerdictColumn);
        QCOMPARE(same.data().toString(), QString("same within ±2.0%"));
        QVERIFY(!same.data(Qt::ForegroundRole).isValid());
        // Two runs with no drift between runs measured: cannot tell, and why as the tooltip.
        model.setComparison(compareDocuments(run(5), run(8), 0.02));
        const QModelIndex cannot = model.index(1, ComparisonModel::VerdictColumn);
        QVERIFY(cannot.data().toString().startsWith("cannot tell ("));
        QCOMPARE(cannot.data(Qt::ToolTipRole).toString(),
                 QString("separate runs, no drift between runs measured"));
        QVERIFY(!cannot.data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.headerData(ComparisonModel::Interval, Qt::Horizontal).toString(),
                 QString("Interval (coverage)"));
        model.setComparison({});
        QCOMPARE(model.rowCount(), 0);
    }

    // Every outcome and every cause of "cannot tell" in the Compare tab, cell by cell, held to
    // a golden file as the terminal's and the Markdown's are (scripts/update-golden.sh).
    void everyVerdictAsTheTabShowsIt() {
        ComparisonModel model;
        const Comparison c = testing::everyVerdict();
        model.setComparison(c);
        QByteArray now;
        for (int row = 0; row < model.rowCount(); ++row) {
            QStringList cells;
            for (int column = 0; column < model.columnCount(); ++column)
                cells << model.index(row, column).data().toString();
            const QString tip =
                model.index(row, ComparisonModel::VerdictColumn).data(Qt::ToolTipRole).toString();
            now +=
                (cells.join(" | ") + (tip.isEmpty() ? "" : " | tooltip: " + tip) + "\n").toUtf8();
        }
        const QString path = QString(READSCOPE_GOLDEN_DIR) + "/compare-verdicts.tab";
        QFile file(path);
        if (qEnvironmentVariableIsSet("READSCOPE_UPDATE_GOLDEN")) {
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(now);
            return;
        }
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path + " is missing"));
        QCOMPARE(QString::fromUtf8(now), QString::fromUtf8(file.readAll()));
    }

    // The Compare tab says every sentence the Markdown and the terminal put under the rows:
    // here the cells only the baseline has and the shift every row shares.
    void theTabSaysEveryNoteUnderTheRows() {
        ResultDocument baseline = run(8);
        baseline.plan.sizes.push_back(8 << 20);
        baseline.cells.push_back(cellAt("pread-zerofill", 8 << 20, 5));
        baseline.cells.push_back(cellAt("pread-uninit", 8 << 20, 8));
        ResultDocument current = baseline;
        for (auto& cell : current.cells) {
            for (auto& s : cell.samples)
                s.seconds /= 1.3;
            cell.summarize();
        }
        current.cells.pop_back(); // pread-uninit at 8 MiB: only in the baseline
        CompareView view;
        view.setThreshold(0.02);
        view.setDocuments(current, &baseline);
        auto* notes = view.findChild<QLabel*>("compareNotes");
        QVERIFY(notes);
        const Comparison c = compareRuns(baseline, current, 0.02);
        QVERIFY(c.commonShift);
        QVERIFY(!c.onlyInBaseline.empty());
        // How a row is judged (the statistics) waits behind a link; the rest is shown.
        const auto all = comparisonNotes(c);
        QVERIFY(!notes->text().contains(QString::fromStdString(all[0].text).toHtmlEscaped()));
        QVERIFY(notes->text().contains("How a row is judged"));
        emit notes->linkActivated("method");
        for (const auto& note : all)
            QVERIFY2(notes->text().contains(QString::fromStdString(note.text).toHtmlEscaped()),
                     qPrintable(QString::fromStdString(note.text) + "\n---\n" + notes->text()));
        // First, in bold: that no row can be told without the drift between runs, and how.
        QVERIFY2(notes->text().startsWith("<b>" +
                                          QString::fromStdString(driftHeadline(c)).toHtmlEscaped()),
                 qPrintable(notes->text()));
    }
};

QTEST_MAIN(TestComparisonModel)
#include "tst_comparison_model.moc"
