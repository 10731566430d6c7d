#include "run_status.h"

#include "readscope/state_words.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

#include <algorithm>

namespace readscope::ui {

QString clockText(double seconds) {
    if (seconds < 0)
        return "–";
    const int s = int(seconds + 0.5);
    return QString("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

RunStatus::RunStatus(QWidget* parent) : QWidget(parent) {
    bar_ = new QProgressBar;
    bar_->setRange(0, 1000);
    bar_->setTextVisible(true);
    text_ = new QLabel("Ready.");
    text_->setObjectName("progressText");
    run_ = new QPushButton("Run");
    run_->setObjectName("runButton");
    run_->setToolTip("Run the sweep (Ctrl+R)");
    stop_ = new QPushButton("Stop");
    stop_->setObjectName("stopButton");
    stop_->setToolTip("Stop, keeping finished cells (Esc)");
    connect(run_, &QPushButton::clicked, this, &RunStatus::runClicked);
    connect(stop_, &QPushButton::clicked, this, &RunStatus::stopClicked);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar_, 2);
    layout->addWidget(text_, 3);
    layout->addWidget(run_);
    layout->addWidget(stop_);
}

void RunStatus::starting(const QString& text) {
    clock_.start();
    refineMaxSeconds_ = -1;
    bar_->setRange(0, 1000);
    bar_->setValue(0);
    text_->setText(text);
}

void RunStatus::refining(double maxSeconds) {
    clock_.start();
    refineMaxSeconds_ = maxSeconds;
    bar_->setRange(0, 0); // rounds go on until the cells are sure: no fixed end
    text_->setText("Refining…");
}

void RunStatus::showProgress(const Progress& p) {
    const bool refining = refineMaxSeconds_ >= 0;
    if (p.total && !refining)
        bar_->setValue(int(p.step * 1000 / p.total));
    QStringList parts; // "1 MiB · pread-uninit · round 7/12"; no strategy as a round begins
    if (p.rangeBytes)
        parts << QString::fromStdString(
            pointText({p.rangeBytes, p.bufferOffset, p.threads, p.queueDepth}));
    if (!p.strategy.empty())
        parts << QString::fromStdString(p.strategy);
    parts << QString::fromStdString(phaseText(p));
    const QString where = parts.join(" · ");
    // A refinement ends when its cells are sure or at its maximum time: no ETA, a bound.
    text_->setText(refining
                       ? QString("%1 — elapsed %2, at most %3 left")
                             .arg(where, clockText(p.elapsedSeconds),
                                  clockText(std::max(0.0, refineMaxSeconds_ - p.elapsedSeconds)))
                       : QString("%1 — elapsed %2, ETA %3")
                             .arg(where, clockText(p.elapsedSeconds), clockText(p.etaSeconds)));
}

void RunStatus::finished(const QString& text, bool done) {
    refineMaxSeconds_ = -1;
    bar_->setRange(0, 1000);
    if (done)
        bar_->setValue(1000);
    text_->setText(text);
}

QString keptCellsText(const KeptCells& kept) {
    const std::size_t cells = kept.complete + kept.partial;
    QString text = QString("%1 cell%2").arg(cells).arg(cells == 1 ? "" : "s");
    if (kept.partial == 0)
        return kept.planned && cells ? text + QString(", %1 all %2 rounds")
                                                  .arg(cells == 1 ? "with" : "each with")
                                                  .arg(kept.planned)
                                     : text;
    const QString rounds = kept.fewest == kept.most
                               ? QString::number(kept.most)
                               : QString("%1-%2").arg(kept.fewest).arg(kept.most);
    return text + QString(", %1 partial (%2 of %3 rounds)")
                      .arg(kept.partial == cells ? QString(cells == 1 ? "it" : "all")
                                                 : QString("%1 of them").arg(kept.partial))
                      .arg(rounds)
                      .arg(kept.planned);
}

void RunStatus::runEnded(bool complete, const KeptCells& kept) {
    const QString took = clockText(clock_.isValid() ? clock_.elapsed() / 1000.0 : -1);
    finished(complete ? QString("Finished in %1.").arg(took)
                      : QString("Stopped after %1; kept %2.").arg(took, keptCellsText(kept)),
             complete);
}

void RunStatus::setText(const QString& text) { text_->setText(text); }

QString RunStatus::text() const { return text_->text(); }

void RunStatus::flash(const QString& text, int ms) {
    const QString before = text_->text();
    text_->setText(text);
    if (ms > 0)
        QTimer::singleShot(ms, this, [this, text, before] {
            if (text_->text() == text)
                text_->setText(before);
        });
}

void RunStatus::setRunning(bool running) {
    run_->setEnabled(!running);
    stop_->setEnabled(running);
}

} // namespace readscope::ui
