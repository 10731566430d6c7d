#pragma once
// The verdict of "Why zero-filling costs what it costs": how much of a zero-filling strategy's
// time its zeroing takes at each range size (the time split's memset part), whether that share
// accounts for the measured gap to the uninitialised buffer, and what changes past the L2
// cache. A lesson checks the published gap with judgeFinding; this says where it comes from.
#include "readscope/compare.h"
#include "readscope/finding.h"
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace readscope {

struct ZeroingAtSize {
    std::uint64_t size = 0;
    double zeroingShare = 0; // of the zero-filler's measured time per range, 0-1
    // Its page faults' share, the other cost of a fresh buffer; none where faults were not
    // priced (no fault cost measured: Windows, macOS).
    std::optional<double> faultShare;
    // The uninitialised buffer's gain if zeroing were the whole difference: the zeroing's
    // seconds over the rest (share / (1 - share)), the change compare.h would measure; none
    // when the priced zeroing alone reaches the measured time (no rest to gain over).
    std::optional<double> predictedGain;
    std::optional<Verdict> gain; // measured: the uninitialised against the zero-filler
    // The measured gain's interval tells the predicted gain from none (told: at least 90%
    // coverage, and not holding both) and holds the predicted one: zeroing is the difference.
    // An interval wide enough to hold both tells nothing, however much it holds.
    bool gainTold = false;
    bool zeroingIsTheGap = false;
    bool pastL2 = false;
    // Other strategies of the run that zero (pread-calloc): their zeroing share here.
    std::vector<std::pair<std::string, double>> others;
};

struct ZeroingVerdict {
    std::optional<FindingVerdict> finding; // the published gap, judged as any lesson's
    std::vector<ZeroingAtSize> sizes;      // sizes where the zero-filler has a time split
    std::uint64_t l2 = 0;                  // the run's L2 size; 0 where it is not known
    // A zero-filler cell with no zeroing part (the last one): doc.cells' index, and whether it
    // had a split (then the run measured no memset rate) or none (timeSplitMissing says why).
    std::optional<std::size_t> unsplitCell;
    bool noMemsetRate = false;
};

// finding: faster = the uninitialised buffer, than = the zero-filler, with the published
// range. Nothing when the run has no cell of the zero-filler.
std::optional<ZeroingVerdict> judgeZeroing(const ResultDocument& doc, const Finding& finding);

} // namespace readscope
