#pragma once
#include "readscope/result_document.h"

#include <string>

namespace readscope::cli {

// One line per cell, grouped by range size: what a person reads in a terminal.
std::string plainTable(const ResultDocument& doc);

} // namespace readscope::cli
