#include "lesson_panel.h"

#include <algorithm>

#include "readscope/finding.h"
#include "readscope/lesson_words.h"
#include "readscope/units.h"
#include "readscope/zeroing_lesson.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBrowser>
#include <QToolButton>

namespace readscope::ui {

LessonPanel::LessonPanel(QWidget* parent) : QFrame(parent) {
    setObjectName("lessonFrame");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    browser_ = new QTextBrowser;
    browser_->setObjectName("lessonPanel");
    browser_->setMaximumHeight(150);
    auto* close = new QToolButton;
    close->setObjectName("closeLesson");
    close->setText("×");
    close->setToolTip("Close the lesson (View ▸ Lesson shows it again)");
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    generate_ = new QPushButton;
    generate_->setObjectName("lessonGenerate");
    generate_->hide();
    connect(generate_, &QPushButton::clicked, this, [this] {
        if (lesson_)
            emit generateRequested(lesson_->minFileBytes);
    });
    layout->addWidget(browser_, 1);
    layout->addWidget(generate_, 0, Qt::AlignTop);
    layout->addWidget(close, 0, Qt::AlignTop);
    hide();
}

QString LessonPanel::fileNeed() const {
    if (!lesson_ || lesson_->minFileBytes == 0 || fileBytes_ >= lesson_->minFileBytes)
        return {};
    const QString need = QString::fromStdString(formatSize(lesson_->minFileBytes));
    return fileBytes_ == 0
               ? QString("It needs a file of %1 or more: choose one, or press Generate.").arg(need)
               : QString("It needs a file of %1 or more, and this one is %2: press Generate "
                         "for one, or choose a larger file.")
                     .arg(need, QString::fromStdString(formatSize(fileBytes_)));
}

void LessonPanel::setFileSize(std::uint64_t bytes) {
    const bool changed = bytes != fileBytes_;
    fileBytes_ = bytes;
    const bool small = !fileNeed().isEmpty();
    if (lesson_ && small)
        generate_->setText(QString("Generate a %1 file…")
                               .arg(QString::fromStdString(formatSize(lesson_->minFileBytes))));
    generate_->setVisible(small);
    // The window looks at its file again after every run: the same size keeps the verdict
    // that run just gave.
    if (changed)
        resetText();
}

void LessonPanel::showLesson(const Lesson& lesson) {
    lesson_ = lesson;
    next_ = lesson.reference.isEmpty() ? QString("Press Run (Ctrl+R) and watch the chart.")
            : hasOwnChart()
                ? QString("Press Run (Ctrl+R) and watch the chart; the Compare tab compares "
                          "against %1.")
                      .arg(lesson.reference)
                : QString("Press Run (Ctrl+R); then open the Compare tab, which compares "
                          "against %1.")
                      .arg(lesson.reference);
    pendingReference_ = lesson.reference;
    setFileSize(fileBytes_);
    resetText();
    show();
}

void LessonPanel::resetText() {
    if (!lesson_)
        return;
    const QString need = fileNeed();
    browser_->setHtml(QString("<b>Lesson: %1</b> %2 <i>%3</i>")
                          .arg(lesson_->title.toHtmlEscaped(), lesson_->text.toHtmlEscaped(),
                               (need.isEmpty() ? next_ : need).toHtmlEscaped()));
}

bool LessonPanel::isLessonPlan(const Plan& plan) const {
    // Sizes and rounds may be changed, as a person shortens a lesson's run; the strategies are
    // compared as a set (the list orders them by family, the lesson may not).
    auto sorted = [](std::vector<std::string> ids) {
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    // A duration and a memory limit make the lesson what it is: whether there is one must match.
    return lesson_ && sorted(plan.strategies) == sorted(lesson_->plan.strategies) &&
           plan.pattern == lesson_->plan.pattern && plan.cache == lesson_->plan.cache &&
           (plan.durationSeconds > 0) == (lesson_->plan.durationSeconds > 0) &&
           (plan.memoryLimit > 0) == (lesson_->plan.memoryLimit > 0);
}

void LessonPanel::runStarting(const Plan& plan) {
    showFor(plan);
    if (!isLessonPlan(plan))
        pendingReference_.clear(); // the lesson's reference is about the lesson's strategies
}

void LessonPanel::showFor(const Plan& plan) {
    if (!lesson_)
        return;
    resetText(); // a verdict about other results does not stay above these
    setVisible(isLessonPlan(plan));
}

void LessonPanel::toggle() {
    if (lesson_)
        setVisible(isHidden());
}

QString LessonPanel::judge(const ResultDocument& doc) {
    // Only the lesson's own run, finished.
    if (!lesson_ || !(lesson_->finding || lesson_->fill) || !doc.complete ||
        !isLessonPlan(doc.plan))
        return {};
    QString text;
    if (lesson_->fill) {
        const auto verdict = judgeCacheFill(doc, *lesson_->fill);
        text = verdict ? QString::fromStdString(cacheFillVerdictText(doc, *lesson_->fill, *verdict))
                       : QString("This run did not measure the file's residency round by round "
                                 "(a duration run, where residency can be verified, does).");
    } else if (lesson_->explainsZeroing) {
        const auto verdict = judgeZeroing(doc, *lesson_->finding);
        text = verdict
                   ? QString::fromStdString(zeroingVerdictText(doc, *lesson_->finding, *verdict))
                   : QString("This run measured no %1.")
                         .arg(QString::fromStdString(lesson_->finding->than));
    } else {
        const auto verdict = judgeFinding(doc, *lesson_->finding);
        text = verdict ? QString::fromStdString(findingVerdictText(*lesson_->finding, *verdict))
                       : QString("This run measured neither side of the finding.");
    }
    // A verdict of several lines (judgeZeroing's) keeps them.
    browser_->append(
        QString("<p><b>This machine:</b> %1</p>").arg(text.toHtmlEscaped().replace('\n', "<br>")));
    return text;
}

QString LessonPanel::text() const { return isHidden() ? QString() : browser_->toPlainText(); }

} // namespace readscope::ui
