// A child process with pipes for its standard input and output (posix_spawn).
#include "child_process.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace readscope::platform {

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::vector<std::string>& argv) {
    if (argv.empty())
        return Error{"no program to start"};
    int toChild[2], fromChild[2];
    if (::pipe2(toChild, O_CLOEXEC) != 0)
        return Error{fmt::format("a pipe could not be made: {}", std::strerror(errno))};
    if (::pipe2(fromChild, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(toChild[0]);
        ::close(toChild[1]);
        return Error{fmt::format("a pipe could not be made: {}", std::strerror(e))};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0);
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // Its own process group: a Ctrl+C in the terminal that started the app reaches the app,
    // whose end closes the child's input, and the child stops as for Stop (leaving its
    // cgroup, removing its copies) rather than dying mid-run. Default signal handling, not
    // whatever the app ignores.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    ::close(toChild[0]);
    ::close(fromChild[1]);
    if (rc != 0) {
        ::close(toChild[1]);
        ::close(fromChild[0]);
        return Error{fmt::format("{} could not be started: {}", argv[0], std::strerror(rc))};
    }
    std::unique_ptr<ChildProcess> child(new ChildProcess);
    child->pid_ = pid;
    child->in_ = toChild[1];
    child->out_ = fromChild[0];
    child->lines_.emplace(child->out_);
    return child;
}

ChildProcess::~ChildProcess() {
    closeInput();
    if (!reaped_) {
        kill();
        (void)wait();
    }
    if (out_ >= 0)
        ::close(out_);
}

bool ChildProcess::writeLine(std::string_view line) {
    std::lock_guard lock(inputMutex_);
    if (in_ < 0)
        return false;
    std::string text(line);
    text += '\n';
    // A child gone while we write: EPIPE, and the SIGPIPE that would end this process is
    // blocked in this thread and taken back.
    sigset_t pipeSignal, before;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipeSignal, &before);
    std::size_t done = 0;
    bool ok = true;
    while (done < text.size()) {
        const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n < 0 && errno == EPIPE) {
                const timespec none{0, 0};
                ::sigtimedwait(&pipeSignal, nullptr, &none);
            }
            ok = false;
            break;
        }
        done += std::size_t(n);
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    return ok;
}

void ChildProcess::closeInput() {
    std::lock_guard lock(inputMutex_);
    if (in_ >= 0)
        ::close(in_);
    in_ = -1;
}

std::optional<std::string> LineReader::next() {
    for (;;) {
        if (const auto nl = buffered_.find('\n', scanned_); nl != std::string::npos) {
            scanned_ = 0;
            std::string line = buffered_.substr(0, nl);
            buffered_.erase(0, nl + 1);
            return line;
        }
        char chunk[65536];
        const ssize_t n = ::read(fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            buffered_.clear(); // a last piece without its newline is not a line
            return std::nullopt;
        }
        scanned_ = buffered_.size(); // no newline before here: search on from it
        buffered_.append(chunk, std::size_t(n));
    }
}

std::optional<std::string> ChildProcess::readLine() {
    if (out_ < 0)
        return std::nullopt;
    if (auto line = lines_->next())
        return line;
    ::close(out_);
    out_ = -1;
    return std::nullopt;
}

std::string ChildProcess::wait() {
    if (reaped_)
        return ended_;
    int status = 0;
    pid_t done;
    do
        done = ::waitpid(pid_, &status, 0);
    while (done < 0 && errno == EINTR);
    reaped_ = true;
    if (done < 0)
        ended_ = fmt::format("could not be waited for: {}", std::strerror(errno));
    else if (WIFEXITED(status))
        ended_ = WEXITSTATUS(status) == 0
                     ? ""
                     : fmt::format("exited with status {}", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        ended_ = fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                             ::strsignal(WTERMSIG(status)));
    else
        ended_ = "ended";
    return ended_;
}

void ChildProcess::kill() {
    if (!reaped_ && pid_ > 0)
        ::kill(pid_, SIGKILL);
}

} // namespace readscope::platform
