#pragma once
// What a finished run's figures say about themselves, computed once for every output: the
// noise, copying cells faster than memcpy, cells faster than the device limit, cells that did
// not go cold, and an offset sweep's verdict. The CLI, the Markdown documents and the app's log
// each render this one list, so none of them leaves one out; the sentences are written here
// (and the verdict's in offset_trap.cpp) only.
#include "readscope/result_document.h"

#include <string>
#include <string_view>
#include <vector>

namespace readscope {

enum class FindingKind {
    Noise,
    AboveCopyLimit,
    AboveDeviceLimit,
    NotCold,
    TwoSpeeds,
    OffsetVerdict
};

struct RunFinding {
    FindingKind kind;
    std::string text; // a sentence or two, no final full stop
    // The figures are suspect, or the machine has a problem worth a warning (a cliff in an
    // offset sweep); the noise summary and a verdict of no cliff are not.
    bool serious = true;
};

// Every finding the run holds, in this order: noise, above memcpy, above the device limit, not
// cold, each cell whose rounds ran at two speeds (two_speeds.h), the offset sweep's verdict.
// roundsOption names how the reader raises the rounds
// ("--rounds", "the Rounds field").
std::vector<RunFinding> runFindings(const ResultDocument& doc, std::string_view roundsOption);

// "2 copying cells ran faster than memcpy copies here: ..." when a strategy that copies the
// bytes into a buffer passed the memcpy limit by more than kAboveCopyLimitPct (measurement
// noise allowed for); empty otherwise. In-place mappings copy nothing and may pass it.
std::string aboveCopyLimitWarning(const ResultDocument& doc);

// "2 cold cells read faster than the device limit ..." when cells of a cold or direct run
// passed it by more than kAboveDeviceLimitPct (one probe's noise allowed for); empty otherwise.
std::string aboveDeviceLimitWarning(const ResultDocument& doc);

// "2 cells did not go cold: ..." for the CLI and the app alike; empty when every cold cell
// went cold.
std::string notColdWarning(const ResultDocument& doc);

// One line for the whole run about noisy cells ("9 of 65 cells noisy: their median is
// uncertain by more than ±5%; close other programs or raise <roundsOption>"); empty when none
// is. Never one warning per cell: it would bury the rest.
std::string noiseSummary(const ResultDocument& doc, std::string_view roundsOption);

// What disturbed a set of rounds: the share of all CPUs' time over those rounds that the
// hypervisor stole and that other processes (and the kernel's own threads) used, the rounds
// that saw any steal, and those whose workers were preempted. measured: the platform said, over
// at least half a second of rounds (its counts are in 10 ms ticks).
struct Disturbance {
    bool measured = false;
    double stolenShare = 0, otherShare = 0;
    int rounds = 0, roundsWithSteal = 0, preemptedRounds = 0;
};
Disturbance disturbanceOf(const std::vector<const Cell*>& cells, int logicalCores);
// The largest cause in words: "the hypervisor took 9% of the CPUs' time (steal in 7 of 12
// rounds)", "other processes kept 23% of the CPUs busy", "the workers were preempted in 40 of
// 120 rounds"; empty when nothing stood out (under 5% and no preempted round) or unmeasured.
std::string disturbanceText(const Disturbance& d);
// The whole run's (every measured cell's rounds): what the compare sets side by side.
Disturbance runDisturbance(const ResultDocument& doc);

} // namespace readscope
