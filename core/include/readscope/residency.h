#pragma once
// How much of a file is in the page cache, and how to push it out without privileges.
#include "readscope/range.h"
#include "readscope/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <stop_token>
#include <string>

namespace readscope {

// mincore(2) and cachestat(2) report a file's true page-cache state only to a caller who owns
// the file or may write it (or holds CAP_FOWNER, as root does); anyone else sees a made-up
// answer. The rule is pure, so it can be tested without changing users.
inline bool residencyVerifiable(std::uint32_t owner, std::uint32_t euid, bool writable) {
    return euid == 0 || owner == euid || writable;
}

struct Residency {
    std::optional<double> fraction; // 0..1; empty = unverified
    std::string method; // "cachestat", "mincore", "nowait-sample: ..." or "unverified: <why>"
    // The probe itself changed the cache (a RWF_NOWAIT miss starts read-ahead of the page it
    // asked about): a cold round must evict again after it.
    bool disturbsCache = false;
};

// fd must be open on a regular file of the given size.
Residency measureResidency(int fd, std::uint64_t size, bool verifiable, const std::string& whyNot);

// The pages a round is about to read. With cachestat, every page, counted one run of
// consecutive pages at a time (a sequential round: one call) when the ranges make at most
// kResidencyProbes runs; otherwise at most kResidencyProbes of them, spread evenly over the
// ranges' pages in the order they will be read, each asked whether it is cached. On a 32 GiB
// file read 256 MiB a round, the whole file's residency says nothing about those 256 MiB.
inline constexpr std::size_t kResidencyProbes = 4096;
Residency measureRangeResidency(int fd, std::uint64_t size, std::span<const Range> ranges,
                                bool verifiable, const std::string& whyNot);

// The same pages asked the way any reader may ask: a one-byte preadv2(RWF_NOWAIT) of each,
// which fails with EAGAIN when the page is not cached. mincore and cachestat hide the truth
// from a caller who neither owns nor may write the file; this does not. But on Linux a miss
// starts a read of the page asked about, which on a fast device can finish in time for the
// call to return the byte: a probe that made this thread read from storage counts as a miss.
// The answer describes the cache as it was, and a cold round evicts again after asking
// (disturbsCache). Linux only; elsewhere unverified.
Residency sampleResidencyNowait(int fd, std::uint64_t size, std::span<const Range> ranges);

// After sampleResidencyNowait missed: waits for the reads its misses started (a blocking
// one-byte read of each sampled page, as random access so that no read-ahead starts), so that
// the eviction that follows finds no page still locked under I/O, which it would skip.
void finishNowaitProbes(int fd, std::uint64_t size, std::span<const Range> ranges);

// POSIX_FADV_DONTNEED on the whole file, after writing out (and waiting for) its dirty pages
// on Linux. Pages still mapped anywhere stay resident.
Status evictFile(int fd, const std::string& path);
// Root only, explicit opt-in: sync + echo 1 > /proc/sys/vm/drop_caches.
Status dropAllCaches();

// Reads the whole file once (chunked, stop-aware) so that its pages are resident.
Status warmFile(int fd, std::uint64_t size, const std::string& path, std::stop_token stop = {});

} // namespace readscope
