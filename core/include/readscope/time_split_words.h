#pragma once
// Where a cell's time goes, in words (time_split.h holds the figures): the parts' names, one
// cell's sentence, and the table the CLI and the Markdown print.
#include "readscope/time_split.h"

#include <string>
#include <vector>

namespace readscope {

// "zeroing (memset)", "kernel copy" or "memcpy", "system calls", "page faults",
// "page-cache work", "fold".
std::string partName(TimePart part, const TimeSplit& split);

// The counts a split could not price, "; "-separated: "page faults (no fault cost measured);
// zeroing (no memset rate measured)"; empty when every count has its price.
std::string unpricedText(const TimeSplit& split);

// Why a cell has no split, in words: "a cold run's time is mostly the device's, which no unit
// cost here prices", ...; empty when it has one.
std::string timeSplitMissing(const ResultDocument& doc, const Cell& cell);

// "pread-zerofill at 1 MiB, 61.2 µs per range: kernel copy 78%, zeroing (memset) 17%, system
// calls 1%, unexplained 4%", with what a large unexplained share means; empty without a split.
std::string timeSplitSentence(const ResultDocument& doc, const Cell& cell);

// The split of every cell that has one as a fixed-width table for the CLI's text and the
// Markdown report: a row per cell (µs per range, each part's share, the unexplained rest),
// then what the copy column means, the cells whose unit costs explain less than they should
// and (withUnitCosts: where no cost-model lines print them) the unit costs; empty when no cell
// has a split.
std::vector<std::string> timeSplitLines(const ResultDocument& doc, bool withUnitCosts);

} // namespace readscope
