#pragma once
// A round's sample as both result formats name it: the JSON sample objects and the samples
// CSV's columns are written (and the JSON read back) through this one table. The latencies'
// CSV names say their unit (latency_p50_s), as they always have; the table holds both names
// so that neither can drift from the other. Private to the core.
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <variant>

namespace readscope {

struct SampleField {
    const char* json;
    const char* csv;
    std::variant<int Sample::*, std::uint64_t Sample::*, double Sample::*,
                 std::optional<double> Sample::*>
        member;
};

inline const SampleField kSampleFields[] = {
    {"round", "round", &Sample::round},
    {"position", "position", &Sample::position},
    {"repeat", "repeat", &Sample::repeat},
    {"bytes", "bytes", &Sample::bytes},
    {"seconds", "seconds", &Sample::seconds},
    {"user_seconds", "user_seconds", &Sample::userSeconds},
    {"system_seconds", "system_seconds", &Sample::systemSeconds},
    {"minor_faults", "minor_faults", &Sample::minorFaults},
    {"major_faults", "major_faults", &Sample::majorFaults},
    {"syscalls", "syscalls", &Sample::syscalls},
    {"seeks", "seeks", &Sample::seeks},
    {"latency_p50", "latency_p50_s", &Sample::latencyP50},
    {"latency_p99", "latency_p99_s", &Sample::latencyP99},
    {"resident_before", "resident_before", &Sample::residentBefore},
    {"bytes_read", "bytes_read", &Sample::bytesRead},
    {"device_bytes_read", "device_bytes_read", &Sample::deviceBytes},
    {"involuntary_switches", "involuntary_switches", &Sample::involuntarySwitches},
    {"stolen_seconds", "stolen_seconds", &Sample::stolenSeconds},
    {"other_cpu_seconds", "other_cpu_seconds", &Sample::otherCpuSeconds},
    {"cpu_mhz", "cpu_mhz", &Sample::cpuMhz},
    {"resident_after", "resident_after", &Sample::residentAfter},
    {"tlb_shootdowns", "tlb_shootdowns", &Sample::tlbShootdowns},
    {"started_at", "started_at", &Sample::startedAt},
    {"file_resident_after", "file_resident_after", &Sample::fileResidentAfter},
};

} // namespace readscope
