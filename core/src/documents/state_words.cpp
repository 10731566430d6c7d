#include "readscope/state_words.h"

#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

namespace {
constexpr Checksum kEvery[] = {Checksum::NotChecked,          Checksum::Verified,
                               Checksum::VerifiedSinceResume, Checksum::Mismatch,
                               Checksum::NotCheckedStopped,   Checksum::NotCheckedFileChanged};
} // namespace

std::string_view checksumText(Checksum c) {
    switch (c) {
    case Checksum::None: return "";
    case Checksum::NotChecked: return "not checked";
    case Checksum::Verified: return "verified";
    case Checksum::VerifiedSinceResume:
        return "verified over the ranges its rounds read since the run was resumed (those read "
               "before it were not checked)";
    case Checksum::Mismatch: return "mismatch";
    case Checksum::NotCheckedStopped:
        return "not checked: stopped before the ranges its rounds read were verified (its read "
               "of the first ranges was)";
    case Checksum::NotCheckedFileChanged:
        return "not checked: the file changed during the run, so the ranges its rounds read "
               "were not (its read of the first ranges was, before them)";
    }
    return "";
}

Checksum parseChecksum(std::string_view text) {
    for (const Checksum c : kEvery)
        if (checksumText(c) == text)
            return c;
    if (text.starts_with("not checked"))
        return Checksum::NotChecked;
    if (text.starts_with("verified"))
        return Checksum::Verified;
    return Checksum::None;
}

namespace {
std::string stepText(const PhaseStep& at) {
    switch (at.phase) {
    case RunPhase::Starting: return "starting";
    case RunPhase::WarmingCache: return "warming the page cache";
    case RunPhase::DeviceLimit: return "measuring the device limit (untimed)";
    case RunPhase::Copying: return "copying";
    case RunPhase::Calibrating: return "calibrate";
    case RunPhase::Verifying: return "verify";
    case RunPhase::OpeningPrices: return "pricing copies and faults before the rounds (untimed)";
    case RunPhase::ClosingPrices: return "pricing copies and faults after the rounds (untimed)";
    case RunPhase::WarmUp: return fmt::format("warm-up {}/{}", at.round, at.rounds);
    case RunPhase::Round: return fmt::format("round {}/{}", at.round, at.rounds);
    case RunPhase::TimedRound:
        return fmt::format("round {} of a {:g} s run", at.round, at.runSeconds);
    case RunPhase::Refining:
        return fmt::format("refining to ±{:g}%: round {}", at.precision * 100, at.round);
    }
    return "";
}
} // namespace

std::string cacheConditionText(const Plan& plan) {
    std::string text = fmt::format("{} cache", toString(plan.cache));
    if (plan.memoryLimit)
        text += fmt::format(" under a {} memory limit", formatSize(plan.memoryLimit));
    if (plan.durationSeconds > 0)
        text += fmt::format(", measured for {:g} s", plan.durationSeconds);
    return text;
}

std::string phaseText(const Progress& p) {
    return p.repeats > 0 ? fmt::format("repeat {}/{}: {}", p.repeat, p.repeats, stepText(p.at))
                         : stepText(p.at);
}

} // namespace readscope
