#pragma once
// A cell's summary figures as both result formats name them: the JSON cell's "summary" object
// and the summary CSV's columns are written and read back through this one table, so a figure
// cannot be called one thing in one format and another in the other. Private to the core.
#include "readscope/stats.h"

#include <string_view>

namespace readscope {

struct SummaryField {
    const char* name;
    double Summary::*member;
};

inline constexpr SummaryField kSummaryFields[] = {
    {"median_gbps", &Summary::median},
    {"min_gbps", &Summary::min},
    {"max_gbps", &Summary::max},
    {"p25_gbps", &Summary::p25},
    {"p75_gbps", &Summary::p75},
    {"cv", &Summary::cv},
    {"median_ci_low_gbps", &Summary::ciLow},
    {"median_ci_high_gbps", &Summary::ciHigh},
    {"median_ci_coverage", &Summary::ciCoverage},
};

// The field of that name, found while compiling: a name not in the table does not compile.
consteval const SummaryField& summaryField(std::string_view name) {
    for (const auto& f : kSummaryFields)
        if (name == f.name)
            return f;
    throw "no summary field of that name";
}

} // namespace readscope
