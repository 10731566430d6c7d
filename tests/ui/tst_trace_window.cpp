// A trace in the desktop app, as a person uses it: a .trace file dropped on the window chooses
// the Trace pattern and shows its reads; Run (the button, clicked) replays it; the chart is one
// bar per strategy. A bad trace is refused with its reason; Run without a trace says what to do.
#include "chart_view.h"
#include "lessons.h"
#include "results_model.h"
#include "strategy_picker.h"
#include "trace_field.h"
#include "window_fixture.h"

#include "readscope/trace_formats.h"

#include <QAction>
#include <QComboBox>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSpinBox>
#include <QUrl>
#include <qcustomplot.h>

using namespace readscope;
using namespace readscope::testing;

namespace {

Trace smallTrace() {
    Trace t;
    t.source = "a test's own reads";
    t.reads = {{(8 << 20) - 8, 8, 0}, {(8 << 20) - 40008, 40000, 0}, {4096, 300000, 0},
               {2 << 20, 65536, 0},   {(2 << 20) + 70000, 3000, 0},  {5 << 20, 1 << 20, 0}};
    return t;
}

bool writeText(const QString& path, const std::string& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) > 0;
}

void dropOn(QWidget& window, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = window.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
}

int barsOf(QCustomPlot* plot) {
    int bars = 0;
    for (int i = 0; i < plot->plottableCount(); ++i)
        bars += qobject_cast<QCPBars*>(plot->plottable(i)) ? 1 : 0;
    return bars;
}

} // namespace

class TestTraceWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;
    QString trace_;

private slots:
    void initTestCase() {
        isolateSettings();
        file_ = std::make_unique<TestFile>(8 << 20);
        trace_ = file_->dir() + "/reader.trace";
        QVERIFY(writeText(trace_, traceText(smallTrace())));
    }

    void aDroppedTraceIsReplayedAndDrawnAsBars() {
        ui::MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, file_->path()));
        // A size larger than the file is said ... until a trace makes the sizes unused.
        w.findChild<QLineEdit*>("sizes")->setText("16M");
        auto* sizeError = w.findChild<QLabel*>("sizeError");
        QVERIFY(sizeError && sizeError->isVisible());
        dropOn(w, trace_);
        QVERIFY(!sizeError->isVisible());
        auto* pattern = w.findChild<QComboBox*>("pattern");
        QVERIFY(pattern);
        QVERIFY(Pattern(pattern->currentData().toInt()) == Pattern::Trace);
        auto* summary = w.findChild<QLabel*>("traceSummary");
        QVERIFY(summary && summary->isVisible());
        QVERIFY2(summary->text().contains("6 reads"), qPrintable(summary->text()));
        auto* shape = w.findChild<QWidget*>("traceShape"); // its histogram and offsets, drawn
        QVERIFY(shape && shape->isVisible() && shape->height() > 0);
        QVERIFY(w.findChild<QWidget*>("sizeBox") && !w.findChild<QWidget*>("sizeBox")->isEnabled());
        w.config()->strategyPicker()->setChecked({"pread-uninit", "mmap-copy", "pread-coalesce"});
        w.findChild<QSpinBox*>("rounds")->setValue(3);
        w.findChild<QSpinBox*>("warmup")->setValue(0);
        auto* run = w.findChild<QPushButton*>("runButton");
        QVERIFY(run && run->isEnabled());
        QSignalSpy finished(&w, &ui::MainWindow::runFinished);
        QTest::mouseClick(run, Qt::LeftButton);
        QVERIFY(finished.wait(120000));
        auto* mode = w.findChild<QComboBox*>("chartMode");
        QVERIFY(mode);
        QCOMPARE(mode->currentText(), QString("GB/s per strategy (the trace's reads)"));
        QCOMPARE(barsOf(w.chart()->plot()), 3);
        // The table's rows are the trace, not its largest read's size.
        auto* model = w.model();
        QCOMPARE(model->data(model->index(0, ui::ResultsModel::Range)).toString(),
                 QString("trace"));
        // The run replayed the trace: its plan holds it, and every round read it whole, one
        // or more times over (warm: as often as the round time asks).
        const auto& doc = w.model()->document();
        QVERIFY(doc.plan.trace);
        QCOMPARE(doc.plan.trace->reads.size(), smallTrace().reads.size());
        for (const auto& cell : doc.cells) {
            QVERIFY2(!cell.samples.empty(), cell.strategy.c_str());
            const auto bytes = cell.samples.front().bytes;
            QVERIFY2(bytes >= smallTrace().bytes() && bytes % smallTrace().bytes() == 0,
                     cell.strategy.c_str());
        }
    }

    void aBadTraceIsRefusedWithItsReason() {
        ui::MainWindow w;
        const QString bad = file_->dir() + "/bad.trace";
        QVERIFY(writeText(bad, "hello, world\n"));
        const QString error = w.openTrace(bad);
        QVERIFY2(error.contains("unknown trace format"), qPrintable(error));
        QVERIFY(w.openTrace(file_->dir() + "/missing.trace").contains("cannot read the trace"));
        QVERIFY(!w.config()->traceField()->trace());
    }

    void theTraceLessonOpensItsShippedTrace() {
        ui::MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, file_->path()));
        const auto lessons = ui::loadLessons();
        int index = -1;
        for (int i = 0; i < lessons.size(); ++i)
            if (lessons[i].plan.pattern == Pattern::Trace)
                index = i;
        QVERIFY2(index >= 0, "no lesson replays a trace");
        QVERIFY(lessons[index].plan.trace);
        QCOMPARE(lessons[index].plan.trace->reads.size(), std::size_t(38));
        w.applyLesson(index);
        auto* pattern = w.findChild<QComboBox*>("pattern");
        QVERIFY(Pattern(pattern->currentData().toInt()) == Pattern::Trace);
        QVERIFY2(w.findChild<QLabel*>("traceSummary")->text().contains("38 reads"),
                 qPrintable(w.findChild<QLabel*>("traceSummary")->text()));
        // The lesson asks for a file as large as the one the trace was read from.
        QCOMPARE(lessons[index].minFileBytes, std::uint64_t(24) << 20);
    }

    void runWithoutATraceSaysWhatToDo() {
        ui::MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, file_->path()));
        auto* pattern = w.findChild<QComboBox*>("pattern");
        pattern->setCurrentIndex(pattern->findData(int(Pattern::Trace)));
        QVERIFY2(w.config()->planProblem().contains("Open a trace first"),
                 qPrintable(w.config()->planProblem()));
        // The File menu offers it.
        bool offered = false;
        for (auto* action : w.findChildren<QAction*>())
            offered |= action->text() == "Open &trace…";
        QVERIFY(offered);
    }
};

QTEST_MAIN(TestTraceWindow)
#include "tst_trace_window.moc"
