#include "readscope/probe.h"

#include "posix_fd.h"
#include "residency_rules.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <liburing.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace readscope {

namespace {

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

std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

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

void probeDirect(FileProbe& p) {
    KernelStatx sx{};
    std::uint32_t align = 0;
    if (syscall(SYS_statx, AT_FDCWD, p.path.c_str(), 0, kStatxDioAlign, &sx) == 0 &&
        (sx.mask & kStatxDioAlign)) {
        if (sx.dioOffsetAlign == 0) {
            p.directReason = fmt::format("the filesystem of '{}' ({}) does not support direct "
                                         "I/O (statx reports no alignment)",
                                         p.path, p.filesystem);
            return;
        }
        align = std::max(sx.dioMemAlign, sx.dioOffsetAlign);
    }
    // Without STATX_DIOALIGN, 4 KiB satisfies both 512-byte and 4 KiB logical blocks.
    if (align == 0)
        align = 4096;
    UniqueFd fd(::open(p.path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT));
    if (!fd.valid()) {
        p.directReason = fmt::format("the filesystem of '{}' ({}) refuses O_DIRECT: {}", p.path,
                                     p.filesystem, std::strerror(errno));
        return;
    }
    void* block = std::aligned_alloc(align, align);
    const ssize_t got = ::pread(fd.get(), block, align, 0);
    const int err = errno;
    std::free(block);
    if (got < 0) {
        p.directReason = fmt::format("a direct read of '{}' ({}) failed: {}", p.path,
                                     p.filesystem, std::strerror(err));
        return;
    }
    p.directSupported = true;
    p.directAlign = align;
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

} // namespace

Result<FileProbe> probeFile(const std::string& path) {
    if (path.empty())
        return Error{"no file given: name a file to read, or generate one"};
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT)
            return Error{fmt::format("'{}' does not exist: check the path, or generate a test "
                                     "file with 'readscope-cli generate'",
                                     path)};
        return Error{fmt::format("cannot inspect '{}': {}", path, std::strerror(errno))};
    }
    if (!S_ISREG(st.st_mode))
        return Error{fmt::format("'{}' is {}: readscope reads regular files only", path,
                                 kindOf(st.st_mode))};
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!fd.valid())
        return Error{fmt::format("cannot open '{}' for reading: {} (check its permissions)",
                                 path, std::strerror(errno))};
    if (st.st_size == 0)
        return Error{fmt::format("'{}' is empty: there is nothing to read", path)};

    FileProbe p;
    p.path = path;
    p.size = static_cast<std::uint64_t>(st.st_size);
    p.inode = st.st_ino;
    p.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    p.pageSize = static_cast<std::uint32_t>(::sysconf(_SC_PAGESIZE));
    struct statfs sfs {};
    p.filesystem = ::fstatfs(fd.get(), &sfs) == 0 ? filesystemName(sfs.f_type) : "unknown";
    const bool writable = ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0;
    p.residencyVerifiable = residencyVerifiable(st.st_uid, ::geteuid(), writable);
    if (!p.residencyVerifiable)
        p.residencyReason = fmt::format("you neither own nor may write '{}', so the kernel "
                                        "hides its page-cache state",
                                        path);
    probeDirect(p);
    probeUring(p);
    return p;
}

} // namespace readscope
