#include "unit_costs.h"

#include "clock.h"
#include "platform.h"
#include "readscope/stats.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace readscope::platform {

namespace {

// Measured on Linux only: elsewhere (macOS) faults are counted per process (kPerThreadFaults),
// so another thread's would shrink the cost per fault, and syscall(2) is deprecated there.
#ifdef __linux__
std::uint64_t minorFaults() { return threadUsage().minorFaults; }

// Seconds per fault of touching one byte in every page of [p, p + bytes): faults counted
// around the touches, so a fault that maps several pages (the kernel's fault-around on a
// file) is one fault. None when nothing faulted.
std::optional<double> touchSeconds(volatile std::byte* p, std::size_t bytes, std::size_t page,
                                   bool write) {
    const auto before = minorFaults();
    const auto t0 = Clock::now();
    for (std::size_t at = 0; at < bytes; at += page)
        if (write)
            p[at] = std::byte{1};
        else
            (void)p[at];
    const double seconds = secondsBetween(t0, Clock::now());
    const auto faults = minorFaults() - before;
    return faults ? std::optional(seconds / double(faults)) : std::nullopt;
}

std::optional<double> medianOf(std::vector<double>& v) {
    return v.empty() ? std::nullopt : std::optional(median(v));
}
#endif

} // namespace

#ifndef __linux__
bool nullSyscall() { return false; }
std::optional<double> anonymousFaultSeconds() { return std::nullopt; }
std::optional<double> fileFaultSeconds(int, std::uint64_t) { return std::nullopt; }
#else

bool nullSyscall() {
    ::syscall(SYS_getppid); // not cached by the C library, as getpid once was
    return true;
}

std::optional<double> anonymousFaultSeconds() {
    const std::size_t page = pageSize();
    const std::size_t bytes = 512 * page;
    std::vector<double> perFault;
    for (int pass = 0; pass < 9; ++pass) {
        void* p =
            ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return std::nullopt;
#ifdef MADV_NOHUGEPAGE
        ::madvise(p, bytes, MADV_NOHUGEPAGE); // a page a fault, as a malloc'ed buffer's are
#endif
        if (auto s = touchSeconds(static_cast<std::byte*>(p), bytes, page, true))
            perFault.push_back(*s);
        ::munmap(p, bytes);
    }
    return medianOf(perFault);
}

std::optional<double> fileFaultSeconds(int fd, std::uint64_t fileSize) {
    const std::size_t page = pageSize();
    const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(fileSize, 4 << 20));
    if (bytes < 16 * page)
        return std::nullopt;
    std::vector<std::byte> scratch(1 << 20);
    for (std::size_t at = 0; at < bytes; at += scratch.size()) // cache the pages first
        if (readAt(fd, scratch.data(), std::min(scratch.size(), bytes - at), at) < 0)
            return std::nullopt;
    std::vector<double> perFault;
    for (int pass = 0; pass < 9; ++pass) {
        void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            return std::nullopt;
        if (auto s = touchSeconds(static_cast<std::byte*>(p), bytes, page, false))
            perFault.push_back(*s);
        ::munmap(p, bytes);
    }
    return medianOf(perFault);
}

#endif

} // namespace readscope::platform
