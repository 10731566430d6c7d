#include "frozen_table_view.h"

#include <QHeaderView>
#include <QScrollBar>

namespace readscope::ui {

FrozenTableView::FrozenTableView(int frozenColumns, QWidget* parent)
    : QTableView(parent), frozenColumns_(frozenColumns), frozen_(new QTableView(this)) {
    frozen_->setObjectName("frozenColumns");
    frozen_->setFocusPolicy(Qt::NoFocus);
    frozen_->verticalHeader()->hide();
    frozen_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollMode(ScrollPerPixel);
    frozen_->setStyleSheet("QTableView { border: none; }");
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    // One line of text a row, as a table of figures reads (the style's default is twice that
    // on some desktops), the same in both views.
    const int row = fontMetrics().height() + 8;
    verticalHeader()->setDefaultSectionSize(row);
    frozen_->verticalHeader()->setDefaultSectionSize(row);
    setWordWrap(false);
    frozen_->setWordWrap(false);
    viewport()->stackUnder(frozen_);
    // Up and down together; a wheel over the frozen columns scrolls the table.
    connect(verticalScrollBar(), &QScrollBar::valueChanged, frozen_->verticalScrollBar(),
            &QScrollBar::setValue);
    connect(frozen_->verticalScrollBar(), &QScrollBar::valueChanged, verticalScrollBar(),
            &QScrollBar::setValue);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int column, int, int size) {
                if (column < frozenColumns_) {
                    frozen_->setColumnWidth(column, size);
                    updateFrozenGeometry();
                }
            });
    // A frozen column resized by its own header resizes the table's (which lies under it).
    connect(frozen_->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int column, int, int size) {
                if (column < frozenColumns_ && columnWidth(column) != size)
                    setColumnWidth(column, size);
            });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int row, int, int size) { frozen_->setRowHeight(row, size); });
    // Sorting from either header sorts the one model both show.
    connect(frozen_->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int column) {
        const auto order = horizontalHeader()->sortIndicatorSection() == column &&
                                   horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder
                               ? Qt::DescendingOrder
                               : Qt::AscendingOrder;
        sortByColumn(column, order);
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) {
                frozen_->horizontalHeader()->setSortIndicatorShown(column < frozenColumns_);
                frozen_->horizontalHeader()->setSortIndicator(column, order);
            });
}

void FrozenTableView::setModel(QAbstractItemModel* model) {
    QTableView::setModel(model);
    frozen_->setModel(model);
    frozen_->setSelectionModel(selectionModel());
    frozen_->setSelectionBehavior(SelectRows);
    connect(model, &QAbstractItemModel::modelReset, this, &FrozenTableView::syncColumns);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenTableView::syncColumns);
    connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenTableView::syncColumns);
    syncColumns();
}

void FrozenTableView::setSelectionMode(SelectionMode mode) {
    QTableView::setSelectionMode(mode);
    frozen_->setSelectionMode(mode);
}

void FrozenTableView::syncColumns() {
    if (!model())
        return;
    for (int col = 0; col < model()->columnCount(); ++col) {
        frozen_->setColumnHidden(col, col >= frozenColumns_);
        if (col < frozenColumns_)
            frozen_->setColumnWidth(col, columnWidth(col));
    }
    frozen_->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    updateFrozenGeometry();
}

int FrozenTableView::frozenWidth() const {
    int width = 0;
    for (int col = 0; col < frozenColumns_ && model() && col < model()->columnCount(); ++col)
        width += columnWidth(col);
    return width;
}

void FrozenTableView::updateFrozenGeometry() {
    frozen_->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    frozen_->setGeometry(verticalHeader()->width() + frameWidth(), frameWidth(), frozenWidth(),
                         viewport()->height() + horizontalHeader()->height());
    frozen_->verticalScrollBar()->setValue(verticalScrollBar()->value());
}

void FrozenTableView::scrollToStart() {
    horizontalScrollBar()->setValue(horizontalScrollBar()->minimum());
    verticalScrollBar()->setValue(verticalScrollBar()->minimum());
}

void FrozenTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

// The keyboard moving the current cell right of the frozen columns scrolls it out from under
// them.
QModelIndex FrozenTableView::moveCursor(CursorAction cursorAction,
                                        Qt::KeyboardModifiers modifiers) {
    QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    if (cursorAction == MoveLeft && current.column() >= frozenColumns_ &&
        visualRect(current).topLeft().x() < frozenWidth()) {
        const int newValue =
            horizontalScrollBar()->value() + visualRect(current).topLeft().x() - frozenWidth();
        horizontalScrollBar()->setValue(newValue);
    }
    return current;
}

// A cell of the frozen columns is always in view sideways: only its row needs scrolling to.
void FrozenTableView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    const int sideways = horizontalScrollBar()->value();
    QTableView::scrollTo(index, hint);
    if (index.column() < frozenColumns_)
        horizontalScrollBar()->setValue(sideways);
}

} // namespace readscope::ui
