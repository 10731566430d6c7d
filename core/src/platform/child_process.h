#pragma once
// A child process the core talks to through its standard input and output, line by line: the
// measurement's own process (worker_run.h). Private to the core. POSIX; on Windows starting
// one refuses, saying why.
#include "readscope/result.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace readscope::platform {

// Lines from a file descriptor, read with read(2) and no stdio buffer (so that what follows
// a line is never held where another reader of the descriptor cannot see it), without their
// newlines; none at the end of the input, where a last piece without its newline (cut off as
// the writer died) is not a line. POSIX; on Windows it reads nothing.
class LineReader {
public:
    explicit LineReader(int fd) : fd_(fd) {}
    std::optional<std::string> next();

private:
    int fd_;
    std::string buffered_;
    std::size_t scanned_ = 0; // buffered_ holds no newline before this
};

class ChildProcess {
public:
    // Starts `argv` (argv[0] a path; no PATH search) with pipes for its standard input and
    // output; its standard error is this process's.
    static Result<std::unique_ptr<ChildProcess>> start(const std::vector<std::string>& argv);
    ~ChildProcess(); // kills the child if it still runs, and reaps it

    int pid() const { return pid_; }
    // One line to its standard input; safe from any thread (a Stop pressed on another).
    // False once its input is closed or the child is gone.
    bool writeLine(std::string_view line);
    // Its standard input closed: the child reads the end of it.
    void closeInput();
    // The next line of its standard output, without the newline; none at its end.
    std::optional<std::string> readLine();
    // Waits for it to end: "" when it exited 0, else how it ended ("exited with status 3",
    // "was killed by signal 9 (Killed)").
    std::string wait();
    // Ends it at once (SIGKILL).
    void kill();

private:
    ChildProcess() = default;
    int pid_ = -1;
    int in_ = -1, out_ = -1;          // its stdin (ours to write), its stdout (ours to read)
    std::optional<LineReader> lines_; // of out_
    std::mutex inputMutex_;
    bool reaped_ = false;
    std::string ended_;
};

} // namespace readscope::platform
