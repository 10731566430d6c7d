#include "readscope/units.h"

#include <QTest>

using namespace readscope;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void parseGood_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<quint64>("bytes");
        QTest::newRow("plain") << "4096" << quint64(4096);
        QTest::newRow("K") << "64K" << quint64(65536);
        QTest::newRow("k lower") << "64k" << quint64(65536);
        QTest::newRow("KiB") << "16KiB" << quint64(16384);
        QTest::newRow("M") << "1M" << quint64(1 << 20);
        QTest::newRow("MB binary") << "8MB" << quint64(8 << 20);
        QTest::newRow("G") << "2G" << quint64(2ull << 30);
        QTest::newRow("spaces") << " 256 K " << quint64(256 << 10);
        QTest::newRow("one byte") << "1" << quint64(1);
    }
    void parseGood() {
        QFETCH(QString, text);
        QFETCH(quint64, bytes);
        auto r = parseSize(text.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(quint64(*r), bytes);
    }

    void parseBad_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("zero") << "0"
                              << "zero";
        QTest::newRow("zero K") << "0K"
                                << "zero";
        QTest::newRow("negative") << "-4K"
                                  << "negative";
        QTest::newRow("junk") << "abc"
                              << "not a number";
        QTest::newRow("unit") << "5Q"
                              << "unknown unit";
        QTest::newRow("overflow digits") << "99999999999999999999G"
                                         << "too large";
        QTest::newRow("overflow shift") << "99999999999G"
                                        << "too large";
        QTest::newRow("fraction") << "1.5M"
                                  << "size '1.5M' has a decimal point: sizes are whole numbers "
                                     "of bytes, K, M, G or T: write 1536K";
        QTest::newRow("fraction of a gibibyte") << "0.25G"
                                                << "decimal point: sizes are whole numbers of "
                                                   "bytes, K, M, G or T: write 256M";
        QTest::newRow("fraction of bytes") << "1.3K"
                                           << "whole numbers of bytes, K, M, G or T";
        QTest::newRow("fraction without a unit") << "4.5"
                                                 << "decimal point";
    }
    void parseBad() {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        auto r = parseSize(text.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error().message).contains(mentions),
                 r.error().message.c_str());
    }

    void list() {
        auto r = parseSizeList("16K,64K,16K,1M");
        QVERIFY(r.ok());
        QCOMPARE(r->size(), size_t(3));
        QCOMPARE((*r)[2], std::uint64_t(1 << 20));
        QVERIFY(!parseSizeList("16K,,1M").ok());
        QVERIFY(!parseSizeList("16K,x").ok());
    }

    void format() {
        QCOMPARE(formatSize(65536), std::string("64 KiB"));
        QCOMPARE(formatSize(1000), std::string("1000 B"));
        QCOMPARE(formatSize(3 << 19), std::string("1.5 MiB"));
        QCOMPARE(formatSizeShort(8 << 20), std::string("8M"));
        QCOMPARE(formatSizeShort(1000), std::string("1000"));
        QCOMPARE(*parseSize(formatSizeShort(192 << 10)), std::uint64_t(192 << 10));
    }

    void rate() {
        QCOMPARE(gigabytesPerSecond(2'000'000'000, 1.0), 2.0);
        QCOMPARE(gigabytesPerSecond(1'000'000'000, 0.5), 2.0);
        QCOMPARE(gigabytesPerSecond(100, 0.0), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
