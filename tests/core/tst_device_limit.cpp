// The device limit of cold and direct runs: measured from the file itself before the sweep,
// kept for the process, carried by the document, and said when cells pass it.
#include "device_limit.h" // the engine's own header: how often it measured
#include "readscope/document_words.h"
#include "readscope/finding_text.h"
#include "readscope/run_notes.h"
#include "readscope/runner.h"
#include "test_file.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <filesystem>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class Sink : public RunSink {
public:
    void onWarning(const RunWarning& w) override { warnings.push_back(warningText(w)); }
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
    // 64 MiB: the least a sequential read needs to mean anything.
    void aColdRunMeasuresItOnceAndKeepsIt() {
        const TestFile file(64 << 20);
        const FileProbe probe = file.probe();
        if (!probe.directSupported && !probe.residencyVerifiable && !probe.residencyByNowait)
            QSKIP("neither direct reads nor a verified eviction work on the test file's "
                  "filesystem: no way of measuring a device runs here");
        Sink sink;
        const std::uint64_t before = deviceLimitMeasurements();
        auto first = runPlan(coldPlan(file), sink);
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        QVERIFY2(first->deviceLimit, first->deviceLimitMissing.c_str());
        QCOMPARE(deviceLimitMeasurements(), before + 1);
        const DeviceLimit d = *first->deviceLimit;
        qInfo("%s", deviceLimitText(*first).c_str());
        QCOMPARE(d.blockBytes, std::uint64_t(1) << 20);
        QCOMPARE(d.spanBytes, std::uint64_t(64) << 20); // the whole file, in whole blocks
        QVERIFY(!d.device.empty() && !d.measuredAt.empty() && !d.fastest.empty());
        // Every way the file allows ran; a way that did not says why.
        QCOMPARE(d.directGbps.has_value(), probe.directSupported);
        QCOMPARE(d.directQueuedGbps.has_value(), probe.directSupported && probe.uringSupported);
        QCOMPARE(d.bufferedGbps.has_value(), probe.residencyVerifiable || probe.residencyByNowait);
        if (d.directQueuedGbps)
            QVERIFY(d.queueDepth > 1 && d.queueDepth <= 32); // reached, not asked
        for (const auto& [figure, name] :
             {std::pair{d.directGbps, "direct:"}, std::pair{d.directQueuedGbps, "direct queued:"},
              std::pair{d.bufferedGbps, "buffered:"}})
            QCOMPARE(d.skipped.find(name) == std::string::npos, figure.has_value());
        const auto pct = pctOfDeviceLimit(*first, first->cells.at(0));
        QVERIFY(pct && *pct > 0);
        // A second run on the same file in this process reuses the measurement, date and all.
        const std::uint64_t measurements = deviceLimitMeasurements();
        auto second = runPlan(coldPlan(file), sink);
        QCOMPARE(deviceLimitMeasurements(), measurements);
        QVERIFY(second.ok() && second->deviceLimit);
        QCOMPARE(second->deviceLimit->measuredAt, d.measuredAt);
        QCOMPARE(second->deviceLimit->gbps, d.gbps);
        QCOMPARE(second->deviceLimit->directGbps, d.directGbps);
        QCOMPARE(second->deviceLimit->bufferedGbps, d.bufferedGbps);
        // A file changed since is measured again.
        std::filesystem::last_write_time(
            file.path(), std::filesystem::last_write_time(file.path()) + std::chrono::hours(1));
        auto third = runPlan(coldPlan(file), sink);
        QVERIFY(third.ok() && third->deviceLimit);
        QCOMPARE(deviceLimitMeasurements(), measurements + 1);
    }

    // A direct run is held against the faster direct way: a direct read gets no read-ahead,
    // so the buffered way's figure would make it look slower than the device lets it be.
    void aDirectRunIsHeldAgainstTheDirectWays() {
        ResultDocument doc;
        doc.plan.cache = CacheMode::Direct;
        doc.deviceLimit.emplace();
        doc.deviceLimit->gbps = 5;
        doc.deviceLimit->blockBytes = 1 << 20;
        doc.deviceLimit->queueDepth = 32;
        doc.deviceLimit->directGbps = 1.5;
        doc.deviceLimit->directQueuedGbps = 2;
        doc.deviceLimit->bufferedGbps = 5;
        QCOMPARE(*deviceLimitGbps(doc), 2.0);
        QCOMPARE(deviceLimitText(doc),
                 std::string("device limit 2.00 GB/s for direct reads: direct 1 MiB reads, 32 in "
                             "flight (io_uring), the faster of direct 1.50 and direct x32 2.00 "
                             "GB/s"));
        doc.cells = {cellAt(1)};
        QVERIFY(std::abs(*pctOfDeviceLimit(doc, doc.cells[0]) - 50) < 1e-6);
        doc.plan.cache = CacheMode::Cold;
        QCOMPARE(*deviceLimitGbps(doc), 5.0);
        // Without its direct ways a direct run has no limit; from a CSV (no ways) the figure
        // it was held against.
        doc.plan.cache = CacheMode::Direct;
        doc.deviceLimit->directGbps.reset();
        doc.deviceLimit->directQueuedGbps.reset();
        QVERIFY(!deviceLimitGbps(doc));
        QCOMPARE(deviceLimitText(doc), std::string());
        doc.deviceLimit->bufferedGbps.reset();
        QCOMPARE(*deviceLimitGbps(doc), 5.0);
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
        const TestFile file(16 << 20);
        Sink sink;
        auto doc = runPlan(coldPlan(file), sink);
        QVERIFY(doc.ok());
        QVERIFY(!doc->deviceLimit);
        QVERIFY2(doc->deviceLimitMissing.find("under 64 MiB") != std::string::npos,
                 doc->deviceLimitMissing.c_str());
        QVERIFY(std::any_of(sink.warnings.begin(), sink.warnings.end(), [](const std::string& w) {
            return w.rfind("no device limit: the file is under 64 MiB", 0) == 0;
        }));
        QVERIFY(doc->cells.at(0).measured()); // the run itself goes on
        QVERIFY(!pctOfDeviceLimit(*doc, doc->cells.at(0)));
    }

    // Past 110% a cell is named, with why a device can be passed (more threads only when a
    // passing cell had them); within it (one probe's noise) nothing is said; a not-cold cell
    // is not counted (the page cache itself served it, as its status says); a warm run has
    // no device limit to pass.
    void cellsPassingItAreSaid() {
        ResultDocument doc;
        doc.plan.cache = CacheMode::Cold;
        doc.plan.threads = 1;
        doc.deviceLimit.emplace();
        doc.deviceLimit->gbps = 2;
        doc.cells = {cellAt(2.1)}; // 105%
        QCOMPARE(std::string(runLimitName(doc)), std::string("device"));
        QVERIFY(std::abs(*pctOfRunLimit(doc, doc.cells[0]) - 105) < 1e-6);
        QVERIFY(!aboveDeviceLimit(doc));
        doc.cells.push_back(cellAt(3));
        const auto found = aboveDeviceLimit(doc);
        QVERIFY(found && found->cells.size() == 1);
        QCOMPARE(found->cells[0].cell, std::size_t(1));
        QVERIFY(std::abs(found->cells[0].pct - 150) < 1e-6);
        QCOMPARE(found->limitGbps, 2.0);
        auto warning = aboveDeviceLimitText(*found, doc);
        QCOMPARE(warning,
                 std::string("1 cell read faster than the device limit (2.00 GB/s): "
                             "pread-uninit at 1 MiB (150%). "
                             "They may have been served by a cache below the page cache (the "
                             "disk's own, a virtual machine host's), or held against a limit "
                             "measured low (a cold run of a file larger than any such cache "
                             "would tell)"));
        doc.deviceLimit->blockBytes = 1 << 20; // with its ways known, it says which set it
        doc.deviceLimit->bufferedGbps = 2;
        QVERIFY(aboveDeviceLimitText(*aboveDeviceLimit(doc), doc)
                    .find("(2.00 GB/s: buffered 1 MiB reads right after eviction)") !=
                std::string::npos);
        doc.plan.threads = 2;
        warning = aboveDeviceLimitText(*aboveDeviceLimit(doc), doc);
        QVERIFY2(warning.find(", read by more threads than the limit's one reader, or") !=
                     std::string::npos,
                 warning.c_str());
        doc.cells[1].status = CellStatus::NotCold;
        QVERIFY(!passesDeviceLimit(doc, doc.cells[1]));
        QVERIFY(!aboveDeviceLimit(doc));
        doc.plan.cache = CacheMode::Warm;
        doc.cells[1].status = CellStatus::Ok;
        QVERIFY(!aboveDeviceLimit(doc));
        QVERIFY(!pctOfRunLimit(doc, doc.cells[1])); // warm: memcpy's, which it has none of
    }

    void itsTextNamesTheWaysAndWhen() {
        ResultDocument doc;
        doc.plan.cache = CacheMode::Cold;
        DeviceLimit& d = doc.deviceLimit.emplace();
        d.gbps = 3.87;
        d.blockBytes = 1 << 20;
        d.device = "vda (253:0)";
        d.measuredAt = "2026-12-02T00:41:07Z";
        d.queueDepth = 32;
        d.directGbps = 1.1;
        d.directQueuedGbps = 2.11;
        d.bufferedGbps = 3.87;
        QCOMPARE(deviceLimitText(doc),
                 std::string("device limit 3.87 GB/s on vda (253:0): buffered 1 MiB reads right "
                             "after eviction, the fastest of direct 1.10, direct x32 2.11 and "
                             "buffered 3.87 GB/s; measured 2026-12-02T00:41:07Z"));
        ResultDocument bare; // as a CSV gives it back: the figure only
        bare.plan.cache = CacheMode::Cold;
        bare.deviceLimit.emplace().gbps = 2;
        QCOMPARE(deviceLimitText(bare), std::string("device limit 2.00 GB/s"));
        QCOMPARE(deviceLimitWay(bare), std::string());
    }
};

QTEST_GUILESS_MAIN(TestDeviceLimit)
#include "tst_device_limit.moc"
