// Where there is no io_uring (POSIX systems other than Linux): the strategy's reader says
// why. The registry marks uring-batch unavailable there first, so this is a last word.
#include "platform.h"
#include "reader_base.h"

namespace readscope {

Result<std::unique_ptr<RangeReader>> openUringReader(const StrategyInfo& s, const FileProbe&,
                                                     std::uint64_t) {
    return Error{fmt::format("{} needs io_uring: {}", s.id, platform::linuxOnly("io_uring"))};
}

} // namespace readscope
