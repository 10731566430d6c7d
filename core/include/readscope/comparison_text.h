#pragma once
// A comparison as text: its verdicts, its method line, and its rows as the Compare tab, the
// Markdown and the terminal show them.
#include "readscope/compare.h"

#include <string>

namespace readscope {

// "within noise (change under 2%)": the verdict, with its reason when it is not a finding.
std::string verdictText(const ChangeEstimate& e);
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

// One comparison row as text, the same in the Compare tab, the Markdown and the terminal:
// "pread-uninit vs pread-zerofill", "64 KiB", "4.19", "4.30", "+2.6%", "+1.0% … +4.1%",
// "0.004", "faster".
struct ComparisonRowText {
    std::string who, point, baseline, current, change, interval, p, verdict;
};
ComparisonRowText comparisonRowText(const CellComparison& cc);

std::string comparisonMarkdown(const Comparison& c);
std::string comparisonText(const Comparison& c);

} // namespace readscope
