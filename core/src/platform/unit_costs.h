#pragma once
// What single operations cost on this machine, measured untimed at a run's start for the
// cost model: a system call that does nothing, a page fault on a fresh anonymous page (a new
// buffer's first touch), and a page fault on a mapped page of a cached file (a mapping's
// first touch). Each is the median over a few hundred; measured on Linux only, none
// elsewhere (Windows and macOS keep no per-thread fault count to divide by). Private to the
// core.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <vector>

namespace readscope::platform {

// Price passes taken as a cell's rounds ran (the engine's roundRhythm finds it): each pass
// reads passBytes, after a pause of gapSeconds.
struct Rhythm {
    double gapSeconds = 0;
    std::uint64_t passBytes = 0;
};
// Waits for `seconds` (at most kMaxPause) on this CPU, busy, as a sweep's other cells keep it
// between a cell's rounds (a sleep would let the CPU idle, which they never do); false when a
// stop request ended it. A sweep's cells pause 0.6 s between their rounds; after 60, 250 or
// 640 ms a copy ran at the same speed on the development VM.
inline constexpr double kMaxPause = 0.1;
inline bool pauseFor(double seconds, std::stop_token stop) {
    using Steady = std::chrono::steady_clock;
    const auto end =
        Steady::now() + std::chrono::duration_cast<Steady::duration>(
                            std::chrono::duration<double>(std::min(seconds, kMaxPause)));
    while (Steady::now() < end)
        if (stop.stop_requested())
            return false;
    return true;
}

// One system call that does nothing (getppid); false, without a call, where not measured.
bool nullSyscall();
std::optional<double> anonymousFaultSeconds();
// Over the first pages of the file open at fd (read first, so that they are cached).
std::optional<double> fileFaultSeconds(int fd, std::uint64_t fileSize);
// One page of a cached file's mapping unmapped: the first pages (at most 16 MiB) mapped and
// populated, munmap timed, over the pages.
std::optional<double> unmapPageSeconds(int fd, std::uint64_t fileSize);

// Reading a cached file in place, GB/s per pass: the file's first spanBytes mapped once and
// populated before the clock, then range by range (rangeBytes each) folded where it lies
// (fold) and copied out with memcpy into one reused buffer (copy), after an untimed pass. What
// a mapping's reads cost beyond their faults: the bytes come from wherever the page cache's
// pages are (memory, for a file past the CPU's caches), not from a warm buffer. Empty where
// not measured (Windows, or the mapping fails).
struct MappedRates {
    std::vector<double> fold, copy;
    std::vector<double> copyFold; // the buffer each copy wrote folded after it (MappedFolds)
};
// Which folds mappedRates times apart from its copies: the file's bytes where they lie
// (inPlace: no buffer offset changes it, so once a point is enough), and the buffer each copy
// just wrote, as --consume all folds a mapping's copy (copies).
struct MappedFolds {
    bool inPlace = true;
    bool copies = false;
};
// The copies land in a buffer at pageOffset (none: where malloc puts it). A stop request ends
// it between passes (with the passes done so far), and one made before it starts maps nothing.
// In a rhythm, each timed pass is one round's ranges after the round's pause, going on through
// the mapping where the last pass stopped.
MappedRates mappedRates(int fd, std::uint64_t spanBytes, std::uint64_t rangeBytes, int passes,
                        std::stop_token stop = {},
                        std::optional<std::uint32_t> pageOffset = std::nullopt,
                        MappedFolds folds = {}, std::optional<Rhythm> rhythm = std::nullopt);

// Faulting a cached file's pages in through a fresh mapping and unmapping them, as a mapping
// strategy's rounds do: per pass, the file's first spanBytes mapped (not populated), a byte
// touched in every page in order, timed with the faults counted around the touches (fault),
// then munmap timed over the pages (unmapPage). A fault maps as many pages as fault-around and
// the page cache's folios give it, and those depend on how the file came into the cache: 16 to
// 256 pages a fault, 25 to 1170 ns a page, between regions of one file and between runs here.
// So a point's cells are priced over the span its copy prices use (up to 128 MiB, where a
// sequential run's rounds begin; a random run's ranges spread over the whole file), not over
// the first 4 MiB the run-wide unit cost takes. Empty where not measured (not Linux, a file
// under 16 pages, the mapping fails, no fault counted, a stop requested before it); a pass
// that counted no fault is left out.
struct MappedFaults {
    std::vector<double> fault, unmapPage; // seconds, per pass
};
// In a rhythm, each pass maps one round's bytes (of the span's start) after the round's pause.
MappedFaults mappedFaultCosts(int fd, std::uint64_t spanBytes, int passes,
                              std::stop_token stop = {},
                              std::optional<Rhythm> rhythm = std::nullopt);

} // namespace readscope::platform
