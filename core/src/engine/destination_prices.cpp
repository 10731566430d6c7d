// The closing prices that depend on how a cell's rounds ran: where its reads landed
// (cellDestinations) and the pause before each of its rounds (roundRhythm).
#include "machine_limits.h"

#include "readscope/consume.h"
#include "readscope/result_document.h"
#include "readscope/stats.h"
#include "readscope/strategy.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace readscope {

namespace {
// The bytes a coalescing cell's rounds read per span (median over its rounds of the bytes read
// over the read calls, a page at least); none before its rounds, or when its spans are no
// larger than the size the point is priced at (nothing merged).
std::optional<std::uint64_t> coalescedSpanBytes(const Cell& cell, std::uint64_t pricedBytes) {
    const double calls = medianOverRounds(cell, [](const Sample& x) { return x.syscalls; });
    const double read = medianOverRounds(cell, [](const Sample& x) { return x.bytesRead; });
    if (calls <= 0 || read <= 0)
        return std::nullopt;
    const auto span = std::max<std::uint64_t>(std::uint64_t(read / calls), 4096);
    if (span <= pricedBytes)
        return std::nullopt;
    return span;
}
// The most bytes of destinations a price copies into: past this, as past any CPU cache, a
// copy's rate is memory's, and a deep queue of large ranges (256 of 8 MiB) asks for gigabytes.
constexpr std::uint64_t kMaxPricedDestinations = 256ull << 20;
} // namespace

std::optional<Destinations> cellDestinations(const Cell& cell, std::uint64_t pricedBytes) {
    const StrategyInfo* s = findStrategy(cell.strategy);
    if (!s || cell.samples.empty() || pricedBytes == 0)
        return std::nullopt;
    if (s->access == Access::Coalesce)
        if (const auto span = coalescedSpanBytes(cell, pricedBytes))
            return Destinations{*span, 1};
    if (s->access == Access::UringBatch && cell.queueDepth.value_or(0) > 1) {
        const auto fit = std::max<std::uint64_t>(1, kMaxPricedDestinations / pricedBytes);
        return Destinations{pricedBytes, unsigned(std::min<std::uint64_t>(*cell.queueDepth, fit))};
    }
    return std::nullopt;
}

std::optional<Rhythm> roundRhythm(const Cell& cell, int threads) {
    // The cell's rounds in the order they ran (repeats apart), with their start times.
    std::vector<const Sample*> rounds;
    for (const auto& x : cell.samples)
        if (x.startedAt)
            rounds.push_back(&x);
    std::sort(rounds.begin(), rounds.end(), [](const Sample* a, const Sample* b) {
        return std::tie(a->repeat, a->round) < std::tie(b->repeat, b->round);
    });
    std::vector<double> gaps, bytes;
    for (std::size_t k = 0; k < rounds.size(); ++k) {
        bytes.push_back(double(std::max(rounds[k]->bytes, rounds[k]->bytesRead)));
        if (k > 0 && rounds[k]->repeat == rounds[k - 1]->repeat)
            gaps.push_back(*rounds[k]->startedAt -
                           (*rounds[k - 1]->startedAt + rounds[k - 1]->seconds));
    }
    if (gaps.empty())
        return std::nullopt;
    const double gap = median(gaps);
    if (gap < kRhythmMinPause)
        return std::nullopt;
    return Rhythm{gap, std::uint64_t(median(bytes) / std::max(threads, 1))};
}

void PointPrices::priceDestinations(int fd, std::uint64_t span, const SweepPoint& point,
                                    const ResultDocument& doc, std::vector<Cell>& cells,
                                    std::stop_token stop, Share share) {
    // This sweep's: a price shared by cells is taken once. After a stop request nothing more
    // is measured, and each cell keeps what the earlier sweeps took.
    std::set<Destinations> taken;
    for (auto& cell : cells) {
        // A cell priced in its rounds' rhythm (priceInRhythm, which runs first) was priced at
        // its destinations there: a back-to-back pass would only be thrown away.
        const auto at = cell.status == CellStatus::Unavailable || cell.copyPauseSeconds
                            ? std::nullopt
                            : cellDestinations(cell, point.rangeBytes);
        // A read larger than the source the prices copy from cannot be priced at its size.
        if (!at || at->bytes > span)
            continue;
        if (!stop.stop_requested() && taken.insert(*at).second) {
            const auto offsets = pricedOffsets(cell, point);
            const auto rates =
                kernelCopyRates(fd, span, at->bytes, doc, share.backToBack(CopyLimit::kPasses),
                                stop, offsets[0].first, at->count);
            if (!rates.empty()) { // a pass with no rate leaves the earlier sweeps' price
                auto& copies = destinationCopy[*at];
                copies.insert(copies.end(), rates.begin(), rates.end());
                // The fold reads each buffer after the copies into the others: over all of
                // them.
                if (doc.plan.consume == Consume::All)
                    destinationFold[*at].push_back(foldGbps(at->bytes * at->count));
            }
        }
        if (!destinationCopy.contains(*at))
            continue;
        cell.kernelCopyGbps = median(destinationCopy[*at]);
        if (const auto fold = destinationFold.find(*at); fold != destinationFold.end())
            cell.foldGbps = median(fold->second);
    }
}

void PointPrices::priceInRhythm(int fd, std::uint64_t span, const SweepPoint& point, int threads,
                                const ResultDocument& doc, std::vector<Cell>& cells,
                                std::stop_token stop, Share share) {
    const std::uint64_t l2 = doc.system.caches.l2;
    const int passes = share.spread(kRhythmPasses);
    // This sweep's: a price shared by cells is taken once a sweep, its passes added to the
    // earlier sweeps'. After a stop request nothing more is measured, and each cell keeps what
    // the earlier sweeps took.
    const bool measures = passes > 0 && !stop.stop_requested();
    std::set<std::pair<Destinations, Offset>> takenCopy, takenZeroedCopy, takenMappedCopy;
    bool takenFault = false;
    for (auto& cell : cells) {
        cell.copyPauseSeconds.reset(); // set again below where this cell is priced so
        const StrategyInfo* s = findStrategy(cell.strategy);
        const auto rhythm = roundRhythm(cell, threads);
        if (l2 == 0 || !s || !rhythm || cell.status == CellStatus::Unavailable)
            continue; // where L2 is not known, nothing says which copies the pause slows
        const auto at =
            cellDestinations(cell, point.rangeBytes).value_or(Destinations{point.rangeBytes, 1});
        // What a round touches past L2: a read's destinations, as many bytes as L2 or more (the
        // copy's source passes through L2 as well, so destinations that fill it do not stay);
        // a mapping's pages, which a mapping made each round also faults in (an outside loop's
        // mmap-copy ran 10-15% slower after a pause at 64 KiB as at 8 MiB).
        const bool mapped = s->mapsFile(),
                   pastL2 = mapped ? rhythm->passBytes > l2 : at.bytes * at.count >= l2;
        if (!pastL2 || at.bytes > span)
            continue;
        // Cells with the same destinations and most common offset share one price (a cell that
        // zeroes its buffers shares only with another that does), taken in the first one's
        // rhythm; each says the pause its price came after.
        const auto key = std::pair(at, pricedOffsets(cell, point)[0].first);
        const double pause = std::min(rhythm->gapSeconds, platform::kMaxPause);
        std::optional<double> pricedAfter;
        const auto priced = [&](auto& prices, auto& taken, auto measure) -> const PausedRates* {
            if (measures && taken.insert(key).second) {
                const PausedRates sweep = measure();
                if (!sweep.copy.empty()) {
                    auto& [copy, fold, zero, pauseSeconds] = prices[key];
                    copy.insert(copy.end(), sweep.copy.begin(), sweep.copy.end());
                    fold.insert(fold.end(), sweep.fold.begin(), sweep.fold.end());
                    zero.insert(zero.end(), sweep.zero.begin(), sweep.zero.end());
                    pauseSeconds = pause;
                }
            }
            const auto it = prices.find(key);
            return it == prices.end() ? nullptr : &it->second;
        };
        if (copiesThroughTheKernel(cell)) {
            // With --consume all, the fold reads what the copies wrote, past L2 too; a zeroed
            // buffer's copy lands where the memset just wrote. calloc zeroes only the memory it
            // reuses (the time split counts those bytes; pages fresh from the kernel come zeroed
            // with their faults), but its copy is priced as landing on zeroed lines throughout.
            const bool folds = doc.plan.consume == Consume::All,
                       zeroes = s->buffer == BufferKind::FreshZeroed ||
                                s->buffer == BufferKind::FreshCalloc;
            if (const auto* r = priced(zeroes ? rhythmZeroedCopy : rhythmCopy,
                                       zeroes ? takenZeroedCopy : takenCopy, [&] {
                                           PausedRates taken;
                                           taken.copy =
                                               kernelCopyRates(fd, span, at.bytes, doc, passes,
                                                               stop, key.second, at.count, rhythm,
                                                               {zeroes ? &taken.zero : nullptr,
                                                                folds ? &taken.fold : nullptr});
                                           return taken;
                                       })) {
                cell.kernelCopyGbps = median(r->copy);
                if (!r->fold.empty())
                    cell.foldGbps = median(r->fold);
                if (!r->zero.empty())
                    cell.memsetGbps = median(r->zero);
                pricedAfter = r->pauseSeconds;
            }
        }
        // A mapping's copy into a buffer past L2 is folded as the kernel's is, in the passes.
        const bool foldsCopies = doc.plan.consume == Consume::All && at.bytes >= l2;
        if (s->access == Access::MapCopy)
            if (const auto* r = priced(rhythmMappedCopy, takenMappedCopy, [&] {
                    PausedRates taken;
                    auto rates =
                        platform::mappedRates(fd, span, at.bytes, passes, stop, key.second,
                                              {.inPlace = false, .copies = foldsCopies}, rhythm);
                    taken.copy = std::move(rates.copy);
                    taken.fold = std::move(rates.copyFold);
                    return taken;
                })) {
                cell.mappedCopyGbps = median(r->copy);
                if (!r->fold.empty())
                    cell.foldGbps = median(r->fold);
                pricedAfter = r->pauseSeconds;
            }
        if (mapped && s->mapping != MapLifetime::Kept) {
            if (measures && !takenFault) {
                takenFault = true;
                const auto sweep = platform::mappedFaultCosts(fd, span, passes, stop, rhythm);
                auto& [fault, unmapPage] = rhythmMappedFault;
                fault.insert(fault.end(), sweep.fault.begin(), sweep.fault.end());
                unmapPage.insert(unmapPage.end(), sweep.unmapPage.begin(), sweep.unmapPage.end());
                if (!sweep.fault.empty())
                    rhythmFaultPause = pause;
            }
            if (!rhythmMappedFault.fault.empty()) {
                cell.mappedFaultSeconds = median(rhythmMappedFault.fault);
                cell.mappedUnmapSeconds = median(rhythmMappedFault.unmapPage);
                pricedAfter = rhythmFaultPause;
            }
        }
        cell.copyPauseSeconds = pricedAfter;
    }
}

} // namespace readscope
