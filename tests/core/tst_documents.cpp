// Writers and readers: what is saved comes back with the same numbers; bad input is an error
// with a message, never a crash.
#include "readscope/document_words.h"
#include "readscope/documents.h"
#include "readscope/finding_text.h"
#include "readscope/provenance.h"
#include "readscope/state_words.h"

#include "csv_document.h"
#include "json_parts.h"
#include "test_file.h"

#include <fmt/format.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace readscope;

namespace {

nlohmann::json toJsonCell(const ResultDocument& doc) {
    return nlohmann::json::parse(toJson(doc)).at("cells").at(0);
}

ResultDocument sampleDocument() {
    ResultDocument doc;
    doc.plan.file = "/data/file, \"quoted\".bin";
    doc.plan.strategies = {"pread-zerofill", "pread-uninit"};
    doc.plan.sizes = {65536, 1 << 20};
    doc.plan.rounds = 3;
    doc.plan.cache = CacheMode::Cold;
    doc.fileSize = 64 << 20;
    doc.system = {"Test CPU",
                  8,
                  "Linux 6.1",
                  "ext4",
                  4096,
                  "0.1.0",
                  "2026-11-30T12:00:00Z",
                  "Linux",
                  false,
                  CpuCaches{48 << 10, 2 << 20, 0},
                  std::nullopt,
                  std::nullopt};
    for (const char* id : {"pread-zerofill", "pread-uninit"})
        for (std::uint64_t size : {65536ull, 1ull << 20}) {
            Cell c;
            c.strategy = id;
            c.rangeBytes = size;
            c.rangesPerRound = 1024;
            c.checksum = Checksum::Verified;
            c.residencyMethod = "cachestat";
            c.message = "a message, with \"quotes\"\nand a newline";
            for (int r = 1; r <= 3; ++r) {
                Sample s;
                s.round = r;
                s.bytes = 64ull << 20;
                s.seconds = 0.01 * r + (size >> 20) * 0.001 + 0.1234567890123;
                s.userSeconds = 0.001;
                s.systemSeconds = 0.002 * r;
                s.minorFaults = 10 * r;
                s.syscalls = 1024;
                s.latencyP50 = 1e-6 * r;
                s.latencyP99 = 3e-6 * r;
                s.residentBefore = 0.001 * r;
                if (r % 2 == 0) // measured in some rounds only: the median is over those
                    s.residentAfter = 0.1 * r;
                if (r > 1)
                    s.startedAt = 1764763200.125 + r;
                c.samples.push_back(s);
            }
            c.summarize();
            doc.cells.push_back(c);
        }
    Cell failed;
    failed.strategy = "direct-pread";
    failed.rangeBytes = 65536;
    failed.status = CellStatus::Unavailable;
    failed.message = "the filesystem refuses O_DIRECT";
    doc.cells.push_back(failed);
    return doc;
}

} // namespace

class TestDocuments : public QObject {
    Q_OBJECT
private slots:
    // Every checksum state is written as its words and read back as the same state, in JSON
    // and CSV alike; a saved document's words from before a state was typed still load.
    void checksumStatesRoundTrip() {
        const Checksum every[] = {Checksum::None,
                                  Checksum::NotChecked,
                                  Checksum::Verified,
                                  Checksum::VerifiedSinceResume,
                                  Checksum::Mismatch,
                                  Checksum::NotCheckedStopped,
                                  Checksum::NotCheckedFileChanged};
        auto doc = sampleDocument();
        for (const Checksum state : every) {
            doc.cells[0].checksum = state;
            const auto json = fromJson(toJson(doc));
            const auto csv = fromSummaryCsv(toSummaryCsv(doc));
            QVERIFY(json.ok() && csv.ok());
            QCOMPARE(json->cells[0].checksum, state);
            QCOMPARE(csv->cells[0].checksum, state);
            QCOMPARE(notChecked(state), checksumText(state).starts_with("not checked"));
        }
        QCOMPARE(parseChecksum("not checked: some reason a later version gives"),
                 Checksum::NotChecked);
        QCOMPARE(parseChecksum("something else"), Checksum::None);
    }

    // A stopped run's cells: complete ones, and partial ones with their fewest and most rounds.
    void keptCellsCountRounds() {
        auto doc = sampleDocument(); // 3 rounds a cell
        doc.plan.rounds = 3;
        doc.cells[1].samples.resize(1);
        doc.cells[2].samples.resize(2);
        const auto kept = keptCells(doc);
        QCOMPARE(kept.planned, std::size_t(3));
        QCOMPARE(kept.partial, std::size_t(2));
        QCOMPARE(kept.fewest, std::size_t(1));
        QCOMPARE(kept.most, std::size_t(2));
        QCOMPARE(kept.complete + kept.partial,
                 std::size_t(std::count_if(doc.cells.begin(), doc.cells.end(),
                                           [](const Cell& c) { return c.measured(); })));
        doc.plan.durationSeconds = 5; // no planned count: every cell is whole
        QCOMPARE(keptCells(doc).partial, std::size_t(0));
    }

    // Where a run is, said from its typed phase; an A/A run's with its repeat.
    void phasesInWords() {
        Progress p;
        p.at = {RunPhase::Round, 3, 15};
        QCOMPARE(phaseText(p), std::string("round 3/15"));
        p.at = {RunPhase::WarmUp, 1, 2};
        QCOMPARE(phaseText(p), std::string("warm-up 1/2"));
        p.at = {RunPhase::TimedRound, 4, 0, 20};
        QCOMPARE(phaseText(p), std::string("round 4 of a 20 s run"));
        p.at = {RunPhase::Refining, 13, 0, 0, 0.05};
        QCOMPARE(phaseText(p), std::string("refining to ±5%: round 13"));
        p.repeat = 2;
        p.repeats = 2;
        p.at = {RunPhase::OpeningPrices};
        QCOMPARE(phaseText(p),
                 std::string("repeat 2/2: pricing copies and faults before the rounds (untimed)"));
    }

    void jsonRoundTrip() {
        const auto doc = sampleDocument();
        auto back = fromJson(toJson(doc));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->cells.size(), doc.cells.size());
        QCOMPARE(back->plan.file, doc.plan.file);
        QCOMPARE(testing::name(back->plan.cache), testing::name(CacheMode::Cold));
        QCOMPARE(back->system.cpuModel, doc.system.cpuModel);
        QCOMPARE(back->system.faultsCounted, false);       // "not counted" survives
        QVERIFY(back->system.caches == doc.system.caches); // L3 unknown stays unknown
        // Documents written before the field existed counted their faults.
        std::string older = toJson(doc);
        const auto at = older.find("\"faults_counted\"");
        QVERIFY(at != std::string::npos);
        older.replace(at, older.find("false", at) + 5 - at, "\"unrelated\": 0");
        auto old = fromJson(older);
        QVERIFY2(old.ok(), old.ok() ? "" : old.error().message.c_str());
        QCOMPARE(old->system.faultsCounted, true);
        for (std::size_t i = 0; i < doc.cells.size(); ++i) {
            const auto &a = doc.cells[i], &b = back->cells[i];
            QCOMPARE(b.strategy, a.strategy);
            QCOMPARE(testing::name(b.status), testing::name(a.status));
            QCOMPARE(b.message, a.message);
            QCOMPARE(b.summary.median, a.summary.median); // exact: shortest round-trip digits
            QCOMPARE(b.summary.cv, a.summary.cv);
            QCOMPARE(b.samples.size(), a.samples.size());
            for (std::size_t s = 0; s < a.samples.size(); ++s) {
                QCOMPARE(b.samples[s].seconds, a.samples[s].seconds);
                QCOMPARE(b.samples[s].residentBefore, a.samples[s].residentBefore);
                QCOMPARE(b.samples[s].residentAfter, a.samples[s].residentAfter);
                QCOMPARE(b.samples[s].startedAt, a.samples[s].startedAt);
            }
            QCOMPARE(b.residentAfter, a.residentAfter);
        }
        QVERIFY(doc.cells[0].residentAfter.has_value());
        QVERIFY(!back->cells.back().residentBefore.has_value());
    }

    void csvSummaryRoundTrip() {
        const auto doc = sampleDocument();
        const auto text = toSummaryCsv(doc);
        QVERIFY(text.rfind("strategy,range_bytes,pattern,cache,threads,rounds,median_gbps,"
                           "min_gbps,max_gbps,p25_gbps,p75_gbps,cv,resident_before,status,"
                           "message",
                           0) == 0);
        QVERIFY(text.find("\r\n") != std::string::npos);
        auto back = fromSummaryCsv(text);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->cells.size(), doc.cells.size());
        for (std::size_t i = 0; i < doc.cells.size(); ++i) {
            QCOMPARE(back->cells[i].summary.median, doc.cells[i].summary.median);
            QCOMPARE(back->cells[i].summary.p75, doc.cells[i].summary.p75);
            QCOMPARE(back->cells[i].message, doc.cells[i].message);
            QCOMPARE(back->cells[i].residentAfter, doc.cells[i].residentAfter);
            QCOMPARE(testing::name(back->cells[i].status), testing::name(doc.cells[i].status));
        }
        QCOMPARE(testing::name(back->plan.cache), testing::name(CacheMode::Cold));
        QCOMPARE(back->plan.strategies.size(), std::size_t(3));
    }

    // A cell's optional figure is declared once (cell_fields.h): a table with one field more
    // (a name the formats have never had, for the fold rate) writes it in the JSON and as a
    // summary CSV column, and reads it back from both; the readers of the shipped table do not
    // know it, so the table, not the writers' own lists, is what carries it.
    void aFieldDeclaredOnceTravelsInBothFormats() {
        std::vector<CellField> fields;
        for (const CellField& f : kCellFields)
            if (std::string_view(f.name) != "fold_gbps")
                fields.push_back(f);
        fields.push_back({"test_added_gbps", "GB/s", &Cell::foldGbps});
        auto doc = sampleDocument();
        doc.cells[0].foldGbps = 12.25;
        doc.cells[1].foldGbps.reset();

        const nlohmann::json j = cellJson(doc, doc.cells[0], fields);
        QCOMPARE(j.at("test_added_gbps").get<double>(), 12.25);
        QVERIFY(!j.contains("fold_gbps"));
        QVERIFY(cellJson(doc, doc.cells[1], fields).at("test_added_gbps").is_null());
        QCOMPARE(cellFrom(j, fields).foldGbps, std::optional(12.25));
        QVERIFY(!cellFrom(j).foldGbps); // the shipped table has no such name

        const std::string csv = toSummaryCsv(doc, fields);
        const std::string header = csv.substr(0, csv.find("\r\n"));
        QVERIFY2(header.find(",test_added_gbps,") != std::string::npos, header.c_str());
        QVERIFY2(header.find(",fold_gbps,") == std::string::npos, header.c_str());
        auto back = fromSummaryCsv(csv, fields);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->cells[0].foldGbps, std::optional(12.25));
        QVERIFY(!back->cells[1].foldGbps);
        QVERIFY(!fromSummaryCsv(csv)->cells[0].foldGbps);
        // The shipped table's own scaled field (seconds written as nanoseconds) both ways.
        doc.cells[0].mappedFaultSeconds = 2.5e-7;
        QCOMPARE(toJsonCell(doc).at("mapped_fault_ns").get<double>(), 250.0);
        QCOMPARE(*fromSummaryCsv(toSummaryCsv(doc))->cells[0].mappedFaultSeconds, 2.5e-7);
    }

    // What can move pages under a run is on record: it travels in the JSON, the system line
    // names it, a document that did not look keeps its shape, and two speeds on a machine
    // with a DAMON pageout scheme name the scheme as a cause the counters cannot show.
    void memoryDaemonsAreOnRecord() {
        auto doc = sampleDocument();
        QVERIFY(!nlohmann::json::parse(toJson(doc)).at("system").contains("memory"));
        MemoryDaemons m;
        m.damon.push_back({"pageout", "paddr", 60});
        m.thp = "madvise";
        m.zswap = false;
        doc.system.memory = m;
        const std::string text = memoryDaemonsText(m);
        QCOMPARE(text, std::string("DAMON pageout of memory idle 60 s (all physical memory), THP "
                                   "madvise, no swap"));
        QVERIFY(systemLine(doc).ends_with(" · " + text));
        auto back = fromJson(toJson(doc));
        QVERIFY(back.ok());
        QCOMPARE(back->system.memory, doc.system.memory);
        QVERIFY(canEvictDuringRun(m));
        TwoSpeedsFinding two;
        two.split.speeds = {4, 4, 1.0, 10.0, 3.0};
        const std::string said = twoSpeedsFindingText(two, doc);
        QVERIFY2(said.find("This machine runs DAMON pageout of memory idle 60 s") !=
                     std::string::npos,
                 said.c_str());
        doc.system.memory->damon.clear();
        QVERIFY(!canEvictDuringRun(*doc.system.memory));
        // Whether the CPU's counters could be read travels too, and the system line says when
        // they could not.
        for (const auto c : {HardwareCounters::Present, HardwareCounters::Absent,
                             HardwareCounters::NotPermitted}) {
            doc.system.hardwareCounters = c;
            QCOMPARE(fromJson(toJson(doc))->system.hardwareCounters, std::optional(c));
        }
        QVERIFY(systemLine(doc).ends_with(" · hardware counters not permitted"));
        doc.system.hardwareCounters = HardwareCounters::Absent;
        QVERIFY(systemLine(doc).ends_with(" · no hardware counters"));
        doc.system.hardwareCounters = HardwareCounters::Present;
        QVERIFY(systemLine(doc).ends_with(" · " + memoryDaemonsText(*doc.system.memory)));
        QVERIFY(twoSpeedsFindingText(two, doc).find("DAMON") == std::string::npos);
    }

    // A threads sweep and a queue-depth sweep come back as sweeps: the same axis, the same
    // points, each cell at its own threads or depth, in the JSON and the CSV alike; the
    // Markdown's rows are the threads, and the rerun command asks for the same list.
    void threadAndDepthSweepsTravel() {
        for (const SweepAxis axis : {SweepAxis::Threads, SweepAxis::QueueDepth}) {
            ResultDocument doc = sampleDocument();
            doc.plan.sizes = {65536};
            std::vector<Cell> cells;
            for (int v : {1, 4}) {
                Cell c = doc.cells[0]; // pread-zerofill at 64 KiB
                c.strategy = "uring-batch";
                if (axis == SweepAxis::Threads)
                    c.pointThreads = v;
                else
                    c.pointQueueDepth = c.queueDepth = unsigned(v);
                c.summary.median = v; // tells the points apart
                cells.push_back(c);
            }
            doc.cells = cells;
            doc.plan.strategies = {"uring-batch"};
            if (axis == SweepAxis::Threads)
                doc.plan.threadCounts = {1, 4};
            else
                doc.plan.queueDepths = {1, 4};
            QCOMPARE(int(sweepAxis(doc.plan)), int(axis));
            auto json = fromJson(toJson(doc));
            auto csv = fromSummaryCsv(toSummaryCsv(doc));
            QVERIFY(json.ok() && csv.ok());
            for (const ResultDocument* back : {&*json, &*csv}) {
                QCOMPARE(int(sweepAxis(back->plan)), int(axis));
                QCOMPARE(back->points().size(), std::size_t(2));
                const Cell* four = back->find("uring-batch", doc.cells[1].point());
                QVERIFY(four);
                QCOMPARE(four->summary.median, 4.0);
                QCOMPARE(threadsAt(back->plan, four->point()), axis == SweepAxis::Threads ? 4 : 1);
            }
            const std::string md = toMarkdown(doc);
            QVERIFY2(md.starts_with(axis == SweepAxis::Threads ? "| threads |" : "| queue depth |"),
                     md.c_str());
            const std::string rerun = reproduceCommand(doc.plan);
            QVERIFY2(
                rerun.find(axis == SweepAxis::Threads ? "--threads 1,4" : "--queue-depth 1,4") !=
                    std::string::npos,
                rerun.c_str());
            // The CSV's threads column is the cell's: 4 where four threads read it.
            if (axis == SweepAxis::Threads)
                QVERIFY(toSummaryCsv(doc).find(",65536,sequential,cold,4,") != std::string::npos);
        }
    }

    // The memcpy limit and one lseek's cost travel; IOPS and the share of the limit are
    // written beside them for scripts; the cost model's fits are in the JSON.
    void limitsAndDerivedFiguresTravel() {
        auto doc = sampleDocument();
        doc.lseekSeconds = 1.25e-6;
        doc.unitCosts.nullSyscall = 1.5e-7;
        doc.unitCosts.fileFault = 2.25e-6; // the anonymous fault not measured
        doc.cells[0].copyLimitGbps = 20;
        doc.cells[1].readAmplification = 2.5; // pread-coalesce's bytes read per byte wanted
        doc.cells[1].memsetGbps = 31.5;       // the prices a warm cell's time split uses
        doc.cells[1].memcpyGbps = 27.25;
        doc.cells[1].mappedFoldGbps = 12.5;
        doc.cells[1].mappedCopyGbps = 9.75;
        doc.cells[1].mappedFaultSeconds = 2.5e-6; // a fault and an unmapped page of its pages
        doc.cells[1].mappedUnmapSeconds = 1.25e-8;
        doc.deviceLimit = DeviceLimit{2.5,
                                      "direct 1 MiB reads, 32 in flight (io_uring)",
                                      "vda (253:0)",
                                      "2026-12-02T00:41:07Z",
                                      1 << 20,
                                      128 << 20,
                                      32,
                                      1.5,
                                      2.5,
                                      std::nullopt,
                                      "buffered: the file stayed 40% cached after eviction"};
        const double median = doc.cells[0].summary.median;
        const auto csv = toSummaryCsv(doc);
        QVERIFY(csv.find(
                    ",median_iops,copy_limit_gbps,pct_of_copy_limit,warmup,round_time,point_"
                    "threads,point_queue_depth,read_amplification,device_limit_gbps,pct_of_"
                    "device_limit,device_bytes_read,fetched_per_wanted,resident_after,"
                    "memory_limit,duration_s,memset_gbps,kernel_copy_gbps,memcpy_gbps,mapped_fold_"
                    "gbps,mapped_copy_gbps,copy_pause_ns,mapped_fault_ns,mapped_unmap_page_ns,time_"
                    "per_range_us,share_syscalls_"
                    "pct,share_faults_pct,share_zeroing_pct,share_page_cache_pct,share_"
                    "copying_pct,share_fold_pct,share_unexplained_pct,trace,trace_"
                    "digest\r\n") != std::string::npos);
        // ... then no memset rate, no time split (a cold run's time is the device's), no trace.
        QVERIFY(csv.find(fmt::format(",2.5,{},,,{},,,,,,,,,,,,,,,,,,,,\r\n", median / 2.5 * 100,
                                     *doc.cells[0].residentAfter)) != std::string::npos);
        // A memory limit and a duration travel too, so a rerun from the CSV keeps them.
        auto limited = doc;
        limited.plan.memoryLimit = 256ull << 20;
        limited.plan.durationSeconds = 30;
        auto limitedBack = fromSummaryCsv(toSummaryCsv(limited));
        QVERIFY(limitedBack.ok());
        QCOMPARE(limitedBack->plan.memoryLimit, std::uint64_t(256) << 20);
        QCOMPARE(limitedBack->plan.durationSeconds, 30.0);
        auto fromCsv = fromSummaryCsv(csv);
        QVERIFY(fromCsv.ok());
        // The warm-up and round time travel; a summary from before they did gets the
        // defaults of its day, not today's.
        QCOMPARE(fromCsv->plan.warmup, doc.plan.warmup);
        QCOMPARE(fromCsv->plan.roundTimeSeconds, doc.plan.roundTimeSeconds);
        const auto cut = csv.find(",warmup,round_time");
        std::string older;
        for (std::size_t line = 0, at = 0; at < csv.size();) {
            const auto end = csv.find("\r\n", at);
            std::string row = csv.substr(at, end - at);
            // Drop the last 30 fields of every row (warmup, round_time, the sweep point's
            // two, read_amplification, the device limit's two, the bytes fetched's two,
            // resident_after, the memory limit, the duration, the memset, kernel-copy and
            // memcpy rates, the two mapped rates, the copy price's pause, the mapped fault's
            // two prices, the time split's eight and the trace's two; no field here holds a
            // comma after them).
            for (int k = 0; k < 30; ++k)
                row.erase(row.rfind(','));
            older += row + "\r\n";
            at = end + 2;
            ++line;
        }
        QVERIFY(cut != std::string::npos && older.find("warmup") == std::string::npos);
        auto fromOlder = fromSummaryCsv(older);
        QVERIFY(fromOlder.ok());
        QCOMPARE(fromOlder->plan.warmup, 2);
        QCOMPARE(fromOlder->plan.roundTimeSeconds, 0.1);
        QCOMPARE(*fromCsv->cells[0].copyLimitGbps, 20.0);
        QCOMPARE(*fromCsv->cells[1].readAmplification, 2.5);
        QCOMPARE(fromCsv->cells[1].memsetGbps, std::optional(31.5));
        QCOMPARE(fromCsv->cells[1].memcpyGbps, std::optional(27.25));
        QCOMPARE(fromCsv->cells[1].mappedFoldGbps, std::optional(12.5));
        QCOMPARE(fromCsv->cells[1].mappedCopyGbps, std::optional(9.75));
        QCOMPARE(*fromCsv->cells[1].mappedFaultSeconds * 1e9, 2500.0);
        QCOMPARE(*fromCsv->cells[1].mappedUnmapSeconds * 1e9, 12.5);
        QVERIFY(!fromCsv->cells[0].mappedFaultSeconds && !fromOlder->cells[1].mappedFaultSeconds);
        QVERIFY(!fromCsv->cells[0].mappedFoldGbps);
        QVERIFY(!fromCsv->cells[0].readAmplification);
        QVERIFY(!fromCsv->cells[1].copyLimitGbps);
        // A CSV keeps the device limit's figure; how and when it was measured is the JSON's.
        QVERIFY(fromCsv->deviceLimit && fromCsv->deviceLimit->gbps == 2.5);
        QVERIFY(!fromOlder->deviceLimit);
        const auto json = toJson(doc);
        auto back = fromJson(json);
        QVERIFY(back.ok());
        QVERIFY(back->deviceLimit);
        const DeviceLimit& d = *back->deviceLimit;
        QCOMPARE(deviceLimitText(*back), deviceLimitText(doc));
        QCOMPARE(d.skipped, doc.deviceLimit->skipped);
        QCOMPARE(d.blockBytes, std::uint64_t(1) << 20);
        QCOMPARE(d.spanBytes, std::uint64_t(128) << 20);
        QVERIFY(!d.bufferedGbps && d.directGbps == 1.5);
        QVERIFY(std::abs(*back->cells[1].mappedFaultSeconds - 2.5e-6) < 1e-15);
        QVERIFY(std::abs(*back->cells[1].mappedUnmapSeconds - 1.25e-8) < 1e-15);
        QVERIFY(!back->cells[0].mappedFaultSeconds && !back->cells[0].mappedUnmapSeconds);
        QVERIFY(json.find(fmt::format("\"pct_of_device_limit\": {}", median / 2.5 * 100)) !=
                std::string::npos);
        doc.deviceLimit.reset();
        doc.deviceLimitMissing = "the file is under 16 MiB";
        auto missing = fromJson(toJson(doc));
        QVERIFY(missing.ok() && !missing->deviceLimit);
        QCOMPARE(missing->deviceLimitMissing, doc.deviceLimitMissing);
        QVERIFY(back->lseekSeconds && std::abs(*back->lseekSeconds - 1.25e-6) < 1e-15);
        QVERIFY(back->unitCosts.nullSyscall &&
                std::abs(*back->unitCosts.nullSyscall - 1.5e-7) < 1e-15);
        QVERIFY(back->unitCosts.fileFault &&
                std::abs(*back->unitCosts.fileFault - 2.25e-6) < 1e-15);
        QVERIFY(!back->unitCosts.anonymousFault); // not measured stays not measured
        QCOMPARE(*back->cells[0].copyLimitGbps, 20.0);
        QCOMPARE(*back->cells[1].readAmplification, 2.5);
        QVERIFY(json.find(fmt::format("\"pct_of_copy_limit\": {}", median / 20 * 100)) !=
                std::string::npos);
        QVERIFY(json.find("\"median_iops\"") != std::string::npos);
        QVERIFY(json.find("\"cost_model\": []") != std::string::npos); // 2 sizes: no fit
    }

    void samplesCsv() {
        const auto text = toSamplesCsv(sampleDocument());
        int lines = 0;
        for (char c : text)
            lines += c == '\n';
        QCOMPARE(lines, 1 + 4 * 3); // header + one row per round of each measured cell
    }

    // A figure nobody measured is absent (null, an empty field), never a 0 that reads as "this
    // strategy delivered nothing".
    void missingValuesAreAbsentNotZero() {
        auto doc = sampleDocument();
        doc.cells[0].samples[0].latencyP50.reset();
        doc.cells[0].samples[0].latencyP99.reset();
        doc.cells[0].samples[1].seconds = 0; // a round whose clock measured nothing
        doc.cells[0].summarize();
        QVERIFY(!doc.cells[0].samples[1].gbps());
        QCOMPARE(doc.cells[0].summary.min,
                 *doc.cells[0].samples[0].gbps() < *doc.cells[0].samples[2].gbps()
                     ? *doc.cells[0].samples[0].gbps()
                     : *doc.cells[0].samples[2].gbps());

        const std::string json = toJson(doc);
        QVERIFY(json.find("\"latency_p50\": null") != std::string::npos);
        QVERIFY(json.find("\"median_gbps\": null") != std::string::npos); // the unavailable cell
        QVERIFY(json.find("\"median_gbps\": 0,") == std::string::npos);
        auto back = fromJson(json);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(!back->cells[0].samples[0].latencyP50);
        QCOMPARE(*back->cells[0].samples[2].latencyP50, 3e-6);

        const std::string summary = toSummaryCsv(doc);
        const auto last = summary.substr(summary.rfind("direct-pread"));
        QVERIFY2(last.find(",,,,,,") != std::string::npos, last.c_str()); // six empty rates
        const std::string samples = toSamplesCsv(doc);
        const auto row2 = samples.find("pread-zerofill,65536,auto,2,");
        QVERIFY(row2 != std::string::npos);
        const auto line = samples.substr(row2, samples.find('\n', row2) - row2);
        QVERIFY2(line.find(",0,,") != std::string::npos, line.c_str()); // seconds 0, gbps empty
        const auto row1 = samples.find("pread-zerofill,65536,auto,1,");
        const auto line1 = samples.substr(row1, samples.find('\n', row1) - row1);
        // syscalls, seeks, then no latency; bytes read (0: the bytes wanted), the bytes
        // fetched from storage, not counted (empty, never 0), involuntary switches (0), and
        // steal, other processes' CPU and the clock, not measured (empty) are the last columns
        QVERIFY2(line1.find(",1024,0,,,") != std::string::npos, line1.c_str());
        QVERIFY2(line1.find(",0.001,0,,0,,,,,,,\r") != std::string::npos,
                 line1.c_str()); // resident, bytes read, device bytes, switches, steal...,
                                 // resident after (not measured in round 1), TLB shootdowns
                                 // (not counted), when it started (not recorded), the whole
                                 // file's residency after (a duration run's only)
    }

    // Noise is judged by the median's interval, carried by CSV and JSON, and said once.
    void noiseIsOneLineAndTheIntervalTravels() {
        auto doc = sampleDocument();
        for (auto& c : doc.cells) { // seven steady rounds: within 1% of each other
            while (c.measured() && c.samples.size() < 7) {
                c.samples.push_back(c.samples.back());
                c.samples.back().round = int(c.samples.size());
            }
            for (auto& s : c.samples)
                s.seconds = 0.2 + 0.001 * s.round;
            c.summarize();
        }
        QVERIFY(!noiseFinding(doc)); // none noisy
        for (int i : {0, 2}) {
            auto& c = doc.cells[std::size_t(i)];
            c.samples[0].seconds *= 1.5; // two slow rounds of seven: the interval spans them
            c.samples[1].seconds *= 1.5;
            c.summarize();
            QCOMPARE(testing::name(c.status), testing::name(CellStatus::Noisy));
        }
        const auto noise = noiseFinding(doc);
        QVERIFY(noise);
        QCOMPARE(noise->noisy, std::size_t(2));
        QCOMPARE(noise->measured, std::size_t(4));
        const auto line = noiseText(*noise, doc, "--rounds");
        QVERIFY2(line.rfind("2 of 4 cells noisy: their median is uncertain by more than ±5% (the "
                            "interval over the rounds, coverage 95%)",
                            0) == 0,
                 line.c_str());
        QVERIFY(line.find("raise --rounds") != std::string::npos);
        const auto& noisy = doc.cells[0];
        QCOMPARE(noisy.summary.ciLow, noisy.summary.min); // 7 rounds: min-max, 98.4% coverage
        QCOMPARE(noisy.summary.ciCoverage, 1 - 2.0 / 128);
        const std::string status = statusText(noisy);
        QVERIFY2(status.rfind("noisy ±", 0) == 0 && status.back() == '%', status.c_str());
        QCOMPARE(roundsText(doc), std::string("median of 7 interleaved rounds"));

        auto csv = fromSummaryCsv(toSummaryCsv(doc));
        QVERIFY(csv.ok());
        QCOMPARE(csv->cells[0].summary.ciLow, noisy.summary.ciLow);
        QCOMPARE(csv->cells[0].summary.ciHigh, noisy.summary.ciHigh);
        QCOMPARE(testing::name(csv->cells[0].status), testing::name(CellStatus::Noisy));
        auto json = fromJson(toJson(doc));
        QVERIFY(json.ok());
        QCOMPARE(json->cells[0].summary.ciHigh, noisy.summary.ciHigh);
        QCOMPARE(json->cells[0].summary.ciCoverage, 1 - 2.0 / 128);
    }

    // Three rounds give [min, max] at 75% coverage: too unsure to call a cell noisy or quiet,
    // and every output says 75%, never 95%.
    void threeRoundsAreTooFewToTell() {
        auto doc = sampleDocument(); // 3 rounds a cell
        auto& c = doc.cells[0];
        c.samples[0].seconds *= 1.5; // one slow round of three: min-max spans it
        c.summarize();
        QCOMPARE(testing::name(c.status), testing::name(CellStatus::TooFewRounds));
        QVERIFY(!c.summary.noisy);
        QCOMPARE(c.summary.ciCoverage, 0.75);
        QCOMPARE(statusText(c), std::string("too few rounds to tell"));
        QVERIFY(!noiseFinding(doc));
        QCOMPARE(intervalCoverageText(doc), std::string("75% at 3 rounds"));
        const auto md = toMarkdown(doc);
        QVERIFY2(md.find("§ too few rounds to tell: the median's interval (coverage 75% at 3 "
                         "rounds) is too unsure to call these cells noisy or not.") !=
                     std::string::npos,
                 md.c_str());
        QVERIFY2(md.find("95%") == std::string::npos, md.c_str());
        QVERIFY(md.find(fmt::format("{:.2f}§", c.summary.median)) != std::string::npos);
        auto json = fromJson(toJson(doc));
        QVERIFY(json.ok());
        QCOMPARE(testing::name(json->cells[0].status), testing::name(CellStatus::TooFewRounds));
        auto csv = fromSummaryCsv(toSummaryCsv(doc));
        QVERIFY(csv.ok());
        QCOMPARE(testing::name(csv->cells[0].status), testing::name(CellStatus::TooFewRounds));
        // One round: no interval at all.
        for (auto& cell : doc.cells)
            if (cell.measured()) {
                cell.samples.resize(1);
                cell.summarize();
                QCOMPARE(testing::name(cell.status), testing::name(CellStatus::TooFewRounds));
            }
        QCOMPARE(intervalCoverageText(doc), std::string("none, 1 round"));
    }

    // What disturbed a cell's rounds is said with its cause, the largest one named.
    void disturbanceNamesItsCause() {
        auto doc = sampleDocument();
        doc.system.logicalCores = 2;
        for (auto& c : doc.cells)
            for (auto& s : c.samples) {
                s.seconds = 0.2;              // 0.4 s of the two CPUs' time a round
                s.stolenSeconds = 0.04 * 0.9; // 9% of it stolen
                s.otherCpuSeconds = 0.008;    // 2% others
            }
        doc.cells[0].samples[0].stolenSeconds = 0; // one round without steal
        std::vector<const Cell*> cells = {&doc.cells[0]};
        const Disturbance d = disturbanceOf(cells, doc.system.logicalCores);
        QVERIFY(d.measured);
        QCOMPARE(d.rounds, 3);
        QCOMPARE(d.roundsWithSteal, 2);
        QCOMPARE(int(*mainCause(d)), int(DisturbanceCause::Steal));
        QCOMPARE(disturbanceText(d),
                 std::string("the hypervisor took 6% of the CPUs' time (steal in 2 of 3 rounds)"));
        for (auto& s : doc.cells[0].samples) {
            s.stolenSeconds = 0;
            s.otherCpuSeconds = 0.2; // half of both CPUs: a busy core elsewhere
        }
        QCOMPARE(disturbanceText(disturbanceOf(cells, 2)),
                 std::string("other processes and the kernel's threads kept 50% of the CPUs "
                             "busy"));
        for (auto& s : doc.cells[0].samples) {
            s.otherCpuSeconds = 0;
            s.involuntarySwitches = 3;
        }
        QCOMPARE(disturbanceText(disturbanceOf(cells, 2)),
                 std::string("the workers were preempted in 3 of 3 rounds"));
        for (auto& s : doc.cells[0].samples) {
            s.involuntarySwitches = 0;
            s.stolenSeconds.reset();
            s.otherCpuSeconds.reset();
        }
        QVERIFY(!disturbanceOf(cells, 2).measured);
        QVERIFY(!mainCause(disturbanceOf(cells, 2)));
        QCOMPARE(disturbanceText(disturbanceOf(cells, 2)), std::string());
        // The noise line names the cause over the noisy cells' rounds.
        for (auto& c : doc.cells) {
            while (c.measured() && c.samples.size() < 7) {
                c.samples.push_back(c.samples.back());
                c.samples.back().round = int(c.samples.size());
            }
            for (auto& s : c.samples) {
                s.seconds = 0.1 * (1 + 0.05 * s.round); // spread: noisy
                s.stolenSeconds = 0.06;                 // over a quarter of the CPUs' time
                s.otherCpuSeconds = 0;
            }
            c.summarize();
        }
        const auto noise = noiseFinding(doc);
        QVERIFY(noise && mainCause(noise->during) == DisturbanceCause::Steal);
        const auto line = noiseText(*noise, doc, "--rounds");
        QVERIFY2(line.find("; during their rounds the hypervisor took ") != std::string::npos,
                 line.c_str());
        auto json = fromJson(toJson(doc));
        QVERIFY(json.ok());
        QCOMPARE(*json->cells[0].samples[0].stolenSeconds, 0.06);
        QCOMPARE(json->cells[0].samples[0].involuntarySwitches, std::uint64_t(0));
        QVERIFY(toSamplesCsv(doc).find(",involuntary_switches,stolen_seconds,other_cpu_seconds,"
                                       "cpu_mhz") != std::string::npos);
    }

    void markdownShape() {
        const auto md = toMarkdown(sampleDocument());
        QVERIFY(md.rfind("| range | pread-zerofill | pread-uninit | direct-pread |\n", 0) == 0);
        QVERIFY(md.find("| 64 KiB |") != std::string::npos);
        QVERIFY(md.find("| 1 MiB |") != std::string::npos);
        QVERIFY(md.find("n/a") != std::string::npos);
        QVERIFY(md.find("GB/s (10^9 bytes/s)") != std::string::npos);
        QVERIFY(md.find("Test CPU") != std::string::npos);
    }

    // A pasted table carries the command that reruns it elsewhere and every round's figure.
    void markdownEndsWithRerunAndRounds() {
        auto doc = sampleDocument();
        doc.plan.sizes = {65536, 1 << 20};
        doc.plan.consume = Consume::Minimal;
        std::string md = toMarkdown(doc);
        const auto rerun = md.find("\nRerun: `readscope-cli run ");
        QVERIFY2(rerun != std::string::npos, md.c_str());
        const std::string line = md.substr(rerun, md.find('\n', rerun + 1) - rerun);
        for (const char* part : {"--sizes 64K,1M", "--strategies pread-zerofill,pread-uninit",
                                 "--cache cold", "--rounds 3", "--seed 42", "--consume minimal"})
            QVERIFY2(line.find(part) != std::string::npos, line.c_str());
        QVERIFY(md.find("<details><summary>GB/s of every round</summary>") != std::string::npos);
        const auto row = md.find("pread-zerofill   64 KiB:");
        QVERIFY2(row != std::string::npos, md.c_str());
        QCOMPARE(std::count(md.begin() + row, md.begin() + md.find('\n', row), '.'), 3);
        // A generated target: anyone can make it, so the command starts by doing so.
        doc.fileGenerated = true;
        md = toMarkdown(doc);
        QVERIFY(md.find("Rerun: `readscope-cli generate readscope-test.bin --size 64M && "
                        "readscope-cli run readscope-test.bin ") != std::string::npos);
        auto back = fromJson(toJson(doc));
        QVERIFY(back.ok() && back->fileGenerated);
        // A whole-file sweep's --sizes are its file sizes; the folder of its copies travels
        // (a recovery file needs it to clear a crash's leftovers).
        doc.plan.pattern = Pattern::Whole;
        doc.plan.fileSizes = {128, 8 << 10};
        doc.copiesFolder = "/data/.readscope-copies-12345678";
        md = toMarkdown(doc);
        QVERIFY2(md.find("--sizes 128,8K") != std::string::npos, md.c_str());
        QVERIFY(md.find("--pattern whole") != std::string::npos);
        back = fromJson(toJson(doc));
        QVERIFY(back.ok());
        QCOMPARE(back->plan.fileSizes, doc.plan.fileSizes);
        QCOMPARE(back->copiesFolder, doc.copiesFolder);
    }

    void malformed_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray("");
        QTest::newRow("json garbage") << QByteArray("{\"format\": ");
        QTest::newRow("json other") << QByteArray("{\"hello\": 1}");
        QTest::newRow("json wrong types")
            << QByteArray("{\"format\":\"readscope-result\",\"cells\":[{\"strategy\":5}]}");
        QTest::newRow("json future")
            << QByteArray("{\"format\":\"readscope-result\",\"format_version\":99}");
        QTest::newRow("csv no header") << QByteArray("a,b,c\r\n1,2,3\r\n");
        QTest::newRow("csv open quote") << QByteArray("strategy,\"range_bytes\r\n");
        QTest::newRow("csv bad number")
            << QByteArray("strategy,range_bytes,median_gbps,status\r\nx,12abc,1,ok\r\n");
    }
    void malformed() {
        QFETCH(QByteArray, text);
        QTemporaryDir dir;
        const auto path = (dir.path() + "/doc").toStdString();
        QVERIFY(writeFileAtomically(path, text.toStdString()).ok());
        auto doc = loadDocument(path);
        QVERIFY(!doc.ok());
        QVERIFY2(doc.error().message.find(path) != std::string::npos, doc.error().message.c_str());
    }

    void loadsBothFormats() {
        QTemporaryDir dir;
        const auto doc = sampleDocument();
        for (auto [name, text] : {std::pair{"r.json", toJson(doc)}, {"r.csv", toSummaryCsv(doc)}}) {
            const auto path = (dir.path() + "/" + name).toStdString();
            QVERIFY(writeFileAtomically(path, text).ok());
            auto back = loadDocument(path);
            QVERIFY2(back.ok(), name);
            QCOMPARE(back->cells.size(), doc.cells.size());
        }
    }

    void atomicWriteKeepsOldFileOnFailure() {
        QTemporaryDir dir;
        const auto path = (dir.path() + "/out.csv").toStdString();
        QVERIFY(writeFileAtomically(path, "old").ok());
        QVERIFY(!writeFileAtomically(dir.path().toStdString() + "/missing/x.csv", "new").ok());
        // A directory standing where the temporary file must go makes the write fail.
        QVERIFY(QDir(dir.path()).mkdir("out.csv.readscope-tmp"));
        auto st = writeFileAtomically(path, "new");
        QVERIFY(!st.ok());
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("old"));
    }
};

QTEST_GUILESS_MAIN(TestDocuments)
#include "tst_documents.moc"
