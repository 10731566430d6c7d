#pragma once
// The words of a lesson's verdicts (finding.h and zeroing_lesson.h hold the values).
#include "readscope/cache_fill.h"
#include "readscope/finding.h"
#include "readscope/zeroing_lesson.h"

#include <string>

namespace readscope {

// "pread-uninit against pread-zerofill at 64 KiB–1 MiB here: +10% … +15% (faster by the paired
// test at 2 of 2 sizes); published: +8% … +19% (M3 Max). This machine agrees, within the
// published range." and what more rounds would tell.
std::string findingVerdictText(const Finding& finding, const FindingVerdict& verdict);
// The zeroing lesson's lines ('\n' between): the published gap, zeroing's shares, the
// predicted gains and what crossing the L2 changes.
std::string zeroingVerdictText(const ResultDocument& doc, const Finding& finding,
                               const ZeroingVerdict& verdict);

// The cache-fill lesson's verdict: when the cache filled, each strategy's rounds before it
// against after it, and whether this machine agrees, or why it cannot tell.
std::string cacheFillVerdictText(const ResultDocument& doc, const CacheFillFinding& finding,
                                 const CacheFillVerdict& verdict);

} // namespace readscope
