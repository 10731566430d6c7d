// Comparison statistics and the before/after documents built on them.
#include "readscope/compare.h"
#include "readscope/comparison_text.h"
#include "readscope/finding.h"
#include "readscope/lesson_words.h"
#include "readscope/machine_drift_store.h"
#include "readscope/rank_tests.h"
#include "readscope/verdict.h"
#include "test_file.h"

#include "round_cells.h"
#include <QTemporaryDir>

#include <QTest>

using namespace readscope;
using Samples = std::vector<double>;
Q_DECLARE_METATYPE(Samples)

namespace {

Cell cellWith(const char* id, std::uint64_t size, const Samples& gbps) {
    return readscope::testing::cellWithRounds(id, size, gbps);
}

const Samples kTight = {10.0, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.0, 10.03, 9.97};
Samples scaled(const Samples& s, double f) {
    Samples out;
    for (double x : s)
        out.push_back(x * f);
    return out;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    // Holm's step-down: the k-th smallest of m times (m - k), never below the one before it,
    // at most 1, each back in its own place.
    void holmAdjustsInPlace() {
        double a = 0.01, b = 0.04, c = 0.03, d = 0.5, e = 0.4;
        std::vector<double*> ps{&a, &b, &c, &d, &e};
        holmAdjust(ps);
        QCOMPARE(a, 0.05);
        QCOMPARE(c, 0.12);
        QCOMPARE(b, 0.12); // 0.04 x 3 = 0.12, not below 0.03 x 4
        QCOMPARE(e, 0.8);
        QCOMPARE(d, 0.8); // 0.5 x 1, raised to the one before it
        double big = 0.6, bigger = 0.7;
        std::vector<double*> capped{&big, &bigger};
        holmAdjust(capped);
        QCOMPARE(big, 1.0);
        QCOMPARE(bigger, 1.0);
    }

    void mannWhitneyKnownValue() {
        // Exact two-sided p values, as R's wilcox.test(a, b, exact = TRUE) gives them without
        // ties; with ties, the exact permutation distribution of the average ranks (counted
        // by enumerating every split of the pooled ranks). The normal approximation gives
        // 0.01219 for the first, 0.0512 for the second: a verdict lost at 5 against 12.
        const Samples a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
        QVERIFY(qAbs(mannWhitneyPValue(a, b) - 2.0 / 252) < 1e-12);
        QVERIFY(qAbs(mannWhitneyPValue(b, a) - 2.0 / 252) < 1e-12);
        // 5 rounds against 12, U = 11: p = 0.04848
        const Samples five{1, 2, 3, 4, 16}, twelve{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17};
        QVERIFY(qAbs(mannWhitneyPValue(five, twelve) - 0.04848093083387201) < 1e-12);
        QVERIFY(mannWhitneyPValue(five, twelve) < 0.05);
        QVERIFY(qAbs(mannWhitneyPValue(Samples{1, 2, 3, 4}, Samples{5, 6, 7, 8}) -
                     0.02857142857142857) < 1e-12);
        QVERIFY(qAbs(mannWhitneyPValue(Samples{1, 2, 3}, Samples{4, 5, 6}) - 0.1) < 1e-12);
        QVERIFY(qAbs(mannWhitneyPValue(Samples{1, 3, 5, 7, 9}, Samples{2, 4, 6, 8, 10}) -
                     0.6904761904761905) < 1e-12);
        // Ties: 33 of the 462 splits lie as far out as this one.
        QVERIFY(qAbs(mannWhitneyPValue(Samples{1, 2, 2, 3, 5}, Samples{2, 4, 5, 6, 7, 7}) -
                     0.06493506493506493) < 1e-12);
        QCOMPARE(mannWhitneyPValue(Samples{3, 3, 3}, Samples{3, 3, 3}), 1.0);
        // Above 40 rounds in all the normal approximation serves: 21 against 21, apart.
        Samples low, high;
        for (int i = 0; i < 21; ++i) {
            low.push_back(i);
            high.push_back(100 + i);
        }
        QVERIFY(mannWhitneyPValue(low, high) < 1e-6);
    }

    // The smallest p each exact test can ever give, however far apart the rounds.
    void smallestReachablePValues() {
        QCOMPARE(smallestSignedRankP(5), 0.0625);
        QCOMPARE(smallestSignedRankP(6), 0.03125);
        QCOMPARE(smallestSignedRankP(9), 2.0 / 512);
        QCOMPARE(smallestRankSumP(3, 3), 0.1);
        QVERIFY(qAbs(smallestRankSumP(4, 4) - 2.0 / 70) < 1e-15);
        QVERIFY(qAbs(smallestRankSumP(5, 12) - 2.0 / 6188) < 1e-15);
        // They are what the tests give for rounds entirely apart.
        QCOMPARE(signedRankPValue(Samples{1, 2, 3, 4, 5, 6, 7, 8, 9}), smallestSignedRankP(9));
        QVERIFY(qAbs(mannWhitneyPValue(Samples{1, 2, 3, 4}, Samples{5, 6, 7, 8}) -
                     smallestRankSumP(4, 4)) < 1e-12);
    }

    // The fewest rounds with which any of k comparisons can be called (Holm's first step):
    // 2 / 2^n x k (paired) or 2 / C(2n, n) x k (n rounds a side) under 0.05.
    void roundsToCallAny() {
        QCOMPARE(roundsToCall(1, true), 6);   // 2/64 = 0.031
        QCOMPARE(roundsToCall(3, true), 7);   // 3 x 2/128 = 0.047
        QCOMPARE(roundsToCall(4, true), 8);   // 4 x 2/128 = 0.0625 is not enough
        QCOMPARE(roundsToCall(14, true), 10); // 14 x 2/512 = 0.055: 9 pairs never call one
        QCOMPARE(roundsToCall(15, true), 10); // 15 x 2/1024 = 0.029
        QCOMPARE(roundsToCall(1, false), 4);  // 2/70 = 0.029; 3 a side: 0.1
        QCOMPARE(roundsToCall(6, false), 5);  // 6 x 2/252 = 0.048
    }

    // Moses' interval of a shift between two sets of rounds, with its exact coverage: 3
    // against 3 can reach no more than 90% (the whole range of the nine differences).
    void shiftIntervalsSayTheirCoverage() {
        const auto few = shiftInterval(Samples{1, 2, 3}, Samples{11, 12, 13});
        QCOMPARE(few.low, 8.0);
        QCOMPARE(few.high, 12.0);
        QVERIFY(qAbs(few.coverage - 0.9) < 1e-12);
        // 10 against 10: at least 95%, and the order statistics inside the range.
        Samples a, b;
        for (int i = 0; i < 10; ++i) {
            a.push_back(i * 1.1);
            b.push_back(5 + i * 0.9);
        }
        const auto ten = shiftInterval(a, b);
        QVERIFY2(ten.coverage >= 0.95 && ten.coverage < 0.97,
                 qPrintable(QString::number(ten.coverage)));
        QVERIFY(ten.low > -4.9 && ten.high < 14 && ten.low < 5 && 5 < ten.high);
        // Past 40 values in all, the normal approximation: still at least 95%.
        Samples x(30), y(30);
        for (int i = 0; i < 30; ++i)
            x[std::size_t(i)] = y[std::size_t(i)] = i;
        const auto many = shiftInterval(x, y);
        QVERIFY(many.coverage >= 0.95 && many.coverage < 0.96 && many.holds(0));
    }

    // Each outcome and each cause, as the policy gives them for rows made to have them.
    void outcomes_data() {
        QTest::addColumn<Samples>("baseline");
        QTest::addColumn<Samples>("current");
        QTest::addColumn<bool>("paired");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<int>("cause");
        const int none = int(Undecided::None), cannot = int(Outcome::CannotTell);
        const Samples twelve = {10.0, 10.1, 9.9,   10.05, 9.95,  10.02,
                                9.98, 10.0, 10.03, 9.97,  10.01, 9.99};
        Samples jitter; // +-0.3% around the baseline: the same within 2%
        Samples wide;   // +-10% around it: cannot tell
        Samples speeds; // every other round ten times slower: two speeds
        for (std::size_t i = 0; i < twelve.size(); ++i) {
            jitter.push_back(twelve[i] * (i % 2 ? 1.003 : 0.997));
            wide.push_back(twelve[i] * (i % 2 ? 1.1 : 0.9));
            speeds.push_back(twelve[i] * (i % 2 ? 1.0 : 0.1));
        }
        QTest::newRow("20% faster")
            << twelve << scaled(twelve, 1.2) << true << int(Outcome::Faster) << none;
        QTest::newRow("20% slower")
            << twelve << scaled(twelve, 0.8) << true << int(Outcome::Slower) << none;
        QTest::newRow("same") << twelve << jitter << true << int(Outcome::Same) << none;
        QTest::newRow("wide") << twelve << wide << true << cannot << int(Undecided::WideInterval);
        QTest::newRow("five pairs")
            << Samples{10, 11, 12, 13, 14} << Samples{12, 13.2, 14.4, 15.6, 16.8} << true << cannot
            << int(Undecided::TooFewRounds);
        QTest::newRow("two speeds")
            << twelve << speeds << true << cannot << int(Undecided::TwoSpeeds);
        QTest::newRow("unpaired 20% faster")
            << twelve << scaled(twelve, 1.2) << false << int(Outcome::Faster) << none;
        QTest::newRow("three a side") << Samples{10, 10.1, 9.9} << Samples{12, 12.1, 11.9} << false
                                      << cannot << int(Undecided::TooFewRounds);
    }
    void outcomes() {
        QFETCH(Samples, baseline);
        QFETCH(Samples, current);
        QFETCH(bool, paired);
        QFETCH(int, outcome);
        QFETCH(int, cause);
        RowRounds row{baseline, current, {}};
        if (paired)
            for (std::size_t i = 0; i < baseline.size(); ++i)
                row.pairs.push_back({baseline[i], current[i]});
        const auto v = judgeRows(std::span(&row, 1), VerdictPolicy{}).at(0);
        QCOMPARE(int(v.outcome), outcome);
        QCOMPARE(int(v.cause), cause);
        QCOMPARE(v.paired, paired);
        QVERIFY(v.change);
        if (v.interval) // the interval says what it covers, and holds the change it estimates
            QVERIFY(v.interval->coverage > 0 && v.interval->low <= *v.change &&
                    *v.change <= v.interval->high);
    }

    // The causes that come from the comparison, not the rounds: a side without figures, a CSV
    // summary's medians, and between runs the drift (not measured, or not passed) and a
    // machine loaded differently.
    void causesFromTheComparison() {
        const Samples twelve = {10.0, 10.1, 9.9,   10.05, 9.95,  10.02,
                                9.98, 10.0, 10.03, 9.97,  10.01, 9.99};
        auto one = [](RowRounds row, const VerdictPolicy& policy) {
            return judgeRows(std::span(&row, 1), policy).at(0);
        };
        RowRounds missing{twelve, {}, {}, false};
        QCOMPARE(int(one(missing, {}).cause), int(Undecided::NotMeasured));
        QVERIFY(!one(missing, {}).change);
        RowRounds summary{{10}, {12}, {}, true, true};
        const auto medians = one(summary, {});
        QCOMPARE(int(medians.cause), int(Undecided::MediansOnly));
        QVERIFY(qAbs(*medians.change - 0.2) < 1e-12); // the change is still said
        QVERIFY(!medians.p && !medians.interval);

        RowRounds faster{twelve, scaled(twelve, 1.2), {}};
        VerdictPolicy between;
        between.betweenRuns = true;
        QCOMPARE(int(one(faster, between).cause), int(Undecided::NoDrift));
        between.drift = 0.3;
        const auto held = one(faster, between);
        QCOMPARE(int(held.cause), int(Undecided::WithinDrift));
        QCOMPARE(*held.drift, 0.3);
        between.drift = 0.1;
        QCOMPARE(int(one(faster, between).outcome), int(Outcome::Faster));
        between.machineDiffered = true;
        QCOMPARE(int(one(faster, between).cause), int(Undecided::MachineDiffered));
        // "The same" between runs means within the drift too.
        between.machineDiffered = false;
        const auto same = one({twelve, twelve, {}}, between);
        QCOMPARE(int(same.outcome), int(Outcome::Same));
        QCOMPARE(same.margin, 0.1);
    }

    // The 16-byte trap's rows: 80% slower in every one of 9 rounds, among 14 comparisons.
    // 9 pairs reach p = 14 x 2/512 = 0.055 at best: the rows cannot tell, say why, and how
    // many rounds can; with 12 rounds every row is called slower. Never "within noise".
    void aLargeChangeInEveryRoundNeedsTheRoundsToCallIt() {
        auto family = [](int rounds) {
            std::vector<RowRounds> rows(14);
            for (auto& row : rows)
                for (int r = 0; r < rounds; ++r) {
                    const double base = 10 + 0.1 * ((r * 5) % 7);
                    row.baseline.push_back(base);
                    row.current.push_back(base * 0.2);
                    row.pairs.push_back({base, base * 0.2});
                }
            return judgeRows(rows, VerdictPolicy{});
        };
        for (const auto& v : family(9)) {
            QCOMPARE(int(v.outcome), int(Outcome::CannotTell));
            QCOMPARE(int(v.cause), int(Undecided::TooFewRounds));
            QCOMPARE(v.tests, std::size_t(14));
            QVERIFY(qAbs(*v.bestP - 14 * 2.0 / 512) < 1e-12);
            QCOMPARE(v.roundsToCall, 10);
            QVERIFY(qAbs(*v.change + 0.8) < 1e-9);
        }
        for (const auto& v : family(12))
            QCOMPARE(int(v.outcome), int(Outcome::Slower));
        // In words: the cause and the rounds that can, in every renderer.
        CellComparison cc;
        cc.strategy = "mmap-copy";
        cc.baselineStrategy = "pread-uninit";
        cc.verdict = family(9).front();
        QCOMPARE(QString::fromStdString(verdictText(cc)),
                 QString("cannot tell (9 pairs of rounds reach p = 0.055 at best over 14 tests; "
                         "10 can call one)"));
    }

    void signedRankKnownValues() {
        // All of n differences positive: exact two-sided p = 2 / 2^n (scipy.stats.wilcoxon).
        QCOMPARE(signedRankPValue(Samples{1, 2, 3, 4, 5}), 0.0625);
        QCOMPARE(signedRankPValue(Samples{1, 2, 3, 4, 5, 6, 7, 8}), 2.0 / 256);
        // scipy.stats.wilcoxon([1, -2, 3, -4, 5, 6, -7, 8, 9, 10]).pvalue = 0.16015625
        QVERIFY(qAbs(signedRankPValue(Samples{1, -2, 3, -4, 5, 6, -7, 8, 9, 10}) - 0.16015625) <
                1e-9);
        QCOMPARE(signedRankPValue(Samples{0, 0, 0}), 1.0);
        // Tied magnitudes, exactly (every sign pattern of the average ranks enumerated): seven
        // equal differences 2/128, where the normal approximation gave 0.0177.
        QCOMPARE(signedRankPValue(Samples{1, 1, 1, 1, 1, 1, 1}), 2.0 / 128);
        QVERIFY(qAbs(signedRankPValue(Samples{1, 1, 2, -2, 3, 3, 4, -5}) - 0.3828125) < 1e-12);
    }

    // One run, a machine whose speed drifts from round to round, a strategy 5% faster in
    // every round: independent samples drown the 5% in the drift; pairs by round find it.
    void pairingRemovesTheMachinesDrift() {
        Samples reference, faster;
        for (int r = 0; r < 15; ++r) {
            const double machine = 10 * (1 + 0.04 * ((r * 7) % 11)); // 10 .. 14 GB/s
            reference.push_back(machine);
            faster.push_back(machine * 1.05);
        }
        RowRounds unpaired{reference, faster, {}};
        const auto alone = judgeRows(std::span(&unpaired, 1), VerdictPolicy{}).at(0);
        QCOMPARE(int(alone.outcome), int(Outcome::CannotTell));
        QCOMPARE(int(alone.cause), int(Undecided::WideInterval));
        ResultDocument doc;
        doc.cells = {cellWith("pread-zerofill", 65536, reference),
                     cellWith("pread-uninit", 65536, faster)};
        const auto c = compareToReference(doc, "pread-zerofill");
        QCOMPARE(c.cells.size(), std::size_t(1));
        const auto& e = c.cells[0].verdict;
        QVERIFY(e.paired);
        QCOMPARE(int(e.outcome), int(Outcome::Faster));
        QVERIFY(qAbs(*e.change - 0.05) < 1e-9);
        QVERIFY(*e.p < 0.001);
        QVERIFY(comparisonMarkdown(c).find("Wilcoxon signed-rank") != std::string::npos);
    }

    // A table whose rows came from two tests says so, with how many rows each served.
    void theMethodLineNamesEachTest() {
        ResultDocument doc;
        doc.cells = {cellWith("pread-zerofill", 65536, kTight),
                     cellWith("pread-uninit", 65536, scaled(kTight, 1.1)),
                     cellWith("seek-read", 65536, scaled(kTight, 0.9)),
                     cellWith("pread-reuse", 65536, scaled(kTight, 1.2))};
        for (auto& s : doc.cells[3].samples)
            s.round += 100; // its rounds are not the reference's: not paired
        const auto c = compareToReference(doc, "pread-zerofill");
        QCOMPARE(c.cells.size(), std::size_t(3));
        QVERIFY(!c.cells[2].verdict.paired);
        const auto method = comparisonMethod(c);
        QVERIFY2(method.find("for 2 rows (both sides ran in the same rounds)") !=
                         std::string::npos &&
                     method.find("Wilcoxon signed-rank") != std::string::npos &&
                     method.find("for 1 row (rounds that do not pair)") != std::string::npos &&
                     method.find("Mann-Whitney U") != std::string::npos,
                 method.c_str());
        doc.cells.pop_back();
        const auto pairedOnly = comparisonMethod(compareToReference(doc, "pread-zerofill"));
        QVERIFY2(pairedOnly.find("Mann-Whitney") == std::string::npos, pairedOnly.c_str());
    }

    // Between runs a direction needs a measured drift between runs: without one every row
    // cannot tell, and the line above the rows says how to measure it and how long it takes. A
    // run's own drift (its earlier rounds against its later ones) measures nothing between
    // runs; an A/A pair inside a run (repeats of the whole run) does.
    void betweenRunsADirectionNeedsAMeasuredDrift() {
        ResultDocument base, cur;
        for (const char* id : {"pread-uninit", "seek-read"}) {
            Samples steady; // 12 rounds: the later six 15% faster than the earlier six
            for (int r = 0; r < 12; ++r)
                steady.push_back(r < 6 ? 10.0 + 0.01 * r : 11.5 + 0.01 * r);
            base.cells.push_back(cellWith(id, 65536, steady));
            cur.cells.push_back(cellWith(id, 65536, scaled(steady, 1.5)));
        }
        for (auto* doc : {&base, &cur}) // 12 rounds of 0.1 s, 10 s apart: a run of 110.1 s
            for (auto& cell : doc->cells)
                for (auto& s : cell.samples)
                    s.startedAt = 1000.0 + 10 * s.round;
        const auto drift = runDrift(base);
        QVERIFY(drift);
        QVERIFY2(std::abs(*drift - 0.15) < 0.01, qPrintable(QString::number(*drift)));
        QVERIFY(!driftFromRepeats(base));
        auto c = compareDocuments(base, cur);
        QVERIFY(!c.policy.drift);
        QVERIFY(std::abs(c.ownDrift - *drift) < 0.01);
        for (const auto& cc : c.cells) {
            QCOMPARE(int(cc.verdict.outcome), int(Outcome::CannotTell));
            QCOMPARE(int(cc.verdict.cause), int(Undecided::NoDrift));
            QVERIFY(qAbs(*cc.verdict.change - 0.5) < 1e-9); // the change is still shown
        }
        const auto text = comparisonText(c);
        QVERIFY2(text.rfind("Cannot tell any row: how far two runs of this plan drift apart", 0) ==
                         0 &&
                     text.find("three more times (about 5:30)") != std::string::npos,
                 text.c_str());
        // Repeats of the whole run: the drift is the repeats' (here the second repeat's
        // median 10.385 against the first's 10.025: 3.6%), and a 10% change passes it.
        for (auto* doc : {&base, &cur})
            for (auto& cell : doc->cells) {
                for (std::size_t r = 0; r < cell.samples.size(); ++r) {
                    cell.samples[r].repeat = r < 6 ? 0 : 1;
                    cell.samples[r].seconds = 1.0 / ((r < 6 ? 10.0 : 10.3) + 0.01 * double(r));
                }
                if (doc == &cur)
                    for (auto& s : cell.samples)
                        s.seconds /= 1.10;
                cell.summarize();
            }
        QVERIFY(driftFromRepeats(base));
        QVERIFY2(std::abs(*runDrift(base) - (10.385 / 10.025 - 1)) < 1e-9,
                 qPrintable(QString::number(*runDrift(base))));
        c = compareDocuments(base, cur);
        QVERIFY(c.repeatsDrift && c.policy.drift);
        for (const auto& cc : c.cells)
            QCOMPARE(int(cc.verdict.outcome), int(Outcome::Faster));
        QVERIFY2(driftHeadline(c).find("Drift between runs: ±3.6%, measured between the "
                                       "repeats of one run") == 0,
                 driftHeadline(c).c_str());
    }

    // This machine's drift between runs, from A/A runs; held against every change between two
    // runs of the same machine, and not against runs of another.
    void theMachinesDriftIsMeasuredAndHeld() {
        auto run = [](double a, double b) {
            ResultDocument doc;
            doc.plan.strategies = {"pread-uninit", "seek-read"};
            doc.plan.sizes = {65536};
            doc.system.cpuModel = "Test CPU";
            doc.system.kernel = "Linux 6.18";
            doc.system.filesystem = "ext4";
            doc.cells = {cellWith("pread-uninit", 65536, scaled(kTight, a)),
                         cellWith("seek-read", 65536, scaled(kTight, b))};
            return doc;
        };
        // Medians 10.0 x: pread-uninit 1.0, 1.25, 1.1; seek-read 1.0, 0.95, 1.0. The pooled
        // spread of log(median) is 0.081894 (4 degrees of freedom), the floor
        // exp(2.94 * sqrt(2) * 0.081894) - 1 = 40.6%, the largest change seen 25%.
        const auto drift = measureMachineDrift({run(1.0, 1.0), run(1.25, 0.95), run(1.1, 1.0)});
        QVERIFY(drift.ok());
        QVERIFY2(std::abs(drift->spread - 0.0818945) < 1e-6,
                 qPrintable(QString::number(drift->spread)));
        QVERIFY2(std::abs(drift->drift - 0.40565) < 1e-4,
                 qPrintable(QString::number(drift->drift)));
        QVERIFY(std::abs(drift->largestSeen - 0.25) < 1e-9);
        QCOMPARE(drift->runs, 3);
        QCOMPARE(drift->cpuModel, std::string("Test CPU"));
        // Without it, a 20% change between two runs cannot be told from drift ...
        const ResultDocument base = run(1.0, 1.0), cur = run(1.2, 1.2);
        QCOMPARE(int(compareDocuments(base, cur).cells[0].verdict.cause), int(Undecided::NoDrift));
        // ... with it, it is within the drift ...
        auto held = compareDocuments(base, cur, kDefaultNoiseThreshold, &*drift);
        for (const auto& cc : held.cells) {
            QCOMPARE(int(cc.verdict.cause), int(Undecided::WithinDrift));
            QCOMPARE(QString::fromStdString(verdictText(cc)),
                     QString("cannot tell (within the drift between runs here (±40.6%))"));
        }
        QVERIFY2(driftHeadline(held).find("Drift between runs: ±40.6%, this machine's, from 3 "
                                          "runs of one plan") == 0,
                 driftHeadline(held).c_str());
        // ... a 50% change is not, and nor is a fall to 1/1.5 (-33%): the floor holds on the
        // logarithm, as the spread was measured, so a slowdown is told as a speed-up is.
        held = compareDocuments(base, run(1.5, 1.5), kDefaultNoiseThreshold, &*drift);
        QCOMPARE(int(held.cells[0].verdict.outcome), int(Outcome::Faster));
        held = compareDocuments(base, run(1 / 1.5, 1 / 1.5), kDefaultNoiseThreshold, &*drift);
        QCOMPARE(int(held.cells[0].verdict.outcome), int(Outcome::Slower));
        held = compareDocuments(base, run(1 / 1.3, 1 / 1.3), kDefaultNoiseThreshold, &*drift);
        QCOMPARE(int(held.cells[0].verdict.cause), int(Undecided::WithinDrift));
        ResultDocument elsewhere = cur;
        elsewhere.system.cpuModel = "Other CPU";
        held = compareDocuments(base, elsewhere, kDefaultNoiseThreshold, &*drift);
        QVERIFY(!held.machineDrift);
        QCOMPARE(int(held.cells[0].verdict.cause), int(Undecided::NoDrift));
        // A table of one row is held to it the same way (no Holm step to pass through).
        auto oneRow = [&](double f) {
            ResultDocument one = run(f, f);
            one.cells.resize(1);
            ResultDocument first = base;
            first.cells.resize(1);
            return compareDocuments(first, one, kDefaultNoiseThreshold, &*drift).cells[0].verdict;
        };
        QCOMPARE(int(oneRow(1 / 1.5).outcome), int(Outcome::Slower));
        QCOMPARE(int(oneRow(1.2).cause), int(Undecided::WithinDrift));
        // Nor runs of another cache mode: a warm page cache drifts unlike a device.
        ResultDocument cold = cur;
        cold.plan.cache = CacheMode::Cold;
        QVERIFY(!compareDocuments(base, cold, kDefaultNoiseThreshold, &*drift).machineDrift);
        // Runs that do not match are refused with the reason.
        ResultDocument other = run(1.0, 1.0);
        other.plan.sizes = {1 << 20};
        QVERIFY(!measureMachineDrift({run(1.0, 1.0), run(1.1, 1.0), other}).ok());
        QVERIFY(!measureMachineDrift({run(1.0, 1.0), run(1.1, 1.0), elsewhere}).ok());
        QVERIFY(!measureMachineDrift({run(1.0, 1.0), run(1.1, 1.0)}).ok()); // no spread from 2
        QVERIFY(!measureMachineDrift({run(1.0, 1.0), run(1.0, 1.0), run(1.0, 1.0)}).ok()); // copies
        // Kept per machine: a later measurement of the same machine takes the earlier's place.
        QTemporaryDir dir;
        const std::string path = dir.filePath("sub/machine-drift.json").toStdString();
        QVERIFY(loadMachineDrifts(path).empty());
        QVERIFY(saveMachineDrift(*drift, path).ok());
        MachineDrift again = *drift;
        again.drift = 0.3;
        QVERIFY(saveMachineDrift(again, path).ok());
        MachineDrift second = *drift;
        second.cpuModel = "Other CPU";
        QVERIFY(saveMachineDrift(second, path).ok());
        const auto kept = loadMachineDrifts(path);
        QCOMPARE(kept.size(), std::size_t(2));
        const auto found = machineDriftFor(kept, base, cur);
        QVERIFY(found);
        QCOMPARE(found->drift, 0.3);
        QVERIFY(!machineDriftFor(kept, base, ResultDocument{})); // measured nowhere known
    }

    // Every row moved the same way: the footer says a machine-wide shift cannot be told from
    // a change that affects every strategy.
    void aShiftOfEveryRowIsNamed() {
        ResultDocument base, cur;
        for (const char* id : {"pread-uninit", "seek-read", "pread-zerofill", "mmap-copy"}) {
            base.cells.push_back(cellWith(id, 65536, kTight));
            cur.cells.push_back(cellWith(id, 65536, scaled(kTight, 1.2)));
        }
        auto c = compareDocuments(base, cur);
        QVERIFY(c.commonShift);
        QVERIFY(std::abs(*c.commonShift - 0.2) < 1e-6);
        QVERIFY(comparisonText(c).find("Every row moved the same way (median +20.0%)") !=
                std::string::npos);
        cur.cells[0] = cellWith("pread-uninit", 65536, scaled(kTight, 0.9));
        QVERIFY(!compareDocuments(base, cur).commonShift);
    }

    // Many rows: p values are Holm-adjusted, and a verdict that chance could give is withdrawn.
    void manyComparisonsAreAdjusted() {
        std::vector<RowRounds> rows(6, RowRounds{kTight, kTight, {}});
        // One row 4.5% faster but barely separable: significant alone (p 0.014), not among
        // six (Holm: 6 x 0.014).
        const Samples loose = {10, 10.6, 9.5, 10.3, 9.8, 10.1, 9.7, 10.4, 9.9, 10.2};
        rows[0] = {loose, scaled(loose, 1.045), {}};
        const auto alone = judgeRows(std::span(rows.data(), 1), VerdictPolicy{}).at(0);
        const auto all = judgeRows(rows, VerdictPolicy{});
        qInfo("alone: p %.4f; among six: p %.4f", *alone.p, *all[0].p);
        QCOMPARE(int(alone.outcome), int(Outcome::Faster));
        QCOMPARE(all[0].tests, std::size_t(6));
        QCOMPARE(int(all[0].outcome), int(Outcome::CannotTell));
        QCOMPARE(int(all[0].cause), int(Undecided::WideInterval));
        QVERIFY(all[0].smallest && *all[0].smallest > 0.045); // it could call larger ones
        // The identical rows are the same within 2%, which an equivalence test says.
        for (std::size_t i = 1; i < all.size(); ++i)
            QCOMPARE(int(all[i].outcome), int(Outcome::Same));
    }

    void documentsPairCellsAndListTheRest() {
        ResultDocument base, cur;
        base.system.cpuModel = "CPU A";
        cur.system.cpuModel = "CPU B";
        base.plan.cache = CacheMode::Warm;
        cur.plan.cache = CacheMode::Cold;
        base.cells = {cellWith("pread-uninit", 65536, kTight),
                      cellWith("seek-read", 65536, kTight)};
        cur.cells = {cellWith("pread-uninit", 65536, scaled(kTight, 1.2)),
                     cellWith("mmap-touch", 65536, kTight)};
        const auto c = compareDocuments(base, cur);
        QCOMPARE(c.cells.size(), std::size_t(1));
        QCOMPARE(int(c.cells[0].verdict.cause), int(Undecided::NoDrift));
        QCOMPARE(c.onlyInBaseline, std::vector<std::string>{"seek-read @ 64 KiB"});
        QCOMPARE(c.onlyInCurrent, std::vector<std::string>{"mmap-touch @ 64 KiB"});
        QCOMPARE(c.differences.size(), std::size_t(2));
        const auto md = comparisonMarkdown(c);
        QVERIFY(md.find("| pread-uninit | 64 KiB |") != std::string::npos);
        QVERIFY(md.find("+20.0%") != std::string::npos);
        QVERIFY(md.find("cannot tell (separate runs") != std::string::npos);
        QVERIFY(md.rfind("Cannot tell any row", 0) == 0);
        QVERIFY(md.find("Only in the baseline: seek-read @ 64 KiB") != std::string::npos);
        QVERIFY(md.find("cache mode: warm → cold") != std::string::npos);
        QVERIFY(md.find("CPU: CPU A → CPU B") != std::string::npos);
        // Both sides' machines and rerun commands travel with a pasted comparison.
        QVERIFY(md.find("\nBaseline: readscope") != std::string::npos);
        QVERIFY(md.find("CPU A") != std::string::npos &&
                md.find("\nCurrent: ") != std::string::npos);
        QCOMPARE(std::count(md.begin(), md.end(), '`') / 2, std::ptrdiff_t(2)); // two commands
        QVERIFY(md.find("Rerun: `readscope-cli run") != std::string::npos);
    }

    void referenceWithinOneRun() {
        ResultDocument doc;
        doc.cells = {cellWith("pread-zerofill", 65536, kTight),
                     cellWith("pread-uninit", 65536, scaled(kTight, 1.15)),
                     cellWith("pread-uninit", 1 << 20, kTight)};
        const auto c = compareToReference(doc, "pread-zerofill");
        QCOMPARE(c.cells.size(), std::size_t(1));
        QCOMPARE(c.cells[0].strategy, std::string("pread-uninit"));
        QCOMPARE(c.cells[0].baselineStrategy, std::string("pread-zerofill"));
        QVERIFY(qAbs(*c.cells[0].verdict.change - 0.15) < 1e-9);
        QCOMPARE(c.onlyInCurrent.size(), std::size_t(1)); // no reference at 1 MiB
    }

    // Rows come in the order a table reads them, by range size and then the plan's strategy
    // order, whatever order the interleaved rounds finished the cells in.
    void rowsAreInTableOrder() {
        ResultDocument doc;
        doc.plan.strategies = {"pread-zerofill", "seek-read", "pread-uninit"};
        doc.cells = {
            cellWith("pread-uninit", 65536, kTight), cellWith("pread-uninit", 1 << 20, kTight),
            cellWith("seek-read", 1 << 20, kTight),  cellWith("pread-uninit", 262144, kTight),
            cellWith("seek-read", 65536, kTight),    cellWith("seek-read", 262144, kTight)};
        const auto c = compareToReference(doc, "pread-uninit");
        // seek-read only: its rows by size, 64 KiB, 256 KiB, 1 MiB.
        QCOMPARE(c.cells.size(), std::size_t(3));
        QCOMPARE(c.cells[0].at.rangeBytes, std::uint64_t(65536));
        QCOMPARE(c.cells[1].at.rangeBytes, std::uint64_t(262144));
        QCOMPARE(c.cells[2].at.rangeBytes, std::uint64_t(1 << 20));
        ResultDocument base = doc;
        std::reverse(base.cells.begin(), base.cells.end());
        const auto runs = compareDocuments(base, doc, 0.02);
        QCOMPARE(runs.cells.size(), std::size_t(6));
        const std::vector<std::pair<std::uint64_t, std::string>> expected = {
            {65536, "seek-read"},     {65536, "pread-uninit"}, {262144, "seek-read"},
            {262144, "pread-uninit"}, {1 << 20, "seek-read"},  {1 << 20, "pread-uninit"}};
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(runs.cells[i].at.rangeBytes, expected[i].first);
            QCOMPARE(runs.cells[i].strategy, expected[i].second);
        }
    }

    // A lesson's finding judged from the run's own cells: all sizes faster by the paired test
    // agrees; some sizes, partly; none, does not; too few rounds, no say.
    void findingsAreJudgedFromTheCells() {
        ResultDocument doc;
        doc.plan.strategies = {"pread-zerofill", "pread-uninit"};
        Finding f{"pread-uninit", "pread-zerofill", {65536, 1 << 20}, {}, 0.08, 0.19, "(M3 Max)"};
        doc.cells = {cellWith("pread-zerofill", 65536, kTight),
                     cellWith("pread-uninit", 65536, scaled(kTight, 1.15)),
                     cellWith("pread-zerofill", 1 << 20, kTight),
                     cellWith("pread-uninit", 1 << 20, scaled(kTight, 1.10)),
                     cellWith("pread-zerofill", 8 << 20, kTight),
                     cellWith("pread-uninit", 8 << 20, kTight)}; // not a size of the finding
        auto v = judgeFinding(doc, f);
        QVERIFY(v);
        QCOMPARE(int(v->agreement), int(Agreement::Agrees));
        QCOMPARE(v->sizesFaster, 2);
        QVERIFY(qAbs(v->lowChange - 0.10) < 1e-9 && qAbs(v->highChange - 0.15) < 1e-9);
        QVERIFY2(findingVerdictText(f, *v).find("+10% … +15%") != std::string::npos,
                 findingVerdictText(f, *v).c_str());
        QVERIFY2(findingVerdictText(f, *v).find("published: +8% … +19% (M3 Max)") !=
                     std::string::npos,
                 findingVerdictText(f, *v).c_str());
        QVERIFY2(findingVerdictText(f, *v).find("agrees, within the published range") !=
                     std::string::npos,
                 findingVerdictText(f, *v).c_str());
        // A published curve is also judged size by size, as values first.
        QCOMPARE(v->sizesWithinPublished, 2);
        QCOMPARE(v->perSize.size(), std::size_t(2));
        QCOMPARE(v->perSize[0].first, std::uint64_t(65536));
        QVERIFY(v->withinPublished && v->sizesNamed == 2 && v->namedCannotTell == 0);
        QVERIFY2(findingVerdictText(f, *v).find(
                     "Per size here: 64 KiB +15%, 1 MiB +10%; 2 of 2 within the "
                     "published +8% … +19%.") != std::string::npos,
                 findingVerdictText(f, *v).c_str());

        doc.cells[3] = cellWith("pread-uninit", 1 << 20, kTight); // a tie at 1 MiB
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Partly));
        doc.cells[1] = cellWith("pread-uninit", 65536, scaled(kTight, 0.8)); // slower
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Disagrees));
        QVERIFY2(findingVerdictText(f, *v).find("does not agree") != std::string::npos,
                 findingVerdictText(f, *v).c_str());

        const Samples three{10, 10, 10};
        doc.cells = {cellWith("pread-zerofill", 65536, three),
                     cellWith("pread-uninit", 65536, scaled(three, 1.2))};
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(findingVerdictText(f, *v).find("This run cannot tell") != std::string::npos &&
                     findingVerdictText(f, *v).find("does not agree") == std::string::npos &&
                     findingVerdictText(f, *v).find("run 3 more rounds") != std::string::npos,
                 findingVerdictText(f, *v).c_str());
        f.faster = "mmap-touch"; // not measured
        QVERIFY(!judgeFinding(doc, f));
    }

    // A finding is judged over its own comparisons only: seven rounds that all point the
    // same way are a verdict at three sizes, however many other strategies the run held (Holm
    // over 15 pairs of the table would have made it 0.23, never a verdict); its tie sizes are
    // judged too; and what it cannot tell is never called disagreement.
    void findingsAreJudgedOverTheirOwnComparisons() {
        const Samples seven{10, 10.4, 9.7, 10.2, 9.9, 10.1, 10.05};
        ResultDocument doc;
        for (std::uint64_t size : {64ull << 10, 1ull << 20, 8ull << 20}) {
            doc.cells.push_back(cellWith("mmap-populate", size, seven));
            doc.cells.push_back(
                cellWith("mmap-touch", size, scaled(seven, size == 8ull << 20 ? 1.01 : 1.6)));
            for (const char* other : {"pread-uninit", "mmap-copy", "mmap-willneed"})
                doc.cells.push_back(cellWith(other, size, scaled(seven, 0.9)));
        }
        Finding f{"mmap-touch", "mmap-populate", {64 << 10, 1 << 20}, {8 << 20}, {}, {}, ""};
        auto v = judgeFinding(doc, f);
        QVERIFY(v);
        QCOMPARE(v->roundsNeeded, 7);
        QVERIFY2(v->sizesFaster == 2, findingVerdictText(f, *v).c_str());
        QCOMPARE(v->tiesHeld, 1);
        QCOMPARE(int(v->agreement), int(Agreement::Agrees));
        QCOMPARE(v->tieSizes.size(), std::size_t(1));
        QCOMPARE(v->tieSizes[0].rangeBytes, std::uint64_t(8 << 20));
        QCOMPARE(int(v->tieSizes[0].here), int(TieHere::Held));
        QVERIFY2(findingVerdictText(f, *v).find(
                     "at 8 MiB, where the finding says they tie: +1%, a tie here") !=
                     std::string::npos,
                 findingVerdictText(f, *v).c_str());
        // Five rounds cannot reach a verdict among three comparisons: the run cannot tell,
        // and says how many more rounds it needs.
        for (auto& c : doc.cells) {
            c.samples.resize(5);
            c.summarize();
        }
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(findingVerdictText(f, *v).find(
                     "With 5 paired rounds and 3 comparisons, no difference can reach "
                     "p < 0.05: run 2 more rounds.") != std::string::npos,
                 findingVerdictText(f, *v).c_str());
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
