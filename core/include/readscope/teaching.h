#pragma once
// The tool as a teacher: what each strategy should cost per range (from its definition), set
// against what a cell measured, and where the two disagree. The words: teaching_words.h.
#include "readscope/result_document.h"
#include "readscope/strategy.h"

#include <optional>
#include <vector>

namespace readscope {

// glibc serves allocations this large from fresh mmaps at first (its threshold then grows).
inline constexpr std::uint64_t kMmapThreshold = 128 << 10;

// Whether the strategy reads into a buffer it allocates per range (or grows).
bool freshBuffer(const StrategyInfo& s);
// Reads a read-to-end loop makes into a buffer grown by doubling from 8 KiB.
double grownReads(std::uint64_t rangeBytes);

// The system calls a strategy makes per range, by its definition.
struct ExpectedCalls {
    double perRangeMin = 0, perRangeMax = 0; // read loop, per range
    // Calls a worker makes once per round, at most (a mapping's mmap, munmap, advice and the
    // SIGBUS guard's signal mask): spread over few large ranges they are a share of a call
    // per range that the per-range figures above leave out.
    double perRoundMax = 0;
};
ExpectedCalls expectedCalls(const StrategyInfo& s, std::uint64_t rangeBytes);

struct MeasuredCost {
    double syscallsPerRange = 0, syscallsPerMiB = 0;
    double minorFaultsPerMiB = 0, majorFaultsPerMiB = 0;
    double userMsPerGB = 0, systemMsPerGB = 0;
    bool cpuSplitResolved = false; // see CpuPerGB::splitResolved
    // TLB shootdowns per MiB read, machine-wide (every CPU and process while the rounds ran):
    // median over the rounds that counted them; none where the system does not count them.
    std::optional<double> tlbShootdownsPerMiB;
};
MeasuredCost measuredCost(const Cell& cell); // medians over rounds

// Where a cell's measurement and its strategy's definition disagree (teaching_words.h says
// it): calls per range outside the expected span; minor faults where none belong; fresh
// buffers that did not fault (malloc reused them); a mapping read with no fault at all.
struct Disagreement {
    enum Kind { Syscalls, FaultsWhereNone, FreshBuffersWarm, NoMappingFaults } kind = Syscalls;
    std::uint64_t rangeBytes = 0;
    double measured = 0; // calls per range (Syscalls), else minor faults per MiB
    double expected = 0; // FreshBuffersWarm: the pages per MiB a fresh buffer would fault in
};

// Empty: they agree. Where the system counts no page faults (faultsCounted false), faults are
// not compared: the caller says once that they were not counted. `threads`: the workers of
// the cell's rounds, each making its per-round calls.
std::vector<Disagreement> disagreements(const StrategyInfo& s, const Cell& cell,
                                        std::uint32_t pageSize = 4096, bool faultsCounted = true,
                                        int threads = 1);

} // namespace readscope
