// Where destination buffers land: recorded for every cell, pinned by --buffer-offset, swept as
// an axis; and the text forms that CSV and the command line use.
#include "readscope/buffer_offsets.h"
#include "readscope/condition_words.h"
#include "readscope/documents.h"
#include "readscope/finding_text.h"
#include "readscope/offset_trap.h"
#include "readscope/recovery.h"
#include "readscope/runner.h"
#include "readscope/strategy.h"
#include "test_file.h"

#include <QTest>

using namespace readscope;
using readscope::testing::TestFile;

namespace {

class NullSink : public RunSink {};

// Strategies that read into a buffer of their own, available on this file.
std::vector<std::string> bufferStrategies(const FileProbe& probe) {
    std::vector<std::string> ids;
    for (const auto& s : strategies())
        if (s.buffer != BufferKind::InPlace && s.access != Access::Direct &&
            availability(s, probe).available)
            ids.emplace_back(s.id);
    return ids;
}

Plan quickPlan(const TestFile& f) {
    Plan p;
    p.file = f.path();
    p.sizes = {64 << 10};
    p.rounds = 2;
    p.warmup = 0;
    return p;
}

// A cell of a synthetic offset sweep: its median and quartiles in GB/s.
// Twelve rounds spread evenly over [p25, p75], moved to have the given median, in the same
// order round by round as every other cell (so that paired ratios are steady), or, mixed, in
// an order of the offset's own (rounds that disagree with the page-aligned cell's).
Cell sweepCell(const char* id, std::uint32_t offset, double median, double p25, double p75,
               bool mixed = false) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = 256 << 10;
    c.bufferOffset = offset;
    constexpr int kRounds = 12;
    for (int r = 0; r < kRounds; ++r) {
        const int i = mixed ? int((5 * r + offset) % kRounds) : r;
        const double gbps = p25 + (p75 - p25) * i / (kRounds - 1) + median - (p25 + p75) / 2;
        Sample s;
        s.round = r + 1;
        s.bytes = 1'000'000'000;
        s.seconds = 1 / gbps;
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

ResultDocument sweepDoc(std::vector<Cell> cells) {
    ResultDocument doc;
    doc.system.pageSize = 4096;
    doc.system.cpuModel = "Test CPU";
    for (const auto& c : cells)
        if (std::find(doc.plan.bufferOffsets.begin(), doc.plan.bufferOffsets.end(),
                      *c.bufferOffset) == doc.plan.bufferOffsets.end())
            doc.plan.bufferOffsets.push_back(*c.bufferOffset);
    doc.cells = std::move(cells);
    return doc;
}

std::uint64_t total(const OffsetCounts& counts) {
    std::uint64_t n = 0;
    for (const auto& c : counts)
        n += c.count;
    return n;
}

} // namespace

class TestBufferOffsets : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;

private slots:
    void initTestCase() { file_ = std::make_unique<TestFile>(4 << 20); }

    void pinnedOffsetPutsEveryBufferThere_data() {
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("pageOffset");
        QTest::newRow("16") << 16 << 16;
        QTest::newRow("0") << 0 << 0;
        QTest::newRow("2048") << 2048 << 2048;
        QTest::newRow("4096+16") << 4112 << 16;
    }
    void pinnedOffsetPutsEveryBufferThere() {
        QFETCH(int, offset);
        QFETCH(int, pageOffset);
        Plan plan = quickPlan(*file_);
        plan.sizes = {64 << 10, 1 << 20};
        plan.strategies = bufferStrategies(file_->probe());
        QVERIFY(plan.strategies.size() >= 7);
        plan.bufferOffsets = {std::uint32_t(offset)};
        NullSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
        QCOMPARE(doc->cells.size(), plan.strategies.size() * 2);
        for (const auto& c : doc->cells) {
            const QByteArray where =
                QByteArray::fromStdString(c.strategy + " @ " + std::to_string(c.rangeBytes) + ": " +
                                          formatOffsetCounts(c.bufferPageOffsets));
            QVERIFY2(c.measured() && c.status != CellStatus::NotCold, where);
            QCOMPARE(c.bufferOffset, std::optional<std::uint32_t>(offset));
            // Every buffer the strategy read into, seen through the recorded addresses.
            QCOMPARE(c.bufferPageOffsets.size(), std::size_t(1));
            QVERIFY2(c.bufferPageOffsets[0].offset == std::uint32_t(pageOffset), where);
            QVERIFY2(c.bufferPageOffsets[0].count > 0, where);
        }
    }

    void autoRecordsWhereTheAllocatorPutThem() {
        Plan plan = quickPlan(*file_);
        plan.strategies = {"pread-uninit", "pread-reuse", "read-grow", "mmap-touch"};
        NullSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell* fresh = doc->find("pread-uninit", 64 << 10);
        QVERIFY(fresh && !fresh->bufferOffset);
        // One fresh buffer per range, every range of every measured round.
        QCOMPARE(total(fresh->bufferPageOffsets), fresh->rangesPerRound * 2);
        // The reused buffer is the engine's own page-aligned allocation.
        const Cell* reused = doc->find("pread-reuse", 64 << 10);
        QVERIFY(reused);
        QCOMPARE(reused->bufferPageOffsets, (OffsetCounts{{0, reused->rangesPerRound * 2}}));
        // Growing reads several buffers per range; an in-place mapping has none.
        QVERIFY(total(doc->find("read-grow", 64 << 10)->bufferPageOffsets) >
                fresh->rangesPerRound * 2);
        QVERIFY(doc->find("mmap-touch", 64 << 10)->bufferPageOffsets.empty());
    }

    void directIoSaysTheOffsetDoesNotApply() {
        auto probe = file_->probe();
        const auto* direct = findStrategy("direct-pread");
        if (!availability(*direct, probe).available)
            QSKIP("direct I/O is not available on this file system");
        Plan plan = quickPlan(*file_);
        plan.strategies = {"direct-pread"};
        plan.bufferOffsets = {16};
        NullSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const Cell& c = doc->cells.at(0);
        const auto* kept = findCondition<OffsetNotApplied>(c.conditions);
        QVERIFY2(kept, cellNotes(c).c_str());
        QCOMPARE(kept->offset, std::uint32_t(16));
        QCOMPARE(kept->alignment, probe.directAlign);
        QCOMPARE(c.bufferPageOffsets.size(), std::size_t(1));
        QCOMPARE(c.bufferPageOffsets[0].offset % probe.directAlign, std::uint32_t(0));
    }

    void offsetSweepMeasuresEachOffset() {
        Plan plan = quickPlan(*file_);
        plan.strategies = {"pread-reuse", "pread-uninit", "mmap-touch"};
        plan.bufferOffsets = {0, 16, 4112};
        QCOMPARE(testing::name(sweepAxis(plan)), testing::name(SweepAxis::BufferOffset));
        NullSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(9));
        for (std::uint32_t offset : {0u, 16u, 4112u}) {
            const SweepPoint point{64 << 10, offset};
            for (const char* id : {"pread-reuse", "pread-uninit"}) {
                const Cell* c = doc->find(id, point);
                QVERIFY(c);
                QCOMPARE(c->bufferPageOffsets.size(), std::size_t(1));
                QCOMPARE(c->bufferPageOffsets[0].offset, offset % 4096);
            }
            const Cell* inPlace = doc->find("mmap-touch", point);
            QVERIFY(inPlace);
            QCOMPARE(testing::name(inPlace->status), testing::name(CellStatus::Unavailable));
        }
        // Ascending along the axis, 4096+16 after 16.
        const auto points = doc->points();
        QCOMPARE(points.size(), std::size_t(3));
        QCOMPARE(pointLabel(SweepAxis::BufferOffset, points[2]), std::string("4096+16"));
        // The document keeps it all.
        auto back = fromJson(toJson(*doc));
        QVERIFY(back.ok());
        QCOMPARE(back->plan.bufferOffsets, plan.bufferOffsets);
        QCOMPARE(back->cells[3].bufferOffset, doc->cells[3].bufferOffset);
        QCOMPARE(back->cells[3].bufferPageOffsets, doc->cells[3].bufferPageOffsets);
        QVERIFY(toMarkdown(*doc).starts_with("| buffer offset |"));
    }

    void offsetSweepNeedsOneSize() {
        Plan plan = quickPlan(*file_);
        plan.strategies = {"pread-reuse"};
        plan.sizes = {64 << 10, 1 << 20};
        plan.bufferOffsets = {0, 16};
        auto st = validatePlan(plan, file_->probe());
        QVERIFY(!st.ok());
        QVERIFY(st.error().message.find("one range size") != std::string::npos);
        plan.sizes = {64 << 10};
        plan.bufferOffsets = {kMaxBufferOffset + 1};
        QVERIFY(!validatePlan(plan, file_->probe()).ok());
    }

    void resumeFinishesTheOffsetsLeft_data() {
        QTest::addColumn<int>("finished"); // offsets finished before the crash
        QTest::newRow("one of three") << 1;
        QTest::newRow("two of three") << 2; // one left: still an offset sweep
    }
    void resumeFinishesTheOffsetsLeft() {
        QFETCH(int, finished);
        Plan plan = quickPlan(*file_);
        plan.strategies = {"pread-reuse", "mmap-touch"};
        plan.bufferOffsets = {0, 16, 64};
        NullSink sink;
        auto full = runPlan(plan, sink);
        QVERIFY(full.ok());
        ResultDocument partial = *full;
        partial.cells.resize(std::size_t(finished) * 2);
        partial.complete = false;
        auto resumed = resumeRun(partial, sink);
        QVERIFY(resumed.ok());
        QVERIFY(resumed->complete);
        QCOMPARE(resumed->cells.size(), std::size_t(6));
        QCOMPARE(resumed->plan.bufferOffsets, plan.bufferOffsets);
        for (std::uint32_t offset : {0u, 16u, 64u}) {
            QVERIFY(resumed->find("pread-reuse", SweepPoint{64 << 10, offset}));
            // In place has no buffer to place, however few offsets were left to measure.
            const Cell* inPlace = resumed->find("mmap-touch", SweepPoint{64 << 10, offset});
            QVERIFY(inPlace);
            QCOMPARE(testing::name(inPlace->status), testing::name(CellStatus::Unavailable));
        }
    }

    void csvCarriesPlacement() {
        Plan plan = quickPlan(*file_);
        plan.strategies = {"pread-uninit", "mmap-touch"};
        NullSink sink;
        auto doc = runPlan(plan, sink);
        QVERIFY(doc.ok());
        const std::string csv = toSummaryCsv(*doc);
        QVERIFY(csv.find("buffer_offset,buffer_page_offsets") != std::string::npos);
        auto back = fromSummaryCsv(csv);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(!back->cells[0].bufferOffset);
        QCOMPARE(back->cells[0].bufferPageOffsets.size(), doc->cells[0].bufferPageOffsets.size());
        QVERIFY(back->cells[1].bufferPageOffsets.empty());
    }

    void textForms_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("formatted"); // what formatOffsetCounts writes back
        QTest::newRow("empty") << "" << true << "";
        QTest::newRow("one") << "16" << true << "16";
        QTest::newRow("several") << "16x1;672x14" << true << "16x1;672x14";
        QTest::newRow("other") << "0x3;otherx2" << true << "0x3;otherx2";
        QTest::newRow("several without counts") << "16;672" << false << "";
        QTest::newRow("junk") << "sixteen" << false << "";
        QTest::newRow("bad count") << "16x" << false << "";
    }
    void textForms() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, formatted);
        auto counts = parseOffsetCounts(text.toStdString());
        QCOMPARE(counts.ok(), valid);
        if (valid && counts->size() > 1)
            QCOMPARE(QString::fromStdString(formatOffsetCounts(*counts)), formatted);
    }

    void verdictNeedsSeparatedRounds() {
        // A cliff at 8 and 16 (slower in every round); at 2048 a median a little slower, in
        // rounds that disagree among themselves: this run cannot tell it from page-aligned.
        auto doc = sweepDoc({sweepCell("pread-reuse", 0, 11.4, 11.0, 11.8),
                             sweepCell("pread-reuse", 8, 1.6, 1.5, 1.7),
                             sweepCell("pread-reuse", 16, 1.7, 1.6, 1.8),
                             sweepCell("pread-reuse", 2048, 10.6, 8.5, 12.7, true),
                             sweepCell("pread-reuse", 4112, 1.7, 1.6, 1.8)});
        auto v = judgeOffsetSweep(doc);
        QVERIFY(v);
        QVERIFY(v->cliff);
        QCOMPARE(v->slowOffsets, (std::vector<std::uint32_t>{8, 16}));
        QCOMPARE(v->undecidedOffsets, (std::vector<std::uint32_t>{2048}));
        QCOMPARE(v->tests, std::size_t(4)); // judged as one family: Holm over 4
        QCOMPARE(v->worstOffset, 8u);
        QVERIFY2(offsetVerdictText(*v).find("pays this") != std::string::npos,
                 offsetVerdictText(*v).c_str());
        QVERIFY2(offsetVerdictText(*v).starts_with("Cliff seen"), offsetVerdictText(*v).c_str());
        // A quarter slower, rounds apart: slow offsets, but not called a cliff.
        auto mild = judgeOffsetSweep(sweepDoc({sweepCell("pread-reuse", 0, 10, 9.8, 10.2),
                                               sweepCell("pread-reuse", 24, 7.6, 7.5, 7.7)}));
        QVERIFY(mild && mild->cliff);
        QVERIFY2(offsetVerdictText(*mild).starts_with("Slower at some offsets, a mild effect"),
                 offsetVerdictText(*mild).c_str());
        QVERIFY2(offsetVerdictText(*mild).find(
                     "Offset 16, where malloc puts large buffers, was not") != std::string::npos,
                 offsetVerdictText(*mild).c_str());
        auto band = slowBand(*v);
        QVERIFY(band);
        QCOMPARE(band->slow, (std::vector<std::uint32_t>{8, 16}));
        QVERIFY(band->contains(12));    // between two slow offsets
        QVERIFY(!band->contains(2048)); // not known slow
        QVERIFY(!band->contains(4));    // between fast 0 and slow 8: not known slow
        QVERIFY(!band->contains(672));  // between slow 16 and fast 2048
        // A cell whose malloc'd buffers sat at 16 is pointed at; one at 0, or in place, not.
        Cell inBand = sweepCell("pread-uninit", 0, 2, 2, 2);
        inBand.bufferOffset.reset();
        inBand.bufferPageOffsets = {{16, 30}};
        QCOMPARE(offsetsInBand(inBand, *band, 4096), (std::vector<std::uint32_t>{16}));
        QVERIFY(offsetTrapNote(inBand, *band, 4096).find("slow band") != std::string::npos);
        inBand.bufferPageOffsets = {{16, 0}}; // as a CSV's single offset reads back
        QVERIFY(!offsetTrapNote(inBand, *band, 4096).empty());
        inBand.bufferPageOffsets = {{0, 30}, {kOtherOffsets, 2}};
        QVERIFY(offsetTrapNote(inBand, *band, 4096).empty());
        inBand.bufferPageOffsets.clear();
        QVERIFY(offsetTrapNote(inBand, *band, 4096).empty());

        // A slower median whose rounds disagree with the aligned ones round by round is no
        // cliff, nor the absence of one: this run cannot tell, and says why.
        auto noisy = sweepDoc({sweepCell("pread-reuse", 0, 15, 12, 18),
                               sweepCell("pread-reuse", 24, 13, 7, 19, true)});
        auto n = judgeOffsetSweep(noisy);
        QVERIFY(n);
        QVERIFY(!n->cliff);
        QVERIFY(!slowBand(*n));
        QVERIFY2(offsetVerdictText(*n).starts_with("Cannot tell") &&
                     offsetVerdictText(*n).find("at page offset 24") != std::string::npos &&
                     offsetVerdictText(*n).find("the rounds disagree") != std::string::npos,
                 offsetVerdictText(*n).c_str());
        // Too few rounds for the comparisons made: said, with the rounds that would do.
        auto few = sweepDoc({sweepCell("pread-reuse", 0, 10, 9.8, 10.2),
                             sweepCell("pread-reuse", 16, 2, 1.9, 2.1)});
        for (auto& c : few.cells) {
            c.samples.resize(5);
            c.summarize();
        }
        auto tooFew = judgeOffsetSweep(few);
        QVERIFY(tooFew && !tooFew->cliff);
        QVERIFY2(offsetVerdictText(*tooFew).find("5 pairs of rounds reach p = 0.062 at best over 1 "
                                                 "comparisons; 6 rounds can call one") !=
                     std::string::npos,
                 offsetVerdictText(*tooFew).c_str());

        // Every offset faster than page-aligned (noise can do that): no cliff, and the
        // slowest of them is still named.
        auto faster = judgeOffsetSweep(sweepDoc({sweepCell("pread-reuse", 0, 10, 9, 11),
                                                 sweepCell("pread-reuse", 16, 12, 11, 13),
                                                 sweepCell("pread-reuse", 64, 11, 10, 12)}));
        QVERIFY(faster && !faster->cliff);
        QCOMPARE(faster->worstOffset, 64u);
        QVERIFY2(offsetVerdictText(*faster).find("No cliff") != std::string::npos,
                 offsetVerdictText(*faster).c_str());

        // Nothing to judge without offset 0, or on a size sweep.
        QVERIFY(!judgeOffsetSweep(sweepDoc(
            {sweepCell("pread-reuse", 8, 1, 1, 1), sweepCell("pread-reuse", 16, 1, 1, 1)})));
        ResultDocument sizes;
        sizes.cells = {sweepCell("pread-reuse", 0, 1, 1, 1)};
        sizes.plan.bufferOffsets = {0};
        QVERIFY(!judgeOffsetSweep(sizes));
    }

    void tallyKeepsSixteenOffsetsAndCountsTheRest() {
        OffsetTally tally;
        alignas(4096) static std::byte page[2 * 4096];
        for (int i = 0; i < 20; ++i)
            tally.add(page + i * 8, 4096);
        tally.add(page, 4096);
        const auto counts = tally.counts();
        QCOMPARE(counts.size(), std::size_t(17));
        QCOMPARE(counts.front(), (OffsetCount{0, 2}));
        QCOMPARE(counts.back(), (OffsetCount{kOtherOffsets, 4}));
        QCOMPARE(formatOffsetCounts({{16, 5}}), std::string("16"));
        // Runs of one offset, offsets taken up again after another, the next page's same
        // offset, and a page size that is not a power of two all count where they belong.
        OffsetTally again;
        for (const int at : {16, 16, 16, 32, 16, 4096 + 32, 32, 16})
            again.add(page + at, 4096);
        QCOMPARE(again.counts(), (OffsetCounts{{16, 5}, {32, 3}}));
        OffsetTally odd;
        odd.add(reinterpret_cast<const void*>(std::uintptr_t(3000 * 7 + 5)), 3000);
        odd.add(reinterpret_cast<const void*>(std::uintptr_t(3000 * 2 + 5)), 3000);
        QCOMPARE(odd.counts(), (OffsetCounts{{5, 2}}));
    }

    void bufferOffsetArguments_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("expected"); // -1 auto, -2 rejected
        QTest::newRow("auto") << "auto" << -1;
        QTest::newRow("16") << "16" << 16;
        QTest::newRow("page plus") << "4096+16" << 4112;
        QTest::newRow("largest") << "65536" << 65536;
        QTest::newRow("too large") << "65537" << -2;
        QTest::newRow("negative") << "-16" << -2;
        QTest::newRow("junk") << "16b" << -2;
        QTest::newRow("empty") << "" << -2;
    }
    void bufferOffsetArguments() {
        QFETCH(QString, text);
        QFETCH(int, expected);
        auto r = parseBufferOffset(text.toStdString());
        QCOMPARE(r.ok(), expected != -2);
        if (expected == -1)
            QVERIFY(!*r);
        else if (expected >= 0)
            QCOMPARE(**r, std::uint32_t(expected));
        QCOMPARE(formatBufferOffset(4112), std::string("4096+16"));
        QVERIFY(!parseBufferOffsetList("0,auto").ok());
        QCOMPARE(*parseBufferOffsetList("0,16,16,4096+16"),
                 (std::vector<std::uint32_t>{0, 16, 4112}));
    }
};

QTEST_GUILESS_MAIN(TestBufferOffsets)
#include "tst_buffer_offsets.moc"
