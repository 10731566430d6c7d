#pragma once
// The lesson chosen last, above the results: its text and what to do next, and, when its own
// run finishes, whether this machine agrees with the published finding. It hides for results
// of other plans (a verdict about other results does not stay above them) and has a close
// button; View ▸ Lesson toggles it. Works without the main window (tst_lesson_panel).
#include "lessons.h"

#include "readscope/result_document.h"

#include <QFrame>

#include <cstdint>
#include <optional>
#include <utility>

class QPushButton;
class QTextBrowser;

namespace readscope::ui {

class LessonPanel : public QFrame {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // Shows the lesson with what to do next (press Run; then, when it has a reference
    // strategy, open the Compare tab); its reference waits for its run.
    void showLesson(const Lesson& lesson);
    bool hasLesson() const { return lesson_.has_value(); }
    // Results of this plan are about to be shown: the lesson stays only above its own
    // comparison (its strategies, pattern and cache), without a verdict about other results.
    void showFor(const Plan& plan);
    // A finished document: the lesson's own run gets the verdict appended, returned for the
    // log; anything else returns an empty string.
    QString judge(const ResultDocument& doc);
    // The lesson's reference strategy for the Compare tab, once: empty after it was taken, or
    // when a run of another plan started.
    QString takeReference() { return std::exchange(pendingReference_, QString()); }
    // The lesson sets a chart of its own (where the time goes, over time): its run ends with
    // that chart in front, not the Compare tab.
    bool hasOwnChart() const { return lesson_ && lesson_->chart != ChartMode::Throughput; }
    // A run of this plan starts: showFor(plan), and the reference goes unless it is the
    // lesson's own run.
    void runStarting(const Plan& plan);
    // The chosen file's size: a lesson that needs a larger file says so and offers a button
    // that asks for one (generateRequested) until a large enough file is chosen.
    void setFileSize(std::uint64_t bytes);
    void toggle();        // shows or hides the lesson chosen last
    QString text() const; // what it says; empty when hidden
    // The lesson's own comparison: its strategies, pattern and cache.
    bool isLessonPlan(const Plan& plan) const;

signals:
    // The lesson's "Generate a 1 GiB file…" button: a test file of at least this many bytes.
    void generateRequested(std::uint64_t bytes);

private:
    void resetText();
    QString fileNeed() const; // what the lesson says of a file too small for it; or empty

    std::optional<Lesson> lesson_;
    QString next_;             // what the lesson says to do next
    QString pendingReference_; // applied when its run finishes
    QTextBrowser* browser_;
    QPushButton* generate_;
    std::uint64_t fileBytes_ = 0; // the chosen file's size; 0: none chosen yet
};

} // namespace readscope::ui
