#include "sigbus_guard.h"

#include <csignal>
#include <mutex>

namespace readscope {

namespace {

thread_local SigbusGuard* tGuard = nullptr;
struct sigaction gPrevious {};

extern "C" void onSigbus(int sig, siginfo_t* info, void* context) {
    if (SigbusGuard* guard = tGuard) {
        tGuard = nullptr; // a second fault before the guard is re-armed is not ours to catch
        guard->faultAddress = info ? info->si_addr : nullptr;
        siglongjmp(guard->env, 1);
    }
    // Not a guarded read: behave as if we were never here.
    if (gPrevious.sa_flags & SA_SIGINFO) {
        if (gPrevious.sa_sigaction) {
            gPrevious.sa_sigaction(sig, info, context);
            return;
        }
    } else if (gPrevious.sa_handler != SIG_DFL && gPrevious.sa_handler != SIG_IGN) {
        gPrevious.sa_handler(sig);
        return;
    }
    std::signal(SIGBUS, SIG_DFL);
    std::raise(SIGBUS);
}

} // namespace

void installSigbusHandler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa {};
        sa.sa_sigaction = onSigbus;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &gPrevious);
    });
}

SigbusGuard* setThreadSigbusGuard(SigbusGuard* guard) {
    SigbusGuard* previous = tGuard;
    tGuard = guard;
    return previous;
}

} // namespace readscope
