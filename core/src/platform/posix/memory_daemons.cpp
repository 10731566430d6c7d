// What can move a run's pages under it, from /sys and /proc (Linux): DAMON's running schemes,
// the THP mode, MGLRU, swap and zswap. Elsewhere: nothing to read.
#include "platform.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace readscope::platform {

#ifdef __linux__
namespace {

namespace fs = std::filesystem;

std::optional<std::string> firstLine(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    return line;
}

double number(const fs::path& path) {
    const auto line = firstLine(path);
    return line ? std::strtod(line->c_str(), nullptr) : 0;
}

// The running kdamonds' schemes. A scheme's minimum age counts aggregation intervals.
std::vector<DamonScheme> damonSchemes() {
    std::vector<DamonScheme> out;
    const fs::path root = "/sys/kernel/mm/damon/admin/kdamonds";
    std::error_code ec;
    for (const auto& kdamond : fs::directory_iterator(root, ec)) {
        if (!kdamond.is_directory() || firstLine(kdamond.path() / "state") != "on")
            continue;
        for (const auto& context : fs::directory_iterator(kdamond.path() / "contexts", ec)) {
            if (!context.is_directory())
                continue;
            const std::string operations = firstLine(context.path() / "operations").value_or("");
            const double aggregationSeconds =
                number(context.path() / "monitoring_attrs" / "intervals" / "aggr_us") / 1e6;
            for (const auto& scheme : fs::directory_iterator(context.path() / "schemes", ec)) {
                if (!scheme.is_directory())
                    continue;
                DamonScheme d;
                d.action = firstLine(scheme.path() / "action").value_or("");
                d.operations = operations;
                d.minIdleSeconds =
                    number(scheme.path() / "access_pattern" / "age" / "min") * aggregationSeconds;
                if (!d.action.empty())
                    out.push_back(d);
            }
        }
    }
    return out;
}

// "always [madvise] never": the bracketed one.
std::string thpMode() {
    const auto line = firstLine("/sys/kernel/mm/transparent_hugepage/enabled").value_or("");
    const auto open = line.find('['), close = line.find(']');
    return open != std::string::npos && close > open ? line.substr(open + 1, close - open - 1)
                                                     : std::string();
}

std::uint64_t swapBytes() {
    std::ifstream in("/proc/meminfo");
    for (std::string key; in >> key;) {
        std::uint64_t kib = 0;
        std::string unit;
        in >> kib >> unit;
        if (key == "SwapTotal:")
            return kib << 10;
    }
    return 0;
}

} // namespace

std::optional<MemoryDaemons> memoryDaemons() {
    MemoryDaemons m;
    m.damon = damonSchemes();
    m.thp = thpMode();
    if (const auto lru = firstLine("/sys/kernel/mm/lru_gen/enabled"))
        m.mglru = std::strtoul(lru->c_str(), nullptr, 16) != 0; // "0x0007"
    m.swapBytes = swapBytes();
    if (const auto z = firstLine("/sys/module/zswap/parameters/enabled"))
        m.zswap = *z == "Y" || *z == "1";
    return m;
}
#else
std::optional<MemoryDaemons> memoryDaemons() { return std::nullopt; }
#endif

} // namespace readscope::platform
