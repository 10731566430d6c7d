#include "side_panels.h"

#include <algorithm>

namespace readscope::ui {

SidePanels::SidePanels(QWidget* config, QWidget* results, QWidget* teaching, QWidget* parent)
    : QSplitter(parent) {
    setObjectName("mainSplitter");
    addWidget(config);
    addWidget(results);
    addWidget(teaching);
    results->setMinimumWidth(kResultsMinWidth);
    setCollapsible(1, false);
    setStretchFactor(1, 1);
}

void SidePanels::fitTo(int width) {
    const int teaching = width >= 1280 ? kTeachingWidth : 0;
    setSizes({kConfigWidth, width - kConfigWidth - teaching, teaching});
}

bool SidePanels::toggle(Panel panel) {
    auto now = sizes();
    const bool show = now[panel] == 0;
    const int want = show ? (panel == Config ? kConfigWidth : kTeachingWidth) : 0;
    now[1] = std::max(kResultsMinWidth, now[1] + now[panel] - want);
    now[panel] = want;
    setSizes(now);
    return show;
}

} // namespace readscope::ui
