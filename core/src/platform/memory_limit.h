#pragma once
// A memory limit the measured file's page cache counts against (readscope-cli run
// --memory-limit): the whole process inside a memory cgroup while it lasts, so the desktop app
// runs such a run in a child process (worker_run.h) and never enters one itself. Private to
// the core. Linux only; elsewhere entering refuses, saying why.
#include "readscope/result.h"

#include <cstdint>
#include <memory>
#include <string>

namespace readscope::platform {

class MemoryLimitScope {
public:
    virtual ~MemoryLimitScope() = default;      // leaves, if leave() was not called
    virtual std::uint64_t bytes() const = 0;    // the limit in force
    virtual const std::string& how() const = 0; // the cgroup, the file and the value, in words
    // Back in the cgroup the process came from, a cgroup it made for the run removed (a
    // systemd scope systemd removes itself); an error when the process could not move back
    // (it stays limited, or, its cgroup gone, stays with the limit lifted) or the cgroup it
    // made stays behind.
    virtual Status leave() = 0;
};

// Puts this process under a memory limit of `bytes`, the first way that works:
// 1. the cgroup it already runs in, when that is limited to at most `bytes` (as `systemd-run
//    --user --scope -p MemoryMax=...` makes one; bytes() is then that cgroup's limit);
// 2. a new memory cgroup of its own, below its cgroup: cgroup v1's memory controller, or v2's
//    where its cgroup may hold a child with the memory controller (the root cgroup, as root; a
//    v2 cgroup that holds processes cannot give its children a controller). Making its own,
//    it first removes the empty readscope-<pid> cgroups that killed runs left beside it;
// 3. on cgroup v2, a scope limited to `bytes` that the systemd user manager makes (through
//    systemd-run --user --scope, as for a command it starts) and that this process moves into:
//    no root needed where its cgroup is under the user's own (a desktop's apps and terminals).
// An error saying what was tried and why it failed, never a run without the limit.
Result<std::unique_ptr<MemoryLimitScope>> enterMemoryLimit(std::uint64_t bytes);

} // namespace readscope::platform
