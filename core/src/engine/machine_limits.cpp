#include "machine_limits.h"

#include "buffers.h"
#include "readscope/result_document.h"
#include "readscope/strategy.h"
#include "unit_costs.h"

#include "clock.h"
#include "platform.h"
#include "readscope/consume.h"
#include "readscope/stats.h"
#include "readscope/units.h"
#include "start_gate.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <set>
#include <span>
#include <thread>
#include <vector>

namespace readscope {

namespace {
// Every fold lands here, so no compiler can prove it unused.
std::atomic<std::uint64_t> gFoldSink{0};
// The destination's first byte after each pass lands here, so no copy can be proven unused.
std::atomic<unsigned> gCopySink{0};
// A strategy that reads through a mapping of the file (whose prices mappedRates takes).
bool mapsTheFile(const Cell& cell) {
    const StrategyInfo* s = findStrategy(cell.strategy);
    return s && s->mapsFile();
}
// Called through a volatile pointer, so that no compiler turns repeated fills into one.
void* (*volatile gMemset)(void*, int, std::size_t) = std::memset;
} // namespace

bool copiesThroughTheKernel(const Cell& cell) {
    const StrategyInfo* s = findStrategy(cell.strategy);
    return s && !mapsTheFile(cell) && s->access != Access::Direct;
}

CopyLimit::CopyLimit(std::uint64_t roundBytes, std::function<void()> onWorkerStart)
    : source_(static_cast<std::size_t>(std::clamp<std::uint64_t>(roundBytes, 1, kMaxSource)),
              std::byte{1}),
      onWorkerStart_(std::move(onWorkerStart)) {}

double CopyLimit::gbps(std::uint64_t rangeBytes, int workers,
                       std::optional<std::uint32_t> pageOffset, int passes, std::stop_token stop) {
    // Each worker copies its own contiguous part of the source into its own buffer, as the
    // run's workers read their own blocks of ranges; the pass's time is the slowest one's.
    const std::size_t total = source_.size();
    const std::size_t count = static_cast<std::size_t>(std::clamp(workers, 1, 256));
    const std::size_t part = std::max<std::size_t>(1, total / count);
    const std::size_t n = static_cast<std::size_t>(std::clamp<std::uint64_t>(rangeBytes, 1, part));
    // Each destination at the strategies' pinned page offset, or where malloc puts a buffer of
    // this size (as it puts theirs).
    const std::size_t page = platform::pageSize();
    const std::size_t slack = pageOffset ? page + *pageOffset : 0;
    std::vector<std::vector<std::byte>> storage(count, std::vector<std::byte>(n + slack));
    std::vector<std::byte*> destinations(count);
    for (std::size_t w = 0; w < count; ++w) {
        std::byte* base = storage[w].data();
        if (pageOffset) {
            const auto at = reinterpret_cast<std::uintptr_t>(base);
            base += (page - at % page) % page + *pageOffset;
        }
        destinations[w] = base;
    }
    auto copyPart = [&](std::size_t w) {
        const std::size_t begin = w * part, end = w + 1 == count ? total : begin + part;
        std::byte* destination = destinations[w];
        for (std::size_t off = begin; off < end; off += n)
            std::memcpy(destination, source_.data() + off, std::min(n, end - off));
        gCopySink.fetch_xor(static_cast<unsigned>(destination[n / 2]), std::memory_order_relaxed);
    };
    std::vector<double> rates;
    std::vector<Clock::time_point> starts(count), ends(count);
    auto timedPart = [&](std::size_t w) {
        starts[w] = Clock::now();
        copyPart(w);
        ends[w] = Clock::now();
    };
    for (int pass = 0; pass <= passes && !stop.stop_requested(); ++pass) {
        if (count == 1) {
            if (onWorkerStart_)
                onWorkerStart_();
            timedPart(0);
        } else {
            StartGate gate(count);
            std::vector<std::jthread> threads;
            threads.reserve(count);
            for (std::size_t w = 0; w < count; ++w)
                threads.emplace_back([&, w] {
                    if (onWorkerStart_)
                        onWorkerStart_();
                    gate.arriveAndWait();
                    timedPart(w);
                });
            gate.openWhenAllArrived();
        } // joins
        const double seconds = secondsBetween(*std::min_element(starts.begin(), starts.end()),
                                              *std::max_element(ends.begin(), ends.end()));
        if (pass > 0 && seconds > 0) // the first pass warms what fits in the caches
            rates.push_back(static_cast<double>(total) / seconds / 1e9);
    }
    rates_ = rates;
    return rates.empty() ? 0 : maximum(rates);
}

namespace {

// Median seconds of one call(), over 31 batches of 200 timed together (one clock read costs
// about as much as the calls measured); 0 when a call fails.
template <class Call> double secondsPerCall(Call call) {
    constexpr int kBatches = 31, kPerBatch = 200;
    std::vector<double> perCall;
    for (int b = 0; b < kBatches; ++b) {
        const auto t0 = Clock::now();
        for (int k = 0; k < kPerBatch; ++k)
            if (!call())
                return 0;
        perCall.push_back(secondsBetween(t0, Clock::now()) / kPerBatch);
    }
    return median(perCall);
}

} // namespace

double lseekSeconds(int fd, std::uint64_t fileSize) {
    std::uint64_t offset = 0;
    const std::uint64_t step = std::max<std::uint64_t>(4096, fileSize / 200);
    return secondsPerCall([&] {
        offset = fileSize ? (offset + step) % fileSize : 0;
        return platform::seekTo(fd, offset);
    });
}

void measureUnitCosts(ResultDocument& doc, int fd, std::uint64_t fileSize, std::stop_token stop) {
    auto& u = doc.unitCosts;
    const std::function<void()> steps[] = {
        [&] {
            if (const double seek = lseekSeconds(fd, fileSize); seek > 0)
                doc.lseekSeconds = seek;
        },
        [&] {
            if (const double call = secondsPerCall(platform::nullSyscall); call > 0)
                u.nullSyscall = call;
        },
        [&] { u.anonymousFault = platform::anonymousFaultSeconds(); },
        [&] { u.fileFault = platform::fileFaultSeconds(fd, fileSize); },
        [&] { u.unmapPage = platform::unmapPageSeconds(fd, fileSize); },
        [&] { u.cachedPage = cachedPageSeconds(fd, fileSize, u.nullSyscall); },
    };
    for (const auto& step : steps)
        if (!stop.stop_requested())
            step();
}

std::optional<double> cachedPageSeconds(int fd, std::uint64_t fileSize,
                                        std::optional<double> nullSyscall) {
    constexpr std::size_t kRead = 64 << 10; // 16 pages of 4 KiB
    const std::size_t page = platform::pageSize();
    if (!nullSyscall || fileSize < kRead || page == 0 || kRead % page != 0)
        return std::nullopt;
    // 16 reads' worth of the file's start, read once first so that it is cached (and warm in
    // the CPU's caches, as the copy in the comparison is).
    const std::uint64_t span = std::min<std::uint64_t>(fileSize / kRead, 16) * kRead;
    std::vector<std::byte> buffer(kRead), source(kRead, std::byte{1});
    std::uint64_t offset = 0;
    auto readNext = [&] {
        offset = (offset + kRead) % span;
        return platform::readAt(fd, buffer.data(), kRead, offset) == std::int64_t(kRead);
    };
    for (std::uint64_t k = 0; k < span / kRead; ++k)
        if (!readNext())
            return std::nullopt;
    const double read = secondsPerCall(readNext);
    const double copy = secondsPerCall([&] {
        gMemset(buffer.data(), 0, 0); // keeps the copy from being hoisted out of the batch
        std::memcpy(buffer.data(), source.data(), kRead);
        gCopySink.fetch_xor(static_cast<unsigned>(buffer[kRead / 2]), std::memory_order_relaxed);
        return true;
    });
    if (read <= 0)
        return std::nullopt;
    return std::max(0.0, (read - *nullSyscall - copy) / double(kRead / page));
}

namespace {
// GB/s of op(buffer) on a cache-warm buffer of the range size (at most 64 MiB: past that the
// speed is memory's), repeated for about 20 ms: the median. Each sample repeats op often
// enough to cover 256 KiB: a 16 KiB fold takes about 300 ns, one clock read about 100 ns here.
template <class Op> double rateOnWarmBuffer(std::uint64_t rangeBytes, Op op) {
    const std::size_t n = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::max<std::uint64_t>(rangeBytes, 1), 64ull << 20));
    std::vector<std::byte> buffer(n, std::byte{1});
    op(buffer); // warms the buffer into the caches it fits
    std::vector<double> rates;
    const std::size_t batch = std::max<std::size_t>(1, (256u << 10) / n);
    const auto start = Clock::now();
    while (rates.size() < 3 ||
           (secondsBetween(start, Clock::now()) < 0.02 && rates.size() < 1000)) {
        const auto t0 = Clock::now();
        for (std::size_t k = 0; k < batch; ++k)
            op(buffer);
        rates.push_back(gigabytesPerSecond(n * batch, secondsBetween(t0, Clock::now())));
    }
    return median(rates);
}

} // namespace

double foldGbps(std::uint64_t rangeBytes) {
    std::uint64_t value = 0;
    const double rate =
        rateOnWarmBuffer(rangeBytes, [&](std::span<const std::byte> b) { value ^= foldBytes(b); });
    gFoldSink.fetch_xor(value, std::memory_order_relaxed);
    return rate;
}

double memsetGbps(std::uint64_t rangeBytes) {
    unsigned last = 0;
    const double rate = rateOnWarmBuffer(rangeBytes, [&](std::span<std::byte> b) {
        gMemset(b.data(), 0, b.size());
        last ^= static_cast<unsigned>(b.back());
    });
    gCopySink.fetch_xor(last, std::memory_order_relaxed);
    return rate;
}

std::vector<double> kernelCopyRates(int fd, std::uint64_t spanBytes, std::uint64_t rangeBytes,
                                    const ResultDocument& doc, int passes, std::stop_token stop,
                                    std::optional<std::uint32_t> pageOffset, unsigned destinations,
                                    std::optional<Rhythm> rhythm, CopyCompanions around) {
    const auto& u = doc.unitCosts;
    const std::uint64_t page = platform::pageSize();
    std::vector<double> rates;
    if (!u.nullSyscall || !u.cachedPage || rangeBytes == 0 || page == 0)
        return rates;
    const std::size_t n = static_cast<std::size_t>(std::min(rangeBytes, spanBytes));
    const std::uint64_t count = n ? spanBytes / n : 0;
    if (count == 0)
        return rates;
    std::vector<PricedDestination> buffers;
    for (unsigned k = 0; k < std::max(destinations, 1u); ++k)
        buffers.emplace_back(n, pageOffset, page);
    const double perReadCalls = *u.nullSyscall + double((n + page - 1) / page) * *u.cachedPage;
    // Back to back, each pass reads the whole span; in a rhythm, a round's reads after the
    // round's pause, going on through the span where the last pass stopped (and round it again
    // where a round read more: a shorter pass would weigh the slow start after a pause more).
    const std::uint64_t perPass =
        rhythm ? std::max<std::uint64_t>(rhythm->passBytes / n, 1) : count;
    std::uint64_t next = 0, folded = 0, value = 0;
    // The k-th read's buffer. In turn, as an io_uring reader's free slots come back: the slots
    // of one batch are refilled last-freed first, so every other batch runs backwards.
    auto destination = [&](std::uint64_t k) {
        const std::uint64_t size = buffers.size(), at = k % size;
        return buffers[(k / size) % 2 == 0 ? at : size - 1 - at].data();
    };
    // The buffers read since the last fold, folded in the order they were read (a batch of
    // io_uring slots is folded once all of its reads are in), timed apart from the reads.
    auto foldRead = [&] {
        for (; folded < next; ++folded)
            value ^= foldBytes(std::span<const std::byte>(destination(folded), n));
    };
    // The first pass warms what fits in the caches; in a rhythm the pause undoes that.
    for (int pass = rhythm ? 1 : 0; pass <= passes && !stop.stop_requested(); ++pass) {
        if (rhythm && !platform::pauseFor(rhythm->gapSeconds, stop))
            break;
        double readSeconds = 0, foldSeconds = 0, zeroSeconds = 0;
        auto t0 = Clock::now();
        // work() timed into `seconds`, apart from the reads before and after it.
        const auto apart = [&](double& seconds, auto&& work) {
            const auto t1 = Clock::now();
            readSeconds += secondsBetween(t0, t1);
            work();
            t0 = Clock::now();
            seconds += secondsBetween(t1, t0);
        };
        for (std::uint64_t k = 0; k < perPass; ++k) {
            if (around.zero)
                apart(zeroSeconds, [&] { zeroFill(destination(next), n); });
            if (platform::readAt(fd, destination(next), n, next % count * n) != std::int64_t(n))
                return {};
            ++next;
            if (around.fold && (next % buffers.size() == 0 || k + 1 == perPass))
                apart(foldSeconds, foldRead);
        }
        readSeconds += secondsBetween(t0, Clock::now());
        const double copy = readSeconds / double(perPass) - perReadCalls;
        if (pass > 0 && copy > 0)
            rates.push_back(double(n) / copy / 1e9);
        const auto part = [&](std::vector<double>* into, double seconds) {
            if (pass > 0 && into && seconds > 0)
                into->push_back(double(perPass * n) / seconds / 1e9);
        };
        part(around.zero, zeroSeconds);
        part(around.fold, foldSeconds);
    }
    gFoldSink.fetch_xor(value, std::memory_order_relaxed);
    return rates;
}

constexpr std::size_t kMaxOffsets = 8; // per point and kind of copy, beyond each cell's first

// The page offsets a cell's copies are priced at, with their weights: the pinned one, else the
// most common ones its rounds' buffers started at (they cover nearly every buffer but a
// growing one's), else malloc's placement (before its rounds, or for a cell that copies into no
// buffer of its own).
std::vector<std::pair<PointPrices::Offset, double>> pricedOffsets(const Cell& cell,
                                                                  const SweepPoint& point) {
    if (point.bufferOffset)
        return {{point.bufferOffset, 1.0}};
    OffsetCounts counts = cell.bufferPageOffsets;
    std::erase_if(counts, [](const OffsetCount& c) { return c.offset == kOtherOffsets; });
    std::stable_sort(counts.begin(), counts.end(),
                     [](const OffsetCount& a, const OffsetCount& b) { return a.count > b.count; });
    if (counts.size() > kPricedOffsets)
        counts.resize(kPricedOffsets);
    std::vector<std::pair<PointPrices::Offset, double>> out;
    for (const auto& c : counts)
        out.emplace_back(c.offset, double(c.count));
    if (out.empty())
        out.emplace_back(std::nullopt, 1.0);
    return out;
}

namespace {

// A cell's copy rate over its offsets: the time per byte weighted by how many of its buffers
// started at each (the offsets not yet measured left out); none when none is measured.
std::optional<double> weightedRate(const std::map<PointPrices::Offset, std::vector<double>>& rates,
                                   const std::vector<std::pair<PointPrices::Offset, double>>& at) {
    double weight = 0, secondsPerByte = 0;
    for (const auto& [offset, w] : at)
        if (auto it = rates.find(offset); it != rates.end() && !it->second.empty()) {
            const double gbps = median(it->second);
            if (gbps <= 0)
                continue;
            weight += w;
            secondsPerByte += w / gbps;
        }
    return weight > 0 ? std::optional(weight / secondsPerByte) : std::nullopt;
}

} // namespace

void PointPrices::take(CopyLimit& limit, int fd, std::uint64_t fileSize, const SweepPoint& point,
                       int threads, const ResultDocument& doc, std::vector<Cell>& cells,
                       std::stop_token stop, Share share) {
    sampleWarmRates(point, cells, share);
    const int passes = share.backToBack(CopyLimit::kPasses);
    limit.gbps(point.rangeBytes, threads, point.bufferOffset, passes, stop);
    const auto& memcpyRates = limit.lastRates();
    memcpy.insert(memcpy.end(), memcpyRates.begin(), memcpyRates.end());
    const std::uint64_t span = std::min(fileSize, limit.sourceBytes());
    // Each offset a cell that copies needs, measured once for all of them: every cell's most
    // common one, then its next ones while a point has fewer than kMaxOffsets (a pass per
    // offset costs a pass over the span).
    std::vector<std::vector<std::pair<Offset, double>>> offsetsOf(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i)
        offsetsOf[i] = pricedOffsets(cells[i], point);
    std::set<Offset> kernelOffsets, mappedOffsets;
    for (std::size_t rank = 0; rank < kPricedOffsets; ++rank)
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const Cell& cell = cells[i];
            const bool kernel = copiesThroughTheKernel(cell), mapped = mapsTheFile(cell);
            auto& into = kernel ? kernelOffsets : mappedOffsets;
            if (cell.status != CellStatus::Unavailable && (kernel || mapped) &&
                rank < offsetsOf[i].size() && (rank == 0 || into.size() < kMaxOffsets))
                into.insert(offsetsOf[i][rank].first);
        }
    for (const auto& offset : kernelOffsets) {
        if (stop.stop_requested())
            break;
        const auto kernel = kernelCopyRates(fd, span, point.rangeBytes, doc, passes, stop, offset);
        if (!kernel.empty())
            kernelCopy[offset].insert(kernelCopy[offset].end(), kernel.begin(), kernel.end());
    }
    bool folded = false; // in place: the same at every offset
    for (const auto& offset : mappedOffsets) {
        if (stop.stop_requested())
            break;
        const auto mapped = platform::mappedRates(fd, span, point.rangeBytes, passes, stop, offset,
                                                  {.inPlace = !folded});
        folded |= !mapped.fold.empty();
        mappedFold.insert(mappedFold.end(), mapped.fold.begin(), mapped.fold.end());
        if (!mapped.copy.empty())
            mappedCopy[offset].insert(mappedCopy[offset].end(), mapped.copy.begin(),
                                      mapped.copy.end());
    }
    if (!mappedOffsets.empty() && !stop.stop_requested()) {
        const auto faults = platform::mappedFaultCosts(fd, span, share.spread(CopyLimit::kPasses),
                                                       stop); // each pass a fresh mapping
        mappedFault.insert(mappedFault.end(), faults.fault.begin(), faults.fault.end());
        mappedUnmap.insert(mappedUnmap.end(), faults.unmapPage.begin(), faults.unmapPage.end());
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
        Cell& cell = cells[i];
        if (cell.status == CellStatus::Unavailable)
            continue;
        if (!memcpy.empty() && maximum(memcpy) > 0) {
            cell.copyLimitGbps = maximum(memcpy);
            cell.memcpyGbps = median(memcpy);
        }
        const auto& at = offsetsOf[i];
        if (copiesThroughTheKernel(cell))
            if (auto rate = weightedRate(kernelCopy, at))
                cell.kernelCopyGbps = rate;
        if (!mappedFold.empty() && mapsTheFile(cell)) {
            cell.mappedFoldGbps = median(mappedFold);
            if (auto rate = weightedRate(mappedCopy, at))
                cell.mappedCopyGbps = rate;
        }
        if (!mappedFault.empty() && mapsTheFile(cell)) {
            cell.mappedFaultSeconds = median(mappedFault);
            cell.mappedUnmapSeconds = median(mappedUnmap);
        }
    }
    priceInRhythm(fd, span, point, threads, doc, cells, stop, share);
    priceDestinations(fd, span, point, doc, cells, stop, share);
}

void PointPrices::sampleWarmRates(const SweepPoint& point, std::vector<Cell>& cells, Share share) {
    const auto given = std::find_if(cells.begin(), cells.end(), [](const Cell& c) {
        return c.status != CellStatus::Unavailable && (c.foldGbps || c.memsetGbps);
    });
    if (given == cells.end())
        return;
    if (foldRates.empty() && memsetRates.empty()) { // the rates setUpPoint gave every cell
        if (given->foldGbps)
            foldRates.push_back(*given->foldGbps);
        if (given->memsetGbps)
            memsetRates.push_back(*given->memsetGbps);
    }
    const bool closing =
        std::any_of(cells.begin(), cells.end(), [](const Cell& c) { return !c.samples.empty(); });
    if (!closing)
        return;
    // Two more over the closing: the median of three leaves one slow sample out (of two it
    // would be their mean).
    for (int k = 0; k < share.spread(2); ++k) {
        if (!foldRates.empty())
            foldRates.push_back(foldGbps(point.rangeBytes));
        if (!memsetRates.empty())
            memsetRates.push_back(memsetGbps(point.rangeBytes));
    }
    for (auto& cell : cells) {
        if (cell.foldGbps && !foldRates.empty())
            cell.foldGbps = median(foldRates);
        if (cell.memsetGbps && !memsetRates.empty())
            cell.memsetGbps = median(memsetRates);
    }
}

void PointRates::applyTo(Cell& cell) const {
    cell.foldGbps = fold;
    cell.memsetGbps = memset;
}

} // namespace readscope
