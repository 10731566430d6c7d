#pragma once
// A comparison in words: its verdicts, the line that says what drift between runs applies, its
// method line, and its rows as the Compare tab, the Markdown and the terminal show them. Every
// front end words a verdict through these; none decides one (verdict.h does).
#include "readscope/compare.h"
#include "readscope/plan_verdicts.h"

#include <string>
#include <vector>

namespace readscope {

// "faster", "slower", "same within ±2%", "cannot tell": the outcome alone.
std::string outcomeText(const Verdict& v);
// Why a row cannot tell, with the figures that say so ("9 pairs of rounds reach p = 0.055 at
// best over 14 tests; 10 can call one"); empty for the other outcomes.
std::string causeText(const CellComparison& cc);
// The outcome and, for "cannot tell", its cause: what the verdict column says.
std::string verdictText(const CellComparison& cc);
// "-4.3% … +4.3% (96%)": the interval of the change with the coverage it has (never rounded
// up: 94.7% is "94%"); "–" without one.
std::string intervalText(const Verdict& v);

// Between two runs, what drift a change must pass and where it was measured, or that it was
// not and how to measure it (with how long that takes): the first line above the rows.
// Empty within one run.
std::string driftHeadline(const Comparison& c);
// What the change, interval and p of a comparison are, and how many tests were made.
std::string comparisonMethod(const Comparison& c);
// Every sentence under a comparison's rows, in order: its method, the cells only one run has,
// how the runs differ, and a shift every row shares. The Compare tab, the Markdown and the
// terminal all say these; a warning (the runs differ) is the one the tab makes stand out.
struct ComparisonNote {
    std::string text;
    bool warning = false;
};
std::vector<ComparisonNote> comparisonNotes(const Comparison& c);

// Before a run whose rounds cannot call any of a family of comparisons: "9 rounds cannot call
// any of the 14 comparisons against one strategy (p = 0.055 at best after Holm's adjustment);
// 10 can, if every round agrees." `what` names the family; empty when the rounds can.
std::string plannedVerdictsText(const PlannedVerdicts& p, std::string_view what);
// The same for a plan about to run (every strategy against one, the offset trap's offsets
// against page-aligned, and with a baseline every cell against it), one sentence each.
std::vector<std::string> planWarnings(const Plan& plan, std::uint64_t fileSize,
                                      bool againstBaseline);

// One comparison row as text, the same in the Compare tab, the Markdown and the terminal:
// "pread-uninit vs pread-zerofill", "64 KiB", "4.19", "4.30", "+2.6%", "+1.0% … +4.1% (96%)",
// "0.004", "faster".
struct ComparisonRowText {
    std::string who, point, baseline, current, change, interval, p, verdict;
};
ComparisonRowText comparisonRowText(const CellComparison& cc);

std::string comparisonMarkdown(const Comparison& c);
std::string comparisonText(const Comparison& c);

// What a machine drift's floor means, for people: "if every cell were as spread as the pooled
// figure, about 1 row in 300 would move that far with nothing changed (noisier cells do more
// often)".
std::string driftFloorMeaning();

} // namespace readscope
