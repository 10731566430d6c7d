#pragma once
// The parts of a result document's JSON (json_document.cpp) that the measurement's process
// streams one at a time (worker_run.cpp): a plan, a cell. Private to documents/.
#include "readscope/result.h"
#include "readscope/result_document.h"

#include "cell_fields.h"

#include <nlohmann/json.hpp>

namespace readscope {

nlohmann::json planJson(const Plan& plan);
// A trace run's trace (trace_json.cpp): its path, source, digest and reads, and back.
nlohmann::json traceJson(const Plan& plan);
void traceFrom(const nlohmann::json& j, Plan& plan);
Plan planFrom(const nlohmann::json& j);
// A cell as the document's "cells" hold it; `doc` gives what it is judged against (its device
// limit, the other cells its time split is fitted with).
// `fields`: the cell's optional figures (cell_fields.h); a test gives a table of its own.
nlohmann::json cellJson(const ResultDocument& doc, const Cell& cell,
                        std::span<const CellField> fields = kCellFields);
Cell cellFrom(const nlohmann::json& j, std::span<const CellField> fields = kCellFields);
// A whole document, as toJson writes it and fromJson reads it, without the text between.
nlohmann::json documentJson(const ResultDocument& doc);
Result<ResultDocument> documentFrom(const nlohmann::json& j);

} // namespace readscope
