#pragma once
// Buffers as the strategies define them. Private to the core.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace readscope {

// A fresh allocation whose bytes are never initialised (no hidden memset).
inline std::unique_ptr<std::byte[]> freshUninit(std::size_t n) {
    return std::make_unique_for_overwrite<std::byte[]>(n ? n : 1);
}

// memset through a volatile function pointer: the compiler cannot drop the zero-fill because
// a read overwrites the bytes right after, so pread-zerofill keeps the pass it is defined by.
void zeroFill(std::byte* p, std::size_t n);

class AlignedBuffer {
public:
    AlignedBuffer() = default;
    AlignedBuffer(std::size_t size, std::size_t alignment); // touched once (zero-filled)
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
        return std::exchange(data_, nullptr);
    }

private:
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

inline std::uint64_t alignDown(std::uint64_t v, std::uint64_t a) { return v / a * a; }
inline std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

} // namespace readscope
