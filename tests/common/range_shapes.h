#pragma once
// The range shapes every strategy must read exactly (unaligned, single bytes, past the end,
// ...), shared by the Qt suite tst_strategies and the portable tests run under Wine. Plain
// C++, no Qt.
#include "readscope/ranges.h"

#include <cstdint>
#include <vector>

namespace readscope::testing {

struct RangeShape {
    const char* name;
    std::vector<Range> ranges;
};

// For a file of n bytes; n should be at least 3 MiB + 600 and not page aligned.
inline std::vector<RangeShape> rangeShapes(std::uint64_t n) {
    return {
        {"unaligned", {{12345, 7777}, {4097, 3}, {65537, 65535}}},
        {"one byte", {{0, 1}, {4095, 1}, {n - 1, 1}}},
        {"over 1 MiB", {{100, (1ull << 20) + 4097}}},
        {"whole file", {{0, n}}},
        {"past end of file", {{n - 1000, 64 << 10}, {n + 10, 10}}},
        {"many small", {{0, 512}, {8192, 512}, {3 << 20, 600}, {777, 4096}, {5000, 1}}},
    };
}

} // namespace readscope::testing
