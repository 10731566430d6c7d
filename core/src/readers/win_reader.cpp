// The Windows read loops: ReadFile at an offset (OVERLAPPED on a synchronous handle),
// SetFilePointerEx + ReadFile, MapViewOfFile views (optionally PrefetchVirtualMemory), and
// FILE_FLAG_NO_BUFFERING reads into sector-aligned VirtualAlloc buffers.
#include "reader_base.h"
#include "win_util.h"

#include <fmt/format.h>

#include <cstring>
#include <new>

namespace readscope {

namespace {

// ReadFile takes a DWORD length; larger ranges are read in pieces of this size.
constexpr std::uint64_t kMaxPiece = 1u << 30;

using PrefetchFn = BOOL(WINAPI*)(HANDLE, ULONG_PTR, PWIN32_MEMORY_RANGE_ENTRY, ULONG);

PrefetchFn prefetchVirtualMemory() {
    // Resolved at run time, so that the program still starts where it is missing.
    static const auto fn = reinterpret_cast<PrefetchFn>(reinterpret_cast<void*>(
        GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "PrefetchVirtualMemory")));
    return fn;
}

// One view of the whole file: for one read() call, mapped and unmapped inside the timed round
// (as on POSIX), so that cold rounds find nothing mapped; or kept by the reader for the whole
// run (MapLifetime::Kept). Windows refuses to truncate a file while a view of it exists, so
// the SIGBUS case of POSIX cannot arise here.
class View {
public:
    View() = default;
    View(const View&) = delete;
    View& operator=(const View&) = delete;
    ~View() { unmap(nullptr); }
    Status map(HANDLE file, const FileProbe& f, std::uint64_t& syscalls) {
        mapping_ =
            win::UniqueHandle(CreateFileMappingW(file, nullptr, PAGE_READONLY, 0, 0, nullptr));
        ++syscalls;
        if (!mapping_.valid())
            return Error{fmt::format("CreateFileMapping on '{}' failed: {}", f.path,
                                     win::errorText(GetLastError()))};
        base_ = static_cast<std::byte*>(MapViewOfFile(mapping_.get(), FILE_MAP_READ, 0, 0, 0));
        ++syscalls;
        if (!base_)
            return Error{fmt::format("MapViewOfFile on '{}' failed: {}", f.path,
                                     win::errorText(GetLastError()))};
        return okStatus();
    }
    void unmap(std::uint64_t* syscalls) {
        if (base_) {
            UnmapViewOfFile(base_);
            base_ = nullptr;
            if (syscalls)
                *syscalls += 2; // UnmapViewOfFile, CloseHandle
        }
        mapping_.reset();
    }
    std::byte* base() const { return base_; }

private:
    win::UniqueHandle mapping_;
    std::byte* base_ = nullptr;
};

DWORD openFlags(const StrategyInfo& s) {
    if (s.access == Access::Direct)
        return FILE_FLAG_NO_BUFFERING;
    if (s.hint == Hint::SequentialScan)
        return FILE_FLAG_SEQUENTIAL_SCAN;
    if (s.hint == Hint::RandomAccess)
        return FILE_FLAG_RANDOM_ACCESS;
    return FILE_ATTRIBUTE_NORMAL;
}

class WinReader final : public ReaderBase<WinReader> {
    friend class ReaderBase<WinReader>;

public:
    WinReader(const StrategyInfo& s, const FileProbe& f, win::UniqueHandle h)
        : ReaderBase(s, f), h_(std::move(h)) {}

    // The cache manager purges a file only when no cached handle to it is open: the kept view
    // and this reader's handle close around the eviction and open again after it.
    void letGoOfFile() override {
        kept_.unmap(nullptr);
        h_.reset();
    }

    Status takeBackFile() override {
        if (!h_.valid()) {
            h_ = win::openShared(f_.path, openFlags(s_));
            if (!h_.valid())
                return Error{fmt::format("cannot open '{}' again for {} after the eviction: {}",
                                         f_.path, s_.id, win::errorText(GetLastError()))};
        }
        return mapKept();
    }

    Result<ReadOutcome> read(std::span<const Range> ranges, ConsumeMode mode, bool recordLatencies,
                             std::stop_token stop) override {
        ReadOutcome out;
        if (auto st = beginRead(ranges); !st)
            return st.error();
        Consumer consumer(mode, f_.pageSize, false);
        if (eachRead_)
            return readWholeFiles(ranges, recordLatencies, stop, out, consumer);
        if (!h_.valid())
            return Error{fmt::format("'{}' is not open for {}", f_.path, s_.id)};
        View view;
        if (mapsFile())
            if (auto st = keepsMapping() ? mapKept() : view.map(h_.get(), f_, out.syscalls); !st)
                return st.error();
        std::byte* const base = keepsMapping() ? kept_.base() : view.base();
        if (s_.access == Access::Coalesce) {
            if (auto st = readCoalesced(ranges, consumer, stop, out); !st)
                return st.error();
            return finishRead(out, consumer);
        }
        const bool ok =
            readEachRange(ranges, recordLatencies, stop, out, [&](const Range& r, std::size_t i) {
                return readOne(r, i, consumer, base, out.syscalls);
            });
        if (!ok)
            return failedRead();
        view.unmap(&out.syscalls);
        return finishRead(out, consumer);
    }

private:
    // A whole-file sweep's reads: each range opens the file, maps a view (for the mapping
    // strategies), reads, unmaps and closes it, all timed.
    Result<ReadOutcome> readWholeFiles(std::span<const Range> ranges, bool recordLatencies,
                                       std::stop_token stop, ReadOutcome& out, Consumer& consumer) {
        const bool ok = readEachRange(
            ranges, recordLatencies, stop, out, [&](const Range& r, std::size_t i) -> Count {
                h_ = win::openShared(f_.path, openFlags(s_));
                ++out.syscalls;
                if (!h_.valid())
                    return fail(ioError("CreateFile", r.offset, win::errorText(GetLastError())));
                if (asksForSize()) {
                    LARGE_INTEGER size{};
                    ++out.syscalls;
                    if (!GetFileSizeEx(h_.get(), &size))
                        return fail(
                            ioError("GetFileSizeEx", r.offset, win::errorText(GetLastError())));
                    if (auto st = checkSize(static_cast<std::uint64_t>(size.QuadPart), r.offset);
                        !st)
                        return fail(st.error());
                }
                View view;
                if (mapsFile())
                    if (auto mapped = view.map(h_.get(), f_, out.syscalls); !mapped)
                        return fail(mapped.error());
                const Count got = readOne(r, i, consumer, view.base(), out.syscalls);
                view.unmap(&out.syscalls);
                h_.reset();
                ++out.syscalls;
                return got;
            });
        h_.reset();
        if (!ok)
            return failedRead();
        return finishRead(out, consumer);
    }

    // The kept view, made (untimed) when it is not there.
    Status mapKept() {
        if (!keepsMapping() || kept_.base())
            return okStatus();
        std::uint64_t untimed = 0;
        return kept_.map(h_.get(), f_, untimed);
    }

    // ReadFile with the offset in an OVERLAPPED (on a synchronous handle this is pread), of
    // at most kMaxPiece bytes: the bytes it read, 0 at the end of the file.
    Count readAt(std::byte* buf, std::uint64_t n, std::uint64_t off, std::uint64_t& syscalls) {
        DWORD got = 0;
        ++syscalls;
        if (!win::readAt(h_.get(), buf, static_cast<DWORD>(std::min(kMaxPiece, n)), off, got))
            return fail(ioError("ReadFile", off, win::errorText(GetLastError())));
        return std::uint64_t{got};
    }

    // False, with the failure kept, when the seek fails.
    bool seekTo(std::uint64_t off, std::uint64_t& syscalls) {
        ++syscalls;
        LARGE_INTEGER to;
        to.QuadPart = static_cast<LONGLONG>(off);
        if (SetFilePointerEx(h_.get(), to, nullptr, FILE_BEGIN))
            return true;
        fail(ioError("SetFilePointerEx", off, win::errorText(GetLastError())));
        return false;
    }

    // One ReadFile at the file pointer (off names it in an error).
    Count readNext(std::byte* buf, std::uint64_t n, std::uint64_t off, std::uint64_t& syscalls) {
        DWORD got = 0;
        ++syscalls;
        if (!ReadFile(h_.get(), buf, static_cast<DWORD>(std::min(kMaxPiece, n)), &got, nullptr))
            return fail(ioError("ReadFile", off, win::errorText(GetLastError())));
        return std::uint64_t{got};
    }

    // PrefetchVirtualMemory on the view's range (Windows 8 and later).
    Status adviseWillNeed(std::byte* at, std::uint64_t, std::uint64_t length,
                          std::uint64_t& syscalls) {
        const auto fn = prefetchVirtualMemory();
        if (!fn)
            return Error{"PrefetchVirtualMemory is missing (it needs Windows 8 or later)"};
        WIN32_MEMORY_RANGE_ENTRY entry{at, static_cast<SIZE_T>(length)};
        ++syscalls;
        fn(GetCurrentProcess(), 1, &entry, 0); // advice: a refusal changes nothing read
        return okStatus();
    }

    // The runtimes' whole-file reads are Linux's system calls (the registry lists them POSIX).
    Result<std::uint64_t> readRuntime(const Range&, std::uint64_t, Consumer&, std::uint64_t&) {
        return Error{fmt::format("strategy '{}' has no Windows read loop", s_.id)};
    }

    // Read-to-end strategies are POSIX ones (the registry lists no Windows form).
    Result<std::uint64_t> readToEnd(const Range&, std::uint64_t, Consumer&, std::uint64_t&) {
        return Error{fmt::format("strategy '{}' has no Windows read loop", s_.id)};
    }

    static constexpr const char* kPlatform = "Windows";
    win::UniqueHandle h_;
    View kept_; // mapview-copy-kept's view, for the whole run
};

} // namespace

Result<std::unique_ptr<RangeReader>> openPlatformReader(const StrategyInfo& s, const FileProbe& f,
                                                        std::uint64_t maxRange) {
    auto h = win::openShared(f.path, openFlags(s));
    if (!h.valid())
        return Error{fmt::format("cannot open '{}' for {}: {}", f.path, s.id,
                                 win::errorText(GetLastError()))};
    auto reader = std::make_unique<WinReader>(s, f, std::move(h));
    if (std::min(maxRange, f.size) <= kKeepBufferLimit)
        if (auto st = reader->prepare(maxRange); !st)
            return st.error();
    return std::unique_ptr<RangeReader>(std::move(reader));
}

} // namespace readscope
