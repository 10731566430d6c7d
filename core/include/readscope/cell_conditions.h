#pragma once
// What a measured cell's figures must be read with, as data: the engine finds these while it
// measures (a round that did not start cold, a time cap, a file that changed ...) and records
// them on the cell; their words are written once, in conditionText(). A cell's notes, the
// "message" of every document, are its failure reason followed by its conditions.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace readscope {

// The file a run reads, now against when the run started.
struct FileChange {
    enum class How { Gone, Replaced, Resized, Modified };
    How how = How::Modified;
    std::uint64_t fromBytes = 0, toBytes = 0; // Resized
    std::string error;                        // Gone: why it cannot be found
    bool operator==(const FileChange&) const = default;
};

// The conditions, one type each.
struct FileChanged {
    FileChange change;
    bool operator==(const FileChanged&) const = default;
};
// A whole-file sweep's copies were not beside the target, or not on its filesystem.
struct CopiesElsewhere {
    std::string filesystem, folder;
    std::string because;          // why not beside the target; empty: beside it, another fs
    std::string targetFilesystem; // when `because` is empty
    bool operator==(const CopiesElsewhere&) const = default;
};
// A pinned buffer offset asked of a direct-I/O strategy, whose buffer keeps its alignment.
struct OffsetNotApplied {
    std::uint32_t offset = 0, alignment = 0;
    bool operator==(const OffsetNotApplied&) const = default;
};
// io_uring never reached the queue depth asked: too few ranges per worker.
struct ShallowQueue {
    unsigned reached = 0, asked = 0;
    std::uint64_t rangesPerRound = 0;
    int threads = 1;
    bool operator==(const ShallowQueue&) const = default;
};
// Fewer rounds than planned: the run's time cap, or a stop.
struct RoundsCut {
    int measured = 0, planned = 0;
    bool stopped = false;
    bool operator==(const RoundsCut&) const = default;
};
// --precision asked a narrower interval than the rounds reached.
struct PrecisionNotMet {
    double asked = 0, reached = 0; // fractions of the median
    int rounds = 0;
    bool stopped = false;
    bool operator==(const PrecisionNotMet&) const = default;
};
// Cold runs: rounds that started with their pages still cached after eviction.
struct NotCold {
    int rounds = 0, of = 0;
    double worst = 0, threshold = 0; // resident fractions
    bool operator==(const NotCold&) const = default;
};
// Warm runs: rounds that started with some of their pages not cached.
struct NotWarm {
    int rounds = 0, of = 0;
    double worst = 0, threshold = 0;
    bool operator==(const NotWarm&) const = default;
};
// No round's residency could be measured (said once for the run, so no warning per cell).
struct ResidencyUnverified {
    bool operator==(const ResidencyUnverified&) const = default;
};

struct CellCondition {
    std::variant<FileChanged, CopiesElsewhere, OffsetNotApplied, ShallowQueue, RoundsCut,
                 PrecisionNotMet, NotCold, NotWarm, ResidencyUnverified>
        what;
    int repeat = 0; // the repeat of an A/A run that found it (0: the first, or the only run)
    bool operator==(const CellCondition&) const = default;
};

// The first condition of type T, if any: findCondition<NotCold>(cell.conditions).
template <class T> const T* findCondition(const std::vector<CellCondition>& conditions) {
    for (const auto& c : conditions)
        if (const T* found = std::get_if<T>(&c.what))
            return found;
    return nullptr;
}

// Whether a condition is worth a warning when the cell finishes (residency unverified is said
// once for the run instead).
bool worthWarning(const CellCondition& condition);

} // namespace readscope
