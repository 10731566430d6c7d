#include "readscope/stats.h"

#include <QTest>

#include <vector>

using namespace readscope;
using Samples = std::vector<double>;
Q_DECLARE_METATYPE(Samples)

class TestStats : public QObject {
    Q_OBJECT
private slots:
    void table_data() {
        QTest::addColumn<Samples>("samples");
        QTest::addColumn<double>("med");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("q1");
        QTest::addColumn<double>("q3");
        QTest::newRow("empty") << Samples{} << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("one") << Samples{5} << 5.0 << 5.0 << 5.0 << 5.0 << 5.0;
        QTest::newRow("odd unsorted") << Samples{3, 1, 2} << 2.0 << 1.0 << 3.0 << 1.5 << 2.5;
        QTest::newRow("even") << Samples{4, 1, 3, 2} << 2.5 << 1.0 << 4.0 << 1.75 << 3.25;
        QTest::newRow("five") << Samples{1, 2, 3, 4, 100} << 3.0 << 1.0 << 100.0 << 2.0 << 4.0;
    }
    void table() {
        QFETCH(Samples, samples);
        QFETCH(double, med);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, q1);
        QFETCH(double, q3);
        QCOMPARE(median(samples), med);
        QCOMPARE(minimum(samples), lo);
        QCOMPARE(maximum(samples), hi);
        QCOMPARE(quantile(samples, 0.25), q1);
        QCOMPARE(quantile(samples, 0.75), q3);
    }

    void cv_data() {
        QTest::addColumn<Samples>("samples");
        QTest::addColumn<double>("expected");
        QTest::newRow("constant") << Samples{7, 7, 7} << 0.0;
        QTest::newRow("single") << Samples{7} << 0.0;
        QTest::newRow("zero mean") << Samples{-1, 1} << 0.0;
        // mean 10, sample sd = sqrt(((1)^2+(1)^2)/1)... for {9, 11}: sd = sqrt(2), cv = 0.1414
        QTest::newRow("pair") << Samples{9, 11} << 0.14142135623730953;
    }
    void cv() {
        QFETCH(Samples, samples);
        QFETCH(double, expected);
        QVERIFY(qAbs(coefficientOfVariation(samples) - expected) < 1e-12);
    }

    void noisyFlag() {
        QVERIFY(!summarize(Samples{10, 10.1, 9.9, 10, 10.05}).noisy);
        QVERIFY(summarize(Samples{10, 12, 8, 10, 11}).noisy);
        // Four rounds: [min, max] covers the median with 87.5%, too little to judge either way.
        QVERIFY(summarize(Samples{10, 12, 8, 10}).tooFewRounds);
        QVERIFY(!summarize(Samples{10, 12, 8, 10}).noisy);
        QVERIFY(summarize(Samples{10, 10.1, 9.9, 10}).tooFewRounds);
        QVERIFY(summarize(Samples{10}).tooFewRounds);
        QVERIFY(!summarize(Samples{10, 12, 8, 10, 11}).tooFewRounds);
        const auto s = summarize(Samples{1, 2, 3, 4, 5});
        QCOMPARE(s.median, 3.0);
        QCOMPARE(s.p25, 2.0);
        QCOMPARE(s.p75, 4.0);
        // Noise is judged by how sure the median is, not by the spread of single rounds: one
        // wild round among 15 leaves the median's interval narrow.
        Samples steady(15, 10.0);
        for (int i = 0; i < 15; ++i)
            steady[std::size_t(i)] = 10 + 0.01 * i;
        steady[14] = 20; // an outlier: CV 24%
        QVERIFY(coefficientOfVariation(steady) > 0.2);
        QVERIFY(!summarize(steady).noisy);
        QVERIFY(summarize(steady).uncertainty() < 0.01);
    }

    // The order statistics that bound the median with >= 95% coverage (binomial, p = 1/2).
    void medianIntervalRanks_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("lowRank"); // 1-based
        QTest::addColumn<double>("coverage");
        QTest::newRow("3: min-max, 75%") << 3 << 1 << 0.75;
        QTest::newRow("5: min-max, 93.75%") << 5 << 1 << 0.9375;
        QTest::newRow("6: min-max, 96.9%") << 6 << 1 << 0.96875;
        QTest::newRow("9: 2nd-8th, 96.1%") << 9 << 2 << 0.9609375;
        QTest::newRow("15: 4th-12th, 96.5%") << 15 << 4 << 0.96484375;
        QTest::newRow("30: 10th-21st, 95.7%") << 30 << 10 << 0.957226;
        // Past n = 1074, 2^-n is 0 in a double: the ranks and coverages below are exact ones
        // (Python's integer binomials), near n/2 - 0.98 sqrt(n).
        QTest::newRow("1075: 505th, 95.59%") << 1075 << 505 << 0.9559335206201514;
        QTest::newRow("2000: 956th, 95.34%") << 2000 << 956 << 0.9534471795082162;
        QTest::newRow("10000: 4902nd, 95.12%") << 10000 << 4902 << 0.9511670501036181;
    }
    void medianIntervalRanks() {
        QFETCH(int, n);
        QFETCH(int, lowRank);
        QFETCH(double, coverage);
        Samples values;
        for (int i = n; i >= 1; --i) // unsorted on purpose
            values.push_back(double(i));
        const auto ci = medianInterval(values);
        QCOMPARE(ci.low, double(lowRank));
        QCOMPARE(ci.high, double(n + 1 - lowRank));
        QVERIFY2(qAbs(ci.coverage - coverage) < 1e-5, qPrintable(QString::number(ci.coverage)));
    }
};

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
