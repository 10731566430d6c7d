#pragma once
// One range of a file to read: the unit every reader, residency check and round works on.
#include <cstdint>

namespace readscope {

struct Range {
    std::uint64_t offset;
    std::uint64_t length; // may run past end of file: a read then gets what is there
};

} // namespace readscope
