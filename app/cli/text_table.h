#pragma once
#include "readscope/compare.h"
#include "readscope/result_document.h"
#include "readscope/run_findings.h"

#include <string>
#include <string_view>
#include <vector>

namespace readscope::cli {

// One line per cell, grouped by range size: what a person reads in a terminal.
std::string plainTable(const ResultDocument& doc);

// What `run` prints on standard output: the table (or Markdown), an offset sweep's verdict
// (once: the Markdown has it among its findings) and the comparison with a baseline when there
// is one. findings: runFindings(doc), computed once for this and runWarnings.
std::string runOutput(const ResultDocument& doc, const std::vector<RunFinding>& findings,
                      bool markdown, const Comparison* comparison, std::string_view baselinePath);
// What `run` prints on standard error after it, a line per finding of runFindings():
// "warning: ...", or "readscope-cli: ..." for one that fails the run (cells not cold).
struct FindingLine {
    std::string text;
    bool failsRun = false;
};
std::vector<FindingLine> runWarnings(const ResultDocument& doc,
                                     const std::vector<RunFinding>& findings);

} // namespace readscope::cli
