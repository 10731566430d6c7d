#include "cli_platform.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>
#include <utility>

#ifdef _WIN32
#include <io.h>
#include <process.h>
#else
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace readscope::cli {

namespace fs = std::filesystem;

namespace {
volatile std::sig_atomic_t gInterrupted = 0;
std::atomic<bool> gWoken{false}; // wakeInterruptWaiter() where there is no pipe to write to
#ifdef _WIN32
extern "C" void onInterrupt(int) { gInterrupted = 1; }
#else
// The self-pipe a waiter blocks on: the handler writes a byte (write is async-signal-safe), so
// nothing of ours wakes during a run's rounds unless something happened. Atomic: the handler
// may run on any thread while restoreInterrupts closes the pipe.
std::atomic<int> gWake[2] = {-1, -1};
static_assert(std::atomic<int>::is_always_lock_free);
extern "C" void onInterrupt(int) {
    gInterrupted = 1;
    if (const int fd = gWake[1].load(); fd >= 0) {
        const int saved = errno;
        [[maybe_unused]] const auto n = ::write(fd, "i", 1);
        errno = saved;
    }
}
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
    gWoken = false; // a wake meant for the last waiter
#ifdef _WIN32
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::signal(SIGBREAK, onInterrupt);
#else
    if (int fds[2]; gWake[0] < 0 && ::pipe(fds) == 0) { // pipe(), not pipe2(): macOS has none
        for (const int fd : fds)
            ::fcntl(fd, F_SETFD, FD_CLOEXEC);
        // A full pipe must not block the handler.
        ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);
        gWake[0] = fds[0];
        gWake[1] = fds[1];
    }
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
    for (auto& fd : gWake)
        if (const int old = fd.exchange(-1); old >= 0)
            ::close(old);
#endif
}

bool interrupted() { return gInterrupted != 0; }

bool waitForInterrupt() {
#ifndef _WIN32
    const int fd = gWake[0].load();
    pollfd p{fd, POLLIN, 0};
    while (fd >= 0 && !interrupted()) {
        if (::poll(&p, 1, -1) < 0 && errno != EINTR)
            break; // poll the flags below
        char byte;
        if (::read(fd, &byte, 1) == 1 && byte == 'w')
            return interrupted(); // woken
    }
#endif
    // Windows runs a console handler on a thread of its own: poll the flag.
    while (!interrupted() && !gWoken.exchange(false))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return interrupted();
}

void wakeInterruptWaiter() {
    gWoken = true; // for a waiter that polls (Windows, no pipe, or poll failed)
#ifndef _WIN32
    if (const int fd = gWake[1].load(); fd >= 0) [[maybe_unused]]
        const auto n = ::write(fd, "w", 1);
#endif
}

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
