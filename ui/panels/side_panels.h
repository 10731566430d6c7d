#pragma once
// The window's three columns: the configuration panel, the results, the teaching panel. The
// results get every pixel the side panels do not need and never less than kResultsMinWidth;
// either side panel can be dragged shut, or toggled (View menu), on a small screen.
#include <QSplitter>

namespace readscope::ui {

class SidePanels : public QSplitter {
    Q_OBJECT
public:
    enum Panel { Config = 0, Teaching = 2 };
    static constexpr int kConfigWidth = 390, kTeachingWidth = 280, kResultsMinWidth = 420;

    SidePanels(QWidget* config, QWidget* results, QWidget* teaching, QWidget* parent = nullptr);
    // The first start's widths for a window this wide: the teaching panel starts shut below
    // 1280 px, so the chart keeps its room.
    void fitTo(int width);
    bool isShown(Panel panel) const { return sizes().at(panel) > 0; }
    // Opens a shut panel at its width, or shuts an open one; the results take or give the
    // room. True when the panel is now shown.
    bool toggle(Panel panel);
};

} // namespace readscope::ui
