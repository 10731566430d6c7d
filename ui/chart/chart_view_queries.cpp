// What tests and the window ask the chart about what it drew: its lines, their points.
#include "chart_graphs.h"
#include "chart_view.h"

#include <qcustomplot.h>

#include <cmath>

namespace readscope::ui {

int ChartView::graphCountForStrategies() const {
    int n = 0;
    for (int i = 0; i < plot_->graphCount(); ++i)
        n += plot_->graph(i)->property(kStrategyProperty).isValid() ? 1 : 0;
    return n;
}

int ChartView::baselineGraphCount() const {
    int n = 0;
    for (int i = 0; i < plot_->graphCount(); ++i)
        n += plot_->graph(i)->property(kBaselineProperty).toBool() ? 1 : 0;
    return n;
}

double ChartView::pointValue(const QString& strategy, double rangeBytes) const {
    for (int i = 0; i < plot_->graphCount(); ++i)
        if (plot_->graph(i)->property(kStrategyProperty).toString() == strategy) {
            auto it = plot_->graph(i)->data()->findBegin(rangeBytes, false);
            if (it != plot_->graph(i)->data()->constEnd() && it->key == rangeBytes)
                return it->value;
        }
    return std::nan("");
}

int ChartView::pointCount(const QString& strategy) const {
    for (int i = 0; i < plot_->graphCount(); ++i)
        if (plot_->graph(i)->property(kStrategyProperty).toString() == strategy)
            return plot_->graph(i)->dataCount();
    return 0;
}

} // namespace readscope::ui
