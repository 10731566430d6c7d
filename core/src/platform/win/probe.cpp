// The platform half of probing on Windows: volume name, sector size for
// FILE_FLAG_NO_BUFFERING, and why residency cannot be verified.
#include "platform.h"
#include "probe_platform.h"

#include "win_util.h"

#include <fmt/format.h>

#include <io.h>
#include <memory>

namespace readscope {

namespace {

std::string filesystemOf(HANDLE h) {
    wchar_t name[MAX_PATH + 1] = {};
    if (GetVolumeInformationByHandleW(h, nullptr, 0, nullptr, nullptr, nullptr, name, MAX_PATH + 1))
        return win::narrow(name);
    return "unknown";
}

// The alignment FILE_FLAG_NO_BUFFERING demands of offsets, lengths and buffer addresses: the
// volume's physical sector size where Windows reports it, else its logical one, else 4 KiB.
std::uint32_t sectorSize(HANDLE h, const std::string& path) {
    FILE_STORAGE_INFO storage{};
    if (GetFileInformationByHandleEx(h, FileStorageInfo, &storage, sizeof storage) &&
        storage.PhysicalBytesPerSectorForPerformance)
        return static_cast<std::uint32_t>(storage.PhysicalBytesPerSectorForPerformance);
    std::wstring root(MAX_PATH + 1, L'\0');
    DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, clusters = 0;
    if (GetVolumePathNameW(win::widen(path).c_str(), root.data(), MAX_PATH + 1) &&
        GetDiskFreeSpaceW(root.c_str(), &sectorsPerCluster, &bytesPerSector, &freeClusters,
                          &clusters) &&
        bytesPerSector)
        return bytesPerSector;
    return 4096;
}

void probeNoBuffering(FileProbe& p, std::uint32_t align) {
    auto h = win::openShared(p.path, FILE_FLAG_NO_BUFFERING);
    if (!h.valid()) {
        p.directReason = fmt::format("the volume of '{}' ({}) refuses FILE_FLAG_NO_BUFFERING: {}",
                                     p.path, p.filesystem, win::errorText(GetLastError()));
        return;
    }
    void* block = VirtualAlloc(nullptr, align, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    DWORD got = 0;
    const bool ok = block && ReadFile(h.get(), block, align, &got, nullptr);
    const DWORD err = GetLastError();
    if (block)
        VirtualFree(block, 0, MEM_RELEASE);
    if (!ok) {
        p.directReason = fmt::format("an unbuffered read of '{}' ({}) failed: {}", p.path,
                                     p.filesystem, win::errorText(err));
        return;
    }
    p.directSupported = true;
    p.directAlign = align;
}

} // namespace

void fillPlatformFacts(FileProbe& p, int fd) {
    const auto h = reinterpret_cast<HANDLE>(_get_osfhandle(fd));
    p.filesystem = filesystemOf(h);
    p.residencyVerifiable = false;
    p.residencyReason = "Windows offers no unprivileged way to ask which pages of a file are "
                        "in its cache; cold rounds close every handle on the file (the "
                        "engine's and each reader's), then rely on the no-buffering "
                        "open-and-close flush: eviction attempted, unverified";
    p.uringReason = platform::linuxOnly("io_uring");
    p.dontcacheReason = platform::linuxOnly("RWF_DONTCACHE");
    probeNoBuffering(p, sectorSize(h, p.path));
}

} // namespace readscope
