#pragma once
// RFC 4180 fields and records; the summary CSV with a table of the cell's optional figures of
// a test's own (documents.h's use cell_fields.h's). Private to the core.
#include "readscope/result.h"
#include "readscope/result_document.h"

#include "cell_fields.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace readscope::csv {

std::string field(std::string_view value);
std::string record(const std::vector<std::string>& fields); // ends with CRLF
// Parses a whole document into records; returns false on an unterminated quote.
bool parse(std::string_view text, std::vector<std::vector<std::string>>& records);

} // namespace readscope::csv

namespace readscope {

std::string toSummaryCsv(const ResultDocument& doc, std::span<const CellField> fields);
Result<ResultDocument> fromSummaryCsv(std::string_view text, std::span<const CellField> fields);

} // namespace readscope
