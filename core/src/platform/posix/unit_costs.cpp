#include "unit_costs.h"

#include "buffers.h"
#include "clock.h"
#include "platform.h"
#include "readscope/consume.h"
#include "readscope/stats.h"
#include "sigbus_guard.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <span>
#include <vector>

namespace readscope::platform {

namespace {

// Every fold and copy of mappedRates lands here, so no compiler can prove them unused.
std::atomic<std::uint64_t> gMappedSink{0};

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
std::optional<double> unmapPageSeconds(int, std::uint64_t) { return std::nullopt; }
MappedFaults mappedFaultCosts(int, std::uint64_t, int, std::stop_token, std::optional<Rhythm>) {
    return {};
}
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
    const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(fileSize, 4 << 20));
    if (bytes < 16 * pageSize())
        return std::nullopt;
    std::vector<std::byte> scratch(1 << 20);
    for (std::size_t at = 0; at < bytes; at += scratch.size()) // cache the pages first
        if (readAt(fd, scratch.data(), std::min(scratch.size(), bytes - at), at) < 0)
            return std::nullopt;
    auto perFault = mappedFaultCosts(fd, bytes, 9).fault;
    return medianOf(perFault);
}

std::optional<double> unmapPageSeconds(int fd, std::uint64_t fileSize) {
    const std::size_t page = pageSize();
    const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(fileSize, 16 << 20));
    if (bytes < 16 * page)
        return std::nullopt;
    std::vector<double> perPage;
    for (int pass = 0; pass < 5; ++pass) {
        void* p = mapFile(fd, bytes, /*populate=*/true);
        if (!p)
            return std::nullopt;
        const auto t0 = Clock::now();
        ::munmap(p, bytes);
        perPage.push_back(secondsBetween(t0, Clock::now()) / double(bytes / page));
    }
    return medianOf(perPage);
}

MappedFaults mappedFaultCosts(int fd, std::uint64_t spanBytes, int passes, std::stop_token stop,
                              std::optional<Rhythm> rhythm) {
    const std::size_t page = pageSize();
    const std::uint64_t passBytes = rhythm ? std::min(rhythm->passBytes, spanBytes) : spanBytes;
    const std::size_t bytes = static_cast<std::size_t>(passBytes / page * page);
    if (bytes < 16 * page || passes < 1 || stop.stop_requested())
        return {};
    // A file that shrank under the run is not touched past its end.
    if (struct stat st{}; ::fstat(fd, &st) != 0 || std::uint64_t(st.st_size) < bytes)
        return {};
    // Everything the passes write is made before the guard's jump point and only written
    // through afterwards, by index ...
    std::vector<double> fault(std::size_t(passes), 0.0), unmap(fault.size(), 0.0);
    volatile std::size_t done = 0;
    void* volatile mapped = nullptr;
    // ... and when the file shrinks while its pages are touched, the passes end, not the
    // process.
    SigbusGuard guard;
    ScopedSigbusGuard scope(guard);
    if (sigsetjmp(guard.env, 1) != 0) {
        ::munmap(mapped, bytes);
        return {};
    }
    for (std::size_t pass = 0; pass < fault.size() && !stop.stop_requested(); ++pass) {
        if (rhythm && !pauseFor(rhythm->gapSeconds, stop))
            break;
        void* p = mapFile(fd, bytes, /*populate=*/false);
        if (!p)
            break;
        mapped = p;
        const auto touched = touchSeconds(static_cast<std::byte*>(p), bytes, page, false);
        const auto t0 = Clock::now();
        ::munmap(p, bytes);
        mapped = nullptr;
        const double unmapped = secondsBetween(t0, Clock::now());
        if (!touched)
            continue; // no fault counted: nothing to divide by
        fault[done] = *touched;
        unmap[done] = unmapped / double(bytes / page);
        done = done + 1;
    }
    MappedFaults costs;
    costs.fault.assign(fault.begin(), fault.begin() + std::ptrdiff_t(done));
    costs.unmapPage.assign(unmap.begin(), unmap.begin() + std::ptrdiff_t(done));
    return costs;
}

#endif

MappedRates mappedRates(int fd, std::uint64_t spanBytes, std::uint64_t rangeBytes, int passes,
                        std::stop_token stop, std::optional<std::uint32_t> pageOffset,
                        MappedFolds folds, std::optional<Rhythm> rhythm) {
    const std::size_t n = static_cast<std::size_t>(std::min(rangeBytes, spanBytes));
    const std::uint64_t count = n ? spanBytes / n : 0;
    if (count == 0 || passes < 1 || stop.stop_requested())
        return {};
    const std::size_t bytes = static_cast<std::size_t>(count * n);
    // A file that shrank under the run (its cells fail with SIGBUS and go on) is not read past
    // its end: measured over what is left of it, or not at all.
    if (struct stat st{}; ::fstat(fd, &st) != 0 || std::uint64_t(st.st_size) < bytes)
        return {};
    void* map = mapFile(fd, bytes, /*populate=*/true);
    if (!map)
        return {};
    // Everything the passes write is made before the guard's jump point and only written
    // through afterwards (a jump back skips no constructor and leaves no object half-changed).
    PricedDestination buffer(n, pageOffset, pageSize());
    std::vector<double> foldSeconds(std::size_t(passes) + 1), copySeconds(foldSeconds.size()),
        copyFoldSeconds(foldSeconds.size());
    // ... and when it shrinks while this runs, the pass ends instead of the process.
    SigbusGuard guard;
    ScopedSigbusGuard scope(guard);
    if (sigsetjmp(guard.env, 1) != 0) {
        ::munmap(map, bytes);
        return {};
    }
    const auto* base = static_cast<const std::byte*>(map);
    // Back to back, each pass covers the mapping (the first, untimed, warms the caches); in a
    // rhythm, a round's ranges after the round's pause, with no warming pass (a pause undoes it).
    const std::uint64_t perPass =
        rhythm ? std::max<std::uint64_t>(rhythm->passBytes / n, 1) : count;
    const std::size_t first = rhythm ? 1 : 0;
    std::uint64_t next = 0;
    for (std::size_t pass = first; pass < foldSeconds.size() && !stop.stop_requested(); ++pass) {
        if (rhythm && !pauseFor(rhythm->gapSeconds, stop))
            break;
        auto t0 = Clock::now();
        std::uint64_t value = 0;
        if (folds.inPlace) {
            for (std::uint64_t k = 0; k < perPass; ++k)
                value ^= foldBytes(std::span(base + (next + k) % count * n, n));
            foldSeconds[pass] = secondsBetween(t0, Clock::now());
        }
        t0 = Clock::now();
        for (std::uint64_t k = 0; k < perPass; ++k) {
            std::memcpy(buffer.data(), base + (next + k) % count * n, n);
            value ^= static_cast<std::uint64_t>(buffer.data()[n / 2]);
            if (folds.copies) {
                const auto t1 = Clock::now();
                value ^= foldBytes(std::span<const std::byte>(buffer.data(), n));
                copyFoldSeconds[pass] += secondsBetween(t1, Clock::now());
            }
        }
        copySeconds[pass] = secondsBetween(t0, Clock::now()) - copyFoldSeconds[pass];
        next += perPass;
        gMappedSink.fetch_xor(value, std::memory_order_relaxed);
    }
    ::munmap(map, bytes);
    MappedRates rates;
    const double passBytes = double(perPass * n);
    for (std::size_t pass = 1; pass < foldSeconds.size(); ++pass) {
        if (foldSeconds[pass] > 0)
            rates.fold.push_back(passBytes / foldSeconds[pass] / 1e9);
        if (copySeconds[pass] > 0)
            rates.copy.push_back(passBytes / copySeconds[pass] / 1e9);
        if (copyFoldSeconds[pass] > 0)
            rates.copyFold.push_back(passBytes / copyFoldSeconds[pass] / 1e9);
    }
    return rates;
}

} // namespace readscope::platform
