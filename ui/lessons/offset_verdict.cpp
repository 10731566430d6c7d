#include "offset_verdict.h"

#include "settings_store.h"

#include "readscope/finding_text.h"

namespace readscope::ui {

std::optional<OffsetVerdictView> offsetVerdictView(const ResultDocument& doc) {
    const auto verdict = judgeOffsetSweep(doc);
    if (!verdict)
        return std::nullopt;
    OffsetVerdictView view;
    view.text = QString::fromStdString(offsetVerdictText(*verdict));
    view.html = QString("<h3>Where the buffer lands: this machine's verdict</h3><p>%1</p>"
                        "<p><i>Select a cell to see where its buffers started (Details, and "
                        "the table's Buffers column).</i></p>")
                    .arg(view.text.toHtmlEscaped());
    return view;
}

void rememberOffsetVerdict(QSettings& s, const ResultDocument& doc) {
    if (const auto verdict = judgeOffsetSweep(doc))
        saveSlowBand(s, doc.system.cpuModel, QString::fromStdString(offsetVerdictText(*verdict)),
                     slowBand(*verdict));
}

std::optional<SlowBand> rememberedSlowBand(const QSettings& s, const ResultDocument& doc) {
    return loadSlowBand(s, doc.system.cpuModel);
}

} // namespace readscope::ui
