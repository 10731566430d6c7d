// The platform services on Windows: C runtime descriptors over Win32 handles, UTF-16 paths.
#include "platform.h"
#include "win_util.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <fcntl.h>
#include <io.h>
#include <psapi.h>
#include <sys/stat.h>
#include <vector>

namespace readscope::win {

std::wstring widen(const std::string& utf8) {
    if (utf8.empty())
        return {};
    const int n =
        MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
    std::wstring out(static_cast<std::size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
    return out;
}

std::string narrow(const std::wstring& utf16) {
    if (utf16.empty())
        return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()),
                                      nullptr, 0, nullptr, nullptr);
    std::string out(static_cast<std::size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()), out.data(), n,
                        nullptr, nullptr);
    return out;
}

std::string errorText(DWORD code) {
    wchar_t* text = nullptr;
    const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string out = n ? narrow(std::wstring(text, n)) : "Windows error " + std::to_string(code);
    LocalFree(text);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == '.'))
        out.pop_back();
    return out;
}

void setErrno(DWORD code) {
    switch (code) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME: errno = ENOENT; break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION: errno = EACCES; break;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: errno = ENOSPC; break;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: errno = ENOMEM; break;
    case ERROR_INVALID_PARAMETER: errno = EINVAL; break;
    default: errno = EIO; break;
    }
}

} // namespace readscope::win

namespace readscope::platform {

int openForReading(const std::string& path) {
    return _wopen(win::widen(path).c_str(), _O_RDONLY | _O_BINARY | _O_NOINHERIT);
}

int createForWriting(const std::string& path) {
    return _wopen(win::widen(path).c_str(),
                  _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
}

int closeFile(int fd) { return _close(fd); }

std::int64_t readAt(int fd, void* buffer, std::size_t n, std::uint64_t offset) {
    const auto h = reinterpret_cast<HANDLE>(_get_osfhandle(fd));
    DWORD got = 0;
    const DWORD ask = static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30));
    if (!win::readAt(h, buffer, ask, offset, got)) {
        win::setErrno(GetLastError());
        return -1;
    }
    return got;
}

bool seekTo(int fd, std::uint64_t offset) {
    LARGE_INTEGER to;
    to.QuadPart = static_cast<LONGLONG>(offset);
    return SetFilePointerEx(reinterpret_cast<HANDLE>(_get_osfhandle(fd)), to, nullptr,
                            FILE_BEGIN) != 0;
}

bool flushToDisk(int fd) { return _commit(fd) == 0; }

bool replaceFile(const std::string& from, const std::string& to) {
    if (MoveFileExW(win::widen(from).c_str(), win::widen(to).c_str(),
                    MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return true;
    win::setErrno(GetLastError());
    return false;
}

void removeFile(const std::string& path) { DeleteFileW(win::widen(path).c_str()); }

// Private by the folder's inherited ACL (a user's own profile or working folder).
bool makePrivateFolder(const std::string& path) {
    if (CreateDirectoryW(win::widen(path).c_str(), nullptr))
        return true;
    win::setErrno(GetLastError());
    return false;
}

void removeEmptyFolder(const std::string& path) { RemoveDirectoryW(win::widen(path).c_str()); }

// Windows links (junctions, symbolic links) are rare for data files: the path as given.
std::string resolvedPath(const std::string& path) { return path; }

std::string temporaryFolder() {
    wchar_t buffer[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, buffer);
    if (n == 0 || n > MAX_PATH)
        return ".";
    std::wstring dir(buffer, n);
    while (!dir.empty() && (dir.back() == L'\\' || dir.back() == L'/'))
        dir.pop_back();
    return win::narrow(dir);
}

std::string deviceName(const std::string& path) {
    wchar_t volume[MAX_PATH + 1];
    if (!GetVolumePathNameW(win::widen(path).c_str(), volume, MAX_PATH + 1))
        return "unknown volume";
    return win::narrow(volume);
}

std::optional<PathFacts> statPath(const std::string& path) {
    // FILE_FLAG_BACKUP_SEMANTICS lets the same call open directories, so they can be named.
    win::UniqueHandle h(CreateFileW(win::widen(path).c_str(), 0,
                                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                    OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
    if (!h.valid()) {
        win::setErrno(GetLastError());
        return std::nullopt;
    }
    PathFacts f;
    BY_HANDLE_FILE_INFORMATION info{};
    const DWORD type = GetFileType(h.get());
    if (type != FILE_TYPE_DISK) {
        f.kind = type == FILE_TYPE_PIPE ? "a pipe" : "a device";
        return f;
    }
    if (!GetFileInformationByHandle(h.get(), &info)) {
        win::setErrno(GetLastError());
        return std::nullopt;
    }
    f.regular = !(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY);
    if (!f.regular)
        f.kind = "a directory";
    f.size = (static_cast<std::uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
    f.id = (static_cast<std::uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
    f.mtimeNs = win::fileTimeToNs(info.ftLastWriteTime);
    return f;
}

namespace {
double seconds(const FILETIME& ft) { return static_cast<double>(win::fileTimeToNs(ft)) / 1e9; }
} // namespace

CpuUsage threadUsage() {
    CpuUsage u;
    FILETIME created, exited, kernel, user;
    if (GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) {
        u.userSeconds = seconds(user);
        u.systemSeconds = seconds(kernel);
    }
    return u; // Windows counts page faults per process only: see processFaults()
}

std::uint64_t processFaults() {
    PROCESS_MEMORY_COUNTERS pmc{};
    pmc.cb = sizeof pmc;
    return GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc) ? pmc.PageFaultCount : 0;
}

std::optional<MachineCpu> machineCpu() { return std::nullopt; }

double processCpuSeconds() {
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return 0;
    auto secondsOf = [](const FILETIME& t) {
        return double((std::uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime) / 1e7;
    };
    return secondsOf(kernel) + secondsOf(user);
}

std::optional<double> cpuMhz() { return std::nullopt; }

std::optional<std::uint64_t> storageBytesRead() { return std::nullopt; }

std::optional<std::uint64_t> tlbInterruptCount() { return std::nullopt; }

std::optional<std::uint64_t> tlbShootdowns() { return std::nullopt; }

std::string shootdownsUncountedReason() { return {}; }

double ioWorkerSeconds() { return 0; }

std::string faultsUncountedReason() {
    // Every running Windows process has faulted in its own image, so a count of zero means
    // the counter is not kept (as under Wine), not that nothing faulted.
    if (processFaults() > 0)
        return {};
    return "this system reports no page faults for the process (GetProcessMemoryInfo says 0, "
           "as under Wine): fault figures read 0 and mean 'not counted'";
}

std::uint32_t pageSize() {
    SYSTEM_INFO si{};
    GetSystemInfo(&si);
    return si.dwPageSize;
}

std::string cpuModel() {
    HKEY key;
    std::string model = "unknown CPU";
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", 0,
                      KEY_READ, &key) == ERROR_SUCCESS) {
        wchar_t name[256] = {};
        DWORD bytes = sizeof name - sizeof(wchar_t);
        if (RegQueryValueExW(key, L"ProcessorNameString", nullptr, nullptr,
                             reinterpret_cast<BYTE*>(name), &bytes) == ERROR_SUCCESS)
            model = win::narrow(name);
        RegCloseKey(key);
        while (!model.empty() && model.back() == ' ')
            model.pop_back();
    }
    return model;
}

CpuCaches cpuCaches() {
    CpuCaches caches;
    DWORD bytes = 0;
    GetLogicalProcessorInformationEx(RelationCache, nullptr, &bytes);
    std::vector<std::byte> buffer(bytes);
    auto* first = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data());
    if (bytes == 0 || !GetLogicalProcessorInformationEx(RelationCache, first, &bytes))
        return caches;
    // One record per cache; the first of each level is the first core's (L3: the shared one).
    for (DWORD at = 0; at < bytes;) {
        const auto* info =
            reinterpret_cast<const SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data() + at);
        const CACHE_RELATIONSHIP& c = info->Cache;
        if (c.Type == CacheData || c.Type == CacheUnified) {
            std::uint64_t& slot = c.Level == 1 ? caches.l1d : c.Level == 2 ? caches.l2 : caches.l3;
            if (c.Level <= 3 && slot == 0)
                slot = c.CacheSize;
        }
        if (info->Size == 0)
            break;
        at += info->Size;
    }
    return caches;
}

std::string osName() { return "Windows"; }

std::string kernelRelease() {
    // GetVersionEx lies to unmanifested programs; ntdll's RtlGetVersion does not.
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
    using WineVersionFn = const char*(CDECL*)();
    std::string release = "Windows";
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    if (!ntdll)
        return release;
    OSVERSIONINFOW v{};
    v.dwOSVersionInfoSize = sizeof v;
    if (auto fn = reinterpret_cast<RtlGetVersionFn>(
            reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion"))))
        if (fn(&v) == 0)
            release += " " + std::to_string(v.dwMajorVersion) + "." +
                       std::to_string(v.dwMinorVersion) + "." + std::to_string(v.dwBuildNumber);
    // Results measured under Wine are an emulation layer's figures: say so in every document.
    if (auto wine = reinterpret_cast<WineVersionFn>(
            reinterpret_cast<void*>(GetProcAddress(ntdll, "wine_get_version"))))
        release += std::string(" (Wine ") + wine() + ", not Windows)";
    return release;
}

std::tm utcTime(std::time_t t) {
    std::tm tm{};
    gmtime_s(&tm, &t);
    return tm;
}

} // namespace readscope::platform

namespace readscope::platform {
std::optional<MemoryDaemons> memoryDaemons() { return std::nullopt; }
std::optional<HardwareCounters> hardwareCounters() { return std::nullopt; }
} // namespace readscope::platform
