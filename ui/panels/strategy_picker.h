#pragma once
// Strategies grouped by family, each with its one-line summary; unavailable ones greyed out
// with the reason as tooltip. Selecting one shows its explanation.
#include "readscope/probe.h"

#include <QTreeWidget>

namespace readscope::ui {

class StrategyPicker : public QTreeWidget {
    Q_OBJECT
public:
    explicit StrategyPicker(QWidget* parent = nullptr);

    std::vector<std::string> checkedIds() const; // in table order
    void setChecked(const std::vector<std::string>& ids);
    void setAvailability(const FileProbe* probe); // nullptr: no file yet, all enabled

signals:
    void selectionChanged();
    void strategyFocused(const QString& id);

private:
    QTreeWidgetItem* itemFor(const QString& id) const;
};

} // namespace readscope::ui
