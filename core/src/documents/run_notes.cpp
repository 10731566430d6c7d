#include "readscope/run_notes.h"

#include "readscope/condition_words.h"
#include "readscope/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace readscope {

namespace {

const std::string kStopped = "stopped before every cell finished; finished cells are kept";

template <class... F> struct Overloaded : F... { using F::operator()...; };

std::string whatText(const RunWarningWhat& what) {
    return std::visit(
        Overloaded{
            [](const StrategyUnavailable& w) {
                return fmt::format("{} is unavailable: {}", w.strategy, w.reason);
            },
            [](const ResidencyUnverifiable& w) {
                return "page-cache residency cannot be verified: " + w.why;
            },
            [](const NoDeviceLimit& w) { return noDeviceLimitText(w.why); },
            [](const CellFailed& w) {
                return fmt::format("{} at {} failed: {}", w.strategy, pointText(w.point),
                                   w.message);
            },
            [](const CellNoted& w) {
                return fmt::format("{} at {}: {}", w.strategy, pointText(w.point),
                                   cellNotes(w.reason, w.conditions));
            },
            [](const FileChangedDuringRun& w) {
                return fmt::format("'{}' changed during the run ({}): cells from {} on are "
                                   "flagged",
                                   w.path, fileChangeText(w.change), formatSize(w.fromRangeBytes));
            },
            [](const RoundLimitReached& w) {
                return fmt::format("the rounds reached their limit of {} after {:.1f} s, before "
                                   "the {:g} s duration: the figures cover {:.1f} s",
                                   w.limit, w.seconds, w.duration, w.seconds);
            },
            [](const Refined& w) {
                return fmt::format("refined toward ±{:g}%{}: {} cells got more rounds, {} still "
                                   "wider",
                                   w.precision * 100, w.stopped ? " (stopped)" : "", w.gained,
                                   w.stillWider);
            },
            [](const NothingToRefine& w) {
                return fmt::format("every cell is already within ±{:g}%: nothing to refine",
                                   w.precision * 100);
            },
            [](const FileSizesSkipped& w) {
                std::vector<std::string> sizes;
                for (auto size : w.sizes)
                    sizes.push_back(formatSize(size));
                const bool many = w.sizes.size() > 1;
                return fmt::format("file size{} {} {} larger than '{}' ({}): skipped, since each "
                                   "size's file is a copy of its first bytes",
                                   many ? "s" : "", fmt::join(sizes, ", "), many ? "are" : "is",
                                   w.path, formatSize(w.fileBytes));
            },
            [](const SaidAsIs& w) { return w.text; },
        },
        what);
}

} // namespace

std::string warningText(const RunWarning& warning) {
    const std::string text = whatText(warning.what);
    return warning.repeat > 0 ? fmt::format("repeat {}: {}", warning.repeat, text) : text;
}

std::string noDeviceLimitText(const std::string& why) {
    return why.empty() ? "no device limit" : "no device limit: " + why;
}

std::string documentNote(const ResultDocument& doc) {
    std::string text;
    auto add = [&](const std::string& part) {
        if (!part.empty())
            text += (text.empty() ? "" : "; ") + part;
    };
    if (!doc.complete && doc.note.find(kStopped) == std::string::npos)
        add(kStopped);
    for (const auto& n : doc.notes)
        add(warningText(n));
    add(doc.note);
    return text;
}

} // namespace readscope
