#pragma once
// Reading a mapping past the end of a file that shrank under it raises SIGBUS. Mapped reads
// run inside a guard: a SIGBUS on a guarded thread jumps back to the guard (which reports an
// error) instead of killing the process; any other SIGBUS keeps its usual effect.
#include <csetjmp>
#include <cstdint>

namespace readscope {

struct SigbusGuard {
    sigjmp_buf env;
    const void* faultAddress = nullptr;
};

// Installs the process-wide handler once; cheap to call every time.
void installSigbusHandler();
// Makes guard the active one for this thread (nullptr: none). Returns the previous one.
SigbusGuard* setThreadSigbusGuard(SigbusGuard* guard);

// Usage (the sigsetjmp must sit in the frame that stays alive while guarded):
//   SigbusGuard guard; ScopedSigbusGuard scope(guard);
//   if (sigsetjmp(guard.env, 1) != 0) { /* faulted at guard.faultAddress */ }
class ScopedSigbusGuard {
public:
    explicit ScopedSigbusGuard(SigbusGuard& guard) {
        installSigbusHandler();
        previous_ = setThreadSigbusGuard(&guard);
    }
    ~ScopedSigbusGuard() { setThreadSigbusGuard(previous_); }
    ScopedSigbusGuard(const ScopedSigbusGuard&) = delete;
    ScopedSigbusGuard& operator=(const ScopedSigbusGuard&) = delete;

private:
    SigbusGuard* previous_ = nullptr;
};

} // namespace readscope
