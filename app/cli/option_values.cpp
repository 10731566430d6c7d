#include "option_values.h"

#include "readscope/compare.h"
#include "readscope/plan.h"
#include "readscope/strategy.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace readscope::cli {

namespace {

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto comma = text.find(',', start);
        if (comma == std::string::npos)
            comma = text.size();
        items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

} // namespace

Result<int> parseInt(const std::string& flag, const std::string& value, int lo, int hi) {
    long long v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc{} && (v < lo || v > hi)))
        return Error{fmt::format("{} {} is out of range: use {} to {}", flag, value, lo, hi)};
    if (ec != std::errc{} || end != value.data() + value.size())
        return Error{fmt::format("{} '{}' is not a whole number", flag, value)};
    return static_cast<int>(v);
}

Result<double> parseThreshold(const std::string& value) {
    double pct = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), pct);
    if (ec != std::errc{} || end != value.data() + value.size() || !std::isfinite(pct) || pct < 0 ||
        pct > kMaxNoiseThreshold * 100)
        return Error{fmt::format("--threshold '{}' must be a percentage from 0 to {}", value,
                                 kMaxNoiseThreshold * 100)};
    return pct / 100;
}

Result<std::uint64_t> parseSeed(const std::string& value) {
    std::uint64_t seed = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
    if (ec != std::errc{} || end != value.data() + value.size())
        return Error{fmt::format("--seed '{}' is not a whole number from 0 to 2^64-1", value)};
    return seed;
}

Result<double> parseTimeCap(const std::string& value) {
    double secs = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), secs);
    if (ec != std::errc{} || end != value.data() + value.size() || !(secs > 0) ||
        !std::isfinite(secs) || secs > kMaxTimeCapSeconds)
        return Error{fmt::format("--time-cap '{}' must be a number of seconds above 0, at most {}",
                                 value, kMaxTimeCapSeconds)};
    return secs;
}

Result<double> parsePrecision(const std::string& value) {
    std::string text = value;
    if (!text.empty() && text.back() == '%')
        text.pop_back();
    double pct = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pct);
    if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(pct) ||
        pct < kMinPrecision * 100 || pct > kMaxPrecision * 100)
        return Error{fmt::format("--precision '{}' must be a percentage from {} to {} (e.g. 2%)",
                                 value, kMinPrecision * 100, kMaxPrecision * 100)};
    return pct / 100;
}

Result<double> parseDuration(const std::string& value) {
    std::string text = value;
    double scale = 1;
    if (!text.empty() && (text.back() == 's' || text.back() == 'm')) {
        scale = text.back() == 'm' ? 60 : 1;
        text.pop_back();
    }
    double secs = -1;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), secs);
    if (ec != std::errc{} || end != text.data() + text.size() || !(secs > 0) ||
        !std::isfinite(secs) || secs * scale > kMaxDurationSeconds)
        return Error{fmt::format("--duration '{}' must be a time above 0 and at most {} s "
                                 "(30, 30s or 2m)",
                                 value, kMaxDurationSeconds)};
    return secs * scale;
}

Result<double> parseMaxTime(const std::string& value) {
    double secs = -1;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), secs);
    if (ec != std::errc{} || end != value.data() + value.size() || !(secs >= 0) ||
        !std::isfinite(secs) || secs > kMaxMaxTimeSeconds)
        return Error{fmt::format("--max-time '{}' must be a number of seconds, 0 to {}", value,
                                 kMaxMaxTimeSeconds)};
    return secs;
}

Result<double> parseRoundTime(const std::string& value) {
    double secs = -1;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), secs);
    if (ec != std::errc{} || end != value.data() + value.size() || !(secs >= 0) ||
        secs > kMaxRoundTimeSeconds)
        return Error{
            fmt::format("--round-time '{}' must be 0 to {} seconds", value, kMaxRoundTimeSeconds)};
    return secs;
}

Result<std::vector<std::string>> parseStrategyList(const std::string& value) {
    std::vector<std::string> ids;
    if (value == "all") {
        for (const auto& s : strategies())
            ids.emplace_back(s.id);
        return ids;
    }
    for (auto& id : splitList(value)) {
        if (!findStrategy(id))
            return Error{fmt::format(
                "--strategies: unknown strategy '{}': see 'readscope-cli strategies'", id)};
        ids.push_back(id);
    }
    return ids;
}

} // namespace readscope::cli
