#pragma once
// Every strategy's bytes checked against the file's own before its rounds (untimed): a plain
// reference pass over a point's ranges gives one checksum per range, and each strategy's read
// of its prefix must fold to the same value. Private to the engine.
#include "readscope/probe.h"
#include "readscope/range.h"
#include "readscope/reader.h"
#include "readscope/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace readscope {

class Verifier {
public:
    // The point's ranges in the file each strategy reads (the target, or a whole-file copy).
    Verifier(const FileProbe& file, std::span<const Range> ranges) : file_(file), ranges_(ranges) {}

    // What the first `count` ranges hold, folded: one plain pass over the longest prefix asked
    // so far, extended when a longer one is asked. A failed pass fails every later ask.
    Result<std::uint64_t> reference(std::size_t count);

private:
    const FileProbe& file_;
    std::span<const Range> ranges_;
    std::vector<std::uint64_t> sums_;
    std::optional<Error> error_;
};

// Reads `prefix` through `reader` (prepared for rangeBytes, released after) and compares it
// with `reference`: the checksum state ("verified", "mismatch"; unchanged when stopped), or
// the error the cell fails with.
Status verifyReader(RangeReader& reader, std::string_view strategy, std::uint64_t rangeBytes,
                    std::span<const Range> prefix, std::uint64_t reference, Checksum& checksum,
                    std::stop_token stop);

} // namespace readscope
