#pragma once
// The device limit of a cold or direct run (see DeviceLimit in result_document.h), measured
// untimed before the sweep and kept for the rest of the process. Private to the engine.
#include "readscope/probe.h"
#include "readscope/result.h"
#include "readscope/result_document.h"

#include <cstdint>
#include <stop_token>

namespace readscope {

inline constexpr std::uint64_t kDeviceBlock = 1ull << 20;
// As much as a round reads under the default budget.
inline constexpr std::uint64_t kDeviceSpan = 256ull << 20;
// Below this, a sequential read is over before a device reaches its speed, and 32 reads in
// flight barely fill (the timed part of a pass is 7/8 of the span).
inline constexpr std::uint64_t kDeviceMinSpan = 64ull << 20;
inline constexpr unsigned kDeviceQueueDepth = 32;

// The file's first min(size, kDeviceSpan) bytes in whole kDeviceBlock reads, each way read
// three times (fewer after a pass over a second) and its fastest pass kept, timed after the
// pass's first eighth. Measured once per file (path, inode, size, modification
// time) per process: a later call for the same file returns the first answer, date and all.
// Error, never kept: the file is under kDeviceMinSpan, none of the ways could run (their
// reasons), or the stop token ended it.
Result<DeviceLimit> deviceLimitFor(const FileProbe& file, std::stop_token stop);
// How many times this process measured a file's limit (a reused answer does not count).
std::uint64_t deviceLimitMeasurements();

} // namespace readscope
