#pragma once
// The two ways a runtime's whole-file read (runtime_reads.cpp) runs: RealSys makes the calls,
// counts them and (with a trace) says each as strace says it; PlannedSys only says what they
// would return for a regular file of a given size, touching no memory. Private to
// runtime_reads.cpp.
#include "buffers.h"

#include "readscope/result.h"

#ifdef __linux__
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace readscope::runtime_sys {

inline const char* whenceName(int whence) {
    return whence == SEEK_SET ? "SEEK_SET" : whence == SEEK_CUR ? "SEEK_CUR" : "SEEK_END";
}

#ifdef __linux__
// The calls made for real, counted, and (with a trace) said as strace says them. Memory is
// the C library's, as the runtimes' allocators end in it for these sizes.
class RealSys {
public:
    RealSys(std::uint64_t& calls, std::vector<std::string>* trace) : calls_(calls), trace_(trace) {}

    int openat(const char* path, bool cloexec) {
        note(cloexec ? "openat O_CLOEXEC" : "openat");
        return ::open(path, O_RDONLY | (cloexec ? O_CLOEXEC : 0));
    }
    // glibc's fstat (newfstatat on x86-64 Linux), Rust's statx, Go's raw fstat.
    std::int64_t newfstatat(int fd) {
        note("newfstatat");
        struct stat st {};
        return ::fstat(fd, &st) == 0 ? st.st_size : -1;
    }
    std::int64_t statx(int fd) {
        note("statx");
        struct statx st {};
        return ::statx(fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT, STATX_ALL, &st) == 0
                   ? static_cast<std::int64_t>(st.stx_size)
                   : -1;
    }
    std::int64_t fstat(int fd) {
        note("fstat");
        struct stat st {};
        return ::syscall(SYS_fstat, fd, &st) == 0 ? st.st_size : -1;
    }
    void isatty(int fd) { // Python's open() asks, for line buffering: ioctl(TCGETS)
        note("ioctl TCGETS");
        struct termios t {};
        (void)::ioctl(fd, TCGETS, &t);
    }
    std::int64_t lseek(int fd, std::int64_t offset, int whence) {
        note(fmt::format("lseek {} {}", offset, whenceName(whence)));
        return ::lseek(fd, offset, whence);
    }
    std::int64_t read(int fd, std::byte* buf, std::size_t n) {
        ssize_t got;
        do {
            ++calls_;
            got = ::read(fd, buf, n);
        } while (got < 0 && errno == EINTR);
        if (trace_)
            trace_->push_back(fmt::format("read {} = {}", n, got));
        return got;
    }
    // Go's runtime puts every file it opens in its netpoller; a regular file is refused
    // (EPERM). The process's epoll instance is made once, as Go's runtime makes it.
    void epollAdd(int fd) {
        note("epoll_ctl ADD");
        static const int epfd = ::epoll_create1(EPOLL_CLOEXEC);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
        (void)::epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
    }
    void close(int fd) {
        note("close");
        ::close(fd);
    }

    static std::byte* alloc(std::size_t n) {
        return static_cast<std::byte*>(std::malloc(n ? n : 1));
    }
    static std::byte* allocZeroed(std::size_t n) {
        auto* p = alloc(n);
        if (p)
            zeroFill(p, n);
        return p;
    }
    static std::byte* realloc(std::byte* p, std::size_t n) {
        return checked(std::realloc(p, n ? n : 1)); // p stays allocated on failure: leaked then
    }
    static std::byte* checked(void* p) {
        if (!p)
            throw std::bad_alloc();
        return static_cast<std::byte*>(p);
    }
    static void free(std::byte* p) { std::free(p); }
    static void zero(std::byte* p, std::size_t n) { zeroFill(p, n); }
    static void copy(std::byte* to, const std::byte* from, std::size_t n) {
        std::memcpy(to, from, n);
    }
    static constexpr bool kTouches = true;

private:
    void note(std::string call) {
        ++calls_;
        if (trace_)
            trace_->push_back(std::move(call));
    }
    std::uint64_t& calls_;
    std::vector<std::string>* trace_;
};

#endif

// What the calls would return for a regular file of `size` bytes, said and not made; no
// memory is touched (the pointers are never read).
class PlannedSys {
public:
    PlannedSys(std::uint64_t size, std::vector<std::string>& out) : size_(size), out_(out) {}
    int openat(const char*, bool cloexec) {
        out_.push_back(cloexec ? "openat O_CLOEXEC" : "openat");
        return 3;
    }
    std::int64_t newfstatat(int) { return said("newfstatat"); }
    std::int64_t statx(int) { return said("statx"); }
    std::int64_t fstat(int) { return said("fstat"); }
    void isatty(int) { out_.push_back("ioctl TCGETS"); }
    std::int64_t lseek(int, std::int64_t offset, int whence) {
        out_.push_back(fmt::format("lseek {} {}", offset, whenceName(whence)));
        pos_ = whence == SEEK_SET ? offset : whence == SEEK_END ? size_ + offset : pos_ + offset;
        return static_cast<std::int64_t>(pos_);
    }
    std::int64_t read(int, std::byte*, std::size_t n) {
        const std::uint64_t got = std::min<std::uint64_t>(n, size_ - std::min(pos_, size_));
        pos_ += got;
        out_.push_back(fmt::format("read {} = {}", n, got));
        return static_cast<std::int64_t>(got);
    }
    void epollAdd(int) { out_.push_back("epoll_ctl ADD"); }
    void close(int) { out_.push_back("close"); }

    static std::byte* alloc(std::size_t) { return fake(); }
    static std::byte* allocZeroed(std::size_t) { return fake(); }
    static std::byte* realloc(std::byte*, std::size_t) { return fake(); }
    static void free(std::byte*) {}
    static void zero(std::byte*, std::size_t) {}
    static void copy(std::byte*, const std::byte*, std::size_t) {}
    static constexpr bool kTouches = false;

private:
    static std::byte* fake() {
        static std::byte none[1];
        return none;
    }
    std::int64_t said(const char* call) {
        out_.push_back(call);
        return static_cast<std::int64_t>(size_);
    }
    std::uint64_t size_, pos_ = 0;
    std::vector<std::string>& out_;
};

// The bytes a read produced in memory from Sys's allocator, freed with it.
template <class Sys> struct Owned {
    std::byte* data = nullptr;
    std::uint64_t size = 0;
    std::uint64_t offset = 0; // where the bytes start in data (a pool slice, an object header)
    bool owns = true;
};

template <class Sys>
Result<Owned<Sys>> failed(Sys& sys, int fd, const char* call, const std::string& path) {
    const int e = errno;
    if (fd >= 0)
        sys.close(fd);
    return Error{fmt::format("{} on '{}' failed: {}", call, path, std::strerror(e))};
}

} // namespace readscope::runtime_sys
