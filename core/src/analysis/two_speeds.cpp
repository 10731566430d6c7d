#include "readscope/two_speeds.h"

#include "readscope/units.h"

#include <algorithm>

namespace readscope {

namespace {

// One round's value of a counter; none where the round did not record it.
std::optional<double> valueOf(RoundCounter c, const Sample& s, int cores) {
    const double gb = double(s.bytes) / 1e9, mib = double(s.bytes) / double(1 << 20);
    const double cpuTime = s.seconds * std::max(1, cores);
    switch (c) {
    case RoundCounter::UserTime:
        return gb > 0 ? std::optional(s.userSeconds * 1000 / gb) : std::nullopt;
    case RoundCounter::SystemTime:
        return gb > 0 ? std::optional(s.systemSeconds * 1000 / gb) : std::nullopt;
    case RoundCounter::Faults:
        return mib > 0 ? std::optional(double(s.minorFaults + s.majorFaults) / mib) : std::nullopt;
    case RoundCounter::Preemptions: return double(s.involuntarySwitches);
    case RoundCounter::OtherProcesses:
        return s.otherCpuSeconds && cpuTime > 0 ? std::optional(*s.otherCpuSeconds / cpuTime * 100)
                                                : std::nullopt;
    case RoundCounter::Stolen:
        return s.stolenSeconds && cpuTime > 0 ? std::optional(*s.stolenSeconds / cpuTime * 100)
                                              : std::nullopt;
    case RoundCounter::ClockSpeed: return s.cpuMhz;
    case RoundCounter::TlbShootdowns:
        return s.tlbShootdowns && s.seconds > 0 ? std::optional(*s.tlbShootdowns / s.seconds)
                                                : std::nullopt;
    }
    return std::nullopt;
}

constexpr RoundCounter kCounters[] = {RoundCounter::UserTime,       RoundCounter::SystemTime,
                                      RoundCounter::Faults,         RoundCounter::Preemptions,
                                      RoundCounter::OtherProcesses, RoundCounter::Stolen,
                                      RoundCounter::ClockSpeed,     RoundCounter::TlbShootdowns};

} // namespace

std::string_view toString(RoundCounter c) {
    switch (c) {
    case RoundCounter::UserTime: return "user time (ms per GB)";
    case RoundCounter::SystemTime: return "system time (ms per GB)";
    case RoundCounter::Faults: return "page faults (per MiB)";
    case RoundCounter::Preemptions: return "preemptions (per round)";
    case RoundCounter::OtherProcesses: return "other processes' CPU (% of the CPUs)";
    case RoundCounter::Stolen: return "hypervisor steal (% of the CPUs)";
    case RoundCounter::ClockSpeed: return "CPU clock (MHz)";
    case RoundCounter::TlbShootdowns: return "TLB shootdowns (per second)";
    }
    return "?";
}

std::optional<TwoSpeedCell> twoSpeedCell(const Cell& cell, int logicalCores) {
    const auto speeds = twoSpeeds(cell.roundRates());
    if (!speeds)
        return std::nullopt;
    TwoSpeedCell out{*speeds, {}, {}};
    for (const RoundCounter counter : kCounters) {
        std::vector<double> slow, fast;
        bool everyRound = true;
        for (const auto& s : cell.samples) {
            const auto rate = s.gbps();
            if (!rate)
                continue;
            const auto value = valueOf(counter, s, logicalCores);
            everyRound &= value.has_value();
            if (value)
                (speeds->slow(*rate) ? slow : fast).push_back(*value);
        }
        if (!everyRound || slow.empty() || fast.empty())
            continue;
        out.compared.push_back(counter);
        const auto [slowLow, slowHigh] = std::minmax_element(slow.begin(), slow.end());
        const auto [fastLow, fastHigh] = std::minmax_element(fast.begin(), fast.end());
        if (*slowLow > *fastHigh || *slowHigh < *fastLow)
            out.differing.push_back({counter, median(slow), median(fast)});
    }
    return out;
}

} // namespace readscope
