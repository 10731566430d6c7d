#include "console_sink.h"

#include "cli_platform.h"

#include "readscope/compare.h"
#include "readscope/run_notes.h"
#include "readscope/state_words.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <cstdio>
#include <utility>

namespace readscope::cli {

namespace {
std::string clock(double seconds) {
    if (seconds < 0)
        return "--:--";
    const auto s = static_cast<long>(seconds + 0.5);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}
} // namespace

ConsoleSink::ConsoleSink(bool quiet) : quiet_(quiet), tty_(stderrIsTerminal()) {}

ConsoleSink::~ConsoleSink() { clearLine(); }

void ConsoleSink::clearLine() {
    if (lineShown_) {
        fmt::print(stderr, "\r\033[K");
        std::fflush(stderr);
        lineShown_ = false;
    }
}

void ConsoleSink::onStarted(const ResultDocument&) {
    if (auto say = std::exchange(whenStarted_, nullptr)) {
        clearLine(); // a progress line shown before (measuring the device limit)
        say();
    }
}

void ConsoleSink::onProgress(const Progress& p) {
    if (quiet_ || !tty_)
        return;
    constexpr int kWidth = 24;
    const double fraction =
        p.total ? static_cast<double>(p.step) / static_cast<double>(p.total) : 0;
    const int filled = static_cast<int>(fraction * kWidth);
    const std::string where =
        p.rangeBytes
            ? fmt::format("{} {} {}",
                          pointText({p.rangeBytes, p.bufferOffset, p.threads, p.queueDepth}),
                          p.strategy, phaseText(p))
            : phaseText(p);
    fmt::print(stderr, "\r\033[K[{}{}] {:3.0f}%  {}  ETA {}", std::string(filled, '#'),
               std::string(kWidth - filled, ' '), fraction * 100, where, clock(p.etaSeconds));
    std::fflush(stderr);
    lineShown_ = true;
}

void ConsoleSink::onWarning(const RunWarning& warning) {
    if (quiet_)
        return;
    clearLine();
    fmt::print(stderr, "warning: {}\n", warningText(warning));
}

} // namespace readscope::cli
