#pragma once
// One Markdown file to attach to an issue: the table, the comparison if any, the machine, and
// the exact readscope-cli command that reproduces the run.
#include "readscope/compare.h"
#include "readscope/result_document.h"

#include <optional>
#include <string>

namespace readscope {

// `readscope-cli run FILE --sizes ... --strategies ...`: every option that shaped the run.
std::string reproduceCommand(const Plan& plan);
// The command that reruns a document's measurement on another machine: with a generated
// target, `readscope-cli generate` of the same size first, then the run on that file.
std::string rerunCommand(const ResultDocument& doc);

std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName);

} // namespace readscope
