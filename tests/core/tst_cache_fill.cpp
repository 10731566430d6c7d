// The "larger than memory" lesson's verdict: when the cache filled (the file's residency at 90%
// of its peak), each strategy's rounds before it against after it, and what that says of the
// published finding that mmap falls and the others hold.
#include "readscope/cache_fill.h"
#include "readscope/lesson_words.h"

#include <QTest>

#include <fmt/format.h>

#include <cmath>

using namespace readscope;

namespace {

// Rounds every 0.25 s for `seconds`; the file's residency climbs to `peak` over the first half
// and then holds. Each strategy's GB/s before and after the fill, with a little spread.
ResultDocument run(double peak, double seconds, double mmapBefore, double mmapAfter,
                   double preadAfter = 0.5, bool withDirect = false) {
    ResultDocument doc;
    doc.plan.strategies = {"mmap-random", "pread-uninit"};
    if (withDirect) // steady at 0.5 GB/s throughout
        doc.plan.strategies.push_back("direct-pread");
    doc.plan.durationSeconds = seconds;
    doc.plan.memoryLimit = 256ull << 20;
    for (const auto& id : doc.plan.strategies) {
        Cell c;
        c.strategy = id;
        c.rangeBytes = 4096;
        int r = 0;
        for (double t = 0; t < seconds; t += 0.25) {
            const bool filled = t >= seconds / 2;
            const double gbps = id == "mmap-random"    ? (filled ? mmapAfter : mmapBefore)
                                : id == "pread-uninit" ? (filled ? preadAfter : 0.5)
                                                       : 0.5;
            Sample s;
            s.round = ++r;
            s.startedAt = 1e9 + t + (id == "pread-uninit" ? 0.1 : 0);
            s.bytes = 1000000;
            s.seconds = 1e-3 / (gbps * (1 + 0.01 * (r % 5)));
            s.fileResidentAfter = peak * std::min(1.0, t / (seconds / 2));
            c.samples.push_back(s);
        }
        c.summarize();
        doc.cells.push_back(c);
    }
    return doc;
}

const CacheFillFinding kFinding{"mmap-random", "mmap fell from 900k to 27k reads/s"};

// A verdict with its words, as the lesson panel shows them.
struct Judged : CacheFillVerdict {
    std::string text;
};
std::optional<Judged> judged(const ResultDocument& doc) {
    const auto v = judgeCacheFill(doc, kFinding);
    if (!v)
        return std::nullopt;
    return Judged{{*v}, cacheFillVerdictText(doc, kFinding, *v)};
}

} // namespace

class TestCacheFill : public QObject {
    Q_OBJECT
private slots:
    void mmapFallsAndPreadHolds() {
        const auto v = judged(run(0.2, 20, 1.0, 0.4));
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Agrees));
        QVERIFY2(v->filledAt && std::abs(*v->filledAt - 9.0) < 0.3,
                 qPrintable(QString::number(v->filledAt.value_or(-1))));
        QCOMPARE(v->peakResident, 0.2);
        QCOMPARE(v->strategies.at(0).strategy, std::string("mmap-random"));
        QVERIFY(v->strategies.at(0).fell && !v->strategies.at(1).fell);
        QVERIFY(std::abs(v->strategies.at(0).change() + 0.6) < 0.02);
        QVERIFY2(v->text.find("mmap-random") != std::string::npos &&
                     v->text.find("-60%, interval -60% to -60% (95% coverage), fell") !=
                         std::string::npos &&
                     v->text.find("Published: mmap fell") != std::string::npos &&
                     v->text.find("This machine agrees") != std::string::npos,
                 v->text.c_str());
        // 4 KiB reads are published in reads per second: said beside GB/s.
        const double before = v->strategies.at(0).before;
        const std::string reads = fmt::format("{:.3g}k -> ", before * 1e9 / 4096 / 1e3);
        QVERIFY2(v->text.find(reads) != std::string::npos &&
                     v->text.find(" reads/s") != std::string::npos,
                 v->text.c_str());
    }

    // mmap and pread fell, direct I/O held: in part. (mmap and pread alone, both falling, is
    // every strategy: the machine, below.)
    void anotherFallingIsAgreementInPart() {
        const auto v = judged(run(0.2, 20, 1.0, 0.4, 0.2, true));
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Partly));
    }

    void mmapHoldingDisagrees() {
        const auto v = judged(run(0.2, 20, 0.5, 0.5));
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Disagrees));
        QVERIFY2(v->text.find("does not agree") != std::string::npos, v->text.c_str());
    }

    // Everything rose (or fell) after the fill: the machine changed speed, and no strategy can
    // be told apart from it.
    void everyStrategyMovingIsTheMachine() {
        const auto v = judged(run(0.2, 20, 0.5, 0.7, 0.7));
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QCOMPARE(int(v->cannotTell), int(CacheFillVerdict::CannotTell::AllRose));
        QVERIFY2(v->text.find("every strategy rose after the fill, so the device or the machine "
                              "changed speed") != std::string::npos,
                 v->text.c_str());
        const auto down = judged(run(0.2, 20, 1.0, 0.4, 0.3));
        QCOMPARE(int(down->agreement), int(Agreement::Undecided));
        const auto apart = judged(run(0.2, 20, 1.0, 0.4));
        QVERIFY(apart->text.find("Every strategy") == std::string::npos);
    }

    // mmap's rounds scattered from 0.2 to 1.0 GB/s on both sides: not surely fallen, and not
    // surely held either, so no verdict.
    void aScatteredMmapIsNoVerdict() {
        auto doc = run(0.2, 20, 0.6, 0.6);
        int r = 0;
        for (auto& s : doc.cells.at(0).samples)
            s.seconds = 1e-3 / (0.2 + 0.8 * double((r++ * 7) % 11) / 10);
        const auto v = judged(doc);
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QCOMPARE(int(v->cannotTell), int(CacheFillVerdict::CannotTell::FallVaries));
        QVERIFY2(v->text.find("its rounds vary too much to say") != std::string::npos,
                 v->text.c_str());
    }

    // No memory limit, mmap not measured, a residency still climbing at the end: each says why
    // there is nothing to judge.
    void whatCannotBeJudgedSaysWhy() {
        auto unlimited = run(0.2, 20, 1.0, 0.4);
        unlimited.plan.memoryLimit = 0;
        auto v = judged(unlimited);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QCOMPARE(int(v->noFill), int(CacheFillVerdict::NoFill::NoLimit));
        QVERIFY2(v->text.find("no memory limit") != std::string::npos, v->text.c_str());
        auto failed = run(0.2, 20, 1.0, 0.4);
        failed.cells.at(0).status = CellStatus::Failed;
        v = judged(failed);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(v->text.find("mmap-random measured nothing here") != std::string::npos,
                 v->text.c_str());
        auto climbing = run(0.2, 20, 1.0, 0.4);
        for (auto& c : climbing.cells)
            for (auto& s : c.samples)
                s.fileResidentAfter = 0.01 * (*s.startedAt - 1e9); // up to the last round
        v = judged(climbing);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QCOMPARE(int(v->noFill), int(CacheFillVerdict::NoFill::StillClimbing));
        QCOMPARE(v->longerSeconds, 60.0);
        QVERIFY2(v->text.find("still climbing late in the run") != std::string::npos,
                 v->text.c_str());
        // How much longer, and where to set it: twice this 18 s run, at least 60 s.
        QVERIFY2(v->text.find("set Duration to 60 s or more (--duration 60)") != std::string::npos,
                 v->text.c_str());
    }

    void aFileThatFitsCannotTell() {
        const auto v = judged(run(1.0, 20, 1.0, 0.4));
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(v->text.find("fit in the page cache") != std::string::npos, v->text.c_str());
    }

    void tooFewRoundsAfterTheFillCannotTell() {
        // 2 s: 4 rounds a side.
        const auto v = judged(run(0.2, 2, 1.0, 0.4));
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(v->text.find("fewer than 6 rounds") != std::string::npos, v->text.c_str());
    }

    void withoutResidencyThereIsNothingToJudge() {
        auto doc = run(0.2, 20, 1.0, 0.4);
        for (auto& c : doc.cells)
            for (auto& s : c.samples)
                s.fileResidentAfter.reset();
        QVERIFY(!judged(doc));
    }
};

QTEST_GUILESS_MAIN(TestCacheFill)
#include "tst_cache_fill.moc"
