#include "verdict.h"

#include <fmt/format.h>

#include <cmath>

namespace readscope {

void decide(ChangeEstimate& e, double threshold, double p, bool adjusted, double drift,
            std::string_view whoseDrift) {
    // The noise threshold on the change; the drift between runs on its logarithm, as it was
    // measured (a level k times higher or lower alike): a floor of +100% is -50% below.
    const bool large =
        std::abs(e.change) >= threshold &&
        (drift <= 0 || e.change <= -1 || std::abs(std::log1p(e.change)) >= std::log1p(drift));
    const bool apart = e.ciLow && e.ciHigh && (*e.ciLow > 0 || *e.ciHigh < 0);
    if (large && apart && p < 0.05) {
        e.verdict = e.change > 0 ? Verdict::Faster : Verdict::Slower;
        e.note.clear();
        return;
    }
    e.verdict = Verdict::WithinNoise;
    if (!large)
        e.note = drift > threshold
                     ? fmt::format("change under {} drift of {:.1f}%", whoseDrift, drift * 100)
                     : fmt::format("change under {:.0f}%", threshold * 100);
    else if (!apart)
        e.note = "its interval crosses zero";
    else
        e.note = fmt::format("p = {:.3f}, not under 0.05{}", p,
                             adjusted ? " after Holm's adjustment" : "");
}

} // namespace readscope
