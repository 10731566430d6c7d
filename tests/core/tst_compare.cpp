// Comparison statistics and the before/after documents built on them.
#include "readscope/compare.h"
#include "readscope/comparison_text.h"
#include "readscope/finding.h"
#include "readscope/machine_drift_store.h"
#include "test_file.h"

#include <QTemporaryDir>
#include <QTest>

using namespace readscope;
using Samples = std::vector<double>;
Q_DECLARE_METATYPE(Samples)

namespace {

Cell cellWith(const char* id, std::uint64_t size, const Samples& gbps) {
    Cell c;
    c.strategy = id;
    c.rangeBytes = size;
    int r = 0;
    for (double g : gbps) {
        Sample s;
        s.round = ++r;
        s.bytes = 1'000'000'000;
        s.seconds = 1.0 / g;
        c.samples.push_back(s);
    }
    c.summarize();
    return c;
}

Samples rates(const Cell& c) {
    Samples r;
    for (const auto& s : c.samples)
        r.push_back(*s.gbps());
    return r;
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

    void verdicts_data() {
        QTest::addColumn<Samples>("baseline");
        QTest::addColumn<Samples>("current");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("identical") << kTight << kTight << "within noise";
        QTest::newRow("20% faster, tight") << kTight << scaled(kTight, 1.2) << "faster";
        QTest::newRow("20% slower, tight") << kTight << scaled(kTight, 0.8) << "slower";
        QTest::newRow("1% shift is noise") << kTight << scaled(kTight, 1.01) << "within noise";
        QTest::newRow("overlapping wide samples")
            << Samples{8, 12, 9, 11, 10, 7, 13} << Samples{9, 13, 10, 12, 11, 8, 14}
            << "within noise";
    }
    void verdicts() {
        QFETCH(Samples, baseline);
        QFETCH(Samples, current);
        QFETCH(QString, verdict);
        const auto e = estimateChange(baseline, current);
        const std::string_view v = toString(e.verdict);
        QCOMPARE(QString::fromLatin1(v.data(), qsizetype(v.size())), verdict);
        QVERIFY(e.ciLow && e.ciHigh && *e.ciLow <= e.change && e.change <= *e.ciHigh);
    }

    void twentyPercentShiftEstimated() {
        const auto e = estimateChange(kTight, scaled(kTight, 1.2));
        QVERIFY(qAbs(e.change - 0.2) < 1e-9);
        QVERIFY(*e.ciLow > 0.15 && *e.ciHigh < 0.25);
        QVERIFY(*e.pValue < 0.001);
    }

    void thresholdIsConfigurable() {
        const auto strict = estimateChange(kTight, scaled(kTight, 1.05), 0.02);
        const auto lax = estimateChange(kTight, scaled(kTight, 1.05), 0.10);
        QCOMPARE(int(strict.verdict), int(Verdict::Faster));
        QCOMPARE(int(lax.verdict), int(Verdict::WithinNoise));
    }

    void mediansOnlyAreNotTested() {
        const auto e = estimateChange(Samples{10}, Samples{12});
        QCOMPARE(int(e.verdict), int(Verdict::TooFewRounds));
        QVERIFY(qAbs(e.change - 0.2) < 1e-12); // the change is still said
        QVERIFY(!e.ciLow && !e.pValue);
        QVERIFY(!e.note.empty());
    }

    // Three rounds a side cannot tell 20% from chance: no verdict either way.
    void fewRoundsGiveNoVerdict() {
        const Samples three{10, 10.1, 9.9};
        const auto e = estimateChange(three, scaled(three, 1.2));
        QCOMPARE(QString::fromStdString(std::string(toString(e.verdict))),
                 QString("too few rounds"));
        QVERIFY(!e.pValue);
    }

    // Five pairs can never reach p < 0.05 exactly (2/32): they say so instead of a
    // "within noise" that reads like a finding; six can.
    void pairedNeedsSixRounds() {
        ResultDocument doc;
        const Samples five{10, 11, 12, 13, 14};
        doc.cells = {cellWith("pread-zerofill", 65536, five),
                     cellWith("pread-uninit", 65536, scaled(five, 1.2))};
        auto c = compareToReference(doc, "pread-zerofill");
        QCOMPARE(int(c.cells[0].estimate.verdict), int(Verdict::TooFewRounds));
        const Samples six{10, 11, 12, 13, 14, 15};
        doc.cells = {cellWith("pread-zerofill", 65536, six),
                     cellWith("pread-uninit", 65536, scaled(six, 1.2))};
        c = compareToReference(doc, "pread-zerofill");
        QCOMPARE(int(c.cells[0].estimate.verdict), int(Verdict::Faster));
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
        const auto unpaired = estimateChange(reference, faster);
        QCOMPARE(int(unpaired.verdict), int(Verdict::WithinNoise));
        QVERIFY2(unpaired.note == "its interval crosses zero", unpaired.note.c_str());
        ResultDocument doc;
        doc.cells = {cellWith("pread-zerofill", 65536, reference),
                     cellWith("pread-uninit", 65536, faster)};
        const auto c = compareToReference(doc, "pread-zerofill");
        QCOMPARE(c.cells.size(), std::size_t(1));
        const auto& e = c.cells[0].estimate;
        QVERIFY(e.paired);
        QCOMPARE(int(e.verdict), int(Verdict::Faster));
        QVERIFY(qAbs(e.change - 0.05) < 1e-9);
        QVERIFY(*e.pValue < 0.001);
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
        QVERIFY(!c.cells[2].estimate.paired);
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

    // Between runs a change must pass the runs' drift: an A/A pair (repeats of the whole run)
    // or, without repeats, the change from each run's earlier half of rounds to its later half.
    void betweenRunsAChangeMustPassTheDrift() {
        ResultDocument base, cur;
        for (const char* id : {"pread-uninit", "seek-read"}) {
            Samples steady; // 12 rounds: the later six 15% faster than the earlier six
            for (int r = 0; r < 12; ++r)
                steady.push_back(r < 6 ? 10.0 + 0.01 * r : 11.5 + 0.01 * r);
            base.cells.push_back(cellWith(id, 65536, steady));
            cur.cells.push_back(cellWith(id, 65536, scaled(steady, 1.10)));
        }
        const auto drift = runDrift(base);
        QVERIFY(drift);
        QVERIFY2(std::abs(*drift - 0.15) < 0.01, qPrintable(QString::number(*drift)));
        QVERIFY(!driftFromRepeats(base));
        auto c = compareDocuments(base, cur);
        QVERIFY(std::abs(c.driftFloor - *drift) < 0.01);
        for (const auto& cc : c.cells) {
            QCOMPARE(int(cc.estimate.verdict), int(Verdict::WithinNoise));
            QVERIFY2(cc.estimate.note.rfind("change under the runs' drift of 1", 0) == 0,
                     cc.estimate.note.c_str());
        }
        QVERIFY(comparisonMethod(c).find("within itself") != std::string::npos);
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
        for (const auto& cc : c.cells)
            QCOMPARE(int(cc.estimate.verdict), int(Verdict::Faster));
        QVERIFY(comparisonMethod(c).find("an A/A pair") != std::string::npos);
    }

    // This machine's drift between runs, from A/A runs: the largest change of a cell between
    // any two of them; held against every change between two runs of the same machine, and
    // not against runs of another.
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
        // A 20% change between two runs of that machine is within its drift ...
        const ResultDocument base = run(1.0, 1.0), cur = run(1.2, 1.2);
        QCOMPARE(int(compareDocuments(base, cur).cells[0].estimate.verdict), int(Verdict::Faster));
        auto held = compareDocuments(base, cur, kDefaultNoiseThreshold, &*drift);
        for (const auto& cc : held.cells) {
            QCOMPARE(int(cc.estimate.verdict), int(Verdict::WithinNoise));
            QVERIFY2(cc.estimate.note == "change under this machine's drift of 40.6%",
                     cc.estimate.note.c_str());
        }
        QVERIFY(comparisonMethod(held).find("this machine's drift between runs") !=
                std::string::npos);
        // ... a 50% change is not, and nor is a fall to 1/1.5 (-33%): the floor holds on the
        // logarithm, as the spread was measured, so a slowdown is told as a speed-up is.
        held = compareDocuments(base, run(1.5, 1.5), kDefaultNoiseThreshold, &*drift);
        QCOMPARE(int(held.cells[0].estimate.verdict), int(Verdict::Faster));
        held = compareDocuments(base, run(1 / 1.5, 1 / 1.5), kDefaultNoiseThreshold, &*drift);
        QCOMPARE(int(held.cells[0].estimate.verdict), int(Verdict::Slower));
        held = compareDocuments(base, run(1 / 1.3, 1 / 1.3), kDefaultNoiseThreshold, &*drift);
        QCOMPARE(int(held.cells[0].estimate.verdict), int(Verdict::WithinNoise));
        ResultDocument elsewhere = cur;
        elsewhere.system.cpuModel = "Other CPU";
        held = compareDocuments(base, elsewhere, kDefaultNoiseThreshold, &*drift);
        QVERIFY(!held.machineDrift);
        QVERIFY(comparisonMethod(held).find("drift with nothing changed is not measured") !=
                std::string::npos);
        // A table of one row is held to it the same way (no Holm step to pass through).
        auto oneRow = [&](double f) {
            ResultDocument one = run(f, f);
            one.cells.resize(1);
            ResultDocument first = base;
            first.cells.resize(1);
            return compareDocuments(first, one, kDefaultNoiseThreshold, &*drift).cells[0].estimate;
        };
        QCOMPARE(int(oneRow(1 / 1.5).verdict), int(Verdict::Slower));
        QVERIFY2(oneRow(1.2).note == "change under this machine's drift of 40.6%",
                 oneRow(1.2).note.c_str());
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
        ResultDocument base, cur;
        for (std::uint64_t size : {4096ull, 8192ull, 16384ull, 32768ull, 65536ull, 131072ull}) {
            base.cells.push_back(cellWith("pread-uninit", size, kTight));
            cur.cells.push_back(cellWith("pread-uninit", size, kTight));
        }
        // One row 4.5% faster but barely separable: significant alone (p 0.014), not among
        // six (Holm: 6 x 0.014).
        Samples loose = {10, 10.6, 9.5, 10.3, 9.8, 10.1, 9.7, 10.4, 9.9, 10.2};
        base.cells[0] = cellWith("pread-uninit", 4096, loose);
        cur.cells[0] = cellWith("pread-uninit", 4096, scaled(loose, 1.045));
        const auto alone = estimateChange(rates(base.cells[0]), rates(cur.cells[0]));
        const auto c = compareDocuments(base, cur);
        QCOMPARE(c.tests, std::size_t(6));
        const auto& adjusted = c.cells[0].estimate;
        qInfo("alone: p %.4f %s; among six: p %.4f %s", *alone.pValue,
              std::string(toString(alone.verdict)).c_str(), *adjusted.pValue,
              std::string(toString(adjusted.verdict)).c_str());
        QCOMPARE(int(alone.verdict), int(Verdict::Faster));
        QCOMPARE(int(adjusted.verdict), int(Verdict::WithinNoise));
        QVERIFY2(adjusted.note.find("Holm") != std::string::npos, adjusted.note.c_str());
        QVERIFY(comparisonText(c).find("Holm-adjusted over 6 tests") != std::string::npos);
        for (const auto& cc : c.cells)
            if (cc.estimate.verdict == Verdict::WithinNoise)
                QVERIFY2(!cc.estimate.note.empty(), "a 'within noise' row says why");
        QVERIFY(comparisonMarkdown(c).find("within noise (change under 2%)") != std::string::npos);
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
        QCOMPARE(int(c.cells[0].estimate.verdict), int(Verdict::Faster));
        QCOMPARE(c.onlyInBaseline, std::vector<std::string>{"seek-read @ 64 KiB"});
        QCOMPARE(c.onlyInCurrent, std::vector<std::string>{"mmap-touch @ 64 KiB"});
        QCOMPARE(c.differences.size(), std::size_t(2));
        const auto md = comparisonMarkdown(c);
        QVERIFY(md.find("| pread-uninit | 64 KiB |") != std::string::npos);
        QVERIFY(md.find("+20.0%") != std::string::npos);
        QVERIFY(md.find("faster") != std::string::npos);
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
        QVERIFY(qAbs(c.cells[0].estimate.change - 0.15) < 1e-9);
        QCOMPARE(c.onlyInCurrent.size(), std::size_t(1)); // no reference at 1 MiB
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
        QVERIFY2(v->text.find("+10% … +15%") != std::string::npos, v->text.c_str());
        QVERIFY2(v->text.find("published: +8% … +19% (M3 Max)") != std::string::npos,
                 v->text.c_str());
        QVERIFY2(v->text.find("agrees, within the published range") != std::string::npos,
                 v->text.c_str());
        // A published curve is also judged size by size.
        QCOMPARE(v->sizesWithinPublished, 2);
        QVERIFY2(v->text.find("Per size here: 64 KiB +15%, 1 MiB +10%; 2 of 2 within the "
                              "published +8% … +19%.") != std::string::npos,
                 v->text.c_str());

        doc.cells[3] = cellWith("pread-uninit", 1 << 20, kTight); // a tie at 1 MiB
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Partly));
        doc.cells[1] = cellWith("pread-uninit", 65536, scaled(kTight, 0.8)); // slower
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Disagrees));
        QVERIFY2(v->text.find("does not agree") != std::string::npos, v->text.c_str());

        const Samples three{10, 10, 10};
        doc.cells = {cellWith("pread-zerofill", 65536, three),
                     cellWith("pread-uninit", 65536, scaled(three, 1.2))};
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(v->text.find("This run cannot tell") != std::string::npos &&
                     v->text.find("does not agree") == std::string::npos &&
                     v->text.find("run 3 more rounds") != std::string::npos,
                 v->text.c_str());
        f.faster = "mmap-touch"; // not measured
        QVERIFY(!judgeFinding(doc, f));
    }

    // The rounds a verdict needs among k comparisons (exact Wilcoxon, Holm): 2 / 2^n x k must
    // be under 0.05.
    void roundsForAVerdict() {
        QCOMPARE(roundsForVerdict(1), 6);   // 2/64 = 0.031
        QCOMPARE(roundsForVerdict(3), 7);   // 3 x 2/128 = 0.047
        QCOMPARE(roundsForVerdict(4), 8);   // 4 x 2/128 = 0.0625 is not enough
        QCOMPARE(roundsForVerdict(15), 10); // 15 x 2/1024 = 0.029
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
        QVERIFY2(v->sizesFaster == 2, v->text.c_str());
        QCOMPARE(v->tiesHeld, 1);
        QCOMPARE(int(v->agreement), int(Agreement::Agrees));
        QVERIFY2(v->text.find("at 8 MiB, where the finding says they tie: +1%, a tie here") !=
                     std::string::npos,
                 v->text.c_str());
        // Five rounds cannot reach a verdict among three comparisons: the run cannot tell,
        // and says how many more rounds it needs.
        for (auto& c : doc.cells) {
            c.samples.resize(5);
            c.summarize();
        }
        v = judgeFinding(doc, f);
        QCOMPARE(int(v->agreement), int(Agreement::Undecided));
        QVERIFY2(v->text.find("With 5 paired rounds and 3 comparisons, no difference can reach "
                              "p < 0.05: run 2 more rounds.") != std::string::npos,
                 v->text.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
