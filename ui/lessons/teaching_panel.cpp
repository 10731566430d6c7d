#include "teaching_panel.h"

#include "explanation_html.h"
#include "offset_verdict.h"

#include <QSettings>

namespace readscope::ui {

TeachingPanel::TeachingPanel(QWidget* parent) : QTextBrowser(parent) {
    setObjectName("explanation");
    setMinimumWidth(220);
}

void TeachingPanel::explain(const QString& id, const ResultDocument& doc) {
    explained_ = id;
    const auto band = rememberedSlowBand(QSettings(), doc);
    if (const QString html = strategyHtml(id.toStdString(), doc, band ? &*band : nullptr);
        !html.isEmpty())
        setHtml(html);
}

void TeachingPanel::showOffsetVerdict(const ResultDocument& doc, bool remember) {
    const auto verdict = offsetVerdictView(doc);
    if (!verdict)
        return;
    setHtml(verdict->html);
    if (remember) {
        QSettings s;
        rememberOffsetVerdict(s, doc);
    }
}

} // namespace readscope::ui
