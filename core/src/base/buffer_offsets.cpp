#include "readscope/buffer_offsets.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace readscope {

namespace {

bool lessByOffset(const OffsetCount& a, const OffsetCount& b) { return a.offset < b.offset; }

Result<std::uint64_t> parseUnsigned(std::string_view text, std::string_view what) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size())
        return Error{fmt::format("{} '{}' is not a whole number", what, text)};
    return v;
}

} // namespace

OffsetCounts OffsetTally::counts() const {
    OffsetCounts out(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(used_));
    std::sort(out.begin(), out.end(), lessByOffset);
    if (other_)
        out.push_back({kOtherOffsets, other_});
    return out;
}

void mergeOffsetCounts(OffsetCounts& into, const OffsetCounts& more) {
    for (const auto& m : more) {
        auto it = std::find_if(into.begin(), into.end(),
                               [&](const OffsetCount& c) { return c.offset == m.offset; });
        if (it != into.end())
            it->count += m.count;
        else
            into.push_back(m);
    }
    std::sort(into.begin(), into.end(), lessByOffset); // kOtherOffsets sorts last
}

std::string formatOffsetCounts(const OffsetCounts& counts) {
    if (counts.size() == 1 && counts[0].offset != kOtherOffsets)
        return std::to_string(counts[0].offset);
    std::string out;
    for (const auto& c : counts) {
        if (!out.empty())
            out += ';';
        out += c.offset == kOtherOffsets ? fmt::format("otherx{}", c.count)
                                         : fmt::format("{}x{}", c.offset, c.count);
    }
    return out;
}

Result<OffsetCounts> parseOffsetCounts(std::string_view text) {
    OffsetCounts out;
    if (text.empty())
        return out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t semi = std::min(text.find(';', start), text.size());
        const auto item = text.substr(start, semi - start);
        const auto x = item.find('x');
        OffsetCount c;
        const auto offsetText = item.substr(0, x);
        if (offsetText == "other") {
            c.offset = kOtherOffsets;
        } else {
            auto offset = parseUnsigned(offsetText, "buffer page offset");
            if (!offset)
                return offset.error();
            if (*offset >= kOtherOffsets)
                return Error{fmt::format("buffer page offset '{}' is too large", offsetText)};
            c.offset = static_cast<std::uint32_t>(*offset);
        }
        if (x == std::string_view::npos) {
            if (text.find(';') != std::string_view::npos || c.offset == kOtherOffsets)
                return Error{fmt::format("buffer page offsets '{}': give 'offset x count' for "
                                         "each of several offsets",
                                         text)};
            c.count = 0; // one offset, count not written
        } else {
            auto count = parseUnsigned(item.substr(x + 1), "buffer page offset count");
            if (!count)
                return count.error();
            c.count = *count;
        }
        out.push_back(c);
        start = semi + 1;
    }
    return out;
}

std::string formatBufferOffset(std::uint32_t offset, std::uint32_t pageSize) {
    if (pageSize == 0 || offset < pageSize)
        return std::to_string(offset);
    const std::uint32_t pages = offset / pageSize * pageSize;
    return offset == pages ? std::to_string(offset) : fmt::format("{}+{}", pages, offset - pages);
}

Result<std::optional<std::uint32_t>> parseBufferOffset(std::string_view text) {
    if (text == "auto")
        return std::optional<std::uint32_t>{};
    // "4096+16", as formatBufferOffset writes it, is accepted back.
    std::uint64_t total = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t plus = std::min(text.find('+', start), text.size());
        auto part = parseUnsigned(text.substr(start, plus - start), "buffer offset");
        if (!part)
            return Error{fmt::format("buffer offset '{}' is not 'auto' or a number of bytes "
                                     "(0 to {})",
                                     text, kMaxBufferOffset)};
        total += *part;
        if (total > kMaxBufferOffset)
            return Error{fmt::format("buffer offset '{}' is out of range: use 0 to {} bytes, "
                                     "or 'auto'",
                                     text, kMaxBufferOffset)};
        start = plus + 1;
    }
    return std::optional<std::uint32_t>{static_cast<std::uint32_t>(total)};
}

Result<std::vector<std::uint32_t>> parseBufferOffsetList(std::string_view text) {
    std::vector<std::uint32_t> offsets;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const auto item = text.substr(start, comma - start);
        auto offset = parseBufferOffset(item);
        if (!offset)
            return offset.error();
        if (!*offset)
            return Error{fmt::format("buffer offsets '{}': 'auto' cannot be one of several "
                                     "offsets; give numbers",
                                     text)};
        if (std::find(offsets.begin(), offsets.end(), **offset) == offsets.end())
            offsets.push_back(**offset);
        start = comma + 1;
    }
    return offsets;
}

Result<std::vector<std::uint32_t>> parseBufferOffsets(std::string_view text) {
    if (text.find(',') != std::string_view::npos)
        return parseBufferOffsetList(text);
    auto one = parseBufferOffset(text);
    if (!one)
        return one.error();
    return *one ? std::vector<std::uint32_t>{**one} : std::vector<std::uint32_t>{};
}

std::string formatBufferOffsets(const std::vector<std::uint32_t>& offsets) {
    if (offsets.empty())
        return "auto";
    std::string out;
    for (auto o : offsets)
        out += (out.empty() ? "" : ",") + formatBufferOffset(o);
    return out;
}

} // namespace readscope
