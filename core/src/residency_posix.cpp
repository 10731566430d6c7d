#include "readscope/residency.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace readscope {

namespace {

#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif

struct CachestatRange {
    std::uint64_t off, len;
};
struct Cachestat {
    std::uint64_t cache, dirty, writeback, evicted, recentlyEvicted;
};

std::optional<double> viaCachestat(int fd, std::uint64_t size, long pageSize) {
    CachestatRange range{0, size};
    Cachestat cs{};
    if (syscall(SYS_cachestat, fd, &range, &cs, 0) != 0)
        return std::nullopt; // ENOSYS before Linux 6.5
    const auto pages = (size + static_cast<std::uint64_t>(pageSize) - 1) /
                       static_cast<std::uint64_t>(pageSize);
    return pages ? static_cast<double>(cs.cache) / static_cast<double>(pages) : 1.0;
}

std::optional<double> viaMincore(int fd, std::uint64_t size, long pageSize) {
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return std::nullopt;
    const auto pages = (size + static_cast<std::uint64_t>(pageSize) - 1) /
                       static_cast<std::uint64_t>(pageSize);
    std::vector<unsigned char> vec(pages);
    std::optional<double> result;
    if (::mincore(map, size, vec.data()) == 0) {
        std::uint64_t resident = 0;
        for (unsigned char v : vec)
            resident += v & 1;
        result = static_cast<double>(resident) / static_cast<double>(pages);
    }
    ::munmap(map, size);
    return result;
}

} // namespace

Residency measureResidency(int fd, std::uint64_t size, bool verifiable,
                           const std::string& whyNot) {
    if (!verifiable)
        return {std::nullopt, "unverified: " + whyNot};
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    if (auto f = viaCachestat(fd, size, pageSize))
        return {f, "cachestat"};
    if (auto f = viaMincore(fd, size, pageSize))
        return {f, "mincore"};
    return {std::nullopt, "unverified: neither cachestat nor mincore answered"};
}

Status evictFile(int fd, const std::string& path) {
    const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc != 0)
        return Error{fmt::format("could not evict '{}' from the page cache: {}", path,
                                 std::strerror(rc))};
    return okStatus();
}

Status dropAllCaches() {
    ::sync();
    const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{fmt::format("cannot open /proc/sys/vm/drop_caches: {} (it needs root; "
                                 "leave the option off to evict with posix_fadvise)",
                                 std::strerror(errno))};
    const ssize_t n = ::write(fd, "1", 1);
    const int err = errno;
    ::close(fd);
    if (n != 1)
        return Error{fmt::format("writing /proc/sys/vm/drop_caches failed: {}",
                                 std::strerror(err))};
    return okStatus();
}

Status warmFile(int fd, std::uint64_t size, const std::string& path, std::stop_token stop) {
    constexpr std::size_t kChunk = 1 << 20;
    auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
    for (std::uint64_t off = 0; off < size;) {
        if (stop.stop_requested())
            return okStatus();
        const ssize_t n = ::pread(fd, buffer.get(), kChunk, static_cast<off_t>(off));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Error{fmt::format("reading '{}' to warm the cache failed at offset {}: {}",
                                     path, off, std::strerror(errno))};
        }
        if (n == 0)
            break;
        off += static_cast<std::uint64_t>(n);
    }
    return okStatus();
}

} // namespace readscope
