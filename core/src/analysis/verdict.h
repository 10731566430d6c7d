#pragma once
// A comparison's verdict policy: when a change is a finding (faster, slower) and why it is not
// (under the noise threshold or the drift floor, an interval across zero, a p value not under
// 0.05). Private to the analysis layer.
#include "readscope/compare.h"

#include <string_view>

namespace readscope {

// The verdict from a change, its interval and a p value (adjusted, where several tests were
// made), with the reason when it is "within noise". The drift floor holds on the logarithm.
void decide(ChangeEstimate& e, double threshold, double p, bool adjusted, double drift = 0,
            std::string_view whoseDrift = "the runs'");

} // namespace readscope
