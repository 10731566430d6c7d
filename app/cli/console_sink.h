#pragma once
// The CLI's RunSink: a one-line progress bar with ETA on stderr when stderr is a terminal,
// and warnings as lines on stderr.
#include "readscope/runner.h"

namespace readscope::cli {

class ConsoleSink final : public RunSink {
public:
    explicit ConsoleSink(bool quiet);
    ~ConsoleSink() override;
    void onProgress(const Progress& progress) override;
    void onWarning(const std::string& message) override;
    void clearLine();

private:
    bool quiet_;
    bool tty_;
    bool lineShown_ = false;
};

} // namespace readscope::cli
