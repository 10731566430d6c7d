#include "config_panel.h"

#include "config_fields.h"
#include "strategy_picker.h"
#include "trace_field.h"

#include "readscope/buffer_offsets.h"
#include "readscope/comparison_text.h"
#include "readscope/plan_help.h"
#include "readscope/units.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

#include <cmath>

namespace readscope::ui {

ConfigPanel::ConfigPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    auto* fileBox = new QGroupBox("File", this);
    auto* fileLayout = new QVBoxLayout(fileBox);
    auto* fileRow = new QHBoxLayout;
    file_ = new QLineEdit(fileBox);
    file_->setObjectName("filePath");
    file_->setPlaceholderText("Pick a file, drop one here, or generate one");
    auto* browse = new QPushButton("Open…", fileBox);
    browse->setObjectName("browseButton");
    auto* generate = new QPushButton("Generate…", fileBox);
    generate->setObjectName("generateButton");
    generate->setToolTip("Generate a test file whose bytes depend on their offset");
    fileRow->addWidget(file_, 1);
    fileRow->addWidget(browse);
    fileRow->addWidget(generate);
    fileLayout->addLayout(fileRow);
    fileInfo_ = new QLabel("No file chosen.", fileBox);
    fileInfo_->setObjectName("fileInfo");
    fileInfo_->setWordWrap(true);
    fileLayout->addWidget(fileInfo_);
    layout->addWidget(fileBox);
    connect(browse, &QPushButton::clicked, this, &ConfigPanel::browseRequested);
    connect(generate, &QPushButton::clicked, this, &ConfigPanel::generateRequested);
    connect(file_, &QLineEdit::editingFinished, this, [this] { emit fileEdited(file_->text()); });

    auto* sizeBox = sizeBox_ = new QGroupBox("Range sizes", this);
    sizeBox->setObjectName("sizeBox");
    auto* sizeLayout = new QVBoxLayout(sizeBox);
    sizePreset_ = new QComboBox(sizeBox);
    sizePreset_->setObjectName("sizePreset");
    fillPresets(sizePreset_, sizePresets());
    sizes_ = new QLineEdit(sizePresets().front().second, sizeBox);
    sizes_->setObjectName("sizes");
    sizes_->setToolTip(helpTip(sizesHelp(false)));
    sizeError_ = new QLabel(sizeBox);
    sizeError_->setObjectName("sizeError");
    sizeError_->setStyleSheet("color: #d62728");
    sizeError_->setWordWrap(true);
    sizeLayout->addWidget(sizePreset_);
    sizeLayout->addWidget(sizes_);
    sizeLayout->addWidget(sizeError_);
    layout->addWidget(sizeBox);
    connect(sizePreset_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (const QVariant list = sizePreset_->itemData(i); list.isValid())
            sizes_->setText(list.toString());
    });
    connect(sizes_, &QLineEdit::textEdited, this,
            [this] { sizePreset_->setCurrentIndex(sizePreset_->count() - 1); });
    connect(sizes_, &QLineEdit::textChanged, this, [this] {
        updateSizeFeedback();
        emit changed();
    });

    auto* strategyBox = new QGroupBox("Strategies", this);
    auto* strategyLayout = new QVBoxLayout(strategyBox);
    picker_ = new StrategyPicker(strategyBox);
    picker_->setObjectName("strategies");
    strategyLayout->addWidget(picker_);
    layout->addWidget(strategyBox, 1);
    connect(picker_, &StrategyPicker::selectionChanged, this, &ConfigPanel::changed);
    connect(picker_, &StrategyPicker::strategyFocused, this, &ConfigPanel::strategyFocused);

    auto* runBox = new QGroupBox("How to read", this);
    auto* form = new QFormLayout(runBox);
    pattern_ = new QComboBox(runBox);
    pattern_->setObjectName("pattern");
    pattern_->addItem("Sequential ranges", int(Pattern::Sequential));
    pattern_->addItem("Random ranges", int(Pattern::Random));
    pattern_->addItem("Whole files (open, read, close)", int(Pattern::Whole));
    pattern_->addItem("A trace (a program's recorded reads)", int(Pattern::Trace));
    traceField_ = new TraceField(runBox);
    traceField_->setVisible(false);
    seed_ = new QSpinBox(runBox);
    seed_->setRange(0, 1'000'000'000);
    seed_->setValue(42);
    seed_->setEnabled(false);
    cache_ = new QComboBox(runBox);
    cache_->setObjectName("cacheMode");
    cache_->addItem("Warm page cache", int(CacheMode::Warm));
    cache_->addItem("Cold page cache", int(CacheMode::Cold));
    cache_->addItem("Direct I/O", int(CacheMode::Direct));
    cacheText_ = new QLabel(runBox);
    cacheText_->setWordWrap(true);
    threads_ = listBox(runBox, "threads", {"1", "2", "4", "1,2,4,8"});
    threads_->setToolTip(helpTip(threadsHelp()));
    queueDepth_ = listBox(runBox, "queueDepth", {"auto", "1", "16", "1,4,16,64"});
    queueDepth_->setToolTip(helpTip(queueDepthHelp()));
    rounds_ = new QSpinBox(runBox);
    rounds_->setObjectName("rounds");
    // 0 can be typed, so that Run can say why it is refused instead of the box reverting
    // without a word.
    rounds_->setRange(0, kRoundsLimit.max);
    rounds_->setValue(15);
    warmup_ = new QSpinBox(runBox);
    warmup_->setObjectName("warmup");
    warmup_->setRange(kWarmupLimit.min, kWarmupLimit.max);
    warmup_->setValue(2);
    // Precision: after the planned rounds, more rounds for the cells whose median's interval
    // is still wider than this, until they meet it or the maximum time has passed.
    precision_ = new QDoubleSpinBox(runBox);
    precision_->setObjectName("precision");
    precision_->setRange(0, kMaxPrecision * 100);
    precision_->setDecimals(1);
    precision_->setSingleStep(0.5);
    precision_->setSuffix(" %");
    precision_->setSpecialValueText("off");
    precision_->setToolTip(helpTip(precisionHelp() + "\noff: the planned rounds only."));
    maxTime_ = new QSpinBox(runBox);
    maxTime_->setObjectName("maxTime");
    maxTime_->setRange(5, int(kMaxMaxTimeSeconds));
    maxTime_->setValue(int(kDefaultMaxTimeSeconds));
    maxTime_->setSuffix(" s");
    maxTime_->setToolTip(helpTip(maxTimeHelp()));
    maxTime_->setEnabled(false);
    connect(precision_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        maxTime_->setEnabled(v > 0);
        emit changed();
    });
    connect(maxTime_, &QSpinBox::valueChanged, this, &ConfigPanel::changed);
    consume_ = new QComboBox(runBox);
    consume_->setObjectName("consume");
    consume_->addItem("Every byte (comparable)", int(Consume::All));
    consume_->addItem("Minimal (1 byte/page in place)", int(Consume::Minimal));
    consume_->setToolTip(helpTip(consumeHelp()));
    bufferOffset_ =
        listBox(runBox, "bufferOffset", {"auto", "0", "16", "0,8,16,32,64,2048,4096+16"});
    bufferOffset_->setToolTip(helpTip(bufferOffsetHelp()));
    form->addRow("Pattern", pattern_);
    form->addRow(traceField_);
    form->addRow("Seed", seed_);
    form->addRow("Cache", cache_);
    form->addRow(cacheText_);
    form->addRow("Threads", threads_);
    form->addRow("Queue depth", queueDepth_);
    form->addRow("Rounds", rounds_);
    form->addRow("Warm-up rounds", warmup_);
    form->addRow("Precision", precision_);
    form->addRow("Max time", maxTime_);
    form->addRow("Consume", consume_);
    form->addRow("Buffer offset", bufferOffset_);
    memoryLimit_ = memoryLimitBox(runBox);
    form->addRow("Memory limit", memoryLimit_);
    duration_ = durationBox(runBox);
    form->addRow("Duration", duration_);
    connect(duration_, &QSpinBox::valueChanged, this, [this](int seconds) {
        rounds_->setEnabled(seconds == 0); // a duration run's rounds are its time
        emit changed();
    });
    axisHint_ = new QLabel(runBox);
    axisHint_->setObjectName("axisHint");
    axisHint_->setWordWrap(true);
    axisHint_->setVisible(false);
    form->addRow(axisHint_);
    roundsHint_ = new QLabel(runBox);
    roundsHint_->setObjectName("roundsHint");
    roundsHint_->setWordWrap(true);
    roundsHint_->setVisible(false);
    form->addRow(roundsHint_);
    for (QComboBox* box : {threads_, queueDepth_, bufferOffset_})
        connect(box, &QComboBox::currentTextChanged, this, &ConfigPanel::updateAxisHint);
    connect(sizes_, &QLineEdit::textChanged, this, &ConfigPanel::updateAxisHint);
    // The strategies and the pattern count too (a queue-depth sweep needs io_uring).
    connect(this, &ConfigPanel::changed, this, &ConfigPanel::updateAxisHint);
    connect(consume_, &QComboBox::currentIndexChanged, this, &ConfigPanel::changed);
    connect(bufferOffset_, &QComboBox::currentTextChanged, this, &ConfigPanel::changed);
    connect(threads_, &QComboBox::currentTextChanged, this, &ConfigPanel::changed);
    connect(queueDepth_, &QComboBox::currentTextChanged, this, &ConfigPanel::changed);
    for (QSpinBox* box : {rounds_, warmup_, seed_, memoryLimit_})
        connect(box, &QSpinBox::valueChanged, this, &ConfigPanel::changed);
    layout->addWidget(runBox);
    connect(pattern_, &QComboBox::currentIndexChanged, this, [this] {
        const auto p = Pattern(pattern_->currentData().toInt());
        seed_->setEnabled(p == Pattern::Random);
        traceField_->setVisible(p == Pattern::Trace);
        sizeBox_->setEnabled(p != Pattern::Trace); // a trace's reads keep their lengths
        showSizesFor(p);
        updateSizeFeedback();
        emit changed();
    });
    connect(cache_, &QComboBox::currentIndexChanged, this, [this] {
        updateCacheText();
        emit changed();
    });
    updateCacheText();
    // In a panel that scrolls, a wheel turned over a box scrolls the panel; the box takes it
    // only once it has the focus (clicked or tabbed to), as KDE and Qt Creator do. Otherwise
    // scrolling down the panel changed whatever box passed under the pointer.
    for (QWidget* box : findChildren<QComboBox*>())
        guardWheel(box);
    for (QWidget* box : findChildren<QAbstractSpinBox*>())
        guardWheel(box);
}

void ConfigPanel::guardWheel(QWidget* box) {
    box->setFocusPolicy(Qt::StrongFocus);
    box->installEventFilter(this);
}

bool ConfigPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) {
        auto* box = qobject_cast<QWidget*>(watched);
        if (box && !box->hasFocus()) {
            // To the scroll area around the panel instead, which scrolls.
            for (QWidget* up = box->parentWidget(); up; up = up->parentWidget())
                if (auto* area = qobject_cast<QAbstractScrollArea*>(up)) {
                    QCoreApplication::sendEvent(area->viewport(), event);
                    break;
                }
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString ConfigPanel::filePath() const { return file_->text().trimmed(); }

void ConfigPanel::setFilePath(const QString& path) { file_->setText(path); }

void ConfigPanel::showFileStatus(const FileStatus* status, const QString& problem) {
    if (!status) {
        status_.reset();
        fileInfo_->setText(problem.isEmpty() ? "No file chosen." : problem);
        fileInfo_->setStyleSheet(problem.isEmpty() ? "" : "color: #d62728");
        picker_->setAvailability(nullptr);
        updateCacheText();
        updateSizeFeedback();
        return;
    }
    status_ = *status;
    const auto& p = status->probe;
    const QString cached =
        status->residency.fraction
            ? QString("%1% in the page cache now").arg(*status->residency.fraction * 100, 0, 'f', 1)
            : QString("page-cache state unknown (%1)")
                  .arg(QString::fromStdString(status->residency.method));
    fileInfo_->setText(QString("%1 · %2 · %3")
                           .arg(QString::fromStdString(formatSize(p.size)),
                                QString::fromStdString(p.filesystem), cached));
    fileInfo_->setStyleSheet("");
    picker_->setAvailability(&status_->probe);
    updateCacheText();
    updateSizeFeedback();
}

void ConfigPanel::showInspecting() {
    showFileStatus(nullptr, {});
    fileInfo_->setText("Looking at the file…");
}

void ConfigPanel::updateCacheText() {
    QString text = QString::fromStdString(cacheHelp(CacheMode(cache_->currentData().toInt())));
    if (status_ && CacheMode(cache_->currentData().toInt()) != CacheMode::Direct)
        text += status_->probe.residencyVerifiable ? " Residency is checked before every round."
                : status_->probe.residencyByNowait
                    ? " Residency will be sampled before every round with RWF_NOWAIT reads "
                      "(you neither own nor may write this file, so the kernel's other answers "
                      "would be made up); where the filesystem refuses them, results say "
                      "'unverified'."
                    : " Residency cannot be verified for this file: results will say "
                      "'unverified'.";
    cacheText_->setText(text);
}

bool ConfigPanel::showsFileSizes() const { return fileSizesShown_; }

void ConfigPanel::showSizesFor(Pattern pattern) {
    const bool files = pattern == Pattern::Whole;
    if (files == fileSizesShown_)
        return;
    fileSizesShown_ = files;
    const QString other = std::exchange(hiddenSizes_, sizes_->text());
    QSignalBlocker block(sizePreset_);
    fillPresets(sizePreset_, files ? fileSizePresets() : sizePresets());
    sizeBox_->setTitle(files ? "File sizes" : "Range sizes");
    sizes_->setPlaceholderText(files ? "none: the file itself, read whole" : "");
    sizes_->setToolTip(helpTip(sizesHelp(files)));
    showSizeList(other.isNull() ? (files ? QString() : sizePresets().front().second) : other);
}

void ConfigPanel::showSizeList(const QString& list) {
    QSignalBlocker block(sizePreset_); // the text is set here, not from the preset's list
    const int preset = sizePreset_->findData(list);
    sizePreset_->setCurrentIndex(preset >= 0 ? preset : sizePreset_->count() - 1);
    sizes_->setText(list);
}

void ConfigPanel::updateSizeFeedback() {
    auto sizes = parseSizeList(sizes_->text().toStdString());
    QString error;
    if (Pattern(pattern_->currentData().toInt()) == Pattern::Trace) {
        // A trace's reads keep their lengths: the sizes are not used, so nothing to say.
    } else if (showsFileSizes()) {
        // Empty reads the file itself; sizes over the file are skipped, unless all are.
        QStringList over;
        if (sizes && status_)
            for (auto s : *sizes)
                if (s > status_->probe.size)
                    over << QString::fromStdString(formatSize(s));
        if (!sizes_->text().trimmed().isEmpty() && !sizes)
            error = QString::fromStdString(sizes.error().message);
        else if (!over.isEmpty())
            error = QString("%1 %2 larger than the file (%3): %4")
                        .arg(over.join(", "), over.size() > 1 ? "are" : "is",
                             QString::fromStdString(formatSize(status_->probe.size)),
                             over.size() == qsizetype(sizes->size()) ? "nothing left to read"
                                                                     : "skipped");
    } else if (!sizes)
        error = QString::fromStdString(sizes.error().message);
    else if (status_)
        for (auto s : *sizes)
            if (s > status_->probe.size) {
                error = QString("%1 is larger than the file (%2)")
                            .arg(QString::fromStdString(formatSize(s)),
                                 QString::fromStdString(formatSize(status_->probe.size)));
                break;
            }
    sizeError_->setText(error);
    sizeError_->setVisible(!error.isEmpty());
    sizes_->setStyleSheet(error.isEmpty() ? "" : "border: 1px solid #d62728");
}

void ConfigPanel::updateAxisHint() {
    Plan p;
    (void)setThreads(p, threads_->currentText().trimmed().toStdString());
    (void)setQueueDepths(p, queueDepth_->currentText().trimmed().toStdString());
    if (auto offsets = parseBufferOffsets(bufferOffset_->currentText().trimmed().toStdString()))
        p.bufferOffsets = *offsets;
    p.pattern = Pattern(pattern_->currentData().toInt());
    p.strategies = picker_->checkedIds();
    const auto sizes = parseSizeList(sizes_->text().toStdString());
    (showsFileSizes() ? p.fileSizes : p.sizes) = sizes ? *sizes : std::vector<std::uint64_t>{};
    const SweepAxis axis = sweepAxis(p);
    // What Run would refuse, as validatePlan says it; else, on a sweep, what its x axis is.
    QString hint;
    if (auto st = validateAxes(p); !st)
        hint = QString::fromStdString(st.error().message);
    else if (axis != SweepAxis::RangeSize && !showsFileSizes())
        hint = QString("x axis: %1 at %2 ranges.")
                   .arg(QString::fromStdString(std::string(axisName(p))),
                        QString::fromStdString(formatSize(p.sizes.front())));
    axisHint_->setText(hint);
    axisHint_->setVisible(!hint.isEmpty());
    // Rounds that can call none of the comparisons the results will be judged by, said before
    // Run is pressed (the Compare tab against a strategy, the 16-byte trap's offsets).
    p.rounds = rounds_->value();
    p.durationSeconds = duration_->value();
    QString rounds;
    if (validateAxes(p))
        for (const auto& line : planWarnings(p, status_ ? status_->probe.size : 0, false))
            rounds += (rounds.isEmpty() ? "" : " ") +
                      QString::fromStdString(line).replace(0, 1, QString(line[0]).toUpper()) + ".";
    roundsHint_->setText(rounds);
    roundsHint_->setVisible(!rounds.isEmpty());
}

Result<Plan> ConfigPanel::plan() const {
    Plan p;
    p.file = filePath().toStdString();
    if (p.file.empty())
        return Error{kNoFileChosen};
    p.pattern = Pattern(pattern_->currentData().toInt());
    const std::string sizeText = sizes_->text().trimmed().toStdString();
    if (p.pattern == Pattern::Trace) {
        if (!traceField_->trace())
            return Error{"Open a trace first (File ▸ Open trace…, or drop a .trace file on the "
                         "window)."};
        p.trace = traceField_->trace();
        p.tracePath = traceField_->path().toStdString();
    } else if (p.pattern != Pattern::Whole) {
        auto sizes = parseSizeList(sizeText);
        if (!sizes)
            return Error{"Range sizes: " + sizes.error().message};
        p.sizes = *sizes;
    } else if (!sizeText.empty()) {
        auto sizes = parseSizeList(sizeText);
        if (!sizes)
            return Error{"File sizes: " + sizes.error().message};
        p.fileSizes = *sizes;
    }
    p.strategies = picker_->checkedIds();
    if (p.strategies.empty())
        return Error{"Tick at least one available strategy."};
    p.seed = std::uint64_t(seed_->value());
    p.cache = CacheMode(cache_->currentData().toInt());
    if (auto st = setThreads(p, threads_->currentText().trimmed().toStdString()); !st)
        return Error{"Threads: " + st.error().message};
    if (auto st = setQueueDepths(p, queueDepth_->currentText().trimmed().toStdString()); !st)
        return Error{"Queue depth: " + st.error().message};
    p.rounds = rounds_->value(); // 0 may be typed: validatePlan says why it is refused
    p.warmup = warmup_->value();
    // The box shows one decimal: 0.1% is the least it can ask, which the core allows.
    p.precision = precision();
    if (p.precision > 0)
        p.maxTimeSeconds = maxTimeSeconds();
    p.consume = Consume(consume_->currentData().toInt());
    auto offsets = parseBufferOffsets(bufferOffset_->currentText().trimmed().toStdString());
    if (!offsets)
        return Error{"Buffer offset: " + offsets.error().message};
    p.bufferOffsets = *offsets;
    p.memoryLimit = std::uint64_t(memoryLimit_->value()) << 20;
    p.durationSeconds = duration_->value();
    return p;
}

double ConfigPanel::precision() const { return precision_->value() / 100; }
double ConfigPanel::maxTimeSeconds() const { return maxTime_->value(); }

void ConfigPanel::setPlan(const Plan& p) {
    if (!p.file.empty())
        file_->setText(QString::fromStdString(p.file));
    if (!p.strategies.empty())
        picker_->setChecked(p.strategies);
    if (p.pattern == Pattern::Trace) // none with results that name it only (a CSV summary)
        traceField_->setTrace(p.trace, QString::fromStdString(p.tracePath));
    pattern_->setCurrentIndex(pattern_->findData(int(p.pattern)));
    // Both kinds of sizes, the shown one in the field (the pattern chose which).
    const bool files = p.pattern == Pattern::Whole;
    const QString ranges =
        p.sizes.empty() ? (files ? hiddenSizes_ : sizes_->text()) : sizeListText(p.sizes);
    const QString list = files ? sizeListText(p.fileSizes) : ranges;
    hiddenSizes_ = files ? ranges : sizeListText(p.fileSizes);
    showSizeList(list);
    seed_->setValue(int(std::min<std::uint64_t>(p.seed, 1'000'000'000)));
    cache_->setCurrentIndex(cache_->findData(int(p.cache)));
    threads_->setCurrentText(QString::fromStdString(threadsListText(p)));
    queueDepth_->setCurrentText(QString::fromStdString(queueDepthsText(p)));
    rounds_->setValue(p.rounds);
    warmup_->setValue(p.warmup);
    precision_->setValue(p.precision * 100);
    if (p.maxTimeSeconds > 0)
        maxTime_->setValue(int(p.maxTimeSeconds));
    consume_->setCurrentIndex(consume_->findData(int(p.consume)));
    bufferOffset_->setCurrentText(QString::fromStdString(formatBufferOffsets(p.bufferOffsets)));
    memoryLimit_->setValue(int((p.memoryLimit + (1 << 20) - 1) >> 20));
    // The box holds whole seconds: a loaded 0.4 s run shows 1 s, not off.
    duration_->setValue(p.durationSeconds > 0 ? std::max(1, int(std::lround(p.durationSeconds)))
                                              : 0);
}

QString ConfigPanel::planProblem() const {
    const auto chosen = plan();
    if (!chosen)
        return QString::fromStdString(chosen.error().message);
    if (status_)
        if (auto st = validatePlan(*chosen, status_->probe); !st)
            return QString::fromStdString(st.error().message);
    return {};
}

void ConfigPanel::setTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    traceField_->setTrace(std::move(trace), path);
    pattern_->setCurrentIndex(pattern_->findData(int(Pattern::Trace)));
    emit changed();
}

bool ConfigPanel::showPlanKeepingFile(const Plan& plan) {
    const QString current = filePath();
    setPlan(plan);
    if (current.isEmpty())
        return false;
    setFilePath(current);
    return true;
}

} // namespace readscope::ui
