#include "buffers.h"

#ifdef _WIN32
#include "win_util.h"
#endif

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

AlignedBuffer::AlignedBuffer(std::size_t size, std::size_t alignment) {
    size_ = alignUp(size ? size : 1, alignment);
    data_ = allocateAligned(size_, alignment);
    if (!data_)
        throw std::bad_alloc();
    zeroFill(data_, size_);
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
        freeAligned(data_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

AlignedBuffer::~AlignedBuffer() { freeAligned(data_); }

} // namespace readscope
