#include "round.h"

#include "readers.h"
#include "readscope/stats.h"

#include <latch>
#include <optional>
#include <sys/resource.h>
#include <thread>

namespace readscope {

namespace {

struct WorkerResult {
    std::optional<Result<ReadOutcome>> outcome;
    Clock::time_point start, end;
    rusage before{}, after{};
};

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; }

void work(RangeReader& reader, const std::vector<Range>& ranges, ConsumeMode mode,
          std::stop_token stop, WorkerResult& r) {
    getrusage(RUSAGE_THREAD, &r.before);
    r.start = Clock::now();
    r.outcome.emplace(reader.read(ranges, mode, true, stop));
    r.end = Clock::now();
    getrusage(RUSAGE_THREAD, &r.after);
}

} // namespace

Result<RoundResult> runRound(std::vector<std::unique_ptr<RangeReader>>& readers,
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
    if (workers == 1) {
        work(*readers[0], parts[0], mode, stop, results[0]);
    } else {
        // Threads are started first and released together, so thread creation is not timed.
        std::latch go(static_cast<std::ptrdiff_t>(workers) + 1);
        std::vector<std::jthread> threads;
        threads.reserve(workers);
        for (std::size_t w = 0; w < workers; ++w)
            threads.emplace_back([&, w] {
                go.arrive_and_wait();
                work(*readers[w], parts[w], mode, stop, results[w]);
            });
        go.arrive_and_wait();
        threads.clear(); // joins
    }

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
        out.value ^= o.value;
        out.stopped |= o.stopped;
        latencies.insert(latencies.end(), o.latencies.begin(), o.latencies.end());
        out.sample.userSeconds += seconds(r.after.ru_utime) - seconds(r.before.ru_utime);
        out.sample.systemSeconds += seconds(r.after.ru_stime) - seconds(r.before.ru_stime);
        out.sample.minorFaults += static_cast<std::uint64_t>(r.after.ru_minflt - r.before.ru_minflt);
        out.sample.majorFaults += static_cast<std::uint64_t>(r.after.ru_majflt - r.before.ru_majflt);
    }
    out.sample.seconds = secondsBetween(first, last);
    out.sample.latencyP50 = quantile(latencies, 0.5);
    out.sample.latencyP99 = quantile(latencies, 0.99);
    return out;
}

} // namespace readscope
