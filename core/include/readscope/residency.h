#pragma once
// How much of a file is in the page cache, and how to push it out without privileges.
#include "readscope/ranges.h"
#include "readscope/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <stop_token>
#include <string>

namespace readscope {

struct Residency {
    std::optional<double> fraction; // 0..1; empty = unverified
    std::string method;             // "cachestat", "mincore" or "unverified: <why>"
};

// fd must be open on a regular file of the given size.
Residency measureResidency(int fd, std::uint64_t size, bool verifiable,
                           const std::string& whyNot);

// The pages a round is about to read: at most kResidencyProbes of them, spread evenly over the
// ranges' pages in the order they will be read, each asked whether it is cached. On a 32 GiB
// file read 256 MiB a round, the whole file's residency says nothing about those 256 MiB.
inline constexpr std::size_t kResidencyProbes = 4096;
Residency measureRangeResidency(int fd, std::uint64_t size, std::span<const Range> ranges,
                                bool verifiable, const std::string& whyNot);

// POSIX_FADV_DONTNEED on the whole file. Pages still mapped anywhere stay resident.
Status evictFile(int fd, const std::string& path);
// Root only, explicit opt-in: sync + echo 1 > /proc/sys/vm/drop_caches.
Status dropAllCaches();

// Reads the whole file once (chunked, stop-aware) so that its pages are resident.
Status warmFile(int fd, std::uint64_t size, const std::string& path, std::stop_token stop = {});

} // namespace readscope
