#include "readscope/run_notes.h"

#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

std::string unavailableWarning(std::string_view strategy, const std::string& reason) {
    return fmt::format("{} is unavailable: {}", strategy, reason);
}

std::string residencyUnverifiableWarning(const std::string& why) {
    return "page-cache residency cannot be verified: " + why;
}

std::string copiesElsewhereNoLimit(const std::string& because) {
    return "the whole-file sweep reads copies in another folder (" + because +
           "), maybe on another device than the one measured";
}

std::string noDeviceLimitWarning(const std::string& why) {
    return why.empty() ? "no device limit" : "no device limit: " + why;
}

std::string cellFailedWarning(const Cell& cell) {
    return fmt::format("{} at {} failed: {}", cell.strategy, pointText(cell.point()), cell.message);
}

std::string cellNotesWarning(const Cell& cell) {
    return fmt::format("{} at {}: {}", cell.strategy, pointText(cell.point()), cell.notes());
}

std::string fileChangedWarning(const std::string& path, const FileChange& change,
                               std::uint64_t fromRangeBytes) {
    return fmt::format("'{}' changed during the run ({}): cells from {} on are flagged", path,
                       fileChangeText(change), formatSize(fromRangeBytes));
}

namespace {
const std::string kStopped = "stopped before every cell finished; finished cells are kept";
}

std::string roundLimitNote(int limit, double seconds, double duration) {
    return fmt::format("the rounds reached their limit of {} after {:.1f} s, before the {:g} s "
                       "duration: the figures cover {:.1f} s",
                       limit, seconds, duration, seconds);
}

std::string stoppedNote(const std::string& earlier) {
    return earlier.empty() ? kStopped : kStopped + "; " + earlier;
}

std::string documentNote(const ResultDocument& doc) {
    if (!doc.complete && doc.note.find(kStopped) == std::string::npos)
        return stoppedNote(doc.note);
    return doc.note;
}

} // namespace readscope
