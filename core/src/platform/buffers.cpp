#include "buffers.h"

#ifdef _WIN32
#include "win_util.h"
#endif

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace readscope {

namespace {
void* (*volatile memsetFn)(void*, int, std::size_t) = std::memset;
}

void zeroFill(std::byte* p, std::size_t n) { memsetFn(p, 0, n); }

namespace {
// Windows: VirtualAlloc (page aligned, hence sector aligned for FILE_FLAG_NO_BUFFERING; the
// C runtime there has no aligned_alloc). Elsewhere: aligned_alloc.
std::byte* allocateAligned(std::size_t size, std::size_t alignment) {
#ifdef _WIN32
    (void)alignment;
    return static_cast<std::byte*>(
        VirtualAlloc(nullptr, size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE));
#else
    return static_cast<std::byte*>(std::aligned_alloc(alignment, size));
#endif
}

void freeAligned(std::byte* p) {
#ifdef _WIN32
    if (p)
        VirtualFree(p, 0, MEM_RELEASE);
#else
    std::free(p);
#endif
}
} // namespace

FreshBuffer pinnedFreshBuffer(std::size_t n, const BufferPlacement& placement, Zeroing zeroing) {
    n = n ? n : 1;
    const std::size_t page = placement.pageSize;
    const std::size_t largest = std::max(placement.largestOffset, *placement.offset);
    auto* raw = allocateFresh(n + page + largest, zeroing);
    if (!raw)
        throw std::bad_alloc();
    const auto address = reinterpret_cast<std::uintptr_t>(raw);
    std::byte* start = raw + (alignUp(address, page) - address) + *placement.offset;
    return FreshBuffer(start, FreshDeleter{static_cast<std::uint32_t>(start - raw)});
}

AlignedBuffer::AlignedBuffer(std::size_t size, std::size_t alignment, std::size_t offset) {
    const std::size_t bytes = alignUp((size ? size : 1) + offset, alignment);
    base_ = allocateAligned(bytes, alignment);
    if (!base_)
        throw std::bad_alloc();
    zeroFill(base_, bytes);
    data_ = base_ + offset;
    size_ = bytes - offset;
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)), data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
        freeAligned(base_);
        base_ = std::exchange(other.base_, nullptr);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

AlignedBuffer::~AlignedBuffer() { freeAligned(base_); }

PricedDestination::PricedDestination(std::size_t n, std::optional<std::uint32_t> offset,
                                     std::size_t pageSize) {
    if (offset)
        pinned_ = AlignedBuffer(n, pageSize, *offset);
    else
        heap_.assign(n ? n : 1, std::byte{1});
}

} // namespace readscope
