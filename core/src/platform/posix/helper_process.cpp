// A short-lived helper program run to its end: posix_spawnp, its output through a pipe.
#include "helper_process.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace readscope::platform {

std::pair<int, std::string> runHelper(const std::vector<std::string>& args, int seconds) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return {-1, std::strerror(errno)};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return {-1, fmt::format("{} could not be started: {}", args[0], std::strerror(rc))};
    }
    // Its output until it closes the pipe, then its exit (closing comes first), by a deadline.
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(seconds);
    std::string output;
    pollfd in{fds[0], POLLIN, 0};
    while (Clock::now() < deadline) {
        const int ready = ::poll(&in, 1, 10);
        if (ready == 0)
            continue;
        char buf[512];
        const ssize_t n = ready > 0 ? ::read(fds[0], buf, sizeof buf) : -1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        output.append(buf, std::size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    pid_t done = 0;
    while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() < deadline)
        ::usleep(10000);
    if (done < 0) // reaped elsewhere (SIGCHLD ignored): its pid is not ours to kill
        return {-1, fmt::format("waiting for {} failed: {}", args[0], std::strerror(errno))};
    if (done == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return {-1, fmt::format("{} did not finish in {} s", args[0], seconds)};
    }
    while (!output.empty() && (output.back() == '\n' || output.back() == ' '))
        output.pop_back();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

} // namespace readscope::platform
