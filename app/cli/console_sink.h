#pragma once
// The CLI's RunSink: a one-line progress bar with ETA on stderr when stderr is a terminal,
// and warnings as lines on stderr.
#include "readscope/runner.h"

#include <functional>

namespace readscope::cli {

class ConsoleSink final : public RunSink {
public:
    explicit ConsoleSink(bool quiet);
    ~ConsoleSink() override;
    void onProgress(const Progress& progress) override;
    void onWarning(const RunWarning& warning) override;
    void clearLine();
    // Said once, when the run has started (not when it is refused before that).
    void onStarted(const ResultDocument& header) override;
    void whenStarted(std::function<void()> say) { whenStarted_ = std::move(say); }

private:
    bool quiet_;
    bool tty_;
    bool lineShown_ = false;
    std::function<void()> whenStarted_;
};

} // namespace readscope::cli
