#include "round.h"

#include "clock.h"
#include "platform.h"
#include "readscope/stats.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace readscope {

namespace {

struct WorkerResult {
    std::optional<Result<ReadOutcome>> outcome;
    Clock::time_point start, end;
    platform::CpuUsage before, after;
};

void work(RangeReader& reader, const std::vector<Range>& ranges, ConsumeMode mode,
          std::stop_token stop, WorkerResult& r) {
    r.before = platform::threadUsage();
    r.start = Clock::now();
    r.outcome.emplace(reader.read(ranges, mode, true, stop));
    r.end = Clock::now();
    r.after = platform::threadUsage();
}

} // namespace

Result<RoundResult> runRound(LaneWorkers& lane, std::vector<std::unique_ptr<RangeReader>>& readers,
                             const std::vector<std::vector<Range>>& parts, ConsumeMode mode,
                             std::uint64_t rangeBytes, std::stop_token stop) {
    const std::size_t workers = parts.size();
    struct Release {
        std::vector<std::unique_ptr<RangeReader>>& readers;
        ~Release() {
            for (auto& r : readers)
                r->release();
        }
    } release{readers};
    for (std::size_t w = 0; w < workers; ++w)
        if (auto st = readers[w]->prepare(rangeBytes); !st)
            return st.error();
    std::vector<WorkerResult> results(workers);
    const std::uint64_t faultsBefore = platform::kPerThreadFaults ? 0 : platform::processFaults();
    // Read before the workers start and after they end: neither is timed.
    const auto fetchedBefore = platform::storageBytesRead();
    const auto tlbBefore = platform::tlbShootdowns();
    const double ioWorkersBefore = platform::ioWorkerSeconds();
    const auto machineBefore = platform::machineCpu();
    const double processBefore = platform::processCpuSeconds();
    const auto windowStart = Clock::now();
    const double startedAt =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    // On the lane's own threads (lane_workers.h says why), released together.
    lane.run(workers, [&](std::size_t w) { work(*readers[w], parts[w], mode, stop, results[w]); });

    RoundResult out;
    Clock::time_point first = results[0].start, last = results[0].end;
    std::vector<double> latencies;
    for (auto& r : results) {
        if (!*r.outcome)
            return r.outcome->error();
        const ReadOutcome& o = r.outcome->value();
        first = std::min(first, r.start);
        last = std::max(last, r.end);
        out.sample.bytes += o.bytes;
        out.sample.syscalls += o.syscalls;
        out.sample.seeks += o.seeks;
        out.sample.bytesRead += o.bytesRead;
        out.value ^= o.value;
        out.stopped |= o.stopped;
        mergeOffsetCounts(out.bufferOffsets, o.bufferOffsets);
        out.queueDepth = std::max(out.queueDepth, o.queueDepth);
        latencies.insert(latencies.end(), o.latencies.begin(), o.latencies.end());
        out.sample.userSeconds += r.after.userSeconds - r.before.userSeconds;
        out.sample.systemSeconds += r.after.systemSeconds - r.before.systemSeconds;
        out.sample.minorFaults += r.after.minorFaults - r.before.minorFaults;
        out.sample.majorFaults += r.after.majorFaults - r.before.majorFaults;
        out.sample.involuntarySwitches +=
            r.after.involuntarySwitches - r.before.involuntarySwitches;
    }
    // Where faults are counted per process only (Windows: soft and hard together), the round's
    // workers are the process's only readers while it runs; all of them count as minor.
    if constexpr (!platform::kPerThreadFaults)
        out.sample.minorFaults = platform::processFaults() - faultsBefore;
    // Reads that io_uring handed to its kernel workers ran on no worker of ours: their CPU
    // time is system time of the round all the same.
    out.sample.systemSeconds += std::max(0.0, platform::ioWorkerSeconds() - ioWorkersBefore);
    if (const auto fetchedAfter = platform::storageBytesRead(); fetchedBefore && fetchedAfter)
        out.sample.deviceBytes = double(*fetchedAfter - *fetchedBefore);
    // A CPU taken offline during the round takes its count with it: no figure then.
    if (const auto tlbAfter = platform::tlbShootdowns();
        tlbBefore && tlbAfter && *tlbAfter >= *tlbBefore)
        out.sample.tlbShootdowns = double(*tlbAfter - *tlbBefore);
    if (const auto machineAfter = platform::machineCpu(); machineBefore && machineAfter) {
        // Read around the whole round, set-up and joins included: scaled to its timed part.
        const double ours = platform::processCpuSeconds() - processBefore;
        const double window = secondsBetween(windowStart, Clock::now());
        const double timed = window > 0 ? std::min(1.0, secondsBetween(first, last) / window) : 1.0;
        out.sample.stolenSeconds =
            (machineAfter->stolenSeconds - machineBefore->stolenSeconds) * timed;
        out.sample.otherCpuSeconds =
            std::max(0.0, machineAfter->busySeconds - machineBefore->busySeconds - ours) * timed;
    }
    out.sample.cpuMhz = platform::cpuMhz();
    out.sample.startedAt = startedAt;
    out.sample.seconds = secondsBetween(first, last);
    if (!latencies.empty()) {
        out.sample.latencyP50 = quantile(latencies, 0.5);
        out.sample.latencyP99 = quantile(latencies, 0.99);
    }
    return out;
}

} // namespace readscope
