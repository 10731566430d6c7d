#pragma once
// The words a run says while it goes (RunSink::onWarning) and leaves in its document's note:
// written here once, the engine only picks which to say.
#include "readscope/cell_conditions.h"
#include "readscope/result_document.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace readscope {

// "pread-direct is unavailable: the filesystem refuses O_DIRECT"
std::string unavailableWarning(std::string_view strategy, const std::string& reason);
// "page-cache residency cannot be verified: <why>"
std::string residencyUnverifiableWarning(const std::string& why);
// Why a whole-file sweep has no device limit: its copies are in another folder.
std::string copiesElsewhereNoLimit(const std::string& because);
// "no device limit: <why>" ("no device limit" when nobody said why)
std::string noDeviceLimitWarning(const std::string& why);
// "pread-uninit at 64 KiB failed: <reason>"
std::string cellFailedWarning(const Cell& cell);
// "pread-uninit at 64 KiB: <its notes>", for a finished cell whose notes are worth a warning.
std::string cellNotesWarning(const Cell& cell);
// "'f' changed during the run (<how>): cells from 1 MiB on are flagged"
std::string fileChangedWarning(const std::string& path, const FileChange& change,
                               std::uint64_t fromRangeBytes);
// A duration run whose rounds reached the rounds' limit before its time: "the rounds reached
// their limit of 10000 after 12.3 s, before the 30 s duration: the figures cover 12.3 s".
std::string roundLimitNote(int limit, double seconds, double duration);
// A stopped run's note, before any note the run had already.
std::string stoppedNote(const std::string& earlier);
// What every output says of the document's note: the note, with the stop said when the run
// stopped and its note does not say so (a document from elsewhere); empty when there is none.
std::string documentNote(const ResultDocument& doc);

} // namespace readscope
