#pragma once
// The tool as a teacher: what each strategy should cost per range (from its definition), set
// against what a cell measured, with the disagreements said out loud.
#include "readscope/result_document.h"
#include "readscope/strategy.h"

#include <optional>
#include <string>
#include <vector>

namespace readscope {

struct ExpectedCost {
    double syscallsPerRangeMin = 0, syscallsPerRangeMax = 0; // read loop, per range
    std::string syscalls; // "one pread", "one lseek + one read", ...
    std::string passes;   // passes over the bytes
    std::string allocations;
    std::string faults; // what page faults to expect
    // Calls a worker makes once per round, at most (a mapping's mmap, munmap, advice and the
    // SIGBUS guard's signal mask): spread over few large ranges they are a share of a call
    // per range that the per-range figures above leave out.
    double perRoundCallsMax = 0;
};

ExpectedCost expectedCost(const StrategyInfo& s, std::uint64_t rangeBytes);

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

// Sentences naming where the measurement and the explanation disagree (empty: they agree).
// Where the system counts no page faults (faultsCounted false), faults are not compared: the
// caller says once that they were not counted. `threads`: the workers of the cell's rounds,
// each making its per-round calls.
std::vector<std::string> disagreements(const StrategyInfo& s, const Cell& cell,
                                       std::uint32_t pageSize = 4096, bool faultsCounted = true,
                                       int threads = 1);

} // namespace readscope
