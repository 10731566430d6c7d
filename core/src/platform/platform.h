#pragma once
// The few operating-system services the platform-neutral parts of the core need (opening,
// reading at an offset, replacing files, file identity, CPU time, machine facts). One
// implementation per platform: posix/platform.cpp, win/platform.cpp. Private to the core.
// Files are C runtime descriptors on both; failures leave errno set.
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

#include "readscope/system_info.h"

namespace readscope::platform {

// Why a Linux facility is missing elsewhere: "<what> exists on Linux only".
inline std::string linuxOnly(std::string_view what) {
    return std::string(what) + " exists on Linux only";
}
// Why dropping every cache is refused elsewhere.
inline std::string dropAllCachesLinuxOnly() {
    return "dropping every cache is offered on Linux only (/proc/sys/vm/drop_caches)";
}

int openForReading(const std::string& path);   // binary, not inherited by children
int createForWriting(const std::string& path); // truncates; 0644 where that means anything
int closeFile(int fd);
#ifndef _WIN32
// The descriptor direct reads use: O_DIRECT on Linux, F_NOCACHE on macOS. -1 with errno set.
int openUncached(const std::string& path);
// The whole file mapped read-only and shared; populate: every page read at mapping time
// (MAP_POPULATE, where the system has it). nullptr with errno set.
void* mapFile(int fd, std::uint64_t size, bool populate);
// Reads the pages of a file mapping's [at, at + length) into the page cache now
// (MADV_POPULATE_READ, Linux 5.14+). False with errno set: EINVAL where it does not exist.
bool populateMapping(void* at, std::uint64_t length);
// Asks for the file's [offset, offset + length), mapped at `at`, to be read ahead:
// madvise(MADV_WILLNEED) on Linux, F_RDADVISE on macOS (whose madvise starts no file I/O).
void adviseWillNeed(int fd, void* at, std::uint64_t offset, std::uint64_t length);
// Read-ahead advice for a descriptor (posix_fadvise RANDOM or SEQUENTIAL; macOS: F_RDAHEAD
// off for random, nothing for sequential) and for a mapping (madvise MADV_RANDOM or
// MADV_SEQUENTIAL). Advice: a refusal changes nothing read, so neither reports one.
void adviseDescriptor(int fd, bool random);
void adviseMapping(void* at, std::uint64_t length, bool random);
// One pread that asks the kernel not to keep what it reads in the page cache: preadv2 with
// RWF_DONTCACHE (Linux 6.14+; the flag is defined here where the headers are older). -1 with
// errno set: EOPNOTSUPP where the kernel or the file system refuses the flag, ENOSYS off Linux.
std::int64_t readAtUncached(int fd, void* buffer, std::size_t n, std::uint64_t offset);
#endif
// One read of at most n bytes at offset, not moving any file pointer; -1 on error.
std::int64_t readAt(int fd, void* buffer, std::size_t n, std::uint64_t offset);
// Moves the file position (lseek, SetFilePointerEx): false on failure.
bool seekTo(int fd, std::uint64_t offset);
bool flushToDisk(int fd);
// Atomically puts from in place of to (replacing an existing file).
bool replaceFile(const std::string& from, const std::string& to);
void removeFile(const std::string& path);
// A new folder only its owner may enter (0700); false with errno set (EEXIST when it exists).
bool makePrivateFolder(const std::string& path);
void removeEmptyFolder(const std::string& path);
// The path with symbolic links resolved (realpath), or the path as given where that fails or
// the platform has no such call.
std::string resolvedPath(const std::string& path);
// The system's folder for temporary files: $TMPDIR or /tmp; GetTempPath on Windows.
std::string temporaryFolder();

struct PathFacts {
    bool regular = false;
    std::string kind; // "a directory", "a FIFO", ... when not regular
    std::uint64_t size = 0;
    std::uint64_t id = 0; // inode, or the NTFS file index
    std::int64_t mtimeNs = 0;
};
std::optional<PathFacts> statPath(const std::string& path);

struct CpuUsage {
    double userSeconds = 0;
    double systemSeconds = 0;
    std::uint64_t minorFaults = 0;
    std::uint64_t majorFaults = 0;
    std::uint64_t involuntarySwitches = 0; // times the scheduler took the CPU away (Linux)
};
// The calling thread's CPU time, and its page faults where the platform counts them per
// thread (kPerThreadFaults); otherwise the faults come from processFaults() around a round.
CpuUsage threadUsage();
std::uint64_t processFaults();
// The whole machine's CPU time so far, all CPUs together, from /proc/stat on Linux (in ticks
// of 1/USER_HZ s, usually 10 ms): busy (user, nice, system, irq, softirq) and stolen by the
// hypervisor. None elsewhere.
struct MachineCpu {
    double busySeconds = 0;
    double stolenSeconds = 0;
};
std::optional<MachineCpu> machineCpu();
// This process's CPU time so far, every thread together.
double processCpuSeconds();
// The CPUs' current clock, MHz, the mean of cpufreq's scaling_cur_freq; none where the
// platform does not expose it (virtual machines often do not).
std::optional<double> cpuMhz();
// Bytes this process has had read from storage, every thread together (io_uring's kernel
// workers are threads of the process): /proc/self/io's read_bytes on Linux, which counts the
// read-ahead and fault-around that reads started, not page-cache hits. None where the
// platform keeps no such counter (Windows' process I/O counters count cached reads too).
std::optional<std::uint64_t> storageBytesRead();
// The read_bytes field of a /proc/.../io text (a process's or a thread's); none without one.
std::optional<std::uint64_t> readBytesField(const char* ioText);
// TLB shootdowns so far on the whole machine, every CPU and every process together: the
// "TLB:" line of /proc/interrupts (the IPIs a CPU sends to make the others drop a mapping's
// stale translations, as eviction and munmap of a mapping other threads use do). None where
// there is no such line (other platforms, some architectures), and where the line does not
// count them (shootdownsUncountedReason says why).
std::optional<std::uint64_t> tlbShootdowns();
// The TLB line as it stands, counting or not: what tlbShootdowns() is made from.
std::optional<std::uint64_t> tlbInterruptCount();
// Why a machine that has the line gives no shootdown figures, or empty: a kernel that flushes
// other CPUs' TLBs by a hypervisor's hypercall instead of an interrupt leaves the line at 0, and
// a 0 there would say "no shootdowns" of rounds that caused many. Found the first time it is
// asked (an unmap probe of at most a quarter of a second), then kept.
std::string shootdownsUncountedReason();
// CPU seconds used so far by this process's io_uring kernel workers (iou-wrk, iou-sqp: the
// threads that carry out reads the submitting thread handed off), which RUSAGE_THREAD does
// not see; 0 where there are none or the platform has no io_uring.
double ioWorkerSeconds();
// Whether this system counts page faults at all: Wine's GetProcessMemoryInfo reports none,
// and a figure of 0 must then not pass for "no faults". Empty when counted; else why not.
std::string faultsUncountedReason();
#ifdef __linux__
inline constexpr bool kPerThreadFaults = true; // getrusage(RUSAGE_THREAD)
#else
inline constexpr bool kPerThreadFaults = false;
#endif
// Windows' cache manager purges a file only when no cached handle to it is open, so every
// handle on it (the engine's too) closes around an eviction; POSIX_FADV_DONTNEED works on an
// open descriptor.
#ifdef _WIN32
inline constexpr bool kEvictionNeedsHandlesClosed = true;
#else
inline constexpr bool kEvictionNeedsHandlesClosed = false;
#endif

// The device a file lives on, for people: "vda (253:0)" on Linux, from sysfs; "device 0:45"
// where no block device backs it (tmpfs, overlay, network file systems) or elsewhere on POSIX;
// the volume ("C:\\") on Windows.
std::string deviceName(const std::string& path);

std::uint32_t pageSize();
std::string cpuModel();
// The first CPU's data caches: sysfs on Linux, sysctl on macOS, GetLogicalProcessorInformationEx
// on Windows; 0 for a level the system does not report.
CpuCaches cpuCaches();
// DAMON, THP, MGLRU, swap and zswap as /sys and /proc say them; none where there is no such
// thing to read (Windows, macOS).
std::optional<MemoryDaemons> memoryDaemons();
// Whether this thread could count the CPU's cycles (and so its TLB and cache misses); none
// where the platform has no such probe here.
std::optional<HardwareCounters> hardwareCounters();
std::string osName();
std::string kernelRelease();
std::tm utcTime(std::time_t t);

} // namespace readscope::platform
