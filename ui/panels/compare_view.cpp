#include "compare_view.h"
#include "qt_text.h"

#include "comparison_model.h"

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
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace readscope::ui {

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    against_ = new QComboBox(this);
    against_->setObjectName("compareAgainst");
    threshold_ = new QDoubleSpinBox(this);
    threshold_->setRange(0, kMaxNoiseThreshold * 100);
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
    notes_->setObjectName("compareNotes");
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                                    Qt::LinksAccessibleByKeyboard);
    connect(notes_, &QLabel::linkActivated, this, [this] {
        showMethod_ = !showMethod_;
        recompute();
    });
    layout->addWidget(notes_);
    // Between two runs with no drift measured every row cannot tell: the way out, at hand.
    measureDrift_ = new QPushButton("Measure drift between runs", this);
    measureDrift_->setObjectName("measureDrift");
    measureDrift_->setVisible(false);
    layout->addWidget(measureDrift_, 0, Qt::AlignLeft);
    connect(measureDrift_, &QPushButton::clicked, this, &CompareView::measureDriftRequested);
    model_ = new ComparisonModel(this);
    table_ = new QTableView(this);
    table_->setObjectName("compareTable");
    table_->setModel(model_);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(true);
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

void CompareView::setMeasuringDrift(bool measuring) {
    measureDrift_->setEnabled(!measuring);
    measureDrift_->setText(measuring ? "Measuring drift between runs…"
                                     : "Measure drift between runs");
}

int CompareView::rowCount() const { return model_->rowCount(); }

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
    const bool any = !comparison_.cells.empty() || !comparison_.onlyInBaseline.empty() ||
                     !comparison_.onlyInCurrent.empty();
    const std::string headline = any ? driftHeadline(comparison_) : std::string();
    if (!headline.empty())
        notes << (comparison_.policy.drift ? qs(headline).toHtmlEscaped()
                                           : "<b>" + qs(headline).toHtmlEscaped() + "</b>");
    const bool noDrift = any && comparison_.policy.betweenRuns && !comparison_.policy.drift;
    measureDrift_->setVisible(noDrift);
    if (noDrift && comparison_.runSeconds > 0)
        measureDrift_->setToolTip(
            QString("Runs this plan three more times (about %1 min) and keeps how far the runs "
                    "drift apart for this machine; the rows are then judged against it.")
                .arg(std::max(1.0, std::round(3 * comparison_.runSeconds / 60))));
    if (any) {
        // A plain sentence first; the statistics behind each verdict (the first note) open
        // from a link, as a person who wants them asks.
        notes << QString("Each row: how much faster or slower the first strategy is than the "
                         "second at that size, and whether these rounds can tell. <a "
                         "href=\"method\">%1</a>")
                     .arg(showMethod_ ? "Hide how a row is judged" : "How a row is judged…");
        const auto all = comparisonNotes(comparison_);
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (i == 0 && !showMethod_)
                continue;
            const QString text = QString::fromStdString(all[i].text).toHtmlEscaped();
            notes << (all[i].warning ? "<b>" + text + "</b>" : text);
        }
    }
    notes_->setText(notes.join("<br>"));
    notes_->setVisible(!notes.isEmpty());

    model_->setComparison(comparison_);
    table_->resizeColumnsToContents();
    // A "cannot tell" says why in the same words as the Markdown: wrapped in a column of its
    // own width rather than pushing the figures out of view.
    const int verdictWidth = std::clamp(table_->viewport()->width() / 3, 220, 420);
    if (table_->columnWidth(ComparisonModel::VerdictColumn) > verdictWidth)
        table_->setColumnWidth(ComparisonModel::VerdictColumn, verdictWidth);
    table_->resizeRowsToContents();
    // A new comparison starts at its first column, whatever the last one was scrolled to.
    table_->horizontalScrollBar()->setValue(0);
    table_->scrollToTop();
}

} // namespace readscope::ui
