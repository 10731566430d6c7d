#include "readscope/system_info.h"

#include "platform.h"
#include "readscope/units.h"
#include "readscope_version.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <thread>
#include <vector>

namespace readscope {

std::string utcTimestamp() {
    const std::time_t now = std::time(nullptr);
    const std::tm tm = platform::utcTime(now);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string toolVersion() { return READSCOPE_VERSION; }

std::string cachesText(const CpuCaches& caches) {
    std::string out;
    for (const auto& [name, bytes] : cacheLevels(caches))
        if (bytes)
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name, formatSize(bytes));
    return out;
}

std::string memoryDaemonsText(const MemoryDaemons& m) {
    std::vector<std::string> parts;
    for (const auto& d : m.damon) {
        const std::string watched = d.operations == "paddr"   ? " (all physical memory)"
                                    : d.operations == "vaddr" ? " (a process's memory)"
                                    : d.operations.empty()    ? ""
                                                              : " (" + d.operations + ")";
        parts.push_back(d.minIdleSeconds > 0 ? fmt::format("DAMON {} of memory idle {:g} s{}",
                                                           d.action, d.minIdleSeconds, watched)
                                             : fmt::format("DAMON {}{}", d.action, watched));
    }
    if (!m.thp.empty())
        parts.push_back("THP " + m.thp);
    if (m.mglru)
        parts.push_back(*m.mglru ? "MGLRU on" : "MGLRU off");
    parts.push_back(m.swapBytes ? "swap " + formatSize(m.swapBytes) : "no swap");
    if (m.zswap && *m.zswap)
        parts.push_back("zswap on");
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : ", ") + p;
    return out;
}

bool canEvictDuringRun(const MemoryDaemons& m) {
    return std::any_of(m.damon.begin(), m.damon.end(),
                       [](const DamonScheme& d) { return d.action == "pageout"; });
}

std::string_view hardwareCountersKey(HardwareCounters c) {
    switch (c) {
    case HardwareCounters::Present: return "present";
    case HardwareCounters::Absent: return "absent";
    case HardwareCounters::NotPermitted: return "not-permitted";
    }
    return "";
}

std::optional<HardwareCounters> hardwareCountersFrom(std::string_view key) {
    for (const auto c :
         {HardwareCounters::Present, HardwareCounters::Absent, HardwareCounters::NotPermitted})
        if (hardwareCountersKey(c) == key)
            return c;
    return std::nullopt;
}

SystemInfo collectSystemInfo(const std::string& filesystem) {
    SystemInfo info;
    info.cpuModel = platform::cpuModel();
    info.caches = platform::cpuCaches();
    info.memory = platform::memoryDaemons();
    info.hardwareCounters = platform::hardwareCounters();
    info.logicalCores = static_cast<int>(std::thread::hardware_concurrency());
    info.kernel = platform::kernelRelease();
    info.os = platform::osName();
    info.faultsCounted = platform::faultsUncountedReason().empty();
    info.filesystem = filesystem;
    info.pageSize = static_cast<int>(platform::pageSize());
    info.toolVersion = toolVersion();
    info.date = utcTimestamp();
    return info;
}

} // namespace readscope
