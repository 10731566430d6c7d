#include "chart_renderer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#ifndef _WIN32
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

namespace readscope::cli {

#ifdef _WIN32
Status renderChart(const std::string&, const std::string&) {
    return Error{"the desktop app is not built for Windows, so no chart was rendered; the "
                 "report has the table and the JSON"};
}
#else
namespace {

std::string appBesideUs() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    // The build tree puts the app in ../gui/, an installation in the same bin/ folder.
    for (const auto& candidate :
         {self.parent_path() / "readscope", self.parent_path().parent_path() / "gui" / "readscope"})
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    return {};
}

} // namespace

Status renderChart(const std::string& resultsJson, const std::string& chartPath) {
    const std::string app = appBesideUs();
    if (app.empty())
        return Error{"the desktop app 'readscope' is not installed beside readscope-cli, so no "
                     "chart was rendered"};
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "QT_QPA_PLATFORM=", 16) != 0)
            env.emplace_back(*e);
    env.emplace_back("QT_QPA_PLATFORM=offscreen");
    std::vector<char*> envp;
    for (auto& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string a0 = app, a1 = "--results", a2 = resultsJson, a3 = "--export-chart", a4 = chartPath;
    char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), a4.data(), nullptr};
    pid_t pid = 0;
    if (int rc = posix_spawn(&pid, app.c_str(), nullptr, nullptr, argv, envp.data()); rc != 0)
        return Error{fmt::format("could not start '{}': {}", app, std::strerror(rc))};
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return Error{fmt::format("'{}' could not render the chart (exit status {})", app,
                                 WIFEXITED(status) ? WEXITSTATUS(status) : -1)};
    return okStatus();
}

#endif

} // namespace readscope::cli
