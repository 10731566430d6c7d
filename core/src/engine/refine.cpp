// Refine: more rounds for a finished run's noisy cells, through the same interleaved rounds a
// resumed run and --precision use.
#include "readscope/runner.h"

#include "readscope/buffer_offsets.h"
#include "readscope/probe.h"
#include "readscope/stats.h"
#include "readscope/system_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace readscope {

bool meetsPrecision(const Cell& cell, double precision) {
    const Summary s = summarize(cell.roundRates());
    return !s.tooFewRounds && s.uncertainty() <= precision;
}

bool needsRefining(const Cell& cell, double precision) {
    return cell.measured() && !cell.samples.empty() && !meetsPrecision(cell, precision);
}

std::size_t cellsToRefine(const ResultDocument& done, double precision) {
    return std::size_t(std::count_if(done.cells.begin(), done.cells.end(),
                                     [&](const Cell& c) { return needsRefining(c, precision); }));
}

Status refinable(const ResultDocument& done) {
    if (wholeFileSweep(done.plan))
        return Error{"a whole-file sweep cannot be refined: each size read a copy of the file "
                     "made for it, removed when the run ended. Run it again with more rounds."};
    return okStatus();
}

Status sameFileAndMachine(const ResultDocument& done, std::string_view doing) {
    // The same file on the same machine, or the new rounds would join another's figures.
    const auto probe = probeFile(done.plan.file);
    if (!probe)
        return Error{fmt::format("the file these results read, {}, cannot be read here ({}): "
                                 "{} adds rounds of the same file on the same machine",
                                 done.plan.file, probe.error().message, doing)};
    if (done.fileSize && probe->size != done.fileSize)
        return Error{fmt::format("{} is {} bytes now and was {} when these results were "
                                 "measured: {} would mix two files' rounds",
                                 done.plan.file, probe->size, done.fileSize, doing)};
    // A document that names no machine (built by hand, a summary CSV) has none to differ from.
    const SystemInfo here = collectSystemInfo(probe->filesystem);
    if (!done.system.cpuModel.empty() &&
        (here.cpuModel != done.system.cpuModel || here.kernel != done.system.kernel))
        return Error{fmt::format("these results were measured on {} with {}, and this is {} with "
                                 "{}: {} would mix this machine's rounds into them",
                                 done.system.cpuModel, done.system.kernel, here.cpuModel,
                                 here.kernel, doing)};
    return okStatus();
}

Result<ResultDocument> refineRun(const ResultDocument& done, double precision,
                                 double maxTimeSeconds, RunSink& sink, std::stop_token stop) {
    if (!(precision > 0))
        return Error{"refining needs a precision above 0%"};
    if (auto st = refinable(done); !st)
        return st.error();
    if (auto st = sameFileAndMachine(done, "refining"); !st)
        return st.error();
    std::vector<SweepPoint> points;
    for (const auto& c : done.cells)
        if (needsRefining(c, precision) &&
            std::find(points.begin(), points.end(), c.point()) == points.end())
            points.push_back(c.point());
    if (points.empty()) {
        ResultDocument same = done;
        // What the refinement says replaces the run's notes (in memory or read back as words).
        same.notes = {NothingToRefine{precision}};
        same.note.clear();
        return same;
    }
    auto atRefinedPoint = [&](const Cell& c) {
        return std::find(points.begin(), points.end(), c.point()) != points.end();
    };
    Plan plan = done.plan;
    plan.precision = precision;
    plan.maxTimeSeconds = maxTimeSeconds;
    plan.warmup = 0; // the cells' ranges per round stay what their runs fitted
    plan.repeats = 1;
    // No planned round is left to measure: a cell cut short by the time cap or a stop gets
    // rounds only if it is itself too wide, as every other.
    std::size_t fewest = SIZE_MAX;
    for (const auto& c : done.cells)
        if (c.measured() && !c.samples.empty() && atRefinedPoint(c))
            fewest = std::min(fewest, c.samples.size());
    plan.rounds = int(std::max<std::size_t>(1, fewest));
    // Every cell of those points goes on from its rounds: the planned ones are there, so only
    // the rounds --precision adds are measured, and only for the cells still too wide.
    ResultDocument recorded = done;
    std::erase_if(recorded.cells, [&](const Cell& c) { return !atRefinedPoint(c); });
    for (auto& c : recorded.cells)
        c.partial = true;
    auto more = runPlanPoints(plan, points, sink, stop, &recorded);
    if (!more)
        return more.error();
    ResultDocument merged = done;
    std::size_t refined = 0;
    // Only the cells that got rounds change; the others stay exactly as measured.
    for (auto& c : merged.cells)
        if (const Cell* now = more->find(c.strategy, c.point());
            now && now->samples.size() > c.samples.size()) {
            ++refined;
            Cell grown = *now;
            mergeOffsetCounts(grown.bufferPageOffsets, c.bufferPageOffsets); // the earlier rounds'
            const int repeat = c.samples.empty() ? 0 : c.samples.back().repeat;
            for (std::size_t r = c.samples.size(); r < grown.samples.size(); ++r)
                grown.samples[r].repeat = repeat; // the last repeat's, as its rounds go on
            grown.summarize();
            c = std::move(grown);
        }
    // A stopped refinement keeps the rounds it added; the run's planned rounds were all there
    // before it, so the run stays as complete as it was.
    merged.complete = done.complete;
    const auto still = std::count_if(merged.cells.begin(), merged.cells.end(), [&](const Cell& c) {
        return c.measured() && !c.samples.empty() && !meetsPrecision(c, precision);
    });
    merged.notes = {Refined{precision, !more->complete, refined, std::size_t(still)}};
    merged.note.clear();
    return merged;
}

} // namespace readscope
