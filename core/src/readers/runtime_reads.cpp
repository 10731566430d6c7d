#include "runtime_reads.h"

#include "runtime_sys.h"

namespace readscope {

namespace {

using namespace runtime_sys;

// Memory a runtime keeps per thread across reads (Node's buffer pool, Java's cached direct
// buffer), freed when the thread ends.
struct ThreadBuffer {
    std::byte* p = nullptr;
    std::size_t cap = 0, used = 0;
    ThreadBuffer() = default;
    ThreadBuffer(const ThreadBuffer&) = delete;
    ThreadBuffer& operator=(const ThreadBuffer&) = delete;
    ~ThreadBuffer() { std::free(p); }
    void replace(std::size_t n, bool zeroed) {
        std::free(p);
        cap = 0;
        p = static_cast<std::byte*>(std::malloc(n));
        if (!p)
            throw std::bad_alloc();
        if (zeroed)
            zeroFill(p, n);
        cap = n;
    }
};

// Rust 1.95's std::io::default_read_to_end for a reader that only implements read() and gives
// no size hint (a wrapper, a decoder's source, a pipe): a 32-byte probe read into a stack
// array first, then reads into the vector's spare capacity, each zero-filled first (the
// default read_buf initialises what read() may write), the vector growing by realloc to
// max(2 x capacity, what is needed) when full; the read size starts capped at 8 KiB and
// doubles while reads fill it.
template <class Sys> Result<Owned<Sys>> rustReadToEnd(Sys& sys, const std::string& path) {
    constexpr std::size_t kProbe = 32, kDefaultBuf = 8 << 10;
    const int fd = sys.openat(path.c_str(), true);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    std::byte* ptr = nullptr;
    std::size_t len = 0, cap = 0;
    auto grow = [&](std::size_t additional) {
        const std::size_t want = std::max({cap * 2, len + additional, std::size_t(8)});
        ptr = ptr ? Sys::realloc(ptr, want) : Sys::alloc(want);
        cap = want;
    };
    auto probe = [&]() -> std::int64_t {
        std::byte stack[kProbe];
        Sys::zero(stack, kProbe);
        const auto n = sys.read(fd, stack, kProbe);
        if (n > 0) {
            if (cap - len < std::size_t(n))
                grow(std::size_t(n));
            Sys::copy(ptr + len, stack, std::size_t(n));
            len += std::size_t(n);
        }
        return n;
    };
    const auto first = probe();
    if (first < 0)
        return failed(sys, fd, "read", path);
    std::size_t maxRead = kDefaultBuf, initialized = 0;
    for (std::int64_t n = first; n > 0;) {
        if (len == cap)
            grow(kProbe);
        const std::size_t bufLen = std::min(cap - len, maxRead);
        if (initialized < bufLen)
            Sys::zero(ptr + len + initialized, bufLen - initialized);
        n = sys.read(fd, ptr + len, bufLen);
        if (n < 0) {
            Sys::free(ptr);
            return failed(sys, fd, "read", path);
        }
        len += std::size_t(n);
        initialized = bufLen - std::size_t(n);
        if (bufLen >= maxRead && std::size_t(n) == bufLen)
            maxRead *= 2;
    }
    sys.close(fd);
    return Owned<Sys>{ptr, len};
}

// Rust 1.95's std::fs::read: statx for the size, a vector of exactly that capacity, reads
// into it uninitialised (File reads into spare capacity as it is), and, the vector full, a
// 32-byte probe read into a stack array that returns 0.
template <class Sys> Result<Owned<Sys>> rustFsRead(Sys& sys, const std::string& path) {
    constexpr std::size_t kProbe = 32;
    const int fd = sys.openat(path.c_str(), true);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    const auto size = sys.statx(fd);
    if (size < 0)
        return failed(sys, fd, "statx", path);
    std::size_t cap = std::size_t(size), len = 0;
    std::byte* ptr = cap ? Sys::alloc(cap) : nullptr;
    const std::size_t maxRead = (cap + 1024 + (8 << 10) - 1) / (8 << 10) * (8 << 10);
    for (;;) {
        if (len == cap) {
            std::byte stack[kProbe];
            Sys::zero(stack, kProbe);
            const auto n = sys.read(fd, stack, kProbe);
            if (n <= 0) {
                if (n < 0) {
                    Sys::free(ptr);
                    return failed(sys, fd, "read", path);
                }
                break;
            }
            // The file grew since statx: the vector grows as read_to_end grows it.
            const std::size_t want = std::max(cap * 2, len + std::size_t(n));
            ptr = ptr ? Sys::realloc(ptr, want) : Sys::alloc(want);
            cap = want;
            Sys::copy(ptr + len, stack, std::size_t(n));
            len += std::size_t(n);
            continue;
        }
        const auto n = sys.read(fd, ptr + len, std::min(cap - len, maxRead));
        if (n < 0) {
            Sys::free(ptr);
            return failed(sys, fd, "read", path);
        }
        if (n == 0)
            break;
        len += std::size_t(n);
    }
    sys.close(fd);
    return Owned<Sys>{ptr, len};
}

// CPython 3.11's open(p, 'rb').read(): FileIO's open (fstat), io.open's isatty, the
// BufferedReader's buffer of st_blksize and its tell (lseek), then FileIO.readall: tell
// again, fstat for the size, a bytes object of size + 1 (33 bytes of header), reads until
// one returns 0 (the second asks for the 1 spare byte), and a realloc that trims the spare.
template <class Sys> Result<Owned<Sys>> pythonRead(Sys& sys, const std::string& path) {
    // A bytes object: 32 bytes of header, the data, a trailing NUL (PyBytesObject_SIZE 33).
    constexpr std::size_t kHeader = 32, kObject = 33, kSmallChunk = 8 << 10;
    const int fd = sys.openat(path.c_str(), true);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    if (sys.newfstatat(fd) < 0)
        return failed(sys, fd, "fstat", path);
    sys.isatty(fd);
    std::byte* buffered = Sys::alloc(4096); // BufferedReader's buffer (st_blksize)
    sys.lseek(fd, 0, SEEK_CUR);
    const auto pos = sys.lseek(fd, 0, SEEK_CUR);
    const auto end = sys.newfstatat(fd);
    std::size_t bufsize = end > 0 && end >= pos ? std::size_t(end - pos + 1) : kSmallChunk;
    std::byte* obj = Sys::alloc(kObject + bufsize);
    std::size_t got = 0;
    for (;;) {
        if (got >= bufsize) {
            const std::size_t addend =
                std::max(got > (64 << 10) ? got >> 3 : 256 + got, kSmallChunk);
            bufsize = got + addend;
            obj = Sys::realloc(obj, kObject + bufsize);
        }
        const auto n = sys.read(fd, obj + kHeader + got, bufsize - got);
        if (n < 0) {
            Sys::free(obj);
            Sys::free(buffered);
            return failed(sys, fd, "read", path);
        }
        if (n == 0)
            break;
        got += std::size_t(n);
    }
    if (bufsize > got)
        obj = Sys::realloc(obj, kObject + got);
    Sys::free(buffered);
    sys.close(fd);
    return Owned<Sys>{obj, got, kHeader};
}

// Node 20's fs.readFileSync(path): statx for the size, Buffer.allocUnsafe(size) (a slice of
// the shared 8 KiB pool below 4 KiB, else fresh uninitialised memory), reads until the size
// is reached (no read returning 0); a file that says 0 bytes is read in 64 KiB chunks.
template <class Sys> Result<Owned<Sys>> nodeReadFileSync(Sys& sys, const std::string& path) {
    constexpr std::size_t kPool = 8 << 10, kUnknownChunk = 64 << 10;
    const int fd = sys.openat(path.c_str(), true);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    const auto size = sys.statx(fd);
    if (size < 0)
        return failed(sys, fd, "statx", path);
    if (size == 0) {
        std::byte* all = nullptr;
        std::size_t len = 0;
        for (;;) {
            all = all ? Sys::realloc(all, len + kUnknownChunk) : Sys::alloc(kUnknownChunk);
            const auto n = sys.read(fd, all + len, kUnknownChunk);
            if (n <= 0)
                break;
            len += std::size_t(n);
        }
        sys.close(fd);
        return Owned<Sys>{all, len};
    }
    Owned<Sys> out;
    const std::size_t n = std::size_t(size);
    if (n < kPool / 2) {
        // Node's shared pool: createPool() makes a new 8 KiB one when a slice does not fit.
        // The old one goes with its last slice, which was consumed before this read.
        thread_local ThreadBuffer pool;
        if (!pool.p || n > kPool - pool.used || !Sys::kTouches) {
            if (Sys::kTouches)
                pool.replace(kPool, false);
            pool.used = 0;
        }
        out = {Sys::kTouches ? pool.p : Sys::alloc(n), 0, Sys::kTouches ? pool.used : 0, false};
        pool.used = (pool.used + n + 7) & ~std::size_t(7);
    } else {
        out = {Sys::alloc(n), 0, 0, true};
    }
    std::size_t pos = 0;
    while (pos < n) {
        const auto got = sys.read(fd, out.data + out.offset + pos, n - pos);
        if (got < 0) {
            if (out.owns)
                Sys::free(out.data);
            return failed(sys, fd, "read", path);
        }
        if (got == 0)
            break;
        pos += std::size_t(got);
    }
    sys.close(fd);
    out.size = pos;
    return out;
}

// OpenJDK 17's Files.readAllBytes: open (no O_CLOEXEC: the JDK sets none), fstat for the
// channel's size, new byte[size] (zeroed, as the JVM zeroes every array), reads through the
// thread's cached temporary direct buffer (allocated zeroed when too small) copied into the
// array, then one 1-byte read that finds the end.
template <class Sys> Result<Owned<Sys>> javaReadAllBytes(Sys& sys, const std::string& path) {
    const int fd = sys.openat(path.c_str(), false);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    const auto size = sys.newfstatat(fd);
    if (size < 0)
        return failed(sys, fd, "fstat", path);
    thread_local ThreadBuffer direct;
    auto directFor = [&](std::size_t n) {
        if (!Sys::kTouches)
            return Sys::alloc(n);
        if (direct.cap < n) // ByteBuffer.allocateDirect zeroes what it allocates
            direct.replace(n, true);
        return direct.p;
    };
    const std::size_t cap = std::size_t(size);
    std::byte* array = Sys::allocZeroed(cap);
    std::size_t got = 0;
    while (got < cap) {
        std::byte* via = directFor(cap - got);
        const auto n = sys.read(fd, via, cap - got);
        if (n < 0) {
            Sys::free(array);
            return failed(sys, fd, "read", path);
        }
        if (n == 0)
            break;
        Sys::copy(array + got, via, std::size_t(n));
        got += std::size_t(n);
    }
    if (got == cap) { // the array is full: one more byte says whether the file ended
        if (const auto more = sys.read(fd, directFor(1), 1); more != 0) {
            Sys::free(array); // Java would grow the array: here the file changed under the run
            errno = more < 0 ? errno : EAGAIN;
            return failed(sys, fd, more < 0 ? "read" : "a size check (the file grew)", path);
        }
    }
    sys.close(fd);
    return Owned<Sys>{array, got};
}

// Go 1.19's os.ReadFile: open (the runtime's netpoller refuses the regular file), fstat for
// the size, make([]byte, 0, size + 1) (at least 512; zeroed), reads into the spare capacity
// until one returns 0 (the spare byte, or what 512 left).
template <class Sys> Result<Owned<Sys>> goReadFile(Sys& sys, const std::string& path) {
    const int fd = sys.openat(path.c_str(), true);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    sys.epollAdd(fd);
    const auto size = sys.fstat(fd);
    if (size < 0)
        return failed(sys, fd, "fstat", path);
    std::size_t cap = std::max<std::size_t>(std::size_t(size) + 1, 512), len = 0;
    std::byte* data = Sys::allocZeroed(cap);
    for (;;) {
        if (len >= cap) { // append's growth, for a file that grew
            const std::size_t want = cap * 2;
            std::byte* bigger = Sys::allocZeroed(want);
            Sys::copy(bigger, data, len);
            Sys::free(data);
            data = bigger;
            cap = want;
        }
        const auto n = sys.read(fd, data + len, cap - len);
        if (n < 0) {
            Sys::free(data);
            return failed(sys, fd, "read", path);
        }
        if (n == 0)
            break;
        len += std::size_t(n);
    }
    sys.close(fd);
    return Owned<Sys>{data, len};
}

// libstdc++ 12's std::ifstream: open (no O_CLOEXEC) with its 8 KiB buffer, underflow reading
// 8191 bytes at a time.
template <class Sys> struct FileBuf {
    static constexpr std::size_t kBuf = 8 << 10;
    Sys& sys;
    int fd;
    std::byte* buf = Sys::alloc(kBuf);
    std::size_t get = 0, end = 0;
    ~FileBuf() { Sys::free(buf); }
    std::int64_t underflow() {
        const auto n = sys.read(fd, buf, kBuf - 1);
        get = 0;
        end = n > 0 ? std::size_t(n) : 0;
        return n;
    }
};

// std::string s(std::istreambuf_iterator<char>(in), {}): character by character from the
// filebuf's buffer into a string that starts in its 15-byte local buffer and doubles
// (allocate, copy, free) when full.
template <class Sys> Result<Owned<Sys>> cppIstreambufIterator(Sys& sys, const std::string& path) {
    const int fd = sys.openat(path.c_str(), false);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    FileBuf<Sys> in{sys, fd};
    std::byte local[16];
    std::byte* data = local;
    std::size_t len = 0, cap = 15;
    for (;;) {
        if (in.get == in.end) {
            const auto n = in.underflow();
            if (n < 0) {
                if (data != local)
                    Sys::free(data);
                return failed(sys, fd, "read", path);
            }
            if (n == 0)
                break;
            if (!Sys::kTouches) { // planned: the characters, all at once
                len += std::size_t(n);
                in.get = in.end;
                continue;
            }
        }
        if (len == cap) {
            const std::size_t grown = cap * 2;
            std::byte* bigger = Sys::alloc(grown + 1);
            Sys::copy(bigger, data, len);
            if (data != local)
                Sys::free(data);
            data = bigger;
            cap = grown;
        }
        data[len++] = in.buf[in.get++];
    }
    sys.close(fd);
    if (data == local) { // the result still fits the local buffer: one copy out
        std::byte* small = Sys::alloc(len + 1);
        Sys::copy(small, local, len);
        data = small;
    }
    return Owned<Sys>{data, len};
}

// The seekg/tellg idiom: ifstream(p, binary | ate) (lseek to the end), tellg (lseek to find
// the position), seekg(0) (lseek), std::vector<char>(size) (zeroed), in.read(v, size):
// through the filebuf's buffer (one 8191-byte read) when size is at most 8191, else read(2)
// straight into the vector until it is full.
template <class Sys> Result<Owned<Sys>> cppSeekRead(Sys& sys, const std::string& path) {
    const int fd = sys.openat(path.c_str(), false);
    if (fd < 0)
        return failed(sys, fd, "open", path);
    FileBuf<Sys> in{sys, fd};
    sys.lseek(fd, 0, SEEK_END);
    const auto size = sys.lseek(fd, 0, SEEK_CUR);
    sys.lseek(fd, 0, SEEK_SET);
    if (size < 0)
        return failed(sys, fd, "lseek", path);
    const std::size_t n = std::size_t(size);
    std::byte* v = Sys::allocZeroed(n);
    std::size_t got = 0;
    if (n <= FileBuf<Sys>::kBuf - 1) {
        if (n) {
            const auto r = in.underflow();
            if (r < 0) {
                Sys::free(v);
                return failed(sys, fd, "read", path);
            }
            got = std::min(n, std::size_t(r));
            Sys::copy(v, in.buf, got);
        }
    } else {
        while (got < n) {
            const auto r = sys.read(fd, v + got, n - got);
            if (r < 0) {
                Sys::free(v);
                return failed(sys, fd, "read", path);
            }
            if (r == 0)
                break;
            got += std::size_t(r);
        }
    }
    sys.close(fd);
    return Owned<Sys>{v, got};
}

template <class Sys>
Result<Owned<Sys>> readWith(Runtime runtime, Sys& sys, const std::string& path) {
    switch (runtime) {
    case Runtime::RustReadToEnd: return rustReadToEnd(sys, path);
    case Runtime::RustFsRead: return rustFsRead(sys, path);
    case Runtime::Python: return pythonRead(sys, path);
    case Runtime::Node: return nodeReadFileSync(sys, path);
    case Runtime::Java: return javaReadAllBytes(sys, path);
    case Runtime::Go: return goReadFile(sys, path);
    case Runtime::CppIterator: return cppIstreambufIterator(sys, path);
    case Runtime::CppSeekRead: return cppSeekRead(sys, path);
    case Runtime::None: break;
    }
    return Error{"not a runtime's read"};
}

} // namespace

Result<RuntimeBytes> readAsRuntime(Runtime runtime, const std::string& path,
                                   std::uint64_t& syscalls, std::vector<std::string>* trace) {
#ifndef __linux__
    (void)runtime, (void)path, (void)syscalls, (void)trace;
    return Error{"the runtimes' reads are written in Linux's system calls"};
#else
    RealSys sys(syscalls, trace);
    Result<Owned<RealSys>> got = Error{""};
    try {
        got = readWith(runtime, sys, path);
    } catch (const std::bad_alloc&) {
        return Error{fmt::format("out of memory reading '{}' whole", path)};
    }
    if (!got)
        return got.error();
    RuntimeBytes out;
    if (got->owns)
        out.memory = {got->data, [](std::byte* p) { std::free(p); }};
    out.data = got->data + got->offset;
    out.size = got->size;
    return out;
#endif
}

std::vector<std::string> plannedRuntimeCalls(Runtime runtime, std::uint64_t size) {
    std::vector<std::string> calls;
    PlannedSys sys(size, calls);
    (void)readWith(runtime, sys, "planned");
    return calls;
}

Result<std::vector<std::string>> traceRuntimeRead(const StrategyInfo& strategy,
                                                  const std::string& path) {
    if (strategy.access != Access::AsRuntime)
        return Error{fmt::format("{} is not a runtime's whole-file read", strategy.id)};
    std::vector<std::string> trace;
    std::uint64_t calls = 0;
    if (auto got = readAsRuntime(strategy.runtime, path, calls, &trace); !got)
        return got.error();
    return trace;
}

std::vector<std::string> runtimeCalls(const StrategyInfo& strategy, std::uint64_t size) {
    if (strategy.access != Access::AsRuntime)
        return {};
    return plannedRuntimeCalls(strategy.runtime, size);
}

} // namespace readscope
