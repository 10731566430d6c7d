#pragma once
// What a finished run's figures say about themselves, computed once per document as values:
// the noise, copying cells faster than memcpy, cells faster than the device limit, cells that
// did not go cold, cells whose rounds ran at two speeds, and an offset sweep's verdict. The
// CLI, the Markdown documents and the app's log each render this one list
// (finding_text.h words it), so none of them leaves one out and none of them recomputes it.
#include "readscope/compare.h"
#include "readscope/offset_trap.h"
#include "readscope/result_document.h"
#include "readscope/two_speeds.h"

#include <cstddef>
#include <optional>
#include <variant>
#include <vector>

namespace readscope {

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
// The largest cause, if one stood out (5% or more of the CPUs' time, or of the rounds
// preempted); none when nothing did or nothing was measured.
enum class DisturbanceCause { Steal, OtherProcesses, Preemption };
std::optional<DisturbanceCause> mainCause(const Disturbance& d);
// The whole run's (every measured cell's rounds): what the compare sets side by side.
Disturbance runDisturbance(const ResultDocument& doc);

// A cell a finding names: doc.cells[cell], and the percentage of the limit it reached.
struct CellAtLimit {
    std::size_t cell = 0;
    double pct = 0;
};

// Cells whose median is less sure than kNoisyUncertainty, once for the run (never a warning
// per cell: it would bury the rest), and what disturbed their rounds.
struct NoiseFinding {
    std::size_t noisy = 0, measured = 0;
    Disturbance during;
};
// Copying strategies past the memcpy limit by more than kAboveCopyLimitPct (noise allowed
// for); in-place mappings copy nothing and may pass it.
struct AboveCopyLimitFinding {
    std::vector<CellAtLimit> cells;
};
// Cells of a cold or direct run past the device limit by more than kAboveDeviceLimitPct.
struct AboveDeviceLimitFinding {
    std::vector<CellAtLimit> cells;
    double limitGbps = 0;
};
// Cold cells that were found resident before their rounds (status not-cold).
struct NotColdFinding {
    std::size_t cells = 0;
};
// A cell whose rounds ran at two speeds, and the counters that tell its groups apart.
struct TwoSpeedsFinding {
    std::size_t cell = 0;
    TwoSpeedCell split;
};
// A complete buffer-offset sweep's verdict.
struct OffsetVerdictFinding {
    OffsetSweepVerdict verdict;
};

// A trace run's answer: the strategy with the highest median (doc.cells[top]), and every
// other one against it, round for round (compareToReference: faster, slower, the same or
// cannot tell, Holm-adjusted over them).
struct TraceRankingFinding {
    std::size_t top = 0;
    std::vector<CellComparison> others;
};

// In the order runFindings() gives them, and FindingKind's order.
using FindingValue =
    std::variant<NoiseFinding, AboveCopyLimitFinding, AboveDeviceLimitFinding, NotColdFinding,
                 TwoSpeedsFinding, OffsetVerdictFinding, TraceRankingFinding>;
enum class FindingKind {
    Noise,
    AboveCopyLimit,
    AboveDeviceLimit,
    NotCold,
    TwoSpeeds,
    OffsetVerdict,
    TraceRanking
};

struct RunFinding {
    FindingValue value;
    FindingKind kind() const { return FindingKind(value.index()); }
    // The figures are suspect, or the machine has a problem worth a warning (a cliff in an
    // offset sweep); the noise summary and a verdict of no cliff are not.
    bool serious() const;
};

// Every finding the run holds, in this order: noise, above memcpy, above the device limit, not
// cold, each cell whose rounds ran at two speeds (two_speeds.h), the offset sweep's verdict (a
// stopped sweep's figures are no verdict about the machine), a trace run's ranking.
std::vector<RunFinding> runFindings(const ResultDocument& doc);

std::optional<NoiseFinding> noiseFinding(const ResultDocument& doc);
std::optional<AboveCopyLimitFinding> aboveCopyLimit(const ResultDocument& doc);
std::optional<AboveDeviceLimitFinding> aboveDeviceLimit(const ResultDocument& doc);
std::optional<NotColdFinding> notCold(const ResultDocument& doc);
// Two or more measured strategies of a trace run.
std::optional<TraceRankingFinding> traceRanking(const ResultDocument& doc);

} // namespace readscope
