#pragma once
// One timed round of one strategy: every worker reads its share of the ranges; wall time runs
// from the first worker's start to the last one's end. Private to the core.
#include "lane_workers.h"
#include "readscope/reader.h"
#include "readscope/result_document.h"

#include <memory>
#include <stop_token>
#include <vector>

namespace readscope {

struct RoundResult {
    Sample sample; // round and residentBefore are the caller's to fill
    std::uint64_t value = 0;
    OffsetCounts bufferOffsets; // every worker's
    unsigned queueDepth = 0;    // per worker (io_uring); 0: one read at a time
    bool stopped = false;
};

// Each reader is prepared (untimed) for rangeBytes before the round and released after it;
// worker w reads with readers[w] on the lane's thread w.
Result<RoundResult> runRound(LaneWorkers& lane, std::vector<std::unique_ptr<RangeReader>>& readers,
                             const std::vector<std::vector<Range>>& parts, ConsumeMode mode,
                             std::uint64_t rangeBytes, std::stop_token stop);

} // namespace readscope
