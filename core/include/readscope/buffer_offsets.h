#pragma once
// Where destination buffers start within a page. A copy from the page cache (page-aligned
// source) into a buffer that starts a few bytes past a page boundary can run several times
// slower on some CPUs (short-distance `rep movsb`), and glibc puts large fresh chunks at page
// offset 16, so the placement is part of what a figure measured: every cell records it.
#include "readscope/result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace readscope {

// How many ranges a strategy read into buffers that start at this page offset.
struct OffsetCount {
    std::uint32_t offset = 0;
    std::uint64_t count = 0;
    bool operator==(const OffsetCount&) const = default;
};
// Stands for every offset past the distinct ones a tally keeps.
inline constexpr std::uint32_t kOtherOffsets = UINT32_MAX;
using OffsetCounts = std::vector<OffsetCount>; // ascending offset, kOtherOffsets last

// The largest --buffer-offset: buffers start at most this far past a page boundary.
inline constexpr std::uint32_t kMaxBufferOffset = 65536;

// Counts buffer start offsets on a read's per-range path: a linear scan of a few slots, no
// allocation; offsets past the slots are counted together as kOtherOffsets.
class OffsetTally {
public:
    // Once per range read, inside the timed loop: a mask, not a division (a page is a power of
    // two; a div is some 25-40 cycles), and the offset the last buffer started at is looked at
    // first (most ranges' buffers start where the last one did).
    [[gnu::always_inline]] void add(const void* buffer, std::uint32_t pageSize) {
        const auto address = reinterpret_cast<std::uintptr_t>(buffer);
        const auto offset = static_cast<std::uint32_t>(
            (pageSize & (pageSize - 1)) == 0 ? address & (pageSize - 1) : address % pageSize);
        if (used_ && slots_[last_].offset == offset) {
            ++slots_[last_].count;
            return;
        }
        for (std::size_t i = 0; i < used_; ++i)
            if (slots_[i].offset == offset) {
                ++slots_[i].count;
                last_ = i;
                return;
            }
        if (used_ < slots_.size()) {
            last_ = used_;
            slots_[used_++] = {offset, 1};
        } else {
            ++other_;
        }
    }
    OffsetCounts counts() const;

private:
    std::array<OffsetCount, 16> slots_{};
    std::size_t used_ = 0, last_ = 0;
    std::uint64_t other_ = 0;
};

// Adds more's counts into into, keeping the order above.
void mergeOffsetCounts(OffsetCounts& into, const OffsetCounts& more);
// "16" (one offset), "16x1;672x14" (offset x ranges), "0;otherx3", "" (no buffer).
std::string formatOffsetCounts(const OffsetCounts& counts);
Result<OffsetCounts> parseOffsetCounts(std::string_view text);

// A pinned offset for people: 16 -> "16", 4112 -> "4096+16" (the page it passed, and where in
// the next one it starts).
std::string formatBufferOffset(std::uint32_t offset, std::uint32_t pageSize = 4096);
// "auto" -> nullopt; "16" -> 16; rejects junk and offsets over kMaxBufferOffset.
Result<std::optional<std::uint32_t>> parseBufferOffset(std::string_view text);
// "0,8,16,4112" -> offsets in the given order, duplicates removed ("auto" is not a list item).
Result<std::vector<std::uint32_t>> parseBufferOffsetList(std::string_view text);
// What --buffer-offset and the app's field take: "auto" -> {}, "16" -> {16}, or a list.
Result<std::vector<std::uint32_t>> parseBufferOffsets(std::string_view text);
// The other way: {} -> "auto", {0, 4112} -> "0,4096+16".
std::string formatBufferOffsets(const std::vector<std::uint32_t>& offsets);

} // namespace readscope
