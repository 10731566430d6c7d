// The device limit of cold and direct runs: measured from the file itself before the sweep,
// kept for the process, carried by the document, and said when cells pass it.
#include "readscope/runner.h"
#include "test_file.h"

#include <QTest>

#include <algorithm>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class Sink : public RunSink {
public:
    void onWarning(const std::string& w) override { warnings.push_back(w); }
    std::vector<std::string> warnings;
};

Plan coldPlan(const TestFile& f) {
    Plan p;
    p.file = f.path();
    p.cache = CacheMode::Cold;
    p.strategies = {"pread-uninit"};
    p.sizes = {1 << 20};
    p.rounds = 1;
    p.warmup = 0;
    p.roundTimeSeconds = 0;
    p.budget = 4 << 20;
    return p;
}

Cell cellAt(double gbps) {
    Cell c;
    c.strategy = "pread-uninit";
    c.rangeBytes = 1 << 20;
    Sample s;
    s.bytes = 1000000000;
    s.seconds = 1.0 / gbps;
    c.samples = {s, s, s};
    c.summarize();
    return c;
}

} // namespace

class TestDeviceLimit : public QObject {
    Q_OBJECT

private slots:
    // 24 MiB: over the 16 MiB a sequential read needs to mean anything.
    void aColdRunMeasuresItOnceAndKeepsIt() {
        const TestFile file(24 << 20);
        Sink sink;
        auto first = runPlan(coldPlan(file), sink);
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        QVERIFY2(first->deviceLimit, first->deviceLimitMissing.c_str());
        const DeviceLimit d = *first->deviceLimit;
        qInfo("%s", deviceLimitText(d).c_str());
        QCOMPARE(d.blockBytes, std::uint64_t(1) << 20);
        QCOMPARE(d.spanBytes, std::uint64_t(24) << 20); // the whole file, in whole blocks
        QVERIFY(!d.device.empty() && !d.measuredAt.empty() && !d.fastest.empty());
        // The limit is the fastest way that ran, and every way either ran or says why not.
        double fastest = 0;
        for (const auto& way : {d.directGbps, d.directQueuedGbps, d.bufferedGbps})
            fastest = std::max(fastest, way.value_or(0));
        QVERIFY(fastest > 0);
        QCOMPARE(d.gbps, fastest);
        if (!d.directGbps)
            QVERIFY2(d.skipped.find("direct:") != std::string::npos, d.skipped.c_str());
        if (!d.bufferedGbps)
            QVERIFY2(d.skipped.find("buffered:") != std::string::npos, d.skipped.c_str());
        const auto pct = pctOfDeviceLimit(*first, first->cells.at(0));
        QVERIFY(pct && *pct > 0);
        // A second run on the same file in this process reuses the measurement, date and all:
        // measured again, no figure would come out to the same bits.
        auto second = runPlan(coldPlan(file), sink);
        QVERIFY(second.ok() && second->deviceLimit);
        QCOMPARE(second->deviceLimit->measuredAt, d.measuredAt);
        QCOMPARE(second->deviceLimit->gbps, d.gbps);
        QCOMPARE(second->deviceLimit->directGbps, d.directGbps);
        QCOMPARE(second->deviceLimit->bufferedGbps, d.bufferedGbps);
    }

    void aWarmRunHasNone() {
        const TestFile file(24 << 20);
        Plan plan = coldPlan(file);
        plan.cache = CacheMode::Warm;
        Sink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QVERIFY(!doc->deviceLimit);
        QVERIFY(doc->deviceLimitMissing.empty());
        QVERIFY(!pctOfDeviceLimit(*doc, doc->cells.at(0)));
        QCOMPARE(std::string(runLimitName(*doc)), std::string("memcpy"));
    }

    void aSmallFileSaysWhyItHasNone() {
        const TestFile file(8 << 20);
        Sink sink;
        auto doc = runPlan(coldPlan(file), sink);
        QVERIFY(doc.ok());
        QVERIFY(!doc->deviceLimit);
        QVERIFY2(doc->deviceLimitMissing.find("under 16 MiB") != std::string::npos,
                 doc->deviceLimitMissing.c_str());
        QVERIFY(std::any_of(sink.warnings.begin(), sink.warnings.end(), [](const std::string& w) {
            return w.rfind("no device limit: the file is under 16 MiB", 0) == 0;
        }));
        QVERIFY(doc->cells.at(0).measured()); // the run itself goes on
        QVERIFY(!pctOfDeviceLimit(*doc, doc->cells.at(0)));
    }

    // Past 110% a cell is named, with the two reasons a device can be passed; within it (one
    // probe's noise) nothing is said; a warm run has no device limit to pass.
    void cellsPassingItAreSaid() {
        ResultDocument doc;
        doc.plan.cache = CacheMode::Cold;
        doc.deviceLimit.emplace();
        doc.deviceLimit->gbps = 2;
        doc.cells = {cellAt(2.1)}; // 105%
        QCOMPARE(std::string(runLimitName(doc)), std::string("device"));
        QVERIFY(std::abs(*pctOfRunLimit(doc, doc.cells[0]) - 105) < 1e-6);
        QCOMPARE(aboveDeviceLimitWarning(doc), std::string());
        doc.cells.push_back(cellAt(3));
        const auto warning = aboveDeviceLimitWarning(doc);
        QVERIFY2(warning.rfind("1 cell read faster than the device limit (2.00 GB/s, the fastest "
                               "large sequential read of this file): pread-uninit at 1 MiB "
                               "(150%).",
                               0) == 0,
                 warning.c_str());
        QVERIFY(warning.find("a cache below the page cache") != std::string::npos);
        QVERIFY(warning.find("more threads") != std::string::npos);
        doc.plan.cache = CacheMode::Warm;
        QCOMPARE(aboveDeviceLimitWarning(doc), std::string());
        QVERIFY(!pctOfRunLimit(doc, doc.cells[1])); // warm: memcpy's, which it has none of
    }

    void itsTextNamesTheWaysAndWhen() {
        DeviceLimit d;
        d.gbps = 3.87;
        d.fastest = "buffered 1 MiB reads right after eviction";
        d.device = "vda (253:0)";
        d.measuredAt = "2026-12-02T00:41:07Z";
        d.queueDepth = 32;
        d.directGbps = 1.1;
        d.directQueuedGbps = 2.11;
        d.bufferedGbps = 3.87;
        QCOMPARE(deviceLimitText(d),
                 std::string("device limit 3.87 GB/s on vda (253:0): buffered 1 MiB reads right "
                             "after eviction, the fastest of direct 1.10, direct x32 2.11 and "
                             "buffered 3.87 GB/s; measured 2026-12-02T00:41:07Z"));
        DeviceLimit bare; // as a CSV gives it back: the figure only
        bare.gbps = 2;
        QCOMPARE(deviceLimitText(bare), std::string("device limit 2.00 GB/s"));
    }
};

QTEST_GUILESS_MAIN(TestDeviceLimit)
#include "tst_device_limit.moc"
