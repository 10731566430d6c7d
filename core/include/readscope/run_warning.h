#pragma once
// What a run says while it goes (RunSink::onWarning) and keeps with its figures (a document's
// notes), as values: which thing happened, and about what. The words are the documents'
// (run_notes.h: warningText, documentNote).
#include "readscope/cell_conditions.h"
#include "readscope/plan.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace readscope {

// A strategy this machine or file cannot run (its reason is the availability check's).
struct StrategyUnavailable {
    std::string strategy, reason;
};
// The page cache's residency cannot be checked here (why: the platform's reason).
struct ResidencyUnverifiable {
    std::string why;
};
// The run has no device limit; why (empty: nobody said) is the measurement's error.
struct NoDeviceLimit {
    std::string why;
};
// A cell that failed, with its error's words.
struct CellFailed {
    std::string strategy;
    SweepPoint point;
    std::string message;
};
// A finished cell whose conditions are worth a warning.
struct CellNoted {
    std::string strategy;
    SweepPoint point;
    std::string reason; // the cell's message, when it has one
    std::vector<CellCondition> conditions;
};
// The file changed during the run: the cells from this range size on are flagged.
struct FileChangedDuringRun {
    std::string path;
    FileChange change;
    std::uint64_t fromRangeBytes = 0;
};
// A duration run whose rounds reached the rounds' limit before its time.
struct RoundLimitReached {
    int limit = 0;
    double seconds = 0, duration = 0;
};
// A refinement's outcome: toward which precision, whether it was stopped, how many cells got
// rounds and how many are still wider; or that every cell was already within it.
struct Refined {
    double precision = 0;
    bool stopped = false;
    std::size_t gained = 0, stillWider = 0;
};
struct NothingToRefine {
    double precision = 0;
};
// A whole-file sweep's file sizes larger than the file (each size's file is a copy of the
// file's first bytes): skipped.
struct FileSizesSkipped {
    std::vector<std::uint64_t> sizes;
    std::string path;
    std::uint64_t fileBytes = 0;
};
// Words that come from below the engine or from outside it, said as they are: the platform's
// reasons, an error's message, the page cache's eviction, a note read from a document.
struct SaidAsIs {
    std::string text;
};

using RunWarningWhat = std::variant<StrategyUnavailable, ResidencyUnverifiable, NoDeviceLimit,
                                    CellFailed, CellNoted, FileChangedDuringRun, RoundLimitReached,
                                    Refined, NothingToRefine, FileSizesSkipped, SaidAsIs>;

struct RunWarning {
    RunWarningWhat what;
    int repeat = 0; // 0: the run's own; 2, 3, ...: said by that repeat of a repeated run
    template <class What>
    requires std::is_constructible_v<RunWarningWhat, What> RunWarning(What w)
        : what(std::move(w)) {}
    template <class What> const What* as() const { return std::get_if<What>(&what); }
};

} // namespace readscope
