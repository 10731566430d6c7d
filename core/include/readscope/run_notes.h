#pragma once
// The words of what a run says while it goes (RunSink::onWarning) and keeps with its figures
// (run_warning.h holds the values).
#include "readscope/result_document.h"
#include "readscope/run_warning.h"

#include <string>

namespace readscope {

// "pread-direct is unavailable: the filesystem refuses O_DIRECT", "pread-uninit at 64 KiB
// failed: <reason>", "'f' changed during the run (<how>): cells from 1 MiB on are flagged",
// "repeat 2: <what it said>", ...
std::string warningText(const RunWarning& warning);
// "no device limit: <why>" ("no device limit" when nobody said why)
std::string noDeviceLimitText(const std::string& why);
// What every output says of the document's note: that the run stopped (when it did and its
// note does not say so already), its kept notes' words, then its note; empty when none.
std::string documentNote(const ResultDocument& doc);

} // namespace readscope
