// The words for a cell's conditions: the only place they are written.
#include "readscope/condition_words.h"

#include <fmt/format.h>

namespace readscope {

namespace {

std::string text(const FileChanged& c) {
    return "file changed during the run: " + fileChangeText(c.change);
}

std::string text(const CopiesElsewhere& c) {
    if (!c.because.empty())
        return fmt::format("read from copies on {} in '{}', since {}", c.filesystem, c.folder,
                           c.because);
    return fmt::format("read from copies on {} in '{}', not on the target's {}", c.filesystem,
                       c.folder, c.targetFilesystem);
}

std::string text(const OffsetNotApplied& c) {
    return fmt::format("buffer offset {} does not apply to direct I/O: its buffer keeps the "
                       "device's {}-byte alignment",
                       c.offset, c.alignment);
}

std::string text(const ShallowQueue& c) {
    return fmt::format("io_uring kept at most {} reads in flight, not the {} asked: a round had "
                       "{} ranges for {} thread{}",
                       c.reached, c.asked, c.rangesPerRound, c.threads, c.threads == 1 ? "" : "s");
}

std::string text(const RoundsCut& c) {
    return fmt::format("{}: {} of {} rounds", c.stopped ? "stopped" : "time cap reached",
                       c.measured, c.planned);
}

std::string text(const PrecisionNotMet& c) {
    return fmt::format("precision ±{}% not met: ±{:.1f}% after {} rounds{}", c.asked * 100,
                       c.reached * 100, c.rounds,
                       c.stopped ? "" : " (the run's maximum time was reached)");
}

std::string text(const NotCold& c) {
    return fmt::format("cache did not go cold: {} of {} rounds started with up to {:.1f}% of the "
                       "pages they read resident after eviction (threshold {:.0f}%): these are "
                       "not cold figures",
                       c.rounds, c.of, c.worst * 100, c.threshold * 100);
}

std::string text(const NotWarm& c) {
    return fmt::format("cache not warm: {} of {} rounds started with only {:.1f}% of the pages "
                       "they read resident (threshold {:.0f}%)",
                       c.rounds, c.of, c.worst * 100, c.threshold * 100);
}

std::string text(const ResidencyUnverified&) { return "residency unverified"; }

} // namespace

std::string fileChangeText(const FileChange& change) {
    switch (change.how) {
    case FileChange::How::Gone: return "it can no longer be found: " + change.error;
    case FileChange::How::Replaced: return "it was replaced by another file";
    case FileChange::How::Resized:
        return fmt::format("its size went from {} to {} bytes", change.fromBytes, change.toBytes);
    case FileChange::How::Modified: break;
    }
    return "its modification time changed";
}

std::string conditionText(const CellCondition& condition) {
    const std::string words = std::visit([](const auto& c) { return text(c); }, condition.what);
    return condition.repeat > 0 ? fmt::format("repeat {}: {}", condition.repeat + 1, words) : words;
}

std::string cellNotes(const std::string& reason, const std::vector<CellCondition>& conditions) {
    std::string notes = reason;
    for (const auto& c : conditions)
        notes += (notes.empty() ? "" : "; ") + conditionText(c);
    return notes;
}

std::string cellNotes(const Cell& cell) { return cellNotes(cell.message, cell.conditions); }

} // namespace readscope
