#pragma once
// A cell made of rounds at given speeds (GB/s, 1 GB each, numbered from 1 so that two cells'
// rounds pair), summarized: what the comparisons and findings are tested on.
#include "readscope/result_document.h"

#include <vector>

namespace readscope::testing {

inline Cell cellWithRounds(const char* id, std::uint64_t size, const std::vector<double>& gbps) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    int r = 0;
    for (double g : gbps) {
        Sample s;
        s.round = ++r;
        s.bytes = 1'000'000'000;
        s.seconds = 1.0 / g;
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

} // namespace readscope::testing
