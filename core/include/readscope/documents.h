#pragma once
// Result documents in and out: JSON (native, reloadable), CSV summary (RFC 4180, reloadable),
// CSV samples, and a Markdown table shaped like the ones in published issue reports.
#include "readscope/provenance.h"
#include "readscope/result.h"
#include "readscope/result_document.h"
#include "readscope/run_findings.h"

#include <string>
#include <string_view>
#include <vector>

namespace readscope {

std::string toJson(const ResultDocument& doc);
// The same document on one line (no newline inside), for append-only logs.
std::string toJsonLine(const ResultDocument& doc);
Result<ResultDocument> fromJson(std::string_view text);

std::string toSummaryCsv(const ResultDocument& doc);
Result<ResultDocument> fromSummaryCsv(std::string_view text);
std::string toSamplesCsv(const ResultDocument& doc);

std::string toMarkdown(const ResultDocument& doc);
// With the run's findings already computed (runFindings(doc)): each once per document.
std::string toMarkdown(const ResultDocument& doc, const std::vector<RunFinding>& findings);

// Reads a saved document, JSON or summary CSV, told apart by content.
Result<ResultDocument> loadDocument(const std::string& path);
// Writes to a temporary file beside path and renames it over path: never half-written.
Status writeFileAtomically(const std::string& path, std::string_view content);

} // namespace readscope
