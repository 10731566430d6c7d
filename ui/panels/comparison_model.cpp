#include "comparison_model.h"
#include "qt_text.h"

#include "readscope/comparison_text.h"

#include <QColor>

namespace readscope::ui {

namespace {

QColor verdictColor(Outcome v) {
    switch (v) {
    case Outcome::Faster: return QColor(0x2c, 0xa0, 0x2c);
    case Outcome::Slower: return QColor(0xd6, 0x27, 0x28);
    default: return {};
    }
}

} // namespace

void ComparisonModel::setComparison(const Comparison& comparison) {
    beginResetModel();
    comparison_ = comparison;
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(comparison_.cells.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& cc = comparison_.cells[std::size_t(index.row())];
    const int column = index.column();
    if (role == Qt::DisplayRole) {
        const auto r = comparisonRowText(cc);
        switch (Column(column)) {
        case Who: return qs(r.who);
        case Point: return qs(r.point);
        case Change: return qs(r.change);
        case VerdictColumn: return qs(r.verdict);
        case Interval: return qs(r.interval);
        case P: return qs(r.p);
        case Baseline: return qs(r.baseline);
        case Current: return qs(r.current);
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && column != Who && column != VerdictColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole && column == VerdictColumn)
        if (const QColor c = verdictColor(cc.verdict.outcome); c.isValid())
            return c;
    if (role == Qt::ToolTipRole && column == VerdictColumn)
        if (const auto why = causeText(cc); !why.empty())
            return qs(why);
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    static const char* const names[] = {
        "Strategy", "Range",         "Change",      "Verdict", "Interval (coverage)",
        "p",        "Baseline GB/s", "Current GB/s"};
    return QString(names[section]);
}

} // namespace readscope::ui
