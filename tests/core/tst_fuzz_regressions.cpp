// Replays every input the fuzzers ever found (and hand-made nasty ones) through the readers:
// each must give a document or an error message, never a crash.
#include "readscope/documents.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace readscope;

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void replay_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        int found = 0;
        for (const char* kind : {"regressions", "seeds"})
            for (const char* format : {"json", "csv"}) {
                QDir dir(QString(READSCOPE_FUZZ_DIR) + "/" + kind + "/" + format);
                for (const auto& name : dir.entryList(QDir::Files)) {
                    QTest::newRow(qPrintable(QString("%1/%2/%3").arg(kind, format, name)))
                        << dir.filePath(name) << QString(format);
                    ++found;
                }
            }
        QVERIFY2(found >= 8, "the regression and seed folders went missing");
    }
    void replay() {
        QFETCH(QString, path);
        QFETCH(QString, format);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const std::string_view text(bytes.constData(), std::size_t(bytes.size()));
        auto doc = format == "json" ? fromJson(text) : fromSummaryCsv(text);
        if (doc) {
            (void)toJson(*doc);
            (void)toMarkdown(*doc);
            (void)toSummaryCsv(*doc);
        } else {
            QVERIFY(!doc.error().message.empty());
        }
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
