// The platform half of probing on Linux, and behind __APPLE__ guards on macOS (F_NOCACHE
// for direct reads, no io_uring, mincore for residency).
#include "platform.h"
#include "probe_platform.h"

#include "readscope/residency.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h> // RWF_NOWAIT
#include <unistd.h>

#ifdef __linux__
#include <liburing.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#else
#include <sys/mount.h>
#include <sys/param.h>
#endif

namespace readscope {

namespace {

#ifdef __APPLE__
constexpr const char* kUncachedName = "F_NOCACHE";
#else
constexpr const char* kUncachedName = "O_DIRECT";
#endif

#ifdef __linux__
// The kernel's struct statx (glibc 2.36 lacks the direct-I/O alignment fields).
struct KernelStatx {
    std::uint32_t mask, blksize;
    std::uint64_t attributes;
    std::uint32_t nlink, uid, gid;
    std::uint16_t mode, spare0;
    std::uint64_t ino, size, blocks, attributesMask;
    std::uint64_t times[8];
    std::uint32_t rdevMajor, rdevMinor, devMajor, devMinor;
    std::uint64_t mntId;
    std::uint32_t dioMemAlign, dioOffsetAlign;
    std::uint64_t spare3[12];
};
static_assert(offsetof(KernelStatx, dioMemAlign) == 152);
constexpr unsigned kStatxDioAlign = 0x2000;

std::string filesystemName(long type) {
    switch (static_cast<unsigned long>(type)) {
    case 0xEF53: return "ext4";
    case 0x01021994: return "tmpfs";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x6969: return "nfs";
    case 0x794C7630: return "overlayfs";
    case 0x2FC12FC1: return "zfs";
    case 0xF2F52010: return "f2fs";
    case 0x65735546: return "fuse";
    case 0x01021997: return "9p";
    case 0x4D44: return "vfat";
    case 0x5346544E: return "ntfs";
    case 0x2011BAB0: return "exfat";
    case 0x73717368: return "squashfs";
    case 0xFF534D42: return "cifs";
    case 0x858458F6: return "ramfs";
    case 0xCA451A4E: return "bcachefs";
    default: return fmt::format("unknown (0x{:x})", static_cast<unsigned long>(type));
    }
}

std::string filesystemOf(int fd) {
    struct statfs sfs {};
    return ::fstatfs(fd, &sfs) == 0 ? filesystemName(sfs.f_type) : "unknown";
}

// O_DIRECT alignment from statx (Linux 6.1+); 0 when unknown, nullopt-like -1 when the
// filesystem says it has no direct I/O (reason set).
std::int64_t directAlignment(FileProbe& p) {
    KernelStatx sx{};
    std::uint32_t align = 0;
    if (syscall(SYS_statx, AT_FDCWD, p.path.c_str(), 0, kStatxDioAlign, &sx) == 0 &&
        (sx.mask & kStatxDioAlign)) {
        if (sx.dioOffsetAlign == 0) {
            p.directReason = fmt::format("the filesystem of '{}' ({}) does not support direct "
                                         "I/O (statx reports no alignment)",
                                         p.path, p.filesystem);
            return -1;
        }
        align = std::max(sx.dioMemAlign, sx.dioOffsetAlign);
    }
    return align;
}

void probeUring(FileProbe& p) {
    io_uring ring;
    const int rc = io_uring_queue_init(4, &ring, 0);
    if (rc < 0) {
        p.uringReason = fmt::format("io_uring is not available here: {} (check "
                                    "/proc/sys/kernel/io_uring_disabled or the container's "
                                    "seccomp policy)",
                                    std::strerror(-rc));
        return;
    }
    io_uring_queue_exit(&ring);
    p.uringSupported = true;
}
#else
std::string filesystemOf(int fd) {
    struct statfs sfs {};
    return ::fstatfs(fd, &sfs) == 0 ? std::string(sfs.f_fstypename) : "unknown";
}

std::int64_t directAlignment(FileProbe&) { return 0; }

void probeUring(FileProbe& p) { p.uringReason = platform::linuxOnly("io_uring"); }
#endif

// Whether preadv2 takes RWF_DONTCACHE for this file: one uncached byte read (a page that was
// cached stays cached, the page it reads in is dropped again; read-ahead it starts may stay).
void probeDontCache(FileProbe& p, int fd) {
    std::byte b{};
    if (platform::readAtUncached(fd, &b, 1, 0) >= 0) {
        p.dontcacheSupported = true;
        return;
    }
    const int err = errno;
#ifdef __linux__
    const std::string kernel = platform::kernelRelease(); // "Linux 6.18.44"
    int major = 0, minor = 0;
    if (err == EOPNOTSUPP && std::sscanf(kernel.c_str(), "%*s %d.%d", &major, &minor) == 2 &&
        (major < 6 || (major == 6 && minor < 14))) {
        p.dontcacheReason = fmt::format("kernel too old (RWF_DONTCACHE needs Linux "
                                        "6.14 or later; this is {})",
                                        kernel);
        return;
    }
    if (err == EOPNOTSUPP) {
        p.dontcacheReason = fmt::format("the filesystem of '{}' ({}) does not support "
                                        "RWF_DONTCACHE reads",
                                        p.path, p.filesystem);
        return;
    }
    p.dontcacheReason =
        fmt::format("an RWF_DONTCACHE read of '{}' failed: {}", p.path, std::strerror(err));
#else
    (void)err;
    p.dontcacheReason = platform::linuxOnly("RWF_DONTCACHE");
#endif
}

void probeDirect(FileProbe& p) {
    const std::int64_t known = directAlignment(p);
    if (known < 0)
        return;
    // Without STATX_DIOALIGN, 4 KiB satisfies both 512-byte and 4 KiB logical blocks.
    const auto align = known ? static_cast<std::uint32_t>(known) : 4096u;
    UniqueFd fd(platform::openUncached(p.path));
    if (!fd.valid()) {
        p.directReason = fmt::format("the filesystem of '{}' ({}) refuses {}: {}", p.path,
                                     p.filesystem, kUncachedName, std::strerror(errno));
        return;
    }
    void* block = std::aligned_alloc(align, align);
    const ssize_t got = ::pread(fd.get(), block, align, 0);
    const int err = errno;
    std::free(block);
    if (got < 0) {
        p.directReason = fmt::format("a direct read of '{}' ({}) failed: {}", p.path, p.filesystem,
                                     std::strerror(err));
        return;
    }
    p.directSupported = true;
    p.directAlign = align;
}

} // namespace

void fillPlatformFacts(FileProbe& p, int fd) {
    p.filesystem = filesystemOf(fd);
    struct stat st {};
    const bool owned = ::fstat(fd, &st) == 0;
    const bool writable = ::faccessat(AT_FDCWD, p.path.c_str(), W_OK, AT_EACCESS) == 0;
    p.residencyVerifiable = residencyVerifiable(owned ? st.st_uid : 0, ::geteuid(), writable);
    if (!p.residencyVerifiable) {
        // Tried by the run, not here: a probe that misses reads the page in, and looking at a
        // file must not read it. A filesystem that refuses RWF_NOWAIT makes the run's cells
        // say "unverified" with the error.
#ifdef RWF_NOWAIT
        p.residencyByNowait = true;
#else
        p.residencyReason = fmt::format("you neither own nor may write '{}', so cachestat and "
                                        "mincore hide its page-cache state, and this system has "
                                        "no RWF_NOWAIT reads",
                                        p.path);
#endif
    }
    probeDirect(p);
    probeUring(p);
    probeDontCache(p, fd);
}

} // namespace readscope
