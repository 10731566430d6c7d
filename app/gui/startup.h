#pragma once
// Command-line handling for the desktop app, before and after QApplication exists.
#include <QString>

#include <optional>

namespace readscope::app {

struct StartOptions {
    QString file;        // file to measure
    QString results;     // results document to open
    QString baseline;    // results document to compare against
    QString trace;       // a trace to replay (Pattern::Trace)
    bool run = false;    // start the sweep at once
    QString exportChart; // write the chart of --results here and quit
};

// Handles --help and --version without a display (prints and returns the exit code);
// otherwise returns nullopt and the options parsed.
std::optional<int> handleInfoOptions(int argc, char** argv);
std::optional<StartOptions> parseStartOptions(const QStringList& args, QString* error);

// The file a new user starts with: a generated 256 MiB test file in the cache folder.
QString defaultTestFilePath();

} // namespace readscope::app
