#include "readscope/recovery.h"

#include "readscope/documents.h"

#include "platform.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace readscope {

RecoverySink::RecoverySink(RunSink& inner, std::string path)
    : inner_(inner), path_(std::move(path)) {}

RecoverySink::~RecoverySink() {
    if (fd_ >= 0)
        platform::closeFile(fd_);
}

void RecoverySink::appendLine(const std::string& line) {
    if (fd_ < 0)
        return;
    if ((!writeAll(fd_, line.data(), line.size()) || !platform::flushToDisk(fd_)) && !warned_) {
        warned_ = true;
        inner_.onWarning(fmt::format("could not append to the recovery file '{}': {}", path_,
                                     std::strerror(errno)));
    }
}

void RecoverySink::onStarted(const ResultDocument& header) {
    // A recovery file left at this path by a crash is about to be overwritten: what it names
    // on disk (a whole-file sweep's copies) must not be lost with it.
    if (platform::statPath(path_))
        if (auto old = readRecovery(path_))
            removeLeftoverCopies(*old);
    fd_ = platform::createForWriting(path_);
    if (fd_ < 0)
        inner_.onWarning(fmt::format("cannot create the recovery file '{}': {}; finished cells "
                                     "will not survive a crash",
                                     path_, std::strerror(errno)));
    ResultDocument h = header;
    h.cells.clear();
    h.complete = false;
    appendLine(toJsonLine(h));
    inner_.onStarted(header);
}

void RecoverySink::onCellFinished(const Cell& cell) {
    ResultDocument one;
    one.cells.push_back(cell);
    appendLine(toJsonLine(one));
    inner_.onCellFinished(cell);
}

void RecoverySink::discard() {
    if (fd_ >= 0) {
        platform::closeFile(fd_);
        fd_ = -1;
    }
    platform::removeFile(path_);
}

Result<ResultDocument> readRecovery(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        return Error{
            fmt::format("cannot open the recovery file '{}': {}", path, std::strerror(errno))};
    std::string line;
    if (!std::getline(in, line))
        return Error{fmt::format("the recovery file '{}' is empty", path)};
    auto header = fromJson(line);
    if (!header)
        return Error{fmt::format("the recovery file '{}' has no readable header: {}", path,
                                 header.error().message)};
    ResultDocument doc = std::move(*header);
    while (std::getline(in, line)) {
        auto one = fromJson(line); // a line torn by the crash fails to parse and is skipped
        if (one && one->cells.size() == 1)
            doc.cells.push_back(one->cells.front());
    }
    doc.complete = false;
    doc.note = fmt::format("recovered {} finished cells from '{}'", doc.cells.size(), path);
    return doc;
}

Result<ResultDocument> resumeRun(const ResultDocument& recovered, RunSink& sink,
                                 std::stop_token stop) {
    // A point that was cut short mid-way has some cells: it is measured again whole, so every
    // cell of a point comes from the same interleaved rounds.
    // A whole-file sweep killed midway left its copies: they go before anything is measured
    // (the resumed run makes its own).
    removeLeftoverCopies(recovered);
    const Plan& plan = recovered.plan;
    std::vector<SweepPoint> remaining;
    for (const auto& point : sweepPoints(plan, recovered.fileSize))
        if (!std::all_of(plan.strategies.begin(), plan.strategies.end(),
                         [&](const std::string& id) { return recovered.find(id, point); }))
            remaining.push_back(point);
    ResultDocument merged = recovered;
    std::erase_if(merged.cells, [&](const Cell& c) {
        return std::find(remaining.begin(), remaining.end(), c.point()) != remaining.end();
    });
    if (remaining.empty()) {
        merged.complete = true;
        merged.note = "every cell was already recovered";
        return merged;
    }
    auto more = runPlanPoints(plan, remaining, sink, stop);
    if (!more)
        return more.error();
    for (auto& c : more->cells)
        merged.cells.push_back(std::move(c));
    merged.complete = more->complete;
    merged.system = more->system;
    merged.note = fmt::format("resumed: {} cells recovered, {} measured now",
                              recovered.cells.size(), more->cells.size());
    return merged;
}

} // namespace readscope
