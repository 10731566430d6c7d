#include "cli_platform.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#ifdef _WIN32
#include <io.h>
#include <process.h>
#else
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace readscope::cli {

namespace fs = std::filesystem;

namespace {
volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int) { gInterrupted = 1; }
#ifndef _WIN32
struct sigaction gOldInt {
}, gOldTerm{};
#endif
} // namespace

Result<std::string> makeTempDir(const std::string& prefix) {
#ifdef _WIN32
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    if (ec)
        return Error{fmt::format("cannot find the temporary folder: {}", ec.message())};
    std::random_device rd;
    for (int attempt = 0; attempt < 16; ++attempt) {
        const fs::path dir = base / fmt::format("{}-{:08x}", prefix, rd());
        if (fs::create_directory(dir, ec))
            return dir.string();
    }
    return Error{fmt::format("cannot create a temporary folder in '{}': {}", base.string(),
                             ec ? ec.message() : "every name was taken")};
#else
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/{}-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    if (!::mkdtemp(pattern.data()))
        return Error{fmt::format("cannot create a temporary folder '{}': {}", pattern,
                                 std::strerror(errno))};
    return pattern;
#endif
}

int processId() {
#ifdef _WIN32
    return _getpid();
#else
    return static_cast<int>(::getpid());
#endif
}

std::string dropCachesRefusal() {
#ifdef __linux__
    if (::geteuid() == 0)
        return {};
    return "--drop-caches needs root; without it, cold mode evicts the file with "
           "posix_fadvise, which needs no privileges";
#elif defined(_WIN32)
    return "--drop-caches exists on Linux only; on Windows cold mode flushes the file by "
           "opening it with FILE_FLAG_NO_BUFFERING";
#else
    return "--drop-caches exists on Linux only";
#endif
}

bool stderrIsTerminal() {
#ifdef _WIN32
    return _isatty(_fileno(stderr)) != 0;
#else
    return ::isatty(STDERR_FILENO) == 1;
#endif
}

void catchInterrupts() {
    gInterrupted = 0;
#ifdef _WIN32
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::signal(SIGBREAK, onInterrupt);
#else
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &gOldInt);
    sigaction(SIGTERM, &sa, &gOldTerm);
#endif
}

void restoreInterrupts() {
#ifdef _WIN32
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGBREAK, SIG_DFL);
#else
    sigaction(SIGINT, &gOldInt, nullptr);
    sigaction(SIGTERM, &gOldTerm, nullptr);
#endif
}

bool interrupted() { return gInterrupted != 0; }

Status checkOutputPath(const std::string& path, std::string_view flag, const std::string& target,
                       std::string_view targetIs) {
    const fs::path p(path);
    const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(parent, ec))
        return Error{fmt::format("{} '{}': the folder '{}' does not exist; create it first", flag,
                                 path, parent.string())};
    if (fs::is_directory(p, ec))
        return Error{fmt::format("{} '{}' is a directory: give a file name", flag, path)};
    if (!target.empty() && fs::exists(p, ec) && fs::equivalent(p, target, ec))
        return Error{fmt::format("{} '{}' is {}: readscope never writes to it; choose another "
                                 "output path",
                                 flag, path, targetIs)};
    return okStatus();
}

std::string findProgram(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (!path || name.find('/') != std::string::npos)
        return {};
    std::string dirs = path;
    std::size_t at = 0;
    while (at <= dirs.size()) {
        auto end = dirs.find(':', at);
        if (end == std::string::npos)
            end = dirs.size();
        const fs::path candidate = fs::path(dirs.substr(at, end - at)) / name;
        std::error_code ec;
        if (end > at && fs::is_regular_file(candidate, ec) &&
            (fs::status(candidate, ec).permissions() & fs::perms::owner_exec) != fs::perms::none)
            return candidate.string();
        at = end + 1;
    }
    return {};
}

Result<int> runProgram(const std::vector<std::string>& argv) {
#ifdef _WIN32
    (void)argv;
    return Error{"starting a program to record is not supported on Windows"};
#else
    if (argv.empty())
        return Error{"no program to run"};
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (int err = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ); err != 0)
        return Error{fmt::format("cannot start '{}': {}", argv[0], std::strerror(err))};
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return Error{fmt::format("waiting for '{}': {}", argv[0], std::strerror(errno))};
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
#endif
}

} // namespace readscope::cli
