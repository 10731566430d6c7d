// Warming is plain reading, the same on every platform.
#include "readscope/residency.h"
#include "platform.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace readscope {

Status warmFile(int fd, std::uint64_t size, const std::string& path, std::stop_token stop) {
    constexpr std::size_t kChunk = 1 << 20;
    auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
    for (std::uint64_t off = 0; off < size;) {
        if (stop.stop_requested())
            return okStatus();
        const auto n = platform::readAt(fd, buffer.get(), kChunk, off);
        if (n < 0)
            return Error{fmt::format("reading '{}' to warm the cache failed at offset {}: {}", path,
                                     off, std::strerror(errno))};
        if (n == 0)
            break;
        off += static_cast<std::uint64_t>(n);
    }
    return okStatus();
}

} // namespace readscope
