#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// What can move a run's pages under it while it measures (Linux): the kernel's DAMON schemes
// (a pageout scheme evicts memory idle past its age, a cached file's pages included), the
// transparent huge page mode, MGLRU, swap and zswap. From /sys and /proc when the run starts.
struct DamonScheme {
    std::string action;        // "pageout", "lru_deprio", "hugepage", ...
    std::string operations;    // what it watches: "paddr" (all physical memory), "vaddr", ...
    double minIdleSeconds = 0; // the age past which memory qualifies (0: any)
    bool operator==(const DamonScheme&) const = default;
};
struct MemoryDaemons {
    std::vector<DamonScheme> damon; // the schemes of the running kdamonds
    std::string thp;                // "always", "madvise", "never"; empty: not known
    std::optional<bool> mglru;      // the multi-generational LRU on; none: not built in
    std::uint64_t swapBytes = 0;
    std::optional<bool> zswap; // none: not built in
    bool operator==(const MemoryDaemons&) const = default;
};
// "DAMON pageout of memory idle 60 s (all physical memory), THP madvise, no swap": what it
// found, said once for every output.
std::string memoryDaemonsText(const MemoryDaemons& m);
// Whether something named there can evict a cached file's pages during a run (a DAMON pageout
// scheme, or swap with anonymous pages alike): the reason two speeds may have a cause here.
bool canEvictDuringRun(const MemoryDaemons& m);

// Whether the CPU's hardware counters can be read (perf): without them TLB and cache misses,
// and a hypervisor's own faults, have no count, which the time split says.
enum class HardwareCounters { Present, Absent, NotPermitted };
// "present", "absent", "not-permitted": the JSON's words.
std::string_view hardwareCountersKey(HardwareCounters c);
std::optional<HardwareCounters> hardwareCountersFrom(std::string_view key);

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
    std::optional<MemoryDaemons> memory; // none: not looked at (Windows, older documents)
    std::optional<HardwareCounters> hardwareCounters; // none: not looked at
};

SystemInfo collectSystemInfo(const std::string& filesystem);
// "L1d 48 KiB, L2 2 MiB, L3 260 MiB" (the levels known); "" when none is.
std::string cachesText(const CpuCaches& caches);
// Now, as ISO 8601 in UTC: "2026-12-02T00:41:07Z".
std::string utcTimestamp();
std::string toolVersion();

} // namespace readscope
