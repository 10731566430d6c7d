// Where a cell's time goes: each part is its count per range times its unit cost, the rest is
// unexplained, and a cell without what a split needs has none and says why. The outputs carry
// the shares.
#include "readscope/cost_model.h"
#include "readscope/cost_model_words.h"
#include "readscope/documents.h"
#include "readscope/time_split.h"
#include "readscope/time_split_words.h"

#include <QTest>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

using namespace readscope;

namespace {

constexpr std::uint64_t kMiB = 1 << 20;
constexpr double kRanges = 10;

// A warm run with every unit cost measured: a null call 0.1 µs, an lseek 0.5 µs, an anonymous
// fault 1 µs, a file fault 2 µs, a cached page 0.05 µs, an unmapped page 0.02 µs; --consume
// all.
ResultDocument warmDoc() {
    ResultDocument doc;
    doc.plan.cache = CacheMode::Warm;
    doc.plan.consume = Consume::All;
    doc.plan.threads = 1;
    doc.system.pageSize = 4096;
    doc.lseekSeconds = 0.5e-6;
    doc.unitCosts = {0.1e-6, 1e-6, 2e-6, 0.05e-6, 0.02e-6};
    return doc;
}

// Ten ranges of 1 MiB a round, 200 µs each; per range: `calls` calls, `faults` minor faults.
Cell cell(const char* id, double calls, double faults, double seeks = 0) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = kMiB;
    c.rangesPerRound = static_cast<std::uint64_t>(kRanges);
    c.copyLimitGbps = 10; // memcpy's best pass; its typical one 9, the kernel's copy 8
    c.memcpyGbps = 9;
    c.kernelCopyGbps = 8;
    c.memsetGbps = 40;
    c.foldGbps = 50;
    for (int r = 1; r <= 5; ++r) {
        Sample s;
        s.round = r;
        s.bytes = static_cast<std::uint64_t>(kRanges * kMiB);
        s.seconds = kRanges * 200e-6;
        s.syscalls = static_cast<std::uint64_t>(kRanges * calls);
        s.seeks = static_cast<std::uint64_t>(kRanges * seeks);
        s.minorFaults = static_cast<std::uint64_t>(kRanges * faults);
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

bool near(std::optional<double> a, double b) { return a && std::abs(*a - b) < 1e-12; }

} // namespace

class TestTimeSplit : public QObject {
    Q_OBJECT
private slots:
    void eachPartIsItsCountTimesItsUnitCost() {
        const auto doc = warmDoc();
        const auto split = timeSplit(doc, cell("pread-zerofill", 1, 0));
        QVERIFY(split);
        QVERIFY(std::abs(split->measuredSeconds - 200e-6) < 1e-12);
        QVERIFY(near(split->partSeconds(TimePart::Syscalls), 0.1e-6));
        QVERIFY(near(split->partSeconds(TimePart::Faults), 0));
        QVERIFY(near(split->partSeconds(TimePart::Zeroing), kMiB / 40e9));
        QVERIFY(near(split->partSeconds(TimePart::PageCache), 256 * 0.05e-6));
        QVERIFY(near(split->partSeconds(TimePart::Copying), kMiB / 8e9));
        QVERIFY(near(split->partSeconds(TimePart::Fold), kMiB / 50e9));
        double shares = split->unexplainedShare();
        for (TimePart p : kTimeParts)
            shares += split->share(p);
        QVERIFY(std::abs(shares - 1) < 1e-12);
        QVERIFY(!split->copyInUserSpace);
        QVERIFY(split->unpriced.empty());
    }

    void eachStrategyIsPricedForWhatItDoes() {
        const auto doc = warmDoc();
        // calloc: the pages its faults brought in came zeroed; it memsets only the rest.
        const auto calloc = timeSplit(doc, cell("pread-calloc", 1, 128));
        QVERIFY(calloc && near(calloc->partSeconds(TimePart::Zeroing), (kMiB / 2) / 40e9));
        QVERIFY(near(calloc->partSeconds(TimePart::Faults), 128 * 1e-6));
        // No fill, no zeroing; a seek costs an lseek, not a null call.
        const auto seek = timeSplit(doc, cell("seek-read", 2, 0, 1));
        QVERIFY(seek && near(seek->partSeconds(TimePart::Zeroing), 0));
        QVERIFY(near(seek->partSeconds(TimePart::Syscalls), 0.1e-6 + 0.5e-6));
        // A mapping copies in user space, faults on file pages, unmaps every page it mapped
        // (one made each round), and does no page-cache reads.
        auto mapped = cell("mmap-copy", 0, 16);
        const auto map = timeSplit(doc, mapped);
        QVERIFY(map && map->copyInUserSpace && map->unmapsPages);
        QVERIFY(near(map->partSeconds(TimePart::Faults), 16 * 2e-6 + 256 * 0.02e-6));
        QCOMPARE(partName(TimePart::Faults, *map), std::string("page faults and unmapping"));
        QVERIFY(near(map->partSeconds(TimePart::PageCache), 0));
        QCOMPARE(partName(TimePart::Copying, *map), std::string("memcpy"));
        QVERIFY(near(map->partSeconds(TimePart::Copying), kMiB / 9e9)); // typical, not best
        // Its copy and an in-place fold at the rates of the file's own pages, where measured.
        mapped.mappedCopyGbps = 12;
        mapped.mappedFoldGbps = 11;
        QVERIFY(near(timeSplit(doc, mapped)->partSeconds(TimePart::Copying), kMiB / 12e9));
        QVERIFY(near(timeSplit(doc, mapped)->partSeconds(TimePart::Fold), kMiB / 50e9));
        // Its faults and unmapping at the prices of the pages its rounds read, where the point
        // measured them, not the file's first pages' (the run-wide unit costs).
        mapped.mappedFaultSeconds = 3e-6;
        mapped.mappedUnmapSeconds = 0.04e-6;
        QVERIFY(
            near(timeSplit(doc, mapped)->partSeconds(TimePart::Faults), 16 * 3e-6 + 256 * 0.04e-6));
        // The sentence says how many pages each fault mapped (the 256 pages of a 1 MiB range
        // over its 16 faults) and at what price; a read's says nothing of mapped faults.
        const auto said = timeSplitSentence(doc, mapped);
        QVERIFY2(said.find("(16 faults a range, one per 16 pages read, 3.00 µs a fault)") !=
                     std::string::npos,
                 said.c_str());
        QVERIFY(timeSplitSentence(doc, cell("pread-calloc", 1, 128)).find("pages read") ==
                std::string::npos);
        auto inPlace = cell("mmap-touch", 0, 16);
        inPlace.mappedFoldGbps = 11;
        QVERIFY(near(timeSplit(doc, inPlace)->partSeconds(TimePart::Fold), kMiB / 11e9));
        // A mapping kept across rounds unmaps nothing in them, and its rounds' faults are its
        // fresh buffers' (the file's were taken in the warm-up): priced as anonymous ones,
        // with no pages-per-fault to tell.
        auto keptCell = cell("mmap-copy-kept", 0, 16);
        keptCell.mappedFaultSeconds = 3e-6;
        const auto kept = timeSplit(doc, keptCell);
        QVERIFY(kept && !kept->unmapsPages && !kept->pagesPerFault);
        QVERIFY(near(kept->partSeconds(TimePart::Faults), 16 * 1e-6));
        QCOMPARE(partName(TimePart::Faults, *kept), std::string("page faults"));
        // Without the kernel's own rate a kernel copy is priced at memcpy's, and says so.
        auto older = cell("pread-uninit", 1, 0);
        older.kernelCopyGbps.reset();
        const auto priced = timeSplit(doc, older);
        QVERIFY(priced && near(priced->partSeconds(TimePart::Copying), kMiB / 9e9));
        QCOMPARE(priced->unpriced, std::vector{Unpriced::KernelCopy});
        QVERIFY(unpricedText(*priced).find("memcpy's rate") != std::string::npos);
        // In place: no copy at all.
        const auto touch = timeSplit(doc, cell("mmap-touch", 0, 16));
        QVERIFY(touch && near(touch->partSeconds(TimePart::Copying), 0));
    }

    void whatWasNotMeasuredIsNotPricedAndSaysSo() {
        auto doc = warmDoc();
        doc.unitCosts.anonymousFault.reset();
        auto c = cell("pread-zerofill", 1, 64);
        c.memsetGbps.reset();
        const auto split = timeSplit(doc, c);
        QVERIFY(split);
        QVERIFY(!split->partSeconds(TimePart::Faults));
        QVERIFY(!split->partSeconds(TimePart::Zeroing));
        QCOMPARE(split->unpriced, (std::vector{Unpriced::Faults, Unpriced::Zeroing}));
        QCOMPARE(unpricedText(*split), std::string("page faults (no fault cost measured); "
                                                   "zeroing (no memset rate measured)"));
        QVERIFY(timeSplitSentence(doc, c).find("not priced: page faults") != std::string::npos);
    }

    void cellsWithoutWhatASplitNeedsHaveNone() {
        auto doc = warmDoc();
        doc.plan.cache = CacheMode::Cold;
        QVERIFY(!timeSplit(doc, cell("pread-uninit", 1, 0)));
        QCOMPARE(int(whyNoSplit(doc, cell("pread-uninit", 1, 0))->why), int(NoSplit::Why::ColdRun));
        QVERIFY(timeSplitMissing(doc, cell("pread-uninit", 1, 0)).find("cold") !=
                std::string::npos);
        doc = warmDoc();
        auto noLimit = cell("pread-uninit", 1, 0);
        noLimit.copyLimitGbps.reset();
        QVERIFY(!timeSplit(doc, noLimit));
        QCOMPARE(int(whyNoSplit(doc, noLimit)->why), int(NoSplit::Why::NoMemcpyRate));
        auto noRounds = cell("pread-uninit", 1, 0);
        noRounds.samples.clear();
        QVERIFY(!timeSplit(doc, noRounds));
        QVERIFY(timeSplitMissing(doc, noRounds).find("CSV") != std::string::npos);
        QVERIFY(!timeSplit(doc, cell("direct-pread", 1, 0)));
        QVERIFY(timeSplitSentence(doc, noRounds).empty());
        // A warm run whose file did not stay cached (a memory limit under its size) read the
        // storage: no split, and why. A few fetched bytes (read-ahead at the edge) leave one.
        auto fetched = cell("pread-uninit", 1, 0);
        for (auto& x : fetched.samples)
            x.deviceBytes = 0.6 * double(x.bytes);
        QVERIFY(!timeSplit(doc, fetched));
        QCOMPARE(int(whyNoSplit(doc, fetched)->why), int(NoSplit::Why::Fetched));
        QVERIFY(std::abs(whyNoSplit(doc, fetched)->fetchedShare - 0.6) < 1e-9);
        QVERIFY2(timeSplitMissing(doc, fetched).find("fetched 60% of the bytes") !=
                     std::string::npos,
                 timeSplitMissing(doc, fetched).c_str());
        auto faulted = cell("mmap-touch", 0, 0); // no fetch counted: its major faults' pages
        for (auto& x : faulted.samples)
            x.majorFaults = x.bytes / 4096;
        QVERIFY(!timeSplit(doc, faulted));
        for (auto& x : fetched.samples)
            x.deviceBytes = 0.01 * double(x.bytes);
        QVERIFY(timeSplit(doc, fetched));
    }

    void theSentenceSaysALargeUnexplainedShare() {
        const auto doc = warmDoc();
        // 200 µs measured, 165 µs explained: 18% unexplained, said as such.
        const std::string text = timeSplitSentence(doc, cell("pread-uninit", 1, 0));
        QVERIFY2(text.rfind("pread-uninit at 1 MiB, 200.0 µs per range: kernel copy 66%", 0) == 0,
                 text.c_str());
        QVERIFY2(text.find("unexplained 18%") != std::string::npos, text.c_str());
        QVERIFY2(text.find("explain only 82%") != std::string::npos, text.c_str());
        // A cell the parts explain: no such clause.
        auto fast = cell("pread-uninit", 1, 0);
        for (auto& s : fast.samples)
            s.seconds = kRanges * 170e-6;
        fast.summarize();
        const std::string quiet = timeSplitSentence(doc, fast);
        QVERIFY2(quiet.find("explain only") == std::string::npos, quiet.c_str());
    }

    void theDocumentsCarryTheShares() {
        auto doc = warmDoc();
        doc.cells.push_back(cell("pread-zerofill", 1, 0));
        const std::string csv = toSummaryCsv(doc);
        for (const char* column : {"memset_gbps", "time_per_range_us", "share_zeroing_pct",
                                   "share_page_cache_pct", "share_unexplained_pct"})
            QVERIFY2(csv.find(column) != std::string::npos, column);
        const std::string json = toJson(doc);
        QVERIFY(json.find("\"time_split\"") != std::string::npos);
        QVERIFY(json.find("\"page_cache\"") != std::string::npos);
        const auto back = fromJson(json);
        QVERIFY(back && back->cells.size() == 1);
        QVERIFY(near(back->cells[0].memsetGbps, 40));
        QVERIFY(near(back->unitCosts.cachedPage, 0.05e-6));
    }

    // The CLI's and the Markdown report's table: a row per split cell, "-" for a part that was
    // counted but not priced, the cells past the large-unexplained line named, the unit costs
    // only when asked (the cost-model lines print them otherwise), nothing without a split.
    void theTableHasARowPerSplitCell() {
        auto doc = warmDoc();
        doc.cells.push_back(cell("pread-zerofill", 1, 0));
        Cell noFold = cell("pread-uninit", 1, 0);
        noFold.foldGbps.reset();
        doc.cells.push_back(noFold);
        Cell slow = cell("pread-reuse", 1, 0);
        for (auto& s : slow.samples)
            s.seconds *= 2; // twice the time its parts explain
        slow.summarize();
        doc.cells.push_back(slow);
        const auto lines = timeSplitLines(doc, false);
        QCOMPARE(lines.size(), std::size_t(2 + 3 + 3 + 2));
        QVERIFY(lines[1].starts_with("strategy ") && lines[1].ends_with(" unexplained"));
        const auto zerofill = timeSplit(doc, doc.cells[0]);
        QVERIFY(lines[2].starts_with("pread-zerofill"));
        QVERIFY2(lines[2].find(fmt::format(
                     " {:>10}", fmt::format("{:.0f}%", zerofill->share(TimePart::Zeroing) *
                                                           100))) != std::string::npos,
                 lines[2].c_str());
        QVERIFY2(lines[3].ends_with(fmt::format(
                     " {:>10} {:>11}", "-",
                     fmt::format("{:.0f}%", 100 * timeSplit(doc, noFold)->unexplainedShare()))),
                 lines[3].c_str());
        QVERIFY(lines[6].starts_with("Some counts have no unit cost"));
        // The fold not priced leaves its time unexplained too.
        const auto pct = [&](const Cell& c) {
            return fmt::format("{:.0f}%", 100 * timeSplit(doc, c)->unexplainedShare());
        };
        // Rounds all alike: the interval of the median is the median, past 15% at both ends.
        QVERIFY2(lines[7] == "More than 15% unexplained, over the whole interval of the median "
                             "(at the median; at its fast and slow ends): pread-uninit at 1 MiB (" +
                                 pct(noFold) + "; " + pct(noFold) + " to " + pct(noFold) +
                                 ", 94% interval), pread-reuse at 1 MiB (" + pct(slow) + "; " +
                                 pct(slow) + " to " + pct(slow) + ", 94% interval).",
                 lines[7].c_str());
        // What could not be priced, once per strategy explained too little.
        QVERIFY2(lines[8].starts_with("Not priced for pread-uninit: "), lines[8].c_str());
        QVERIFY2(lines[9].starts_with("Not priced for pread-reuse: "), lines[9].c_str());
        const auto withUnits = timeSplitLines(doc, true);
        QCOMPARE(withUnits.back(), unitCostsSentence(doc));
        // A machine whose CPU counters could be read adds nothing; one without says why the
        // misses are not counted, once, after what is not priced, and so does the teaching
        // panel's sentence of a cell explained too little.
        doc.system.hardwareCounters = HardwareCounters::Present;
        QCOMPARE(timeSplitLines(doc, false).size(), lines.size());
        doc.system.hardwareCounters = HardwareCounters::Absent;
        const auto without = timeSplitLines(doc, false);
        QCOMPARE(without.size(), lines.size() + 1);
        QVERIFY2(without.back().starts_with("This machine has no hardware counters"),
                 without.back().c_str());
        QVERIFY(timeSplitSentence(doc, slow).ends_with("cannot be counted here."));
        doc.system.hardwareCounters = HardwareCounters::NotPermitted;
        QVERIFY(timeSplitLines(doc, false).back().find("perf_event_paranoid") != std::string::npos);
        QVERIFY(timeSplitSentence(doc, doc.cells[0]).find("counted here") == std::string::npos);
        doc.plan.cache = CacheMode::Cold;
        QVERIFY(timeSplitLines(doc, true).empty());
    }

    // A share past 15% at the median is told apart from explained only where it stays past 15%
    // over the whole interval of the median: rounds that spread wider than that say nothing
    // either way, and rounds too few for an interval are said to be.
    void aLargeShareIsToldApartOnlyBeyondItsRoundsSpread() {
        auto doc = warmDoc();
        // 165 µs explained; five rounds at 150-260 µs, median 200: 18% at the median, and the
        // interval of the median (of five: their fastest and slowest, 94%) reaches -10% to 37%.
        Cell spread = cell("pread-uninit", 1, 0);
        const double times[] = {150e-6, 170e-6, 200e-6, 230e-6, 260e-6};
        for (std::size_t k = 0; k < spread.samples.size(); ++k)
            spread.samples[k].seconds = kRanges * times[k];
        spread.summarize();
        const auto split = timeSplit(doc, spread);
        QVERIFY(split && split->unexplainedInterval());
        QVERIFY2(std::abs(split->unexplainedShare() - 0.175) < 0.01,
                 qPrintable(QString::number(split->unexplainedShare())));
        const auto [fast, slow] = *split->unexplainedInterval();
        QVERIFY2(std::abs(fast - (1 - 165.0 / 150)) < 0.01 &&
                     std::abs(slow - (1 - 165.0 / 260)) < 0.01,
                 qPrintable(QString("%1 %2").arg(fast).arg(slow)));
        doc.cells.push_back(spread);
        // Three rounds: no interval reaches 90%.
        Cell few = cell("seek-read", 1, 0, 1);
        few.samples.resize(3);
        for (auto& s : few.samples)
            s.seconds = kRanges * 300e-6;
        few.summarize();
        QVERIFY(timeSplit(doc, few) && !timeSplit(doc, few)->unexplainedInterval());
        doc.cells.push_back(few);
        const auto lines = timeSplitLines(doc, false);
        const auto has = [&](std::string_view start) {
            return std::find_if(lines.begin(), lines.end(),
                                [&](const std::string& l) { return l.starts_with(start); });
        };
        QVERIFY(has("More than 15% unexplained, over the whole interval") == lines.end());
        const auto within =
            has("More than 15% unexplained at the median, but not over the whole "
                "interval of the median (the rounds' own spread), so not told "
                "apart from explained: pread-uninit at 1 MiB (18%; -10% to 37%, 94% interval).");
        QVERIFY2(within != lines.end(), lines.back().c_str());
        const auto unknown = has("More than 15% unexplained (too few rounds for an interval of "
                                 "the median): seek-read at 1 MiB (");
        QVERIFY(unknown != lines.end());
        // The cell's own sentence says how far the share reaches.
        const auto sentence = timeSplitSentence(doc, spread);
        QVERIFY2(sentence.find("unexplained 18% (-10.0% to 37% over the median's 94% interval)") !=
                     std::string::npos,
                 sentence.c_str());
        // What could not be priced is still said for both.
        QVERIFY(has("Not priced for pread-uninit: ") != lines.end());
        QVERIFY(has("Not priced for seek-read: ") != lines.end());
    }

    // Cells whose copy was priced after a pause (copies past L2, in their rounds' rhythm) are
    // said so under the table, with the pauses; none, nothing.
    void copiesPricedAfterAPauseAreSaidSo() {
        auto doc = warmDoc();
        doc.system.caches.l2 = 2 << 20;
        doc.cells.push_back(cell("pread-uninit", 1, 0));
        doc.cells.push_back(cell("seek-read", 1, 0));
        const auto before = timeSplitLines(doc, false);
        doc.cells[0].copyPauseSeconds = 0.1;
        doc.cells[1].copyPauseSeconds = 0.04;
        const auto lines = timeSplitLines(doc, false);
        QCOMPARE(lines.size(), before.size() + 1);
        const auto said = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
            return l.starts_with("Copies past L2");
        });
        QVERIFY(said != lines.end());
        QVERIFY2(said->starts_with("Copies past L2 (2 MiB here) are priced as their rounds ran (2 "
                                   "of these cells:"),
                 said->c_str());
        QVERIFY2(said->find("(40-100 ms; at most 100 ms)") != std::string::npos, said->c_str());
        doc.cells[1].copyPauseSeconds.reset();
        // ... and the cell's own sentence (the app's cell details and explanation) says so.
        QVERIFY(timeSplitSentence(doc, doc.cells[0])
                    .find("(priced as its rounds ran: each price pass a round's reads after a "
                          "100 ms pause)") != std::string::npos);
        QVERIFY(timeSplitSentence(doc, doc.cells[1]).find("pause") == std::string::npos);
        const auto one = timeSplitLines(doc, false);
        QVERIFY(std::any_of(one.begin(), one.end(), [](const std::string& l) {
            return l.find("(2 MiB here) are priced as their rounds ran (1 of these cells:") !=
                       std::string::npos &&
                   l.find("(100 ms; at most 100 ms)") != std::string::npos;
        }));
    }
};

QTEST_APPLESS_MAIN(TestTimeSplit)
#include "tst_time_split.moc"
