#include "readscope/system_info.h"

#include "platform.h"
#include "readscope/units.h"
#include "readscope_version.h"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <thread>

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

SystemInfo collectSystemInfo(const std::string& filesystem) {
    SystemInfo info;
    info.cpuModel = platform::cpuModel();
    info.caches = platform::cpuCaches();
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
