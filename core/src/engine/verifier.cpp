#include "verifier.h"

#include <fmt/format.h>

namespace readscope {

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
                    std::span<const Range> prefix, std::uint64_t reference, Checksum& checksum,
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
        checksum = Checksum::Mismatch;
        return Error{fmt::format("checksum mismatch: {} returned bytes that differ from the file's",
                                 strategy)};
    }
    checksum = Checksum::Verified;
    return okStatus();
}

} // namespace readscope
