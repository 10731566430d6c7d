#pragma once
// The words for typed states: a cell's checksum, as the documents write it and read it back
// and the app shows it (saved documents keep these exact words, so that older files still
// load), and where a run is, as the CLI's progress line and the app's status bar say it.
#include "readscope/result_document.h"
#include "readscope/runner.h"

#include <string>
#include <string_view>

namespace readscope {

// "verified", "mismatch", "not checked", or a sentence beginning with one of them that says how
// far it goes; empty for Checksum::None.
std::string_view checksumText(Checksum c);
// The state a saved document's words name; None for empty or unknown words (a sentence that
// begins "not checked" or "verified" is taken as the plain state).
Checksum parseChecksum(std::string_view text);

// The cache mode with what else changes what a run's figures mean about it, one wording for
// the chart's title (and the exported chart), the Log's first line and Details: "warm cache",
// "warm cache under a 256 MiB memory limit", "cold cache, measured for 30 s" (a duration run's
// time, shared by its points).
std::string cacheConditionText(const Plan& plan);

// "round 3/15", "warm-up 1/2", "round 4 of a 20 s run", "refining to ±5%: round 13", "verify",
// "pricing copies and faults before the rounds (untimed)"...; an A/A run's prefixed with
// "repeat 2/2: ".
std::string phaseText(const Progress& p);

} // namespace readscope
