#pragma once
// Buffers as the strategies define them. Private to the core.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace readscope {

// Where a reader's buffers start: nullopt leaves it to the allocator (malloc, as real programs
// get it); N puts every buffer at page offset N.
struct BufferPlacement {
    std::optional<std::uint32_t> offset;
    std::uint32_t pageSize = 4096;
    // The largest offset the run pins buffers at. Every pinned fresh buffer of a run is
    // allocated the same size (range + page + this), so that the points of an offset sweep
    // differ only in where the buffer starts, never in which allocator path served it.
    std::uint32_t largestOffset = 0;
};

// Frees what freshBuffer() allocated, from the start of its allocation.
struct FreshDeleter {
    std::uint32_t shift = 0; // bytes between the allocation's start and the buffer's
    void operator()(std::byte* p) const {
        if (p)
            std::free(p - shift);
    }
};
using FreshBuffer = std::unique_ptr<std::byte[], FreshDeleter>;

// How a fresh buffer is initialised: not at all (malloc), or zeroed by the allocator (calloc,
// which knows memory fresh from the kernel is zero already and memsets only reused memory).
enum class Zeroing { None, ByAllocator };

// A fresh allocation of n bytes from malloc (or calloc), never initialised by readscope (no
// hidden memset). Auto placement: malloc(n), wherever it lands. Pinned: a slightly larger
// block (see largestOffset), the buffer starting at the pinned offset past its first page
// boundary; as fresh per call as plain malloc, only its start within the page fixed.
// malloc(n) or calloc(n, 1): what a fresh buffer is, before any placement.
inline std::byte* allocateFresh(std::size_t n, Zeroing zeroing) {
    return static_cast<std::byte*>(zeroing == Zeroing::ByAllocator ? std::calloc(n, 1)
                                                                   : std::malloc(n));
}
// The pinned case, out of line; the auto case is inline, as it runs once a range in the timed
// loop of every strategy that reads into a fresh buffer.
FreshBuffer pinnedFreshBuffer(std::size_t n, const BufferPlacement& placement, Zeroing zeroing);
inline FreshBuffer freshBuffer(std::size_t n, const BufferPlacement& placement,
                               Zeroing zeroing = Zeroing::None) {
    if (placement.offset)
        return pinnedFreshBuffer(n, placement, zeroing);
    auto* p = allocateFresh(n ? n : 1, zeroing);
    if (!p)
        throw std::bad_alloc();
    return FreshBuffer(p, FreshDeleter{});
}

// memset through a volatile function pointer: the compiler cannot drop the zero-fill because
// a read overwrites the bytes right after, so pread-zerofill keeps the pass it is defined by.
void zeroFill(std::byte* p, std::size_t n);

class AlignedBuffer {
public:
    AlignedBuffer() = default;
    // size usable bytes starting offset bytes past an alignment boundary; touched once
    // (zero-filled) so that no page fault is left for the timed reads.
    AlignedBuffer(std::size_t size, std::size_t alignment, std::size_t offset = 0);
    AlignedBuffer(AlignedBuffer&& other) noexcept;
    AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
    ~AlignedBuffer();

    std::byte* data() const { return data_; }
    std::size_t size() const { return size_; }
    // Gives up ownership without freeing (memory the kernel may still write to).
    std::byte* release() {
        size_ = 0;
        data_ = nullptr;
        return std::exchange(base_, nullptr);
    }
    std::size_t offset() const { return static_cast<std::size_t>(data_ - base_); }

private:
    std::byte* base_ = nullptr; // the allocation
    std::byte* data_ = nullptr; // base_ + offset
    std::size_t size_ = 0;
};

inline std::uint64_t alignDown(std::uint64_t v, std::uint64_t a) { return v / a * a; }
inline std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// A price pass's destination: n bytes touched once (no fault left for the timed copies),
// starting at page offset `offset` when given, else where malloc puts n bytes, as a
// strategy's buffers land under auto placement. A copy's speed depends on where its
// destination starts: the kernel's copy into a page offset of 16 ran at half the speed of one
// into offset 0 or 336 here.
class PricedDestination {
public:
    PricedDestination(std::size_t n, std::optional<std::uint32_t> offset, std::size_t pageSize);
    std::byte* data() { return pinned_.data() ? pinned_.data() : heap_.data(); }

private:
    std::vector<std::byte> heap_;
    AlignedBuffer pinned_;
};

} // namespace readscope
