#pragma once
// The left-hand panel: file, range sizes, strategies, pattern, cache mode, threads, rounds.
// It turns what a person chose into a core Plan, and says what is wrong while they type.
#include "readscope/file_status.h"
#include "readscope/plan.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QDoubleSpinBox;

namespace readscope::ui {

class StrategyPicker;
class TraceField;

// What the banner says when no file is named.
inline constexpr const char* kNoFileChosen =
    "Choose a file to read first (Open…, Generate…, or drop one on the window).";

class ConfigPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConfigPanel(QWidget* parent = nullptr);
    bool eventFilter(QObject* watched, QEvent* event) override;

    // The plan as chosen, or a message naming the field at fault.
    Result<Plan> plan() const;
    // What is wrong with the plan (a field, or the plan for the file last looked at); empty
    // when nothing is.
    QString planProblem() const;
    void setPlan(const Plan& plan); // file, sizes, strategies, modes (settings, opened results)
    // The plan that made some results, while the file already chosen stays (theirs may be on
    // another machine or long gone); false when no file was chosen, so theirs is now named.
    bool showPlanKeepingFile(const Plan& plan);

    QString filePath() const;
    void setFilePath(const QString& path);
    // What the core found out about the file (nullptr + message when it cannot be read).
    void showFileStatus(const FileStatus* status, const QString& problem);
    // While the file is looked at in the background: no status yet, and says so.
    void showInspecting();
    // The status last shown (nullptr when the file could not be inspected).
    const FileStatus* fileStatus() const { return status_ ? &*status_ : nullptr; }
    StrategyPicker* strategyPicker() const { return picker_; }
    // A loaded trace: kept, and the Trace pattern chosen, so Run replays it.
    void setTrace(std::shared_ptr<const Trace> trace, const QString& path);
    TraceField* traceField() const { return traceField_; }
    // The Precision field as a fraction (0: off) and the Max time that goes with it.
    double precision() const;
    double maxTimeSeconds() const;

    // Named lists for the sizes field: range sizes, or (whole pattern) file sizes. An empty
    // list of file sizes reads the file itself.
    static const std::vector<std::pair<QString, QString>>& sizePresets();
    static const std::vector<std::pair<QString, QString>>& fileSizePresets();

signals:
    void browseRequested();
    void generateRequested();
    void fileEdited(const QString& path);
    void strategyFocused(const QString& id);
    void changed();

private:
    void guardWheel(QWidget* box); // the wheel only with focus (eventFilter)
    void updateSizeFeedback();
    // Under the run options: what a list in Threads, Queue depth or Buffer offset makes the x
    // axis, at which range size, or what to change first.
    void updateAxisHint();
    // The sizes field shows range sizes, or file sizes for the whole pattern; each kind keeps
    // its own text while the other is shown.
    void showSizesFor(Pattern pattern);
    // The sizes field shows list, with the preset that names it (Custom when none does).
    void showSizeList(const QString& list);
    bool showsFileSizes() const;
    void updateCacheText();

    QLineEdit* file_;
    QLabel* fileInfo_;
    QGroupBox* sizeBox_;
    QComboBox* sizePreset_;
    QLineEdit* sizes_;
    QString hiddenSizes_; // the other kind's text (range sizes while file sizes show, ...)
    bool fileSizesShown_ = false;
    QLabel* sizeError_;
    StrategyPicker* picker_;
    QComboBox* pattern_;
    TraceField* traceField_;
    QSpinBox* seed_;
    QComboBox* cache_;
    QLabel* cacheText_;
    QLabel* roundsHint_ = nullptr; // rounds that cannot call the comparisons ahead
    QLabel* axisHint_ = nullptr;
    QComboBox* threads_ = nullptr;    // a count, or a list: the threads sweep
    QComboBox* queueDepth_ = nullptr; // auto, a depth, or a list: the queue-depth sweep
    QSpinBox* rounds_;
    QComboBox* bufferOffset_ = nullptr;
    QComboBox* consume_ = nullptr;
    QSpinBox* warmup_;
    QDoubleSpinBox* precision_; // percent; 0: off
    QSpinBox* maxTime_;         // seconds, with a precision
    QSpinBox* memoryLimit_;     // MiB; 0: no memory limit (Plan::memoryLimit)
    QSpinBox* duration_;        // seconds; 0: rounds as planned (Plan::durationSeconds)
    std::optional<FileStatus> status_;
};

} // namespace readscope::ui
