#include "platform.h"
#include "reader_base.h"
#include "readscope/checksum.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace readscope {

Result<std::uint64_t> referenceChecksum(const FileProbe& file, std::span<const Range> ranges) {
    auto sums = referenceRangeChecksums(file, ranges);
    if (!sums)
        return sums.error();
    return combinePrefix(*sums, sums->size());
}

std::uint64_t combinePrefix(std::span<const std::uint64_t> rangeSums, std::size_t count) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < count && i < rangeSums.size(); ++i)
        total = combineRangeChecksum(total, i, rangeSums[i]);
    return total;
}

Result<std::vector<std::uint64_t>> referenceRangeChecksums(const FileProbe& file,
                                                           std::span<const Range> ranges) {
    // Deliberately the plainest code: a vector, one pread loop, no strategy machinery.
    UniqueFd fd(platform::openForReading(file.path));
    if (!fd.valid())
        return Error{fmt::format("cannot open '{}': {}", file.path, std::strerror(errno))};
    // In 1 MiB chunks, so that checking a 1 GiB range costs 1 MiB of memory, not 1 GiB.
    constexpr std::uint64_t kChunk = 1 << 20;
    std::vector<std::uint64_t> sums;
    sums.reserve(ranges.size());
    std::vector<std::byte> bytes(kChunk);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const auto want = clippedLength(ranges[i], file.size);
        ChecksumStream sum;
        std::uint64_t got = 0;
        while (got < want) {
            const auto n = platform::readAt(fd.get(), bytes.data(), std::min(kChunk, want - got),
                                            ranges[i].offset + got);
            if (n < 0)
                return Error{fmt::format("reading '{}' at offset {} failed: {}", file.path,
                                         ranges[i].offset + got, std::strerror(errno))};
            if (n == 0)
                break;
            sum.update({bytes.data(), static_cast<std::size_t>(n)});
            got += static_cast<std::uint64_t>(n);
        }
        sums.push_back(sum.finish());
    }
    return sums;
}

} // namespace readscope
