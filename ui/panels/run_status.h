#pragma once
// The window's bottom bar: the progress bar, where the run is in words ("1 MiB · pread-uninit ·
// round 7/12 — elapsed 0:12, ETA 0:40"), and the Run and Stop buttons.
#include "readscope/runner.h"

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace readscope::ui {

// "2:05"; "–" for an unknown time.
QString clockText(double seconds);

// What a stopped or recovered run kept, in rounds: "30 cells, 18 of them partial (5-6 of 12
// rounds)", "12 cells, each with all 12 rounds", "1 cell".
QString keptCellsText(const KeptCells& kept);

class RunStatus : public QWidget {
    Q_OBJECT
public:
    explicit RunStatus(QWidget* parent = nullptr);

    void starting(const QString& text); // a run (or refinement, bounded = false) begins
    // A refinement: rounds go on until the cells are sure or maxSeconds have passed, so the bar
    // has no fixed end and the text says the bound instead of an ETA.
    void refining(double maxSeconds);
    void showProgress(const Progress& p);
    // The run ended: a full bar when `done`, and what happened.
    void finished(const QString& text, bool done);
    // A run (not a refinement) ended: "Finished in 0:42." when complete, else how long it ran
    // and the cells it kept, partial ones with their rounds.
    void runEnded(bool complete, const KeptCells& kept);
    void setText(const QString& text);
    // A note in the status line for `ms` (0: until the next text), then what it said before,
    // unless something else was said meanwhile. In the line the window always has, so a note
    // never adds a row that shifts the window (as a status bar made on first use did).
    void flash(const QString& text, int ms);
    QString text() const;
    void setRunning(bool running); // Run enabled when not, Stop when it is

signals:
    void runClicked();
    void stopClicked();

private:
    QProgressBar* bar_;
    QLabel* text_;
    QPushButton* run_;
    QPushButton* stop_;
    double refineMaxSeconds_ = -1; // < 0: not refining
    QElapsedTimer clock_;          // since the run (or refinement) began
};

} // namespace readscope::ui
