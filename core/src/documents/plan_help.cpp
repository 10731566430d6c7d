#include "readscope/plan_help.h"

#include "readscope/plan.h"
#include "readscope/reader.h"
#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

std::string sizesHelp(bool fileSizes) {
    if (fileSizes)
        return "File sizes separated by commas, each read whole (open, read to the end, close) "
               "from a copy of the file's first bytes, made in a private folder beside it and "
               "removed after the run; 128 B or 1K are allowed here. None: the file itself, "
               "read whole.";
    return "Range sizes separated by commas: 4096, 64K, 1M, 2G (1K = 1024).";
}

std::string cacheHelp(CacheMode mode) {
    switch (mode) {
    case CacheMode::Warm:
        return "Warm: the file is read once first, so every round finds it in the page cache.";
    case CacheMode::Cold:
        return "Cold: before every round the file is evicted from the page cache, which needs "
               "no privileges; pages another process maps stay cached. The file's device limit "
               "is measured first (untimed, about a second).";
    case CacheMode::Direct:
        return "Direct: only direct-I/O strategies run; they bypass the page cache. The file is "
               "evicted before every round all the same, so nothing cached can pass for a "
               "direct read. The file's device limit is measured first (untimed, about a "
               "second).";
    }
    return {};
}

std::string threadsHelp() {
    return fmt::format("Workers that read each round together, each its own share of the ranges "
                       "({} to {}); GB/s is all of them together.\nA list (1,2,4,8): sweep the "
                       "threads at the one range size; the chart's x axis becomes the number of "
                       "threads.",
                       kThreadsLimit.min, kThreadsLimit.max);
}

std::string queueDepthHelp() {
    return fmt::format("Reads io_uring keeps in flight per worker (io_uring strategies only).\n"
                       "auto: {}, fewer for ranges over {} (a worker's buffers stay within {}). "
                       "N: that many ({} to {}).\nA list (1,4,16,64): sweep the depth at the one "
                       "range size; the chart's x axis becomes the queue depth, and strategies "
                       "that read one range at a time sit it out.",
                       kUringMaxDepth, formatSize(kUringPoolBytes / kUringMaxDepth),
                       formatSize(kUringPoolBytes), kQueueDepthLimit.min, kQueueDepthLimit.max);
}

std::string consumeHelp() {
    return "All: each strategy reads every byte it obtained once, with a cheap fold whose own "
           "speed each cell records, so copies and in-place mappings compare fairly.\nMinimal: "
           "one byte per range, and one per page for in-place mappings (as published benchmarks "
           "that did not consume); those lines are marked 1 byte/page.";
}

std::string bufferOffsetHelp() {
    return "Where destination buffers start within a page.\nauto: where the allocator puts "
           "them, as real programs get them (recorded per cell).\nN: every buffer of every "
           "strategy at page offset N (e.g. 16, where glibc puts large fresh chunks).\nA list "
           "(0,8,16,32,64,2048,4096+16): sweep the offset at the one range size; the chart's x "
           "axis becomes the offset.";
}

std::string precisionHelp() {
    return fmt::format("After the planned rounds, keep adding interleaved rounds to the cells "
                       "whose median is still less sure than ±this percentage of it (and only "
                       "to them), until every cell meets it or the maximum time has passed; "
                       "cells that did not get there say how far they got. {}% to {}%.",
                       kMinPrecision * 100, kMaxPrecision * 100);
}

std::string maxTimeHelp() {
    return "With a precision: the longest the run may take, its planned rounds included.";
}

std::string memoryLimitHelp() {
    return fmt::format(
        "Run under this memory limit, the file's page cache included, so a larger file is "
        "evicted while it is read. It is a memory cgroup: the one readscope was started in when "
        "that is limited to at most this much (as systemd-run --user --scope -p MemoryMax=SIZE "
        "makes), else one of its own where readscope may create one, else (cgroup v2) a scope "
        "the systemd user manager makes for it. Refused, with the reason, where none works. At "
        "least {}.",
        formatSize(kMinMemoryLimit));
}

std::string durationHelp() {
    return fmt::format(
        "Measure for this long instead of a number of rounds: the run's time, shared by its "
        "points; the time cap does not apply; at most {} rounds. Each round reads on through the "
        "ranges from where the strategy's last round stopped, so a file larger than the memory "
        "limit (under which it starts evicted) fills the cache and is then evicted while it is "
        "read. Each round's GB/s is kept with the time it started (the samples CSV's "
        "started_at, the over-time chart).",
        kRoundsLimit.max);
}

} // namespace readscope
