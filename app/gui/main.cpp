// readscope: the desktop app.
#include "config_panel.h"
#include "generate_dialog.h"
#include "main_window.h"
#include "recovery_file.h"
#include "recovery_offer.h"
#include "result_exports.h"
#include "startup.h"

#include "readscope/generator.h"
#include "readscope/system_info.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
    if (auto code = readscope::app::handleInfoOptions(argc, argv))
        return *code;
    QApplication app(argc, argv);
    QApplication::setApplicationName("readscope");
    QApplication::setOrganizationName("readscope");
    QApplication::setApplicationVersion(QString::fromStdString(readscope::toolVersion()));
    QApplication::setDesktopFileName("io.github.readscope.readscope");

    QString error;
    auto options = readscope::app::parseStartOptions(QApplication::arguments(), &error);
    if (!options) {
        std::fprintf(stderr, "readscope: %s\n", qPrintable(error));
        return 2;
    }
    readscope::ui::MainWindow window;
    if (!options->exportChart.isEmpty()) {
        QString e = window.openResults(options->results);
        if (e.isEmpty())
            e = window.exports().exportChart(options->exportChart);
        if (!e.isEmpty()) {
            std::fprintf(stderr, "readscope: %s\n", qPrintable(e));
            return 1;
        }
        return 0;
    }
    window.restoreSettings();
    window.show();
    if (readscope::ui::recoveryFileExists())
        readscope::ui::offerRecovery(window);

    // Finishing a recovered run: its file is chosen and being read; nothing else is opened
    // (inspecting another file, or loading results, would disturb or refuse it).
    const bool finishing = window.isRunning();
    QString file = finishing ? QString() : options->file;
    if (!finishing && file.isEmpty() && window.config()->filePath().isEmpty()) {
        file = readscope::app::defaultTestFilePath();
        if (!QFileInfo::exists(file)) {
            QString why;
            if (!readscope::ui::generateWithProgress(&window, file, readscope::kDefaultTestFileSize,
                                                     &why)) {
                QMessageBox::warning(&window, "readscope",
                                     "Could not generate the default test file: " + why);
                file.clear();
            }
        }
    }
    if (!file.isEmpty())
        window.openTargetFile(file);
    if (!finishing && !options->results.isEmpty()) {
        if (const QString e = window.openResults(options->results); !e.isEmpty())
            std::fprintf(stderr, "readscope: %s\n", qPrintable(e));
    }
    if (!finishing && !options->trace.isEmpty()) {
        if (const QString e = window.openTrace(options->trace); !e.isEmpty()) {
            std::fprintf(stderr, "readscope: %s\n", qPrintable(e));
            QMessageBox::warning(&window, "Open trace", e);
        }
    }
    if (!options->baseline.isEmpty()) {
        if (const QString e = window.loadBaseline(options->baseline); !e.isEmpty())
            std::fprintf(stderr, "readscope: %s\n", qPrintable(e));
    }
    if (options->run) {
        // After the file has been looked at (in the background), or at once without a file.
        if (window.isInspectingFile())
            QObject::connect(
                &window, &readscope::ui::MainWindow::fileInspected, &window,
                [&window](bool ok) {
                    if (ok)
                        window.startRun();
                },
                Qt::SingleShotConnection);
        else
            QTimer::singleShot(0, &window, [&window] { window.startRun(); });
    }
    return QApplication::exec();
}
