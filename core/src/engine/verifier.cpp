#include "verifier.h"

#include "readscope/checksum.h"

#include <fmt/format.h>

namespace readscope {

Result<std::uint64_t> Verifier::reference(std::size_t first, std::size_t count) {
    const std::size_t all = ranges_.size();
    if (count > all || (all > 0 && first >= all))
        return Error{"a window longer than the ranges it goes round"};
    // The sums as far as the window reaches: all of them when it goes round past the end.
    if (auto st = reference(std::min(all, first + count)); !st)
        return st.error();
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < count; ++k)
        total = combineRangeChecksum(total, k, sums_[(first + k) % all]);
    return total;
}

Result<std::uint64_t> Verifier::reference(std::size_t count) {
    if (!error_ && sums_.size() < count) {
        auto more =
            referenceRangeChecksums(file_, ranges_.subspan(sums_.size(), count - sums_.size()));
        if (more)
            sums_.insert(sums_.end(), more->begin(), more->end());
        else
            error_ = more.error();
    }
    if (error_)
        return *error_;
    return combinePrefix(sums_, count);
}

Status verifyReader(RangeReader& reader, std::string_view strategy, std::uint64_t rangeBytes,
                    std::span<const Range> prefix, std::uint64_t reference, std::string& checksum,
                    std::stop_token stop) {
    if (auto st = reader.prepare(rangeBytes); !st)
        return st;
    auto outcome = reader.read(prefix, ConsumeMode::Verify, false, stop);
    reader.release();
    if (!outcome)
        return outcome.error();
    if (outcome->stopped)
        return okStatus();
    if (outcome->value != reference) {
        checksum = "mismatch";
        return Error{fmt::format("checksum mismatch: {} returned bytes that differ from the file's",
                                 strategy)};
    }
    checksum = "verified";
    return okStatus();
}

} // namespace readscope
