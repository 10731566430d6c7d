#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace readscope {

// The CPU's data caches as the system reports them, in bytes; 0 where it does not say. L1d and
// L2 are one core's; L3 is what its cores share.
struct CpuCaches {
    std::uint64_t l1d = 0, l2 = 0, l3 = 0;
    bool operator==(const CpuCaches&) const = default;
};

// The levels in order with their names: {"L1d", l1d}, {"L2", l2}, {"L3", l3}.
inline std::array<std::pair<const char*, std::uint64_t>, 3> cacheLevels(const CpuCaches& c) {
    return {{{"L1d", c.l1d}, {"L2", c.l2}, {"L3", c.l3}}};
}

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
    CpuCaches caches;
};

SystemInfo collectSystemInfo(const std::string& filesystem);
// "L1d 48 KiB, L2 2 MiB, L3 260 MiB" (the levels known); "" when none is.
std::string cachesText(const CpuCaches& caches);
// Now, as ISO 8601 in UTC: "2026-12-02T00:41:07Z".
std::string utcTimestamp();
std::string toolVersion();

} // namespace readscope
