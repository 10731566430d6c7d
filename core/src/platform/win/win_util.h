#pragma once
// Small helpers for the Windows platform layer. Private to the core.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <cstdint>
#include <string>

namespace readscope::win {

// Paths are UTF-8 throughout readscope; Win32 wants UTF-16.
std::wstring widen(const std::string& utf8);
std::string narrow(const std::wstring& utf16);
// FormatMessage's text for a Win32 error code, without the trailing newline.
std::string errorText(DWORD code);
// Sets errno from a Win32 error code, so callers can report it the POSIX way.
void setErrno(DWORD code);

inline std::int64_t fileTimeToNs(const FILETIME& ft) {
    const auto ticks = (static_cast<std::uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
    return static_cast<std::int64_t>(ticks) * 100; // 100 ns ticks since 1601
}

class UniqueHandle {
public:
    UniqueHandle() = default;
    explicit UniqueHandle(HANDLE h) : h_(h) {}
    UniqueHandle(UniqueHandle&& o) noexcept : h_(o.h_) { o.h_ = INVALID_HANDLE_VALUE; }
    UniqueHandle& operator=(UniqueHandle&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = o.h_;
            o.h_ = INVALID_HANDLE_VALUE;
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    ~UniqueHandle() { reset(); }
    HANDLE get() const { return h_; }
    bool valid() const { return h_ != INVALID_HANDLE_VALUE && h_ != nullptr; }
    void reset() {
        if (valid())
            CloseHandle(h_);
        h_ = INVALID_HANDLE_VALUE;
    }

private:
    HANDLE h_ = INVALID_HANDLE_VALUE;
};

// One ReadFile of n bytes at offset, through an OVERLAPPED on a synchronous handle (the
// Windows pread: no file pointer moves). False with GetLastError() set on failure; reading at
// or past the end of the file succeeds with got = 0.
inline bool readAt(HANDLE h, void* buffer, DWORD n, std::uint64_t offset, DWORD& got) {
    OVERLAPPED at{};
    at.Offset = static_cast<DWORD>(offset);
    at.OffsetHigh = static_cast<DWORD>(offset >> 32);
    got = 0;
    if (ReadFile(h, buffer, n, &got, &at))
        return true;
    return GetLastError() == ERROR_HANDLE_EOF;
}

// Opens for reading with every share mode, so readscope never locks others out of the file.
inline UniqueHandle openShared(const std::string& path, DWORD flags) {
    return UniqueHandle(CreateFileW(widen(path).c_str(), GENERIC_READ,
                                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                    OPEN_EXISTING, flags, nullptr));
}

} // namespace readscope::win
