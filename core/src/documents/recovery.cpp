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
        inner_.onWarning(SaidAsIs{fmt::format("could not append to the recovery file '{}': {}",
                                              path_, std::strerror(errno))});
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
        inner_.onWarning(SaidAsIs{fmt::format("cannot create the recovery file '{}': {}; finished "
                                              "cells will not survive a crash",
                                              path_, std::strerror(errno))});
    ResultDocument h = header;
    h.cells.clear();
    h.complete = false;
    appendLine(toJsonLine(h));
    inner_.onStarted(header);
}

void RecoverySink::onRoundMeasured(const Cell& cell) {
    ResultDocument one;
    one.cells.push_back(cell);
    one.cells.back().partial = true;
    appendLine(toJsonLine(one));
    inner_.onRoundMeasured(cell);
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
        if (!one || one->cells.size() != 1)
            continue;
        Cell& cell = one->cells.front();
        // A cell's later line (another round, or its end) takes the place of the earlier.
        auto same = std::find_if(doc.cells.begin(), doc.cells.end(), [&](const Cell& c) {
            return c.strategy == cell.strategy && c.point() == cell.point();
        });
        if (same != doc.cells.end())
            *same = std::move(cell);
        else
            doc.cells.push_back(std::move(cell));
    }
    doc.complete = false;
    const auto partial =
        std::count_if(doc.cells.begin(), doc.cells.end(), [](const Cell& c) { return c.partial; });
    doc.note = partial
                   ? fmt::format("recovered {} finished cells and {} cut short between "
                                 "rounds from '{}'",
                                 doc.cells.size() - std::size_t(partial), partial, path)
                   : fmt::format("recovered {} finished cells from '{}'", doc.cells.size(), path);
    return doc;
}

Status finishable(const ResultDocument& doc) {
    // A recovery file marks its cut-short cells; a stopped run's document does not, and for
    // these two kinds of run the rounds kept cannot say what is missing.
    const bool marked =
        std::any_of(doc.cells.begin(), doc.cells.end(), [](const Cell& c) { return c.partial; });
    if (doc.complete || marked)
        return okStatus();
    if (doc.plan.repeats > 1)
        return Error{"a stopped A/A run (repeats) cannot be finished: each repeat is a whole run "
                     "from its own set-up; run it again"};
    if (doc.plan.durationSeconds > 0)
        return Error{"a stopped duration run cannot be finished: its rounds are a time series "
                     "over one stretch of time; run it again"};
    return okStatus();
}

Result<ResultDocument> resumeRun(const ResultDocument& recovered, RunSink& sink,
                                 std::stop_token stop) {
    // A point with a cell missing or cut short between rounds is measured again: its partial
    // cells go on from their recorded rounds, so every cell of a point still comes from the
    // same interleaved rounds (a whole-file sweep's cut-short point starts over, and so does a
    // duration run's: its rounds are a time series over one stretch of time).
    // A whole-file sweep killed midway left its copies: they go before anything is measured
    // (the resumed run makes its own).
    removeLeftoverCopies(recovered);
    if (auto st = sameFileAndMachine(recovered, "finishing the run"); !st)
        return st.error();
    const Plan& plan = recovered.plan;
    // A stopped run's document (not read from a recovery file) marks no cell cut short: a
    // measured cell with fewer rounds than planned is one.
    // A cell the plan's time cap cut is whole as it is (its rounds are all it was to get).
    const std::size_t planned = keptCells(recovered).planned;
    const auto cutShort = [&](const Cell& c) {
        if (c.partial)
            return true;
        const auto* cut = findCondition<RoundsCut>(c.conditions);
        if (cut && !cut->stopped)
            return false;
        return planned > 0 && c.measured() && c.samples.size() < planned;
    };
    if (auto st = finishable(recovered); !st)
        return st.error();
    std::vector<SweepPoint> remaining;
    for (const auto& point : sweepPoints(plan, recovered.fileSize))
        if (!std::all_of(plan.strategies.begin(), plan.strategies.end(),
                         [&](const std::string& id) {
                             const Cell* c = recovered.find(id, point);
                             return c && !cutShort(*c);
                         }))
            remaining.push_back(point);
    ResultDocument merged = recovered;
    std::erase_if(merged.cells, [&](const Cell& c) {
        return std::find(remaining.begin(), remaining.end(), c.point()) != remaining.end();
    });
    // Every measured cell of a point measured again goes on from its rounds (the scheduler
    // skips a lane that has them all), not only the short ones: a stop in the last round
    // leaves some lanes whole. At a point stopped mid-round the lanes are cut back to the
    // rounds they all have, so that the rounds go on numbered alike (pairs are by number).
    ResultDocument partial = recovered;
    std::erase_if(partial.cells, [&](const Cell& c) {
        const bool remains =
            std::find(remaining.begin(), remaining.end(), c.point()) != remaining.end();
        return !remains || c.samples.empty() || wholeFileSweep(plan) || plan.durationSeconds > 0;
    });
    for (const auto& point : remaining) {
        std::size_t common = SIZE_MAX;
        for (const Cell& c : partial.cells)
            if (c.point() == point)
                common = std::min(common, c.samples.size());
        for (Cell& c : partial.cells)
            if (c.point() == point && c.samples.size() > common) {
                c.samples.resize(common);
                c.summarize();
            }
    }
    for (Cell& c : partial.cells)
        c.partial = true;
    if (remaining.empty()) {
        merged.complete = true;
        merged.notes.clear(); // the stopped run's: what the resume says replaces them
        merged.note = "every cell was already recovered";
        return merged;
    }
    auto more = runPlanPoints(plan, remaining, sink, stop, &partial);
    if (!more)
        return more.error();
    for (auto& c : more->cells)
        merged.cells.push_back(std::move(c));
    merged.complete = more->complete;
    merged.system = more->system;
    merged.memoryLimit = more->memoryLimit; // the limit the resumed cells ran under
    merged.notes.clear();                   // the stopped run's: what the resume says replaces them
    merged.note = fmt::format("resumed: {} cells recovered, {} measured now",
                              recovered.cells.size(), more->cells.size());
    return merged;
}

} // namespace readscope
