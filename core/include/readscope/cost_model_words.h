#pragma once
// The cost model in words (cost_model.h holds its figures): the cache cut, a fixed cost the
// sizes do not resolve, a strategy without a fit, the seek check, the unit costs, and the
// lines the CLI and the Markdown print.
#include "readscope/cost_model.h"

#include <string>
#include <vector>

namespace readscope {

// "Fitted up to the L2 cache (2 MiB); 8 MiB left out: past it a copy's bandwidth falls, ..."
std::string cacheCutSentence(const CacheCut& cut);

// "not resolved: at 16 KiB it would be under 2% of a range's time, within the fit's 9% error".
std::string unresolvedFixedText(const CostFit& fit);

// Why a measured strategy of a range-size sweep has no fit while the sweep has a cache cut:
// "not fitted: only 2 of its sizes lie at or below the L2 cache (2 MiB), and a line needs 3";
// empty when it has one (or the sizes would not have fitted it even uncut).
std::string costFitMissing(const ResultDocument& doc, const std::string& strategy);

// "seek-read pays 1.53 µs more per range than pread-uninit; it makes 1.00 lseek per range
// (counted), and one lseek costs 1.23 µs here." (the clauses that were measured).
std::string seekCheckSentence(const SeekCheck& check);

// "Unit costs here, measured at the start: a system call that does nothing 0.05 µs, a fault on
// a fresh anonymous page 0.31 µs, ..." (the ones measured; the lseek unless the seek check
// already says it); empty when none was.
std::string unitCostsSentence(const ResultDocument& doc, bool withLseek = true);

// The lines a person reads (CLI, Markdown): a table of the fits, and the seek check's
// sentence. Empty when nothing could be fitted.
std::vector<std::string> costModelLines(const ResultDocument& doc);

} // namespace readscope
