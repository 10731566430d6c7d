#pragma once
#include <string>

namespace readscope {

struct SystemInfo {
    std::string cpuModel;
    int logicalCores = 0;
    std::string kernel;
    std::string filesystem;
    int pageSize = 0;
    std::string toolVersion;
    std::string date;          // ISO 8601, UTC
    std::string os;            // "Linux", "Windows", "macOS"
    bool faultsCounted = true; // false where the system keeps no page-fault count (Wine)
};

SystemInfo collectSystemInfo(const std::string& filesystem);
// Now, as ISO 8601 in UTC: "2026-12-02T00:41:07Z".
std::string utcTimestamp();
std::string toolVersion();

} // namespace readscope
