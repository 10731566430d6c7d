#pragma once
// A memory limit the measured file's page cache counts against (readscope-cli run
// --memory-limit): the whole process inside a memory cgroup while it lasts. Private to the
// core. Linux only; elsewhere entering refuses, saying why.
#include "readscope/result.h"

#include <cstdint>
#include <memory>
#include <string>

namespace readscope::platform {

class MemoryLimitScope {
public:
    virtual ~MemoryLimitScope() = default;      // leaves the limit: back where the process was
    virtual std::uint64_t bytes() const = 0;    // the limit in force
    virtual const std::string& how() const = 0; // the cgroup, the file and the value, in words
};

// Puts this process under a memory limit of `bytes`: the cgroup it already runs in when that
// is limited to at most `bytes` (as `systemd-run --user --scope -p MemoryMax=...` makes one),
// else a new memory cgroup of its own (cgroup v1's memory controller, or v2 where this process
// may create and enter one: root, or a delegated subtree). An error saying what was tried and
// why each way failed, never a run without the limit.
Result<std::unique_ptr<MemoryLimitScope>> enterMemoryLimit(std::uint64_t bytes);

} // namespace readscope::platform
