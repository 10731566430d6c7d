#pragma once
// What a strategy does with the bytes it obtained, per ConsumeMode. Private to the core.
#include "readscope/consume.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace readscope {

class Consumer {
public:
    Consumer(ConsumeMode mode, std::uint32_t pageSize, bool prefetch)
        : mode_(mode), pageSize_(pageSize), prefetch_(prefetch) {}

    // Bytes already in a user buffer (the kernel or memcpy put them there).
    void buffer(std::span<const std::byte> bytes, std::uint64_t index);
    // Bytes still in a mapping: nothing is read until each page is touched.
    void inPlace(std::span<const std::byte> bytes, std::uint64_t index);

    std::uint64_t value() const { return value_; }

private:
    void touchPages(std::span<const std::byte> bytes);
    void foldWithPrefetch(std::span<const std::byte> bytes);

    ConsumeMode mode_;
    std::uint32_t pageSize_;
    bool prefetch_;
    std::uint64_t value_ = 0;
};

} // namespace readscope
