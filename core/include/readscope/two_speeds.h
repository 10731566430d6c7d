#pragma once
// A cell whose rounds ran at two speeds (stats.h's twoSpeeds: a kept mapping on a virtual
// machine read some rounds at 15-19 GB/s and others at about 1): which of the counters each
// round recorded differ between its slow rounds and its fast ones, or that none does, so that
// a reader knows whether the run saw the cause or could not.
#include "readscope/result_document.h"
#include "readscope/stats.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace readscope {

// Each round's counters, in units that do not grow with the round's length.
enum class RoundCounter {
    UserTime,       // ms of user CPU time per GB read
    SystemTime,     // ms of system CPU time per GB read
    Faults,         // page faults per MiB read
    Preemptions,    // the workers' involuntary context switches in the round
    OtherProcesses, // other processes' CPU time, % of all CPUs' time in the round
    Stolen,         // the hypervisor's steal, % of all CPUs' time in the round
    ClockSpeed,     // the CPUs' clock, MHz
    TlbShootdowns,  // machine-wide TLB shootdowns per second
};
std::string_view toString(RoundCounter c); // "system time (ms per GB)"

struct CounterGroups {
    RoundCounter counter;
    double slow = 0, fast = 0; // the counter's median over the slow rounds and the fast ones
};

struct TwoSpeedCell {
    TwoSpeeds speeds;
    // Counters whose slow rounds and fast rounds do not overlap at all (every slow round's
    // value above, or below, every fast round's).
    std::vector<CounterGroups> differing;
    std::vector<RoundCounter> compared; // the counters every round recorded
};
std::optional<TwoSpeedCell> twoSpeedCell(const Cell& cell, int logicalCores);

} // namespace readscope
