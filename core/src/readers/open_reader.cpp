#include "platform.h"
#include "reader_base.h"

#include <atomic>

namespace readscope {

Result<std::unique_ptr<RangeReader>> openReader(const StrategyInfo& strategy, const FileProbe& file,
                                                std::uint64_t maxRange) {
    if (auto a = availability(strategy, file); !a.available)
        return Error{a.reason};
    return openPlatformReader(strategy, file, maxRange);
}

#ifndef __linux__
Result<std::unique_ptr<RangeReader>> openDirectUringReader(const FileProbe&, unsigned) {
    return Error{platform::linuxOnly("io_uring")};
}
#endif

std::string wholeFileReadExclusion(const StrategyInfo& strategy) {
    if (strategy.access == Access::UringBatch)
        return "io_uring keeps many reads of one open file in flight; a whole-file sweep opens "
               "every file it reads, one at a time";
    if (strategy.access == Access::Coalesce)
        return "it merges nearby ranges of one batch; a whole-file sweep reads one file at a "
               "time, each a range of its own";
    if (strategy.mapping == MapLifetime::Kept)
        return "its mapping is kept across reads; a whole-file sweep opens and maps every file "
               "it reads, as the mapping copied per round does";
    return {};
}

namespace {
// Set by tests between reads, read once per range. The context is published before the hook
// (and the hook cleared first), so a reader that sees a hook sees its context.
std::atomic<RangeReadHook> gHook{nullptr};
std::atomic<void*> gHookContext{nullptr};
std::atomic<ReaderCallHook> gCallHook{nullptr};
std::atomic<void*> gCallHookContext{nullptr};

void callReaderCallHook(ReaderCall call) {
    if (const auto hook = gCallHook.load(std::memory_order_acquire))
        hook(call, gCallHookContext.load(std::memory_order_acquire));
}
} // namespace

RangeReader::RangeReader() { callReaderCallHook(ReaderCall::Open); }
RangeReader::~RangeReader() { callReaderCallHook(ReaderCall::Close); }

void setRangeReadHookForTesting(RangeReadHook hook, void* context) {
    gHook.store(nullptr, std::memory_order_release);
    gHookContext.store(context, std::memory_order_release);
    gHook.store(hook, std::memory_order_release);
}

void setReaderCallHookForTesting(ReaderCallHook hook, void* context) {
    gCallHook.store(nullptr, std::memory_order_release);
    gCallHookContext.store(context, std::memory_order_release);
    gCallHook.store(hook, std::memory_order_release);
}

void callRangeReadHook(std::size_t index) {
    if (const auto hook = gHook.load(std::memory_order_acquire))
        hook(index, gHookContext.load(std::memory_order_acquire));
    callReaderCallHook(ReaderCall::Read);
}

} // namespace readscope
