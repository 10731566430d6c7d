#include "chart_renderer.h"

#ifdef READSCOPE_CLI_CHART
#include "chart_file.h"

#include <QApplication>
#include <QDir>
#include <QLibraryInfo>

#include <memory>
#endif

namespace readscope::cli {

#ifndef READSCOPE_CLI_CHART
Status renderChart(const ResultDocument&, const std::string&) {
    return Error{"this readscope-cli is built without Qt, so no chart was rendered; the report "
                 "has the table and the JSON"};
}
#else
namespace {

// Whether Qt can start without a display: its offscreen platform plugin is installed (Debian:
// qt6-qpa-plugins). Without it QApplication would abort the whole program.
bool offscreenAvailable() {
    QStringList folders = qEnvironmentVariable("QT_PLUGIN_PATH").split(':', Qt::SkipEmptyParts);
    folders << QLibraryInfo::path(QLibraryInfo::PluginsPath);
    for (const auto& folder : folders)
        if (!QDir(folder + "/platforms").entryList({"*qoffscreen*"}, QDir::Files).isEmpty())
            return true;
    return false;
}

} // namespace

Status renderChart(const ResultDocument& doc, const std::string& chartPath) {
    std::unique_ptr<QApplication> app;
    if (!QCoreApplication::instance()) {
        if (!offscreenAvailable())
            return Error{"Qt's offscreen platform plugin is not installed (Debian: "
                         "qt6-qpa-plugins), so no chart was rendered"};
        static int argc = 3;
        static char name[] = "readscope-cli", platform[] = "-platform", offscreen[] = "offscreen";
        static char* argv[] = {name, platform, offscreen, nullptr};
        app = std::make_unique<QApplication>(argc, argv);
    }
    const QString error = ui::saveDocumentChart(doc, QString::fromStdString(chartPath));
    if (!error.isEmpty())
        return Error{error.toStdString()};
    return okStatus();
}
#endif

} // namespace readscope::cli
