#include "compare_view.h"

#include "readscope/comparison_text.h"
#include "readscope/machine_drift_store.h"
#include "readscope/units.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace readscope::ui {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : "; ") + item;
    return out;
}

QColor verdictColor(Verdict v) {
    switch (v) {
    case Verdict::Faster: return QColor(0x2c, 0xa0, 0x2c);
    case Verdict::Slower: return QColor(0xd6, 0x27, 0x28);
    default: return {};
    }
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    against_ = new QComboBox(this);
    against_->setObjectName("compareAgainst");
    threshold_ = new QDoubleSpinBox(this);
    threshold_->setRange(0, 100);
    threshold_->setDecimals(1);
    threshold_->setValue(kDefaultNoiseThreshold * 100);
    threshold_->setSuffix(" %");
    threshold_->setToolTip("Changes smaller than this count as noise, whatever the statistics");
    auto* copy = new QPushButton("Copy as Markdown", this);
    bar->addWidget(new QLabel("Compare with:", this));
    bar->addWidget(against_, 1);
    bar->addWidget(new QLabel("Noise threshold:", this));
    bar->addWidget(threshold_);
    bar->addWidget(copy);
    layout->addLayout(bar);
    notes_ = new QLabel(this);
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(notes_);
    table_ = new QTableWidget(this);
    table_->setObjectName("compareTable");
    table_->setColumnCount(8);
    // What changed and whether it is real first, so both stay in view on a narrow window;
    // the medians they come from last.
    table_->setHorizontalHeaderLabels({"Strategy", "Range", "Change", "Verdict", "95% interval",
                                       "p", "Baseline GB/s", "Current GB/s"});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_, 1);
    connect(against_, &QComboBox::currentIndexChanged, this, &CompareView::recompute);
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, &CompareView::recompute);
    connect(copy, &QPushButton::clicked, this, [this] { emit copyRequested(markdown()); });
}

void CompareView::setDocuments(const ResultDocument& current, const ResultDocument* baseline) {
    current_ = current;
    if (baseline)
        baseline_ = *baseline;
    else
        baseline_.reset();
    const QSignalBlocker blocker(against_);
    const QString previous = against_->currentData().toString();
    against_->clear();
    against_->addItem(baseline_ ? "the baseline document" : "the baseline document (none loaded)",
                      QString());
    for (const auto& id : current_.measuredStrategies())
        against_->addItem(QString("strategy %1 of this run").arg(qs(id)), qs(id));
    const int i = against_->findData(previous);
    against_->setCurrentIndex(i >= 0 ? i : (baseline_ || against_->count() < 2 ? 0 : 1));
    recompute();
}

void CompareView::setReference(const QString& strategy) {
    const int i = against_->findData(strategy);
    if (i >= 0)
        against_->setCurrentIndex(i);
}

void CompareView::setThreshold(double fraction) { threshold_->setValue(fraction * 100); }

int CompareView::rowCount() const { return table_->rowCount(); }

QString CompareView::markdown() const {
    return hasComparison() ? QString::fromStdString(comparisonMarkdown(comparison_)) : QString();
}

void CompareView::recompute() {
    const QString reference = against_->currentData().toString();
    const double threshold = threshold_->value() / 100;
    comparison_ = {};
    if (!reference.isEmpty())
        comparison_ = compareToReference(current_, reference.toStdString(), threshold);
    else if (baseline_)
        comparison_ = compareRuns(*baseline_, current_, threshold);
    QStringList notes;
    if (reference.isEmpty() && !baseline_)
        notes << "Load a baseline (File ▸ Load baseline…) or pick a strategy of this run to "
                 "compare against.";
    if (!comparison_.differences.empty())
        notes << "<b>The runs differ:</b> " +
                     QString::fromStdString(joined(comparison_.differences)).toHtmlEscaped();
    if (!comparison_.onlyInBaseline.empty())
        notes << "Only in the baseline: " +
                     QString::fromStdString(joined(comparison_.onlyInBaseline)).toHtmlEscaped();
    if (!comparison_.onlyInCurrent.empty())
        notes << "Only in the current run: " +
                     QString::fromStdString(joined(comparison_.onlyInCurrent)).toHtmlEscaped();
    if (!comparison_.cells.empty())
        notes << QString::fromStdString(comparisonMethod(comparison_)).toHtmlEscaped();
    notes_->setText(notes.join("<br>"));
    notes_->setVisible(!notes.isEmpty());

    table_->setRowCount(int(comparison_.cells.size()));
    for (int row = 0; row < table_->rowCount(); ++row) {
        const auto& cc = comparison_.cells[std::size_t(row)];
        const auto& e = cc.estimate;
        const auto r = comparisonRowText(cc);
        const QStringList values = {qs(r.who),      qs(r.point), qs(r.change),   qs(r.verdict),
                                    qs(r.interval), qs(r.p),     qs(r.baseline), qs(r.current)};
        constexpr int kVerdict = 3;
        for (int col = 0; col < values.size(); ++col) {
            auto* item = new QTableWidgetItem(values[col]);
            if (col != 0 && col != kVerdict)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (col == kVerdict) {
                if (const QColor c = verdictColor(e.verdict); c.isValid())
                    item->setForeground(c);
                if (!e.note.empty())
                    item->setToolTip(QString::fromStdString(e.note));
            }
            table_->setItem(row, col, item);
        }
    }
    table_->resizeColumnsToContents();
    // A new comparison starts at its first column, whatever the last one was scrolled to.
    table_->horizontalScrollBar()->setValue(0);
    table_->scrollToTop();
}

} // namespace readscope::ui
