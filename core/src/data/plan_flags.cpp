#include "readscope/plan_flags.h"

#include "readscope/buffer_offsets.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <array>

namespace readscope {

namespace {

using Value = std::optional<std::string>;

std::string sizeList(const std::vector<std::uint64_t>& sizes) {
    std::string out;
    for (auto s : sizes) {
        if (!out.empty())
            out += ',';
        out += formatSizeShort(s);
    }
    return out;
}

template <class T> std::string text(const T& v) { return fmt::format("{}", v); }

// The plan's shape (sizes, strategies, modes, counts, consume, round time and time cap) is
// always said, even at its defaults: defaults have changed before (consume minimal became
// all), and a rerun must mean the same run on a later version. The optional ones (queue
// depth, budget, buffer offsets, drop caches, repeat, precision, max time, memory limit, duration)
// are said when set.
const std::array<PlanFlag, 21> kFlags{{
    // The whole pattern's --sizes are its file sizes (none: the file itself).
    {flag::sizes,
     [](const Plan& p) -> Value {
         const auto& given = p.pattern == Pattern::Whole ? p.fileSizes : p.sizes;
         return given.empty() ? Value() : sizeList(given);
     }},
    {flag::strategies,
     [](const Plan& p) -> Value {
         std::string ids;
         for (const auto& id : p.strategies)
             ids += (ids.empty() ? "" : ",") + id;
         return ids.empty() ? Value() : ids;
     }},
    // A trace run says its trace instead (--trace sets the pattern).
    {flag::pattern,
     [](const Plan& p) -> Value {
         return p.pattern == Pattern::Trace ? Value() : std::string(toString(p.pattern));
     }},
    {flag::trace,
     [](const Plan& p) -> Value { return p.pattern == Pattern::Trace ? p.tracePath : Value(); }},
    {flag::cache, [](const Plan& p) -> Value { return std::string(toString(p.cache)); }},
    {flag::threads, [](const Plan& p) -> Value { return threadsListText(p); }},
    {flag::rounds, [](const Plan& p) -> Value { return text(p.rounds); }},
    {flag::warmup, [](const Plan& p) -> Value { return text(p.warmup); }},
    {flag::seed, [](const Plan& p) -> Value { return text(p.seed); }},
    {flag::queueDepth,
     [](const Plan& p) -> Value { return p.queueDepths.empty() ? Value() : queueDepthsText(p); }},
    {flag::budget,
     [](const Plan& p) -> Value { return p.budget ? formatSizeShort(p.budget) : Value(); }},
    {flag::consume, [](const Plan& p) -> Value { return std::string(toString(p.consume)); }},
    {flag::roundTime, [](const Plan& p) -> Value { return text(p.roundTimeSeconds); }},
    {flag::timeCap, [](const Plan& p) -> Value { return text(p.timeCapSeconds); }},
    {flag::bufferOffset,
     [](const Plan& p) -> Value {
         return p.bufferOffsets.empty() ? Value() : formatBufferOffsets(p.bufferOffsets);
     }},
    {flag::dropCaches,
     [](const Plan& p) -> Value { return p.dropCachesAsRoot ? std::string() : Value(); }},
    {flag::repeat,
     [](const Plan& p) -> Value { return p.repeats != 1 ? text(p.repeats) : Value(); }},
    {flag::precision,
     [](const Plan& p) -> Value { return p.precision > 0 ? text(p.precision * 100) : Value(); }},
    {flag::maxTime,
     [](const Plan& p) -> Value {
         return p.maxTimeSeconds > 0 ? text(p.maxTimeSeconds) : Value();
     }},
    {flag::memoryLimit,
     [](const Plan& p) -> Value {
         return p.memoryLimit ? formatSizeShort(p.memoryLimit) : Value();
     }},
    {flag::duration,
     [](const Plan& p) -> Value {
         return p.durationSeconds > 0 ? text(p.durationSeconds) : Value();
     }},
}};

} // namespace

std::span<const PlanFlag> planFlags() { return kFlags; }

} // namespace readscope
