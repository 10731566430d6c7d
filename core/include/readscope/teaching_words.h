#pragma once
// The words of a strategy's expected cost and of where a cell disagrees with it (teaching.h
// holds the values).
#include "readscope/teaching.h"

#include <string>
#include <vector>

namespace readscope {

struct ExpectedCost {
    ExpectedCalls calls;
    struct Words {
        std::string syscalls; // "one pread", "one lseek + one read", ...
        std::string passes;   // passes over the bytes
        std::string allocations;
        std::string faults; // what page faults to expect
    } words;
};
ExpectedCost expectedCost(const StrategyInfo& s, std::uint64_t rangeBytes);

// "system calls: expected one lseek + one read per range, measured 1.00 per range"
std::string disagreementText(const StrategyInfo& s, const Disagreement& d);
std::vector<std::string> disagreementLines(const StrategyInfo& s,
                                           const std::vector<Disagreement>& found);

} // namespace readscope
