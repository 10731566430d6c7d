// The platform's readings of the machine on Linux (and, behind __APPLE__ guards, macOS): CPU
// time and clock, storage and TLB counters, the CPU's model and caches, the kernel. File and
// process services are in platform.cpp.
#include "platform.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string_view>
#include <thread>
#include <unistd.h>
#ifdef __linux__
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#endif
#include <sys/utsname.h>
#ifdef __APPLE__
#include <sys/sysctl.h>
#endif

namespace readscope::platform {

#ifdef __linux__
namespace {
// The first bytes of a small /proc file with one read(2), as a C string (an ifstream costs more
// than the 100-odd bytes these files are read for); false when it cannot be read.
bool readProcHead(const char* path, char (&text)[512]) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0)
        return false;
    text[n] = '\0';
    return true;
}
} // namespace
#endif

std::optional<MachineCpu> machineCpu() {
#ifdef __linux__
    char text[512];
    if (!readProcHead("/proc/stat", text))
        return std::nullopt;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                       steal = 0;
    if (std::sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                    &idle, &iowait, &irq, &softirq, &steal) < 8)
        return std::nullopt;
    const double tick = 1.0 / double(::sysconf(_SC_CLK_TCK));
    return MachineCpu{double(user + nice + system + irq + softirq) * tick, double(steal) * tick};
#else
    return std::nullopt;
#endif
}

std::optional<double> cpuMhz() {
#ifdef __linux__
    double sum = 0;
    int cpus = 0;
    for (int cpu = 0; cpu < 4096; ++cpu) {
        FILE* f = std::fopen(
            ("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_cur_freq")
                .c_str(),
            "re");
        if (!f)
            break;
        unsigned long long khz = 0;
        if (std::fscanf(f, "%llu", &khz) == 1) {
            sum += double(khz) / 1000;
            ++cpus;
        }
        std::fclose(f);
    }
    if (cpus == 0)
        return std::nullopt;
    return sum / cpus;
#else
    return std::nullopt;
#endif
}

std::optional<std::uint64_t> storageBytesRead() {
#ifdef __linux__
    char text[512];
    if (!readProcHead("/proc/self/io", text))
        return std::nullopt;
    return readBytesField(text);
#else
    return std::nullopt;
#endif
}

std::optional<std::uint64_t> readBytesField(const char* ioText) {
    constexpr std::string_view kField = "\nread_bytes: ";
    const char* at = std::strstr(ioText, kField.data());
    if (!at)
        return std::nullopt;
    return std::strtoull(at + kField.size(), nullptr, 10);
}

std::optional<std::uint64_t> tlbInterruptCount() {
#ifdef __linux__
    std::ifstream in("/proc/interrupts");
    std::string line;
    while (std::getline(in, line)) {
        const auto label = line.find_first_not_of(' ');
        if (label == std::string::npos || line.compare(label, 4, "TLB:") != 0)
            continue;
        // "TLB:   872807   803830   TLB shootdowns": one count per CPU, then the name.
        std::uint64_t sum = 0;
        const char* at = line.c_str() + label + 4;
        for (;;) {
            char* end = nullptr;
            const unsigned long long n = std::strtoull(at, &end, 10);
            if (end == at)
                break;
            sum += n;
            at = end;
        }
        return sum;
    }
    return std::nullopt;
#else
    return std::nullopt;
#endif
}

namespace {

#ifdef __linux__
enum class TlbProbe { Moved, Still, CouldNotProbe };

// Whether the TLB line moves when this process unmaps memory while another of its threads
// runs on another CPU (the case that makes the kernel interrupt that CPU): munmaps for at most
// a quarter of a second, each thread on a CPU of its own, the calling thread's CPUs given back.
// Not probed where the process may use one CPU only (its unmaps reach no other) or cannot
// start the thread.
TlbProbe probeTlbLine(std::uint64_t before) {
    cpu_set_t was;
    if (pthread_getaffinity_np(pthread_self(), sizeof was, &was) != 0 || CPU_COUNT(&was) < 2)
        return TlbProbe::CouldNotProbe;
    const int here = sched_getcpu();
    int there = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE && there < 0; ++cpu)
        if (CPU_ISSET(cpu, &was) && cpu != here)
            there = cpu;
    auto pin = [](int cpu) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    };
    std::atomic<bool> running{false};
    bool moved = false, started = true;
    try {
        std::jthread other([&](std::stop_token stop) {
            pin(there);
            running = true;
            while (!stop.stop_requested()) {
            }
        });
        if (here >= 0)
            pin(here);
        while (!running)
            std::this_thread::yield();
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
        while (!moved && std::chrono::steady_clock::now() < until) {
            for (int i = 0; i < 200; ++i) {
                void* p = ::mmap(nullptr, 64 << 10, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p == MAP_FAILED)
                    break;
                static_cast<volatile char*>(p)[0] = 1;
                ::munmap(p, 64 << 10);
            }
            const auto now = tlbInterruptCount();
            moved = now && *now != before;
        }
    } catch (const std::system_error&) { // no thread to be seen by
        started = false;
    }
    pthread_setaffinity_np(pthread_self(), sizeof was, &was);
    return !started ? TlbProbe::CouldNotProbe : moved ? TlbProbe::Moved : TlbProbe::Still;
}
#endif

// Found once per process: the probe costs up to a quarter of a second where the line stays
// still, milliseconds where it counts. Probed even where the line has counted since boot: a
// hypervisor may have taken remote flushes over after it did.
const std::string& tlbUncountedReason() {
    static const std::string why = []() -> std::string {
#ifdef __linux__
        const auto total = tlbInterruptCount();
        if (!total || probeTlbLine(*total) != TlbProbe::Still)
            return {};
        return "this kernel flushes other CPUs' TLBs without the interrupt /proc/interrupts "
               "counts (its TLB line did not move while unmaps had to reach another running "
               "CPU, as under a hypervisor's remote-flush hypercall): no TLB shootdown figures";
#else
        return {};
#endif
    }();
    return why;
}

} // namespace

std::optional<std::uint64_t> tlbShootdowns() {
    if (!tlbUncountedReason().empty())
        return std::nullopt;
    return tlbInterruptCount();
}

std::string shootdownsUncountedReason() { return tlbUncountedReason(); }

double ioWorkerSeconds() {
#ifdef __linux__
    // Each task's comm, then its schedstat's first field: nanoseconds on a CPU.
    double seconds = 0;
    DIR* tasks = ::opendir("/proc/self/task");
    if (!tasks)
        return 0;
    while (const dirent* entry = ::readdir(tasks)) {
        if (entry->d_name[0] == '.')
            continue;
        const std::string task = std::string("/proc/self/task/") + entry->d_name;
        char comm[32] = {};
        if (FILE* f = std::fopen((task + "/comm").c_str(), "re")) {
            const bool got = std::fgets(comm, sizeof comm, f) != nullptr;
            std::fclose(f);
            if (!got || std::strncmp(comm, "iou-", 4) != 0)
                continue;
        } else {
            continue;
        }
        if (FILE* f = std::fopen((task + "/schedstat").c_str(), "re")) {
            unsigned long long ns = 0;
            if (std::fscanf(f, "%llu", &ns) == 1)
                seconds += double(ns) / 1e9;
            std::fclose(f);
        }
    }
    ::closedir(tasks);
    return seconds;
#else
    return 0;
#endif
}

std::string faultsUncountedReason() { return {}; }

std::string deviceName(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return "unknown device";
    const std::string id =
        std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
#ifdef __linux__
    std::ifstream uevent("/sys/dev/block/" + id + "/uevent");
    for (std::string line; std::getline(uevent, line);)
        if (line.rfind("DEVNAME=", 0) == 0)
            return line.substr(8) + " (" + id + ")";
#endif
    return "device " + id;
}

std::uint32_t pageSize() { return static_cast<std::uint32_t>(::sysconf(_SC_PAGESIZE)); }

std::string cpuModel() {
#ifdef __APPLE__
    char name[256] = {};
    std::size_t len = sizeof name;
    if (sysctlbyname("machdep.cpu.brand_string", name, &len, nullptr, 0) == 0)
        return name;
#else
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
#endif
    return "unknown CPU";
}

CpuCaches cpuCaches() {
    CpuCaches caches;
#ifdef __APPLE__
    const auto read = [](const char* name) -> std::uint64_t {
        std::uint64_t value = 0;
        std::size_t len = sizeof value;
        return sysctlbyname(name, &value, &len, nullptr, 0) == 0 ? value : 0;
    };
    caches.l1d = read("hw.l1dcachesize");
    caches.l2 = read("hw.l2cachesize");
    caches.l3 = read("hw.l3cachesize");
#else
    // index0.. with "1" / "Data", "2" / "Unified", and a size such as "48K" or "260M".
    for (int i = 0; i < 16; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i);
        std::ifstream level(dir + "/level"), type(dir + "/type"), size(dir + "/size");
        int l = 0;
        std::string t, sz;
        if (!(level >> l) || !(type >> t) || !(size >> sz))
            break;
        if (t == "Instruction" || sz.empty())
            continue;
        std::uint64_t bytes = std::strtoull(sz.c_str(), nullptr, 10);
        switch (sz.back()) {
        case 'K': bytes <<= 10; break;
        case 'M': bytes <<= 20; break;
        case 'G': bytes <<= 30; break;
        default: break;
        }
        if (l == 1)
            caches.l1d = bytes;
        else if (l == 2)
            caches.l2 = bytes;
        else if (l == 3)
            caches.l3 = bytes;
    }
#endif
    return caches;
}

std::string osName() {
    utsname u{};
    return uname(&u) == 0 ? std::string(u.sysname) : std::string();
}

std::string kernelRelease() {
    utsname u{};
    return uname(&u) == 0 ? std::string(u.sysname) + " " + u.release : std::string();
}

std::tm utcTime(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    return tm;
}

} // namespace readscope::platform
