// "Why zero-filling costs what it costs": zeroing's share of the zero-filler's time per size,
// whether it accounts for the measured gap to the uninitialised buffer, and what the L2
// boundary changes, each said only as far as the run measured it.
#include "readscope/lesson_words.h"
#include "readscope/time_split.h"
#include "readscope/zeroing_lesson.h"

#include <QTest>

#include <cmath>

using namespace readscope;

namespace {

constexpr std::uint64_t kKiB = 1 << 10, kMiB = 1 << 20;
constexpr int kRounds = 9;
constexpr double kRanges = 10;

ResultDocument warmDoc() {
    ResultDocument doc;
    doc.plan.cache = CacheMode::Warm;
    doc.plan.consume = Consume::Minimal;
    doc.plan.threads = 1;
    doc.system.pageSize = 4096;
    doc.system.caches = {48 * kKiB, 2 * kMiB, 256 * kMiB};
    doc.lseekSeconds = 0.2e-6;
    doc.unitCosts = {0.1e-6, 1e-6, 2e-6, 0.05e-6, std::nullopt};
    return doc;
}

// Rounds of `perRange` seconds a range, drifting by 1% a round (as a machine does; the pairs
// cancel it), each round's time times `wobble(r)`.
Cell cell(
    const char* id, std::uint64_t size, double perRange, double faults,
    double (*wobble)(int) = [](int) { return 1.0; }) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    c.rangesPerRound = static_cast<std::uint64_t>(kRanges);
    c.copyLimitGbps = 10;
    c.memcpyGbps = 9;
    c.kernelCopyGbps = 8;
    c.memsetGbps = 20;
    c.foldGbps = 50;
    for (int r = 1; r <= kRounds; ++r) {
        Sample s;
        s.round = r;
        s.bytes = static_cast<std::uint64_t>(kRanges * double(size));
        s.seconds = kRanges * perRange * (1 + 0.01 * r) * wobble(r);
        s.syscalls = static_cast<std::uint64_t>(kRanges);
        s.minorFaults = static_cast<std::uint64_t>(kRanges * faults);
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

double memsetSeconds(std::uint64_t size) { return double(size) / 20e9; }

// Below the L2 the uninitialised buffer saves exactly the memset (give or take 2% a round);
// at 8 MiB it saves nothing, while the zero-filler's memset is still priced.
ResultDocument lessonRun() {
    auto doc = warmDoc();
    const auto wobble = [](int r) { return 1 + 0.02 * std::sin(r * 1.7); };
    for (std::uint64_t size : {64 * kKiB, 1 * kMiB, 8 * kMiB}) {
        const double zerofill = memsetSeconds(size) * 8; // zeroing: 12.5% of its time
        const double uninit = size > 2 * kMiB ? zerofill : zerofill - memsetSeconds(size);
        doc.cells.push_back(cell("pread-zerofill", size, zerofill, 0));
        doc.cells.push_back(cell("pread-uninit", size, uninit, 0, wobble));
        // calloc's faults brought half its pages in zeroed: it zeroes the other half.
        doc.cells.push_back(cell("pread-calloc", size, zerofill, double(size) / 4096 / 2));
    }
    return doc;
}

Finding published() {
    Finding f;
    f.faster = "pread-uninit";
    f.than = "pread-zerofill";
    f.publishedLow = 0.08;
    f.publishedHigh = 0.19;
    f.published = "from 64 KiB to 1 MiB on an Apple M3 Max";
    return f;
}

} // namespace

class TestZeroingLesson : public QObject {
    Q_OBJECT
    // The verdict in words, as the lesson panel shows it.
    static std::string said(const ResultDocument& doc, const ZeroingVerdict& v) {
        return zeroingVerdictText(doc, published(), v);
    }

private slots:
    void zeroingsShareIsTheMemsetOverTheMeasuredTime() {
        const auto doc = lessonRun();
        const auto v = judgeZeroing(doc, published());
        QVERIFY(v);
        QCOMPARE(v->sizes.size(), std::size_t(3));
        for (const auto& z : v->sizes) {
            const Cell* zerofill = nullptr;
            for (const auto& c : doc.cells)
                if (c.strategy == "pread-zerofill" && c.rangeBytes == z.size)
                    zerofill = &c;
            const auto split = timeSplit(doc, *zerofill);
            QVERIFY(split);
            QVERIFY(std::abs(z.zeroingShare - memsetSeconds(z.size) / split->measuredSeconds) <
                    1e-9);
            QVERIFY(z.predictedGain &&
                    std::abs(*z.predictedGain - z.zeroingShare / (1 - z.zeroingShare)) < 1e-12);
            QVERIFY(z.faultShare && *z.faultShare == 0); // priced: none taken
            QCOMPARE(z.pastL2, z.size > 2 * kMiB);
            // calloc zeroes half its bytes: half the zero-filler's share.
            QCOMPARE(z.others.size(), std::size_t(1));
            QCOMPARE(z.others[0].first, std::string("pread-calloc"));
            QVERIFY(std::abs(z.others[0].second - z.zeroingShare / 2) < 1e-9);
        }
    }

    // Where the uninitialised buffer saves the memset, the measured interval holds the
    // predicted gain; where it saves nothing (8 MiB here), it does not, and the text says so.
    void theGapIsTheZeroingOnlyWhereTheMeasuredIntervalHoldsIt() {
        const auto doc = lessonRun();
        const auto v = judgeZeroing(doc, published());
        QVERIFY(v);
        for (const auto& z : v->sizes) {
            QVERIFY(z.gain && z.gain->interval);
            QCOMPARE(z.zeroingIsTheGap, z.size < 2 * kMiB);
        }
        QVERIFY2(said(doc, *v).find("holds that at 2 of 3 sizes") != std::string::npos,
                 said(doc, *v).c_str());
        QVERIFY2(said(doc, *v).find("Past the 2 MiB L2 cache (8 MiB)") != std::string::npos,
                 said(doc, *v).c_str());
        QVERIFY2(said(doc, *v).find("at 0 of 1 size.") != std::string::npos, said(doc, *v).c_str());
        // The published gap is judged as every lesson's finding is, first.
        QVERIFY(v->finding);
        QCOMPARE(said(doc, *v).rfind(findingVerdictText(published(), *v->finding), 0),
                 std::size_t(0));
        QVERIFY2(said(doc, *v).find("pread-calloc's: 64 KiB 6%") != std::string::npos,
                 said(doc, *v).c_str());
    }

    void whatCrossingTheL2ChangesIsMeasuredNotAssumed() {
        auto doc = lessonRun();
        // A machine whose memset is as cheap past the L2 as under it: the share holds.
        auto v = judgeZeroing(doc, published());
        QVERIFY2(said(doc, *v).find("zeroing's share holds (12% under it, 12% past it)") !=
                     std::string::npos,
                 said(doc, *v).c_str());
        // Make the 8 MiB memset slower (a write to memory, not to the cache): the share rises.
        for (auto& c : doc.cells)
            if (c.rangeBytes == 8 * kMiB)
                c.memsetGbps = 5;
        v = judgeZeroing(doc, published());
        QVERIFY2(said(doc, *v).find("zeroing's share rises (12% under it, 48% past it)") !=
                     std::string::npos,
                 said(doc, *v).c_str());
        // Without the L2's size, nothing is said about crossing it.
        doc.system.caches = {};
        v = judgeZeroing(doc, published());
        QVERIFY(said(doc, *v).find("Past the") == std::string::npos);
        QVERIFY(said(doc, *v).find("did not say how large its L2") != std::string::npos);
        for (const auto& z : v->sizes)
            QVERIFY(!z.pastL2);
    }

    // What the run did not measure is not said: faults not priced leave the fault clause out,
    // a zeroing that alone reaches the measured time predicts no gain and counts for nothing,
    // a strategy that zeroes nothing is not listed beside calloc, and sizes on one side of the
    // L2 say that crossing it is not shown.
    void saysNothingTheRunDidNotMeasure() {
        auto doc = lessonRun();
        doc.unitCosts.anonymousFault.reset(); // as on Windows and macOS, with faults taken
        for (auto& c : doc.cells)
            for (auto& r : c.samples)
                r.minorFaults = 10;
        for (auto size : {64 * kKiB, 1 * kMiB, 8 * kMiB})
            doc.cells.push_back(cell("pread-reuse", size, memsetSeconds(size) * 7, 0));
        auto v = judgeZeroing(doc, published());
        QVERIFY(v);
        QVERIFY2(said(doc, *v).find("page faults'") == std::string::npos, said(doc, *v).c_str());
        QVERIFY(said(doc, *v).find("pread-reuse's") == std::string::npos);
        for (const auto& z : v->sizes) {
            QVERIFY(!z.faultShare);
            QCOMPARE(z.others.size(), std::size_t(1)); // pread-calloc only
        }
        // A memset priced slower than the whole measured time: no prediction, not "held".
        for (auto& c : doc.cells)
            if (c.rangeBytes == 64 * kKiB)
                c.memsetGbps = 1;
        v = judgeZeroing(doc, published());
        QVERIFY(!v->sizes.front().predictedGain && !v->sizes.front().zeroingIsTheGap);
        QVERIFY2(said(doc, *v).find("holds that at 1 of 2 sizes (64 KiB none predicted") !=
                     std::string::npos,
                 said(doc, *v).c_str());
        // Every size under the L2.
        std::erase_if(doc.cells, [](const Cell& c) { return c.rangeBytes > 2 * kMiB; });
        v = judgeZeroing(doc, published());
        QVERIFY2(said(doc, *v).find("Every size measured lies at or under the 2 MiB L2 cache") !=
                     std::string::npos,
                 said(doc, *v).c_str());
    }

    void aRunWithoutASplitSaysWhy() {
        auto doc = lessonRun();
        doc.plan.cache = CacheMode::Cold;
        const auto v = judgeZeroing(doc, published());
        QVERIFY(v);
        QVERIFY(v->sizes.empty());
        QVERIFY2(said(doc, *v).find("cannot be said for this run: a cold run") != std::string::npos,
                 said(doc, *v).c_str());
        // No memset rate: said, not priced at zero.
        doc = lessonRun();
        for (auto& c : doc.cells)
            c.memsetGbps.reset();
        const auto w = judgeZeroing(doc, published());
        QVERIFY(w->sizes.empty());
        QVERIFY(said(doc, *w).find("measured no memset rate") != std::string::npos);
    }

    void aRunWithoutTheZeroFillerHasNoVerdict() {
        auto doc = lessonRun();
        std::erase_if(doc.cells, [](const Cell& c) { return c.strategy == "pread-zerofill"; });
        QVERIFY(!judgeZeroing(doc, published()));
    }
};

QTEST_GUILESS_MAIN(TestZeroingLesson)
#include "tst_zeroing_lesson.moc"
