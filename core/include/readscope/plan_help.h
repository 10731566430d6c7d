#pragma once
// What a plan setting does, worded once for both front ends: the CLI wraps it into its --help,
// the app shows it as the field's tooltip. Each front end adds only how to give the value.
// A line break separates parts the app shows on lines of their own.
#include "readscope/plan.h"

#include <string>

namespace readscope {

// The sizes list: range sizes, or (fileSizes) the whole pattern's file sizes.
std::string sizesHelp(bool fileSizes);
// What a cache mode does: "Warm: the file is read once first, ...".
std::string cacheHelp(CacheMode mode);
std::string threadsHelp();
std::string queueDepthHelp();
std::string consumeHelp();
std::string bufferOffsetHelp();
std::string precisionHelp();
std::string maxTimeHelp();

// The memory limit: a memory cgroup the file's page cache counts against.
std::string memoryLimitHelp();
// The duration: measure for a time instead of a number of rounds.
std::string durationHelp();

} // namespace readscope
