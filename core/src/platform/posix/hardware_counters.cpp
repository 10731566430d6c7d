// Whether the CPU's hardware counters can be read here (Linux: perf_event_open of this thread's
// user-space cycles), so that the documents can say why TLB and cache misses have no count: a
// virtual machine that passes none through, or a kernel that does not permit them.
#include "platform.h"

#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace readscope::platform {

#ifdef __linux__
std::optional<HardwareCounters> hardwareCounters() {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.disabled = 1;
    attr.exclude_kernel = 1; // what perf_event_paranoid 2 still allows an unprivileged user
    attr.exclude_hv = 1;
    const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd >= 0) {
        ::close(static_cast<int>(fd));
        return HardwareCounters::Present;
    }
    switch (errno) {
    case EACCES:
    case EPERM: return HardwareCounters::NotPermitted; // perf_event_paranoid, or seccomp
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP: return HardwareCounters::Absent; // no such counter on this CPU
    default: return std::nullopt;                     // ENOSYS, EMFILE, ...: not found out
    }
}
#else
std::optional<HardwareCounters> hardwareCounters() { return std::nullopt; }
#endif

} // namespace readscope::platform
