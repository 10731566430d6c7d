#pragma once
// RFC 4180 fields and records. Private to the core.
#include <string>
#include <string_view>
#include <vector>

namespace readscope::csv {

std::string field(std::string_view value);
std::string record(const std::vector<std::string>& fields); // ends with CRLF
// Parses a whole document into records; returns false on an unterminated quote.
bool parse(std::string_view text, std::vector<std::vector<std::string>>& records);

} // namespace readscope::csv
