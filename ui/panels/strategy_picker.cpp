#include "strategy_picker.h"
#include "qt_text.h"

#include "readscope/strategy.h"

#include <QHeaderView>

namespace readscope::ui {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
} // namespace

StrategyPicker::StrategyPicker(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(2);
    setHeaderLabels({"Strategy", "What it does per range"});
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    std::map<std::string_view, QTreeWidgetItem*> families;
    for (const StrategyInfo* strategy : offeredStrategies()) {
        const StrategyInfo& s = *strategy;
        auto*& family = families[s.family];
        if (!family) {
            family = new QTreeWidgetItem(this, {qs(s.family)});
            family->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
            family->setFirstColumnSpanned(false);
            family->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(family, {qs(s.id), qs(s.summary)});
        item->setData(0, kIdRole, qs(s.id));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(0, Qt::Unchecked);
        // The whole description, wrapped (rich text), on either column: the summary column is
        // cut short at any usable width.
        const QString tip = QString("<p><b>%1</b> (%2)<br>%3</p>")
                                .arg(qs(s.name).toHtmlEscaped(), qs(s.id).toHtmlEscaped(),
                                     qs(s.summary).toHtmlEscaped());
        item->setToolTip(0, tip);
        item->setToolTip(1, tip);
    }
    connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem*, int column) {
        if (column == 0)
            emit selectionChanged();
    });
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, kIdRole).isValid())
            emit strategyFocused(item->data(0, kIdRole).toString());
    });
}

QTreeWidgetItem* StrategyPicker::itemFor(const QString& id) const {
    for (QTreeWidgetItemIterator it(const_cast<StrategyPicker*>(this)); *it; ++it)
        if ((*it)->data(0, kIdRole).toString() == id)
            return *it;
    return nullptr;
}

std::vector<std::string> StrategyPicker::checkedIds() const {
    std::vector<std::string> ids;
    for (const StrategyInfo* strategy : offeredStrategies()) {
        const StrategyInfo& s = *strategy;
        const auto* item = itemFor(qs(s.id));
        if (item && item->checkState(0) == Qt::Checked && !item->isDisabled())
            ids.emplace_back(s.id);
    }
    return ids;
}

// Both say the selection changed once, after the items: the blocker (one signal per item
// otherwise) is lifted first, or the signal would be blocked too.
void StrategyPicker::setChecked(const std::vector<std::string>& ids) {
    QSignalBlocker blocker(this);
    for (const StrategyInfo* s : offeredStrategies())
        if (auto* item = itemFor(qs(s->id)))
            item->setCheckState(0, std::find(ids.begin(), ids.end(), s->id) != ids.end()
                                       ? Qt::Checked
                                       : Qt::Unchecked);
    blocker.unblock();
    emit selectionChanged();
}

void StrategyPicker::setAvailability(const FileProbe* probe) {
    QSignalBlocker blocker(this);
    for (const StrategyInfo* strategy : offeredStrategies()) {
        const StrategyInfo& s = *strategy;
        auto* item = itemFor(qs(s.id));
        if (!item)
            continue;
        const Availability a = probe ? availability(s, *probe) : Availability{};
        item->setDisabled(!a.available);
        item->setToolTip(0, a.available ? qs(s.name)
                                        : QString("%1 — unavailable: %2")
                                              .arg(qs(s.name), QString::fromStdString(a.reason)));
        item->setToolTip(1, item->toolTip(0));
    }
    blocker.unblock();
    emit selectionChanged();
}

} // namespace readscope::ui
