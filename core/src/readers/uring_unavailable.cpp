// Where there is no io_uring (POSIX systems other than Linux): the strategy's reader says
// why. The registry marks uring-batch unavailable there first, so this is a last word.
#include "reader_base.h"

namespace readscope {

Result<std::unique_ptr<RangeReader>> openUringReader(const StrategyInfo& s, const FileProbe&,
                                                     std::uint64_t) {
    return Error{fmt::format("{} needs io_uring, which exists on Linux only", s.id)};
}

} // namespace readscope
