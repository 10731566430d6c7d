// The configuration panel's fields: their presets, the boxes they are made of, and the
// sentences they show.
#include "config_fields.h"

#include "config_panel.h"

#include "readscope/plan_help.h"
#include "readscope/units.h"

#include <QComboBox>
#include <QSpinBox>
#include <QStringList>

namespace readscope::ui {

QString sizeListText(const std::vector<std::uint64_t>& sizes) {
    QStringList parts;
    for (auto s : sizes)
        parts << QString::fromStdString(formatSizeShort(s));
    return parts.join(",");
}

QString helpTip(const std::string& help) {
    return "<p>" + QString::fromStdString(help).toHtmlEscaped().replace("\n", "<br>") + "</p>";
}

const std::vector<std::pair<QString, QString>>& ConfigPanel::sizePresets() {
    static const std::vector<std::pair<QString, QString>> presets = {
        {"Parquet pages: 16 KiB - 8 MiB", "16K,64K,256K,1M,8M"},
        {"Small: 4 - 64 KiB", "4K,8K,16K,32K,64K"},
        {"Full: 4 KiB - 64 MiB", "4K,16K,64K,256K,1M,4M,16M,64M"},
        {"Custom", ""}};
    return presets;
}

const std::vector<std::pair<QString, QString>>& ConfigPanel::fileSizePresets() {
    static const std::vector<std::pair<QString, QString>> presets = {
        {"The file itself, whole", ""},
        {"read_to_end sweep: 128 B - 32 MiB", "128,1K,8K,64K,512K,2M,8M,32M"},
        {"Custom", ""}};
    return presets;
}

// An editable box for a value or a list (threads, queue depth, buffer offset), with presets.
// No completer: it would fill a typed "1,2,4" out to the "1,2,4,8" preset as a person types,
// a sweep nobody asked for.
QComboBox* listBox(QWidget* parent, const char* name, const QStringList& presets) {
    auto* box = new QComboBox(parent);
    box->setObjectName(name);
    box->setEditable(true);
    box->addItems(presets);
    box->setCompleter(nullptr);
    return box;
}

QSpinBox* memoryLimitBox(QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setObjectName("memoryLimit");
    box->setRange(0, 1 << 20);
    box->setSuffix(" MiB");
    box->setSpecialValueText("off");
    box->setToolTip(helpTip(memoryLimitHelp() + " off: no limit."));
    return box;
}

QSpinBox* durationBox(QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setObjectName("duration");
    box->setRange(0, int(kMaxDurationSeconds));
    box->setSuffix(" s");
    box->setSpecialValueText("off");
    box->setToolTip(helpTip(durationHelp() +
                            "\nChart ▸ GB/s over time shows each round when it ran. off: the "
                            "Rounds field says."));
    return box;
}

// Fills a preset box; the last entry (Custom) carries no list, so choosing it keeps the text.
void fillPresets(QComboBox* box, const std::vector<std::pair<QString, QString>>& presets) {
    box->clear();
    for (std::size_t i = 0; i < presets.size(); ++i)
        box->addItem(presets[i].first,
                     i + 1 < presets.size() ? QVariant(presets[i].second) : QVariant());
}

} // namespace readscope::ui
