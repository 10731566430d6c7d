#pragma once
// What the engine needs to know about a target file before it plans anything. Opening is
// read-only, always: readscope never writes to the file it measures.
#include "readscope/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace readscope {

struct FileProbe {
    std::string path;
    std::uint64_t size = 0;
    std::uint64_t inode = 0;
    std::int64_t mtimeNs = 0;
    std::string filesystem; // "ext4", "tmpfs", ...
    std::uint32_t pageSize = 4096;
    bool directSupported = false;
    std::string directReason;      // why O_DIRECT cannot be used, when it cannot
    std::uint32_t directAlign = 0; // offset/length/buffer alignment for direct I/O
    bool uringSupported = false;
    std::string uringReason;
    bool dontcacheSupported = false; // preadv2 takes RWF_DONTCACHE for this file
    std::string dontcacheReason;
    bool residencyVerifiable = false; // mincore/cachestat tell the truth for this file
    // Where they do not (someone else's read-only file): one-byte RWF_NOWAIT reads of sampled
    // pages answer instead, for any reader (see sampleResidencyNowait).
    bool residencyByNowait = false;
    std::string residencyReason; // why neither way works, when neither does
};

// Checks that path names a non-empty readable regular file and gathers its facts.
Result<FileProbe> probeFile(const std::string& path);

// How the errors for a missing or empty file end; each front end adds how it generates one
// (the app's Generate… button, `readscope-cli generate`).
inline constexpr const char* kGenerateAdvice = "generate a test file";
inline bool advisesGenerating(const std::string& message) {
    const std::string_view advice = kGenerateAdvice;
    return message.size() >= advice.size() &&
           message.compare(message.size() - advice.size(), advice.size(), advice) == 0;
}

} // namespace readscope
