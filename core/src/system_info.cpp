#include "readscope/system_info.h"

#include "readscope_version.h"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace readscope {

namespace {

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) {
                auto value = line.substr(colon + 1);
                value.erase(0, value.find_first_not_of(' '));
                return value;
            }
        }
    }
    return "unknown CPU";
}

std::string isoDateUtc() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

std::string toolVersion() { return READSCOPE_VERSION; }

SystemInfo collectSystemInfo(const std::string& filesystem) {
    SystemInfo info;
    info.cpuModel = cpuModel();
    info.logicalCores = static_cast<int>(std::thread::hardware_concurrency());
    utsname u{};
    if (uname(&u) == 0) {
        info.kernel = fmt::format("{} {}", u.sysname, u.release);
        info.os = u.sysname;
    }
    info.filesystem = filesystem;
    info.pageSize = static_cast<int>(::sysconf(_SC_PAGESIZE));
    info.toolVersion = toolVersion();
    info.date = isoDateUtc();
    return info;
}

} // namespace readscope
