#pragma once
// Pushing a file's pages out of the page cache and checking that they went: before every cold
// round, and before every pass of the device limit. Private to the engine.
#include "readscope/probe.h"
#include "readscope/range.h"
#include "readscope/residency.h"

#include <functional>
#include <span>
#include <string>

namespace readscope {

// At most this fraction of the pages a read is about to touch may be cached for it to be cold.
inline constexpr double kColdThreshold = 0.01;

// The pages these ranges cover, not the whole file's (leftovers of read-ahead land exactly
// where the next read goes, and 1% of a large file can be a whole round), asked the way this
// file allows: cachestat/mincore, or one-byte RWF_NOWAIT reads of someone else's file. fd may
// be -1 where the platform asks by path (Windows, which cannot tell).
Residency rangeResidency(int fd, const FileProbe& file, std::span<const Range> ranges);

// Evicts the file (POSIX_FADV_DONTNEED; also drop_caches, as root, when asked) until at most
// kColdThreshold of the ranges' pages are cached, or 4 attempts a few ms apart have been made:
// read-ahead started by an earlier read can still land pages after an eviction. Whatever stops
// an eviction goes to warn. The last residency measured (unverified where it cannot be told).
Residency evictUntilCold(int fd, const FileProbe& file, std::span<const Range> ranges,
                         bool dropCaches, const std::function<void(const std::string&)>& warn);

} // namespace readscope
