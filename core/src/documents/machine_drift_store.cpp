#include "readscope/machine_drift_store.h"

#include "readscope/documents.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace readscope {

namespace fs = std::filesystem;

std::string machineDriftPath() {
    fs::path dir;
    if (const char* own = std::getenv("READSCOPE_DATA_DIR"); own && *own)
        dir = own;
#ifdef _WIN32
    else if (const char* local = std::getenv("LOCALAPPDATA"); local && *local)
        dir = fs::path(local) / "readscope";
#else
    else if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        dir = fs::path(xdg) / "readscope";
    else if (const char* home = std::getenv("HOME"); home && *home)
        dir = fs::path(home) / ".local" / "share" / "readscope";
#endif
    else
        dir = fs::temp_directory_path() / "readscope";
    return (dir / "machine-drift.json").string();
}

std::vector<MachineDrift> loadMachineDrifts(const std::string& path) {
    std::vector<MachineDrift> out;
    std::ifstream in(path);
    if (!in)
        return out;
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_discarded() || !j.contains("machines") || !j["machines"].is_array())
        return out;
    for (const auto& m : j["machines"]) {
        if (!m.is_object())
            continue;
        MachineDrift d;
        d.cpuModel = m.value("cpu", "");
        d.kernel = m.value("kernel", "");
        d.filesystem = m.value("filesystem", "");
        d.cache = m.value("cache", "");
        d.drift = m.value("drift", 0.0);
        d.spread = m.value("spread", 0.0);
        d.largestSeen = m.value("largest_seen", 0.0);
        d.runs = m.value("runs", 0);
        d.cells = m.value("cells", 0);
        d.measuredAt = m.value("measured_at", "");
        if (d.drift > 0) // a hand-edited figure of 0 or less is not kept
            out.push_back(d);
    }
    return out;
}

Status saveMachineDrift(const MachineDrift& drift, const std::string& path) {
    auto kept = loadMachineDrifts(path);
    std::erase_if(kept, [&](const MachineDrift& d) {
        return d.cpuModel == drift.cpuModel && d.kernel == drift.kernel &&
               d.filesystem == drift.filesystem && d.cache == drift.cache;
    });
    kept.push_back(drift);
    nlohmann::json machines = nlohmann::json::array();
    for (const auto& d : kept)
        machines.push_back({{"cpu", d.cpuModel},
                            {"kernel", d.kernel},
                            {"filesystem", d.filesystem},
                            {"cache", d.cache},
                            {"drift", d.drift},
                            {"spread", d.spread},
                            {"largest_seen", d.largestSeen},
                            {"runs", d.runs},
                            {"cells", d.cells},
                            {"measured_at", d.measuredAt}});
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    return writeFileAtomically(path, nlohmann::json{{"machines", machines}}.dump(2) + "\n");
}

Comparison compareRuns(const ResultDocument& baseline, const ResultDocument& current,
                       double noiseThreshold, const std::string& store) {
    const auto machine = machineDriftFor(loadMachineDrifts(store), baseline, current);
    return compareDocuments(baseline, current, noiseThreshold, machine ? &*machine : nullptr);
}

} // namespace readscope
