// Windows: a Job Object could cap a process's memory, but the cache manager's pages are not
// charged to it, so it would not limit what the measurement depends on; refused instead.
#include "memory_limit.h"

namespace readscope::platform {

Result<std::unique_ptr<MemoryLimitScope>> enterMemoryLimit(std::uint64_t) {
    return Error{"cannot run under a memory limit on Windows: a Job Object's limit does not "
                 "count the system file cache, which is what the limit is for, so the run does "
                 "not start"};
}

} // namespace readscope::platform
