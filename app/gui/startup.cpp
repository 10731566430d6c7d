#include "startup.h"

#include "readscope/generator.h"
#include "readscope/system_info.h"
#include "readscope/user_folders.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QStringList>

#include <cstdio>
#include <cstring>

namespace readscope::app {

namespace {
constexpr const char* kHelp =
    R"(Usage: readscope [FILE] [--trace TRACE] [--results RESULTS.json] [--run]

The readscope desktop app: pick a file, range sizes and strategies, press Run, and watch GB/s
per range size fill in. Without FILE it opens the last file, or generates a 256 MiB test file
in the cache folder on first start.

Options:
  --results PATH   open a saved result document (JSON or CSV summary)
  --baseline PATH  load a saved result document as the baseline to compare against
  --trace PATH     replay a program's recorded reads of FILE (readscope-cli record)
  --run            start the sweep right away
  --export-chart PATH
                   with --results: write its chart (.png, .pdf or .svg) and quit
                   (works headless with QT_QPA_PLATFORM=offscreen)
  -h, --help       this text
  --version        print the version

For machines without a display, use readscope-cli.
)";
} // namespace

std::optional<int> handleInfoOptions(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::fputs(kHelp, stdout);
            return 0;
        }
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("readscope %s\n", readscope::toolVersion().c_str());
            return 0;
        }
    }
    return std::nullopt;
}

std::optional<StartOptions> parseStartOptions(const QStringList& args, QString* error) {
    StartOptions o;
    for (int i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == "--run") {
            o.run = true;
        } else if (a == "--results") {
            if (i + 1 >= args.size()) {
                *error = "--results needs a path";
                return std::nullopt;
            }
            o.results = args[++i];
        } else if (a == "--trace") {
            if (i + 1 >= args.size()) {
                *error = "--trace needs a path";
                return std::nullopt;
            }
            o.trace = args[++i];
        } else if (a == "--baseline") {
            if (i + 1 >= args.size()) {
                *error = "--baseline needs a path";
                return std::nullopt;
            }
            o.baseline = args[++i];
        } else if (a == "--export-chart") {
            if (i + 1 >= args.size()) {
                *error = "--export-chart needs a path";
                return std::nullopt;
            }
            o.exportChart = args[++i];
        } else if (a.startsWith("-")) {
            *error = QString("unknown option '%1' (see 'readscope --help')").arg(a);
            return std::nullopt;
        } else {
            o.file = a;
        }
    }
    if (!o.exportChart.isEmpty() && o.results.isEmpty()) {
        *error = "--export-chart needs --results: the document whose chart to write";
        return std::nullopt;
    }
    return o;
}

QString defaultTestFilePath() {
    const QString name =
        QString("readscope-default-%1M.bin").arg(readscope::kDefaultTestFileSize >> 20);
    // Earlier versions generated it in Qt's cache folder (doubled by the organization's
    // name): that copy is the app's own, and goes rather than stay behind unused.
    QFile::remove(
        QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath(name));
    return QDir(QString::fromStdString(readscope::cacheFolder())).filePath(name);
}

} // namespace readscope::app
