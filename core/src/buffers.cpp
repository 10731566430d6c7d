#include "buffers.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace readscope {

namespace {
void* (*volatile memsetFn)(void*, int, std::size_t) = std::memset;
}

void zeroFill(std::byte* p, std::size_t n) { memsetFn(p, 0, n); }

AlignedBuffer::AlignedBuffer(std::size_t size, std::size_t alignment) {
    size_ = alignUp(size ? size : 1, alignment);
    data_ = static_cast<std::byte*>(std::aligned_alloc(alignment, size_));
    if (!data_)
        throw std::bad_alloc();
    zeroFill(data_, size_);
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
        std::free(data_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

} // namespace readscope
