#pragma once
// The words of a cell's conditions (cell_conditions.h holds the values) and of its notes.
#include "readscope/result_document.h"

#include <string>
#include <vector>

namespace readscope {

// "its size went from 1048576 to 4096 bytes"
std::string fileChangeText(const FileChange& change);
// "cache did not go cold: 3 of 15 rounds started with up to 100.0% ..." ("repeat 2: " first
// for a later repeat's).
std::string conditionText(const CellCondition& condition);
// The failure reason (if any) and every condition's text, joined with "; ".
std::string cellNotes(const std::string& reason, const std::vector<CellCondition>& conditions);
// A cell's: what every document's "message" says.
std::string cellNotes(const Cell& cell);

} // namespace readscope
