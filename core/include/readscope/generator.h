#pragma once
// Test files whose bytes are a function of their offset, so a read from the wrong offset
// shows up as a wrong checksum.
#include "readscope/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>

namespace readscope {

// The test file a new user starts with, in the app and in `readscope-cli run` without FILE:
// large enough that the default sweep's 64 MiB ranges fit, small enough to make in seconds.
inline constexpr std::uint64_t kDefaultTestFileSize = 256ull << 20;

// Fills out with the bytes that belong at file offset `offset`.
void generatedBytes(std::uint64_t offset, std::span<std::byte> out);

// Whether the first 64 KiB that fd reads (of a file of `size` bytes) are these bytes.
bool holdsGeneratedBytes(int fd, std::uint64_t size);

using GenerateProgress = std::function<void(std::uint64_t written, std::uint64_t total)>;

// Writes to a temporary name beside path and renames it into place, so an interrupted run
// leaves nothing half-written. Refuses to replace an existing file unless overwrite is set.
Status generateFile(const std::string& path, std::uint64_t size, bool overwrite = false,
                    const GenerateProgress& progress = {}, std::stop_token stop = {});

} // namespace readscope
