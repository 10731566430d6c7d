#include "chart_renderer.h"

#ifdef READSCOPE_CLI_CHART
#include "chart_file.h"

#include <fmt/format.h>

#include <QApplication>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>
#endif

namespace readscope::cli {

#ifndef READSCOPE_CLI_CHART
Status renderChart(const ResultDocument&, const std::string&, ReportChart) {
    return Error{"this readscope-cli is built without Qt, so no chart was rendered; the report "
                 "has the table and the JSON"};
}
#else
namespace {

// In this process: an offscreen QApplication (whatever display there is), the chart, gone.
Status drawChart(const ResultDocument& doc, const std::string& chartPath, ReportChart which) {
    int argc = 3;
    char name[] = "readscope-cli", platform[] = "-platform", offscreen[] = "offscreen";
    char* argv[] = {name, platform, offscreen, nullptr};
    QApplication app(argc, argv);
    const QString error = ui::saveDocumentChart(doc, QString::fromStdString(chartPath), which);
    if (!error.isEmpty())
        return Error{error.toStdString()};
    return okStatus();
}

} // namespace

// Drawn in a child process: Qt aborts the process it runs in when it cannot start (no
// offscreen platform plugin, a library missing), and the run's report, findings and exit
// status must not go with it. The child's locale and Qt state go with the child, too.
Status renderChart(const ResultDocument& doc, const std::string& chartPath, ReportChart which) {
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0)
        return Error{fmt::format("could not start the chart's renderer: {}", std::strerror(errno))};
    if (child == 0) {
        const Status st = drawChart(doc, chartPath, which);
        if (!st)
            std::fprintf(stderr, "readscope-cli: %s\n", st.error().message.c_str());
        std::fflush(nullptr);
        ::_exit(st ? 0 : 1);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return okStatus();
    return Error{WIFEXITED(status)
                     ? std::string("no chart was rendered (see above)")
                     : "no chart was rendered: Qt could not start offscreen (Debian: is "
                       "qt6-qpa-plugins installed?)"};
}
#endif

} // namespace readscope::cli
