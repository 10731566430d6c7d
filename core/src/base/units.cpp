#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace readscope {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

int shiftFor(std::string_view suffix) {
    std::string lower;
    for (char c : suffix)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.empty() || lower == "b")
        return 0;
    static constexpr std::pair<std::string_view, int> table[] = {
        {"k", 10}, {"kb", 10}, {"kib", 10}, {"m", 20}, {"mb", 20}, {"mib", 20},
        {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40}, {"tb", 40}, {"tib", 40}};
    for (auto [name, shift] : table)
        if (lower == name)
            return shift;
    return -1;
}

// "1.5M": sizes are whole numbers; the message names the same size in a smaller unit when
// there is one (1536K), as a person would have to work it out.
Error decimalSizeError(std::string_view text, std::uint64_t whole, std::string_view afterPoint) {
    std::uint64_t digits = 0, scale = 1;
    std::size_t i = 0;
    for (; i < afterPoint.size() && std::isdigit(static_cast<unsigned char>(afterPoint[i])) &&
           scale < 1'000'000;
         ++i) {
        digits = digits * 10 + std::uint64_t(afterPoint[i] - '0');
        scale *= 10;
    }
    const int shift = shiftFor(trim(afterPoint.substr(i)));
    std::string instead;
    if (shift > 0 && whole < (1ull << 20) && (digits << shift) % scale == 0) {
        const std::uint64_t bytes = (whole << shift) + (digits << shift) / scale;
        int unit = shift;
        while (unit > 0 && bytes % (1ull << unit) != 0)
            unit -= 10;
        static constexpr const char* kUnits[] = {"", "K", "M", "G", "T"};
        instead = fmt::format(": write {}{}", bytes >> unit, kUnits[unit / 10]);
    }
    return Error{fmt::format("size '{}' has a decimal point: sizes are whole numbers of bytes, "
                             "K, M, G or T{}",
                             text, instead)};
}

} // namespace

Result<std::uint64_t> parseSize(std::string_view text) {
    const std::string_view s = trim(text);
    if (s.empty())
        return Error{"size is empty: give bytes or a number with K, M or G (e.g. 64K)"};
    if (s.front() == '-')
        return Error{fmt::format("size '{}' is negative: sizes are positive byte counts", s)};
    std::uint64_t number = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
    if (ec == std::errc::result_out_of_range)
        return Error{fmt::format("size '{}' is too large", s)};
    if (ec != std::errc{} || end == s.data())
        return Error{fmt::format("size '{}' is not a number: use e.g. 4096, 64K, 1M or 2G", s)};
    std::string_view rest(end, s.data() + s.size() - end);
    if (rest.size() >= 2 && rest[0] == '.' && std::isdigit(static_cast<unsigned char>(rest[1])))
        return decimalSizeError(s, number, rest.substr(1));
    const int shift = shiftFor(trim(rest));
    if (shift < 0)
        return Error{fmt::format("size '{}' has an unknown unit: use K, M, G or T (1K = 1024)", s)};
    if (number == 0)
        return Error{fmt::format("size '{}' is zero: a range must hold at least one byte", s)};
    if (shift > 0 && number > (std::numeric_limits<std::uint64_t>::max() >> shift))
        return Error{fmt::format("size '{}' is too large", s)};
    return number << shift;
}

Result<std::vector<std::uint64_t>> parseSizeList(std::string_view text) {
    std::vector<std::uint64_t> sizes;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos)
            comma = text.size();
        auto item = text.substr(start, comma - start);
        auto size = parseSize(item);
        if (!size)
            return size.error();
        if (std::find(sizes.begin(), sizes.end(), *size) == sizes.end())
            sizes.push_back(*size);
        start = comma + 1;
    }
    return sizes;
}

std::string formatSize(std::uint64_t bytes) {
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double value = static_cast<double>(bytes);
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    if (unit == 0)
        return fmt::format("{} B", bytes);
    if (value == static_cast<double>(static_cast<std::uint64_t>(value)))
        return fmt::format("{} {}", static_cast<std::uint64_t>(value), units[unit]);
    return fmt::format("{:.1f} {}", value, units[unit]);
}

std::string formatSizeShort(std::uint64_t bytes) {
    static constexpr std::pair<int, char> units[] = {{40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}};
    for (auto [shift, letter] : units) {
        const std::uint64_t unit = 1ull << shift;
        if (bytes >= unit && bytes % unit == 0)
            return fmt::format("{}{}", bytes >> shift, letter);
    }
    return fmt::format("{}", bytes);
}

double gigabytesPerSecond(std::uint64_t bytes, double seconds) {
    if (seconds <= 0)
        return 0;
    return static_cast<double>(bytes) / seconds / 1e9;
}

std::string formatPercent(double fraction) { return fmt::format("{:.0f}%", fraction * 100); }

std::string formatSignedPercent(double fraction) { return fmt::format("{:+.0f}%", fraction * 100); }

std::string formatRate(double value) {
    if (value == 0 || !std::isfinite(value))
        return value == 0 ? "0" : fmt::format("{}", value);
    int magnitude = int(std::floor(std::log10(std::abs(value))));
    // 9.996 rounds up to 10.0, a digit more: count it from the rounded value.
    if (std::abs(value) * std::pow(10.0, 2 - magnitude) >= 999.5)
        ++magnitude;
    return fmt::format("{:.{}f}", value, std::max(0, 2 - magnitude));
}

} // namespace readscope
