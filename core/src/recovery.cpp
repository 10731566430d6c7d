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
        return Error{fmt::format("cannot open the recovery file '{}': {}", path,
                                 std::strerror(errno))};
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
    Plan rest = recovered.plan;
    std::erase_if(rest.sizes, [&](std::uint64_t size) {
        return std::all_of(rest.strategies.begin(), rest.strategies.end(),
                           [&](const std::string& id) { return recovered.find(id, size); });
    });
    ResultDocument merged = recovered;
    // A size that was cut short mid-way has some cells: it is measured again whole, so every
    // cell of a size comes from the same interleaved rounds.
    std::erase_if(merged.cells, [&](const Cell& c) {
        return std::find(rest.sizes.begin(), rest.sizes.end(), c.rangeBytes) != rest.sizes.end();
    });
    if (rest.sizes.empty() && rest.pattern != Pattern::Whole) {
        merged.complete = true;
        merged.note = "every cell was already recovered";
        return merged;
    }
    auto more = runPlan(rest, sink, stop);
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
