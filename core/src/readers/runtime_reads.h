#pragma once
// Whole-file reads as language runtimes make them: the same system calls with the same sizes
// in the same order, and the same allocation pattern (realloc where the runtime reallocs, a
// zeroed array where it zeroes one), as the runtime's own call does on a regular file. Each
// is written once, against a Sys that either makes the calls (RealSys, optionally recording
// them) or only says what they would return for a file of a given size (PlannedSys), so the
// strategy's text and the cost model show the very sequence the timed code makes. Private to
// the core; tst_runtime_traces compares the recorded calls with strace of the real runtimes.
#include "readscope/result.h"
#include "readscope/strategy.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace readscope {

// What a whole-file read produced: the bytes, in memory the runtime's way allocated.
struct RuntimeBytes {
    std::unique_ptr<std::byte, void (*)(std::byte*)> memory{nullptr, [](std::byte*) {}};
    std::byte* data = nullptr;
    std::uint64_t size = 0;
};

// Reads path whole as runtime does. syscalls counts the calls made; trace (when not null)
// gets each call in strace's words ("read 129 = 128").
Result<RuntimeBytes> readAsRuntime(Runtime runtime, const std::string& path,
                                   std::uint64_t& syscalls, std::vector<std::string>* trace);

// The calls runtime makes to read a regular file of `size` bytes, without making them.
std::vector<std::string> plannedRuntimeCalls(Runtime runtime, std::uint64_t size);

} // namespace readscope
