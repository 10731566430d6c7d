// The cost model: t(n) = fixed + n / bandwidth fitted to known series (exact, noisy, with no
// fixed cost, with nothing to fit), and the seek check set against what the engine counted.
#include "readscope/cost_model.h"
#include "readscope/cost_model_words.h"
#include "readscope/finding_text.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace readscope;

namespace {

constexpr double kSizes[] = {16 << 10, 64 << 10, 256 << 10, 1 << 20, 8 << 20};

std::vector<CostPoint> series(double fixed, double bandwidth, std::vector<double> noise = {}) {
    std::vector<CostPoint> out;
    for (std::size_t i = 0; i < std::size(kSizes); ++i) {
        const double t = fixed + kSizes[i] / bandwidth;
        out.push_back({kSizes[i], t * (1 + (i < noise.size() ? noise[i] : 0))});
    }
    return out;
}

// A cell whose median is what the model says at this size, with seeks counted per range.
Cell modelCell(const char* id, std::uint64_t size, double fixed, double bandwidth,
               std::uint64_t seeksPerRange) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    c.rangesPerRound = 100;
    const double perRange = fixed + double(size) / bandwidth;
    for (int r = 1; r <= 5; ++r) {
        Sample s;
        s.round = r;
        s.bytes = 100 * size;
        s.seconds = 100 * perRange;
        s.seeks = 100 * seeksPerRange;
        s.syscalls = 100 * (1 + seeksPerRange);
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

} // namespace

class TestCostModel : public QObject {
    Q_OBJECT
private slots:
    void exactSeriesIsRecovered() {
        const auto fit = fitCost(series(2e-6, 10e9));
        QVERIFY(fit);
        QVERIFY2(std::abs(fit->fixedSeconds - 2e-6) < 1e-12,
                 qPrintable(QString::number(fit->fixedSeconds)));
        QVERIFY(std::abs(fit->bytesPerSecond / 10e9 - 1) < 1e-9);
        QVERIFY(fit->worstMisfit < 1e-9);
        QVERIFY(fit->r2 > 0.999999);
        QCOMPARE(fit->points, 5);
        QVERIFY(std::abs(fit->halfFixedBytes() - 20000) < 1e-3); // 2 us x 10 GB/s
    }

    void noisySeriesIsCloseAndSaysHowClose() {
        // +-3% per size, alternating: the fit stays near, and its misfit shows the noise.
        const auto fit = fitCost(series(2e-6, 10e9, {0.03, -0.03, 0.02, -0.02, 0.01}));
        QVERIFY(fit);
        QVERIFY2(std::abs(fit->fixedSeconds / 2e-6 - 1) < 0.15,
                 qPrintable(QString::number(fit->fixedSeconds)));
        QVERIFY(std::abs(fit->bytesPerSecond / 10e9 - 1) < 0.05);
        QVERIFY(fit->worstMisfit > 0.005 && fit->worstMisfit < 0.06);
    }

    void noFixedCostIsZeroNotNegative() {
        // Faster per byte at small sizes than at large: the unconstrained line would cross
        // below zero; the fit goes through zero instead.
        std::vector<CostPoint> points = series(0, 5e9);
        points[0].seconds *= 0.8;
        const auto fit = fitCost(points);
        QVERIFY(fit);
        QCOMPARE(fit->fixedSeconds, 0.0);
        QVERIFY(fit->bytesPerSecond > 4e9 && fit->bytesPerSecond < 6e9);
    }

    void nothingToFit() {
        auto two = series(2e-6, 10e9);
        two.resize(2);
        QVERIFY(!fitCost(two)); // too few sizes
        std::vector<CostPoint> flat{{16384, 1e-5}, {65536, 1e-5}, {1 << 20, 1e-5}};
        QVERIFY(!fitCost(flat)); // no time per byte: no bandwidth
        std::vector<CostPoint> shrinking{{16384, 3e-5}, {65536, 2e-5}, {1 << 20, 1e-5}};
        QVERIFY(!fitCost(shrinking));
    }

    // A fixed cost within the fit's own error at the smallest size is not a measurement:
    // every output says "not resolved" rather than 0.00 µs, and the seek check does not set
    // one unresolved fixed cost against another.
    void aFixedCostTheSizesCannotResolveIsSaidSo() {
        auto exact = fitCost(series(2e-6, 10e9));
        QVERIFY(exact && exact->fixedResolved());
        auto none = fitCost(series(0, 5e9, {0.05, -0.05, 0.03, 0, 0.02}));
        QVERIFY(none);
        QVERIFY(!none->fixedResolved());
        QVERIFY2(unresolvedFixedText(*none).starts_with("not resolved: "),
                 unresolvedFixedText(*none).c_str());
        // 20 ns fixed against 16 KiB at 5 GB/s (3.3 us) is 0.6%, inside a 5% misfit.
        auto tiny = fitCost(series(2e-8, 5e9, {0.05, -0.05, 0.03, 0, 0.02}));
        QVERIFY(tiny && tiny->fixedSeconds > 0 && !tiny->fixedResolved());
        QVERIFY2(unresolvedFixedText(*tiny).find("within the fit's") != std::string::npos,
                 unresolvedFixedText(*tiny).c_str());

        ResultDocument doc;
        doc.plan.strategies = {"pread-uninit", "seek-read"};
        doc.plan.sizes = {16 << 10, 64 << 10, 256 << 10, 1 << 20};
        for (auto size : doc.plan.sizes) {
            doc.cells.push_back(modelCell("pread-uninit", size, 0, 6e9, 0));
            doc.cells.push_back(modelCell("seek-read", size, 0, 6e9, 1));
        }
        std::string all;
        for (const auto& l : costModelLines(doc))
            all += l + "\n";
        QVERIFY2(all.find("0.00") == std::string::npos, all.c_str());
        QVERIFY2(all.find("pread-uninit              n/r") != std::string::npos, all.c_str());
        QVERIFY2(all.find("seek-read: not resolved") != std::string::npos, all.c_str());
        QVERIFY2(all.find("do not resolve the fixed costs of both") != std::string::npos,
                 all.c_str());
        QVERIFY(!seekCheck(doc, fitCosts(doc))->extraFixedSeconds);
    }

    // The sizes are cut at the first cache they cross with 3 or more sizes under it; the fit
    // takes those only, and says so.
    void theFitStopsAtTheFirstCacheTheSizesCross() {
        const CpuCaches caches{48 << 10, 2 << 20, 260ull << 20};
        const std::vector<std::uint64_t> sweep{16 << 10, 32 << 10, 64 << 10, 256 << 10,
                                               1 << 20,  2 << 20,  8 << 20};
        auto cut = cacheCut(caches, sweep);
        QVERIFY(cut);
        QCOMPARE(cut->level, std::string("L2")); // L1d has only 2 sizes under it
        QCOMPARE(cut->leftOut, std::vector<std::uint64_t>{8 << 20});
        const std::vector<std::uint64_t> small{4 << 10, 8 << 10, 16 << 10, 1 << 20};
        QCOMPARE(cacheCut(caches, small)->level, std::string("L1d"));
        const std::vector<std::uint64_t> under{16 << 10, 64 << 10, 1 << 20};
        QVERIFY(!cacheCut(caches, under));      // nothing crossed
        QVERIFY(!cacheCut(CpuCaches{}, sweep)); // caches not known

        // Past L2 the copy runs at half the bandwidth: one line through all of it misfits.
        ResultDocument doc;
        doc.plan.strategies = {"pread-uninit"};
        doc.plan.sizes = {16 << 10, 64 << 10, 256 << 10, 1 << 20, 8 << 20};
        for (auto size : doc.plan.sizes)
            doc.cells.push_back(
                modelCell("pread-uninit", size, 1e-6, size > (2 << 20) ? 3e9 : 6e9, 0));
        const double across = fitCosts(doc).front().worstMisfit;
        doc.system.caches = caches;
        const auto below = fitCosts(doc).front();
        QVERIFY2(across > 0.1, std::to_string(across).c_str());
        QVERIFY(below.worstMisfit < 1e-6);
        QVERIFY(std::abs(below.fixedSeconds - 1e-6) < 1e-9);
        const auto lines = costModelLines(doc);
        QVERIFY(std::find(lines.begin(), lines.end(), cacheCutSentence(*fitCut(doc))) !=
                lines.end());
        QVERIFY2(cacheCutSentence(*fitCut(doc))
                     .starts_with("Fitted up to the L2 cache (2 MiB); 8 MiB left out"),
                 cacheCutSentence(*fitCut(doc)).c_str());
    }

    // A strategy with too few sizes under the cut (its other cells failed) has no fit, and
    // every output that shows the fits says why instead of leaving it out silently.
    void aStrategyTheCutLeavesTooFewSizesSaysWhyItHasNoFit() {
        ResultDocument doc;
        doc.system.caches = {48 << 10, 2 << 20, 260ull << 20};
        doc.plan.strategies = {"pread-uninit", "mmap-copy"};
        doc.plan.sizes = {16 << 10, 64 << 10, 256 << 10, 1 << 20, 8 << 20};
        for (auto size : doc.plan.sizes) {
            doc.cells.push_back(modelCell("pread-uninit", size, 1e-6, 6e9, 0));
            Cell c = modelCell("mmap-copy", size, 2e-6, 5e9, 0);
            if (size < (256 << 10)) { // failed at the two smallest sizes
                c.status = CellStatus::Failed;
                c.samples.clear();
                c.summarize();
            }
            doc.cells.push_back(c);
        }
        const auto fits = fitCosts(doc);
        QCOMPARE(fits.size(), std::size_t(1));
        QCOMPARE(costFitMissing(doc, "pread-uninit"), std::string());
        const std::string why = costFitMissing(doc, "mmap-copy");
        QCOMPARE(why, std::string("not fitted: only 2 of its sizes lie at or below the L2 cache "
                                  "(2 MiB), and a line needs 3 (its other sizes at or below it "
                                  "were not measured)"));
        const auto lines = costModelLines(doc);
        QVERIFY(std::find(lines.begin(), lines.end(), "  mmap-copy: " + why) != lines.end());
        // Without the cut (no caches known) it has 3 sizes and a fit: nothing to say.
        doc.system.caches = {};
        QCOMPARE(fitCosts(doc).size(), std::size_t(2));
        QCOMPARE(costFitMissing(doc, "mmap-copy"), std::string());
    }

    void seekReadsExtraFixedCostIsSetBesideOneLseek() {
        ResultDocument doc;
        doc.plan.strategies = {"pread-uninit", "seek-read", "mmap-touch"};
        doc.plan.sizes = {16 << 10, 64 << 10, 256 << 10, 1 << 20};
        doc.lseekSeconds = 1.1e-6;
        for (auto size : doc.plan.sizes) {
            doc.cells.push_back(modelCell("pread-uninit", size, 1.5e-6, 6e9, 0));
            doc.cells.push_back(modelCell("seek-read", size, 2.6e-6, 6e9, 1));
        }
        // Measured at two sizes only: not fitted, and not in the lines.
        for (auto size : {16 << 10, 64 << 10})
            doc.cells.push_back(modelCell("mmap-touch", size, 0, 2e9, 0));
        const auto fits = fitCosts(doc);
        QCOMPARE(fits.size(), std::size_t(2));
        QCOMPARE(fits[0].strategy, std::string("pread-uninit"));
        const auto check = seekCheck(doc, fits);
        QVERIFY(check);
        QVERIFY(check->extraFixedSeconds && std::abs(*check->extraFixedSeconds - 1.1e-6) < 1e-9);
        QCOMPARE(check->seeksPerRange, std::optional(1.0));
        const auto lines = costModelLines(doc);
        QVERIFY(!lines.empty());
        std::string all;
        for (const auto& l : lines)
            all += l + "\n";
        QVERIFY2(all.find("seek-read pays 1.10 µs more per range than pread-uninit; it makes "
                          "1.00 lseek per range (counted), and one lseek costs 1.10 µs here.") !=
                     std::string::npos,
                 all.c_str());
        QVERIFY2(all.find("pread-uninit             1.50         6.00") != std::string::npos,
                 all.c_str());
        QVERIFY(all.find("mmap-touch") == std::string::npos);
        // Two workers share the run's time: each pays twice the run's time per range.
        doc.plan.threads = 2;
        QVERIFY(std::abs(fitCosts(doc)[0].fixedSeconds - 3e-6) < 1e-9);
        doc.plan.threads = 1;
        // A summary CSV has no rounds: nothing was counted there, and nothing is claimed.
        for (auto& c : doc.cells)
            c.samples.clear();
        const auto fromSummary = costModelLines(doc);
        QVERIFY(!seekCheck(doc, fitCosts(doc))->seeksPerRange);
        QVERIFY2(fromSummary.back() == "seek-read pays 1.10 µs more per range than pread-uninit; "
                                       "one lseek costs 1.10 µs here.",
                 fromSummary.back().c_str());
        // A buffer-offset sweep has one range size: nothing to fit.
        doc.plan.bufferOffsets = {0, 16};
        QVERIFY(fitCosts(doc).empty());
    }

    void iopsAndShareOfTheCopyLimit() {
        Cell c = modelCell("pread-uninit", 64 << 10, 0, 5e9, 0);
        QVERIFY(std::abs(*medianIops(c) - 5e9 / 65536) < 1e-6);
        QVERIFY(!pctOfCopyLimit(c)); // no limit measured (cold, direct)
        c.copyLimitGbps = 20;
        QVERIFY(std::abs(*pctOfCopyLimit(c) - 25) < 1e-9);
        c.status = CellStatus::Failed;
        QVERIFY(!medianIops(c) && !pctOfCopyLimit(c));
    }

    // A copying strategy past memcpy's speed is said once for the run; an in-place mapping
    // there is not (it copies nothing), and a cell within 2% of the limit is noise.
    void copiesFasterThanMemcpyAreFlagged() {
        ResultDocument doc;
        Cell copy = modelCell("pread-uninit", 64 << 10, 0, 10.1e9, 0);
        copy.copyLimitGbps = 10; // 101%: within the allowance
        Cell mapped = modelCell("mmap-touch", 64 << 10, 0, 30e9, 0);
        mapped.copyLimitGbps = 10;
        doc.cells = {copy, mapped};
        QVERIFY(!aboveCopyLimit(doc));
        doc.cells[0] = modelCell("pread-uninit", 64 << 10, 0, 12e9, 0);
        doc.cells[0].copyLimitGbps = 10;
        const auto found = aboveCopyLimit(doc);
        QVERIFY(found && found->cells.size() == 1 && found->cells[0].cell == 0);
        QVERIFY(std::abs(found->cells[0].pct - 120) < 1e-6);
        const auto warning = aboveCopyLimitText(*found, doc);
        QVERIFY2(warning.rfind("1 copying cell ran faster than memcpy copies here: pread-uninit "
                               "at 64 KiB (120%)",
                               0) == 0,
                 warning.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCostModel)
#include "tst_cost_model.moc"
