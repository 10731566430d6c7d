#pragma once
// A table whose first columns stay in view while the rest scroll sideways, as a spreadsheet's
// frozen panes: a second view over the same model and selection lies on top of the first
// columns and scrolls only up and down with the table (Qt's frozen column example).
#include <QTableView>

namespace readscope::ui {

class FrozenTableView : public QTableView {
    Q_OBJECT
public:
    explicit FrozenTableView(int frozenColumns, QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;
    QTableView* frozenView() const { return frozen_; }
    // The same selection mode for the frozen columns (they share the selection).
    void setSelectionMode(SelectionMode mode);
    // Back to the top left corner: a new run's rows start where a person reads first.
    void scrollToStart();

protected:
    void resizeEvent(QResizeEvent* event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

private:
    void updateFrozenGeometry();
    void syncColumns();
    int frozenWidth() const;
    int frozenColumns_;
    QTableView* frozen_;
};

} // namespace readscope::ui
