#pragma once
// One Markdown file to attach to an issue: the table, the comparison if any, the machine, and
// the exact readscope-cli command that reproduces the run.
#include "readscope/compare.h"
#include "readscope/provenance.h"
#include "readscope/result_document.h"

#include <optional>
#include <string>

namespace readscope {

std::string reportMarkdown(const ResultDocument& doc, const Comparison* comparison,
                           const std::string& chartFileName);

} // namespace readscope
