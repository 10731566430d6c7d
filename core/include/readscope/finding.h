#pragma once
// A published finding a lesson reproduces, in a form a run can be checked against: "faster is
// faster than than at these sizes (all, when none are named)", with the published change when
// there is one. judgeFinding says whether this machine agrees, from the run's own cells and
// the paired comparison of compare.h.
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct Finding {
    std::string faster, than;
    std::vector<std::uint64_t> sizes;                  // empty: every size of the run
    std::optional<double> publishedLow, publishedHigh; // the published change, e.g. 0.08, 0.19
    std::string published;                             // "on an Apple M3 Max", where and how
};

enum class Agreement { Agrees, Partly, Disagrees, Undecided };

struct FindingVerdict {
    Agreement agreement = Agreement::Undecided;
    int sizesFaster = 0, sizesJudged = 0; // sizes where the paired test says faster / has a say
    double lowChange = 0, highChange = 0; // the measured changes' range over those sizes
    int sizesWithinPublished = 0;         // sizes whose change lies in the published range
    std::string text;                     // the sentence the lesson shows
};

// Nothing when the run measured neither strategy at any of the finding's sizes.
std::optional<FindingVerdict> judgeFinding(const ResultDocument& doc, const Finding& finding);

} // namespace readscope
