#pragma once
// The Compare tab's rows as a model: one row per compared cell, with what changed and whether
// it is real first (so both stay in view on a narrow window) and the medians last; the same
// text as the Markdown and the terminal (comparisonRowText), the verdict coloured, its reason
// as its tooltip.
#include "readscope/compare.h"

#include <QAbstractTableModel>

namespace readscope::ui {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Who, Point, Change, VerdictColumn, Interval, P, Baseline, Current, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setComparison(const Comparison& comparison);
    const Comparison& comparison() const { return comparison_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    Comparison comparison_;
};

} // namespace readscope::ui
