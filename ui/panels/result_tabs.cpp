#include "result_tabs.h"

#include "cell_details.h"
#include "chart_view.h"
#include "compare_view.h"
#include "frozen_table_view.h"
#include "results_model.h"

#include <QHeaderView>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QTextBrowser>
#include <QTime>

namespace readscope::ui {

ResultTabs::ResultTabs(ResultsModel* model, QWidget* parent)
    : QTabWidget(parent), model_(model), proxy_(new QSortFilterProxyModel(this)),
      chart_(new ChartView(model)), table_(new FrozenTableView(ResultsModel::Range + 1)),
      compare_(new CompareView), details_(new QTextBrowser), log_(new QPlainTextEdit) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ResultsModel::SortRole);
    // Strategy and Range stay in view while the figures scroll sideways.
    table_->setObjectName("resultsTable");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    // By range size; cells of one size keep the plan's strategy order (a stable sort).
    table_->sortByColumn(ResultsModel::Range, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setStretchLastSection(true);
    // Status (noisy, two speeds, not cold) says whether the figures beside it can be trusted:
    // shown right after them, not past the percentiles and buffers off a 1024 px window.
    table_->horizontalHeader()->moveSection(
        table_->horizontalHeader()->visualIndex(ResultsModel::Status),
        table_->horizontalHeader()->visualIndex(ResultsModel::Max) + 1);
    table_->verticalHeader()->hide();
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showDetailsFor(current); });
    // The selected cell's Details follow its figures as they change (a refinement's rounds
    // arrive for cells already shown), not only when another row is selected.
    connect(model_, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                const QModelIndex current =
                    proxy_->mapToSource(table_->selectionModel()->currentIndex());
                if (current.isValid() && current.row() >= topLeft.row() &&
                    current.row() <= bottomRight.row())
                    refreshDetails(current.row());
            });
    // Columns that say nothing for this run go, and come back when a run gives them meaning.
    const auto hideEmptyColumns = [this] {
        for (int col = 0; col < ResultsModel::ColumnCount; ++col)
            table_->setColumnHidden(col, model_->columnSaysNothing(col));
    };
    connect(model_, &QAbstractItemModel::modelReset, this, hideEmptyColumns);
    connect(model_, &QAbstractItemModel::rowsInserted, this, hideEmptyColumns);
    hideEmptyColumns();
    details_->setObjectName("details");
    details_->setPlaceholderText("Select a row in the Table tab to see what that cell measured.");
    log_->setReadOnly(true);
    addTab(chart_, "Chart");
    addTab(table_, "Table");
    addTab(compare_, "Compare");
    addTab(details_, "Details");
    logTab_ = addTab(log_, "Log");
}

void ResultTabs::log(const QString& message, bool warning) {
    log_->appendPlainText(QTime::currentTime().toString("HH:mm:ss  ") +
                          (warning ? "warning: " : "") + message);
    if (warning)
        setTabText(logTab_, QString("Log (%1)").arg(++warnings_));
}

QString ResultTabs::logText() const { return log_->toPlainText(); }

void ResultTabs::clearWarningCount() {
    warnings_ = 0;
    setTabText(logTab_, "Log");
}

void ResultTabs::step(int by) { setCurrentIndex((currentIndex() + by + count()) % count()); }

void ResultTabs::refreshDetails(int row) {
    if (const Cell* cell = model_->cellAt(row))
        details_->setHtml(cellDetailsHtml(*cell, model_->document()));
}

void ResultTabs::showDetailsFor(const QModelIndex& proxyIndex) {
    const Cell* cell = model_->cellAt(proxy_->mapToSource(proxyIndex).row());
    details_->setHtml(cell ? cellDetailsHtml(*cell, model_->document()) : QString());
    if (cell)
        emit strategySelected(QString::fromStdString(cell->strategy));
}

} // namespace readscope::ui
