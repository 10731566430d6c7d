// The platform services on Linux (and, behind __APPLE__ guards, macOS): files, mappings, paths
// and the process's own counters. The readings of the machine are in machine.cpp.
#include "platform.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#ifdef __linux__
#include <sys/uio.h>
#endif

#ifdef __APPLE__
#include <mach/mach.h>
#endif

namespace readscope::platform {

int openForReading(const std::string& path) {
    return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

int createForWriting(const std::string& path) {
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int closeFile(int fd) { return ::close(fd); }

std::int64_t readAt(int fd, void* buffer, std::size_t n, std::uint64_t offset) {
    for (;;) {
        const ssize_t got = ::pread(fd, buffer, n, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR)
            continue;
        return got;
    }
}

int openUncached(const std::string& path) {
#ifdef __APPLE__
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && ::fcntl(fd, F_NOCACHE, 1) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
#else
    return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
#endif
}

void* mapFile(int fd, std::uint64_t size, bool populate) {
#ifdef MAP_POPULATE
    const int flags = MAP_SHARED | (populate ? MAP_POPULATE : 0);
#else
    const int flags = MAP_SHARED; // macOS: availability() keeps mmap-populate off
    (void)populate;
#endif
    void* p = ::mmap(nullptr, size, PROT_READ, flags, fd, 0);
    return p == MAP_FAILED ? nullptr : p;
}

bool populateMapping(void* at, std::uint64_t length) {
#ifdef __linux__
    return ::madvise(at, length, MADV_POPULATE_READ) == 0;
#else
    (void)at;
    (void)length;
    errno = EINVAL;
    return false;
#endif
}

void adviseWillNeed(int fd, void* at, std::uint64_t offset, std::uint64_t length) {
#ifdef __APPLE__
    (void)at;
    radvisory advice{static_cast<off_t>(offset),
                     static_cast<int>(std::min<std::uint64_t>(length, INT32_MAX))};
    ::fcntl(fd, F_RDADVISE, &advice);
#else
    (void)fd;
    (void)offset;
    ::madvise(at, length, MADV_WILLNEED);
#endif
}

void adviseDescriptor(int fd, bool random) {
#ifdef __APPLE__
    if (random)
        ::fcntl(fd, F_RDAHEAD, 0);
#else
    ::posix_fadvise(fd, 0, 0, random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
#endif
}

void adviseMapping(void* at, std::uint64_t length, bool random) {
    ::madvise(at, length, random ? MADV_RANDOM : MADV_SEQUENTIAL);
}

std::int64_t readAtUncached(int fd, void* buffer, std::size_t n, std::uint64_t offset) {
#ifdef __linux__
#ifndef RWF_DONTCACHE
    constexpr int RWF_DONTCACHE = 0x00000080; // include/uapi/linux/fs.h, Linux 6.14
#endif
    iovec iov{buffer, n};
    return ::preadv2(fd, &iov, 1, static_cast<off_t>(offset), RWF_DONTCACHE);
#else
    (void)fd;
    (void)buffer;
    (void)n;
    (void)offset;
    errno = ENOSYS;
    return -1;
#endif
}

bool seekTo(int fd, std::uint64_t offset) {
    return ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) >= 0;
}

bool flushToDisk(int fd) {
#ifdef __APPLE__
    return ::fcntl(fd, F_FULLFSYNC) == 0 || ::fsync(fd) == 0;
#else
    return ::fsync(fd) == 0;
#endif
}

bool replaceFile(const std::string& from, const std::string& to) {
    return std::rename(from.c_str(), to.c_str()) == 0;
}

void removeFile(const std::string& path) { ::unlink(path.c_str()); }

bool makePrivateFolder(const std::string& path) { return ::mkdir(path.c_str(), 0700) == 0; }

void removeEmptyFolder(const std::string& path) { ::rmdir(path.c_str()); }

std::string resolvedPath(const std::string& path) {
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved)
        return path;
    std::string out(resolved);
    std::free(resolved);
    return out;
}

std::string temporaryFolder() {
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

namespace {
std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; }
} // namespace

std::optional<PathFacts> statPath(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    PathFacts f;
    f.regular = S_ISREG(st.st_mode);
    if (!f.regular)
        f.kind = kindOf(st.st_mode);
    f.size = static_cast<std::uint64_t>(st.st_size);
    f.id = static_cast<std::uint64_t>(st.st_ino);
#ifdef __APPLE__
    const auto& mtime = st.st_mtimespec;
#else
    const auto& mtime = st.st_mtim;
#endif
    f.mtimeNs = static_cast<std::int64_t>(mtime.tv_sec) * 1000000000 + mtime.tv_nsec;
    return f;
}

CpuUsage threadUsage() {
    CpuUsage u;
#ifdef __APPLE__
    thread_basic_info_data_t info{};
    mach_msg_type_number_t count = THREAD_BASIC_INFO_COUNT;
    const mach_port_t self = mach_thread_self();
    if (thread_info(self, THREAD_BASIC_INFO, reinterpret_cast<thread_info_t>(&info), &count) ==
        KERN_SUCCESS) {
        u.userSeconds = info.user_time.seconds + info.user_time.microseconds / 1e6;
        u.systemSeconds = info.system_time.seconds + info.system_time.microseconds / 1e6;
    }
    mach_port_deallocate(mach_task_self(), self);
#else
    rusage r{};
    getrusage(RUSAGE_THREAD, &r);
    u.userSeconds = seconds(r.ru_utime);
    u.systemSeconds = seconds(r.ru_stime);
    u.minorFaults = static_cast<std::uint64_t>(r.ru_minflt);
    u.majorFaults = static_cast<std::uint64_t>(r.ru_majflt);
    u.involuntarySwitches = static_cast<std::uint64_t>(r.ru_nivcsw);
#endif
    return u;
}

std::uint64_t processFaults() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return static_cast<std::uint64_t>(r.ru_minflt + r.ru_majflt);
}

double processCpuSeconds() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return seconds(r.ru_utime) + seconds(r.ru_stime);
}

} // namespace readscope::platform
