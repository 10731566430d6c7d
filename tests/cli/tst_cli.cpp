// readscope-cli end to end, as a script would run it: exit codes, messages that name the
// fault, output files, and the target file left untouched.
#include "readscope/documents.h"
#include "readscope/recovery.h"
#include "test_file.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTest>

#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

using readscope::testing::TestFile;

namespace {

struct Outcome {
    int code = -1;
    QString out, err;
};

Outcome cli(const QStringList& args, const QStringList& prefix = {}) {
    QProcess p;
    QStringList all = prefix;
    all << QStringLiteral(READSCOPE_CLI) << args;
    p.start(all.takeFirst(), all);
    p.waitForFinished(180000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QStringList kQuick = {"--rounds", "2", "--warmup", "0", "--quiet"};

// Lines in a recovery file: its header, then one per finished cell.
int recoveryLines(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
}

// kill -9 of a run once its recovery file holds this many lines; false (with the reason in
// the test log) when the run ended first or never got there.
bool killOnceRecovered(QProcess& p, const QString& recovery, int lines) {
    if (!QTest::qWaitFor([&] { return recoveryLines(recovery) >= lines; }, 60000)) {
        qWarning("the recovery file never held %d lines", lines);
        return false;
    }
    if (p.state() != QProcess::Running) {
        qWarning("the run ended before it could be killed");
        return false;
    }
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    return p.waitForFinished(10000) && p.exitStatus() == QProcess::CrashExit;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    std::unique_ptr<TestFile> file_;
    QString path_;

private slots:
    void initTestCase() {
        file_ = std::make_unique<TestFile>(4 << 20);
        path_ = QString::fromStdString(file_->path());
        // The machine drifts `drift` keeps go to a folder of this test's own, never the
        // user's, and a drift kept there by a person does not change these comparisons.
        qputenv("READSCOPE_DATA_DIR", file_->dir().toUtf8() + "/data");
    }

    void versionAndHelp() {
        auto v = cli({"--version"});
        QCOMPARE(v.code, 0);
        QVERIFY(v.out.startsWith("readscope-cli "));
        for (auto args : {QStringList{"--help"}, QStringList{"run", "--help"},
                          QStringList{"strategies", "--help"}, QStringList{"generate", "--help"}}) {
            auto h = cli(args);
            QCOMPARE(h.code, 0);
            QVERIFY(h.out.contains("Usage"));
        }
        QCOMPARE(cli({"run", "--version"}).code, 0);
    }

    void desktopAppHelpWithoutADisplay() {
#ifdef READSCOPE_APP
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.remove("QT_QPA_PLATFORM");
        p.setProcessEnvironment(env);
        for (const char* arg : {"--help", "--version"}) {
            p.start(READSCOPE_APP, {arg});
            QVERIFY(p.waitForFinished(20000));
            QCOMPARE(p.exitCode(), 0);
            QVERIFY(QString(p.readAllStandardOutput()).contains("readscope"));
        }
#else
        QSKIP("built without the desktop app");
#endif
    }

    void runPrintsTableAndWritesFiles() {
        const QString dir = file_->dir();
        const auto before = readscope::testing::fileFingerprint(file_->path());
        auto r = cli(QStringList{"run", path_, "--sizes", "64K,1M", "--strategies",
                                 "pread-zerofill,pread-uninit", "--json", dir + "/r.json", "--csv",
                                 dir + "/r.csv", "--samples-csv", dir + "/s.csv"} +
                     kQuick);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("pread-zerofill"));
        QVERIFY(r.out.contains("64 KiB"));
        QVERIFY(r.out.contains("GB/s"));
        auto json = readscope::loadDocument((dir + "/r.json").toStdString());
        QVERIFY(json.ok());
        QCOMPARE(json->cells.size(), std::size_t(4));
        auto csv = readscope::loadDocument((dir + "/r.csv").toStdString());
        QVERIFY(csv.ok());
        QCOMPARE(csv->cells.size(), std::size_t(4));
        QCOMPARE(csv->cells[0].summary.median, json->cells[0].summary.median);
        QVERIFY(QFile::exists(dir + "/s.csv"));
        QCOMPARE(readscope::testing::fileFingerprint(file_->path()), before);
        // Comparable by default: every strategy consumed every byte, and the fold's own speed
        // and the median's interval travel with each cell.
        QFile f(dir + "/r.csv");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = f.readAll();
        QVERIFY(text.contains(",median_ci_low_gbps,median_ci_high_gbps,bytes_consumed,fold_gbps"));
        QCOMPARE(readscope::testing::name(csv->plan.consume),
                 readscope::testing::name(readscope::Consume::All));
        QVERIFY(json->cells[0].foldGbps && *json->cells[0].foldGbps > 0);
        QVERIFY(json->cells[0].summary.ciLow <= json->cells[0].summary.median);
    }

    // Minimal consumption puts in-place mappings at one byte per page: marked wherever the
    // figure goes, so nobody sets it beside copies unawares.
    void minimalConsumptionIsMarked() {
        const QString csvPath = file_->dir() + "/minimal.csv";
        auto r = cli(QStringList{"run", path_, "--sizes", "64K", "--strategies",
                                 "pread-uninit,mmap-touch", "--consume", "minimal", "--csv",
                                 csvPath, "--markdown"} +
                     kQuick);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("| range | pread-uninit | mmap-touch ‡ |"), qPrintable(r.out));
        QVERIFY(r.out.contains("‡ 1 byte/page"));
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = QString(f.readAll()).split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 3);
        const int column = rows[0].split(',').indexOf("bytes_consumed");
        QVERIFY(column > 0);
        for (const auto& row : rows.mid(1))
            QCOMPARE(row.split(',').value(column),
                     QString(row.startsWith("mmap-touch") ? "1/page" : "all"));
    }

    void markdown() {
        auto r = cli(QStringList{"run", path_, "--sizes", "64K", "--strategies", "pread-uninit",
                                 "--markdown"} +
                     kQuick);
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("| range | pread-uninit |"));
        QVERIFY(r.out.contains("| 64 KiB |"));
    }

    void bufferOffsetPinsEveryBuffer() {
        const QString csv = file_->dir() + "/pinned.csv";
        auto r = cli(QStringList{"run", path_, "--sizes", "64K", "--strategies",
                                 "pread-uninit,pread-reuse,read-grow,mmap-copy,mmap-touch",
                                 "--buffer-offset", "16", "--csv", csv} +
                     kQuick);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString(f.readAll()).split("\r\n", Qt::SkipEmptyParts);
        const QStringList header = lines[0].split(',');
        const auto pinned = header.indexOf("buffer_offset");
        const auto placed = header.indexOf("buffer_page_offsets");
        QVERIFY(pinned >= 0 && placed >= 0);
        QCOMPARE(lines.size(), 6);
        for (const auto& line : lines.mid(1)) {
            const QStringList fields = line.split(',');
            QCOMPARE(fields[pinned], QString("16"));
            // Seen through the addresses the strategies read into, not taken from the option.
            QCOMPARE(fields[placed], fields[0] == "mmap-touch" ? QString() : QString("16"));
        }
        // The default leaves placement to the allocator, and still says where it was.
        auto plain = cli(QStringList{"run", path_, "--sizes", "64K", "--strategies", "pread-reuse",
                                     "--csv", csv} +
                         kQuick);
        QCOMPARE(plain.code, 0);
        QFile again(csv);
        QVERIFY(again.open(QIODevice::ReadOnly));
        const QStringList row =
            QString(again.readAll()).split("\r\n", Qt::SkipEmptyParts).value(1).split(',');
        QCOMPARE(row.value(pinned), QString("auto"));
        QCOMPARE(row.value(placed), QString("0")); // the engine's kept buffer is page-aligned
    }

    void offsetSweepPrintsOffsetRows() {
        auto r = cli(QStringList{"run", path_, "--sizes", "64K", "--strategies", "pread-reuse",
                                 "--buffer-offset", "0,16,4096+16", "--markdown"} +
                     kQuick);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.startsWith("| buffer offset | pread-reuse |"));
        QVERIFY(r.out.contains("| 4096+16 |"));
    }

    void coldOnTmpfsIsNotCold() {
        // tmpfs pages cannot be evicted: a cold run there measures warm pages and must say so.
        QTemporaryDir shm("/dev/shm/readscope-test-XXXXXX");
        if (!shm.isValid())
            QSKIP("no /dev/shm to put a tmpfs file in");
        const QString path = shm.filePath("tmpfs.bin");
        QCOMPARE(cli({"generate", path, "--size", "4M"}).code, 0);
        const QString csv = shm.filePath("cold.csv");
        auto r = cli(QStringList{"run", path, "--sizes", "64K", "--strategies", "pread-uninit",
                                 "--cache", "cold", "--csv", csv, "--markdown"} +
                     kQuick);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("was not cold"), qPrintable(r.err));
        QVERIFY2(r.out.contains("†") && r.out.contains("not cold"), qPrintable(r.out));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(QString(f.readAll()).contains(",not-cold,"));
    }

    // The issue's own command: four file sizes, each read whole by both strategies from a copy
    // of FILE's first bytes; eight verified cells, and nothing left in FILE's folder.
    void wholeFileSweepVerifiesEveryCellAndLeavesNothing() {
        QTemporaryDir dir;
        const QString path = dir.filePath("f.bin");
        QCOMPARE(cli({"generate", path, "--size", "32M"}).code, 0);
        const QString csv = dir.filePath("sweep.csv");
        auto r = cli({"run", path, "--pattern", "whole", "--sizes", "128,8K,1M,32M", "--strategies",
                      "read-grow,read-prealloc", "--rounds", "3", "--warmup", "0", "--csv", csv,
                      "--markdown"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Rows are file sizes, and the line under the table says how the files were read.
        QVERIFY2(r.out.startsWith("| file size | read-grow | read-prealloc |") &&
                     r.out.contains("warm cache, whole files (open, read, close)") &&
                     r.out.contains("--sizes 128,8K,1M,32M --strategies read-grow,read-prealloc "
                                    "--pattern whole"),
                 qPrintable(r.out));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = QString(f.readAll()).trimmed().split('\n').mid(1);
        QCOMPARE(rows.size(), 8);
        for (const auto& row : rows)
            QVERIFY2(row.contains(",verified,"), qPrintable(row));
        for (const char* size : {",128,", ",8192,", ",1048576,", ",33554432,"})
            QCOMPARE(rows.filter(size).size(), 2);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 (QStringList{"f.bin", "sweep.csv"}));
    }

    void wholeFileSweepKilledAndResumedLeavesNothing() {
        QTemporaryDir dir;
        const QString path = dir.filePath("f.bin");
        QCOMPARE(cli({"generate", path, "--size", "1M"}).code, 0);
        const QString rec = dir.filePath("recovery.jsonl");
        QProcess p;
        p.start(READSCOPE_CLI, {"run", path, "--pattern", "whole", "--sizes", "128,64K,1M",
                                "--strategies", "read-grow,read-prealloc", "--rounds", "10000",
                                "--warmup", "0", "--time-cap", "3", "--quiet", "--recovery", rec});
        QVERIFY(p.waitForStarted());
        auto copies = [&] {
            return QDir(dir.path()).entryList({".readscope-copies-*"}, QDir::Dirs | QDir::Hidden);
        };
        // Header + the 128 B cells: the 64 KiB copy is being read (two sizes left, >= 6 s).
        QVERIFY(killOnceRecovered(p, rec, 3));
        QCOMPARE(copies().size(), 1); // what a kill leaves behind
        const QString out = dir.filePath("resumed.json");
        auto r = cli({"run", "--resume", rec, "--quiet", "--json", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto doc = readscope::loadDocument(out.toStdString());
        QVERIFY(doc.ok());
        QCOMPARE(doc->cells.size(), std::size_t(6));
        QVERIFY2(copies().isEmpty(), qPrintable(copies().join(", ")));
    }

    // A target in a folder readscope may not write in: the copies go to the temporary folder,
    // and every cell says on which filesystem it was measured.
    void wholeFileCopiesGoElsewhereWhenTheFolderIsNotWritable() {
        if (::geteuid() != 0)
            QSKIP("needs root to make a folder that 'nobody' may not write in");
        const QString setpriv = QStandardPaths::findExecutable("setpriv");
        if (setpriv.isEmpty())
            QSKIP("no setpriv(1) to run as 'nobody'");
        QTemporaryDir dir("/tmp/readscope-ro-XXXXXX"); // root's, mode 0755 below
        QTemporaryDir temp("/tmp/readscope-tmp-XXXXXX");
        const auto open = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                          QFileDevice::ReadOther | QFileDevice::ExeOther;
        QVERIFY(QFile::setPermissions(dir.path(), open));
        QVERIFY(QFile::setPermissions(temp.path(), open | QFileDevice::WriteOther));
        const QString path = dir.filePath("f.bin");
        QVERIFY(QFile::copy(path_, path));
        const QString json = temp.filePath("out.json");
        auto r = cli({"run", path, "--pattern", "whole", "--sizes", "64K", "--strategies",
                      "read-prealloc", "--rounds", "2", "--warmup", "0", "--json", json, "--quiet"},
                     {setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "env",
                      "HOME=" + temp.path(), "TMPDIR=" + temp.path()});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto doc = readscope::loadDocument(json.toStdString());
        QVERIFY(doc.ok());
        const auto& message = doc->cells.at(0).message;
        QVERIFY2(message.find("read from copies on") != std::string::npos &&
                     message.find("cannot write in") != std::string::npos,
                 message.c_str());
        QVERIFY(QString::fromStdString(doc->copiesFolder).startsWith(temp.path()));
        QCOMPARE(QDir(temp.path()).entryList({".readscope-copies-*"}, QDir::Dirs | QDir::Hidden),
                 QStringList{});
    }

    // Without permission to make a memory cgroup (and not started in a limited one), a run
    // asked to stay under a memory limit does not start: it says why and how to get one, and
    // does not say it keeps finished cells.
    void memoryLimitWithoutACgroupIsRefused() {
        if (::geteuid() != 0)
            QSKIP("needs root to run as 'nobody'");
        const QString setpriv = QStandardPaths::findExecutable("setpriv");
        if (setpriv.isEmpty())
            QSKIP("no setpriv(1) to run as 'nobody'");
        QTemporaryDir dir("/tmp/readscope-limit-XXXXXX");
        const auto open = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                          QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
        QVERIFY(QFile::setPermissions(dir.path(), open));
        const QString path = dir.filePath("f.bin");
        QVERIFY(QFile::copy(path_, path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadOther));
        const QString json = dir.filePath("out.json");
        auto r = cli({"run", path, "--strategies", "pread-uninit", "--sizes", "64K",
                      "--memory-limit", "64M", "--json", json},
                     {setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "env",
                      "HOME=" + dir.path()});
        QVERIFY2(r.code == 1, qPrintable(QString("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains("cannot run under a memory limit") &&
                     r.err.contains("does not start") && r.err.contains("systemd-run"),
                 qPrintable(r.err));
        QVERIFY2(!QFile::exists(json), "no figures from a run that was not limited");
        // Not started, it keeps nothing, and does not say it does.
        QVERIFY2(!r.err.contains("Finished cells are kept"), qPrintable(r.err));
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        const QString dir = file_->dir();
        QTest::newRow("missing file") << QStringList{"run", dir + "/nope"} << "does not exist";
        QTest::newRow("file sizes all larger than the file")
            << QStringList{"run", path_, "--pattern", "whole", "--sizes", "8M,16M"}
            << "every file size is larger";
        QTest::newRow("directory") << QStringList{"run", dir} << "is a directory";
        QTest::newRow("device") << QStringList{"run", "/dev/null"} << "character device";
        QTest::newRow("range larger than file")
            << QStringList{"run", path_, "--sizes", "8M"} << "larger than the file";
        QTest::newRow("size zero") << QStringList{"run", path_, "--sizes", "0"} << "zero";
        QTest::newRow("size junk")
            << QStringList{"run", path_, "--sizes", "lots"} << "not a number";
        QTest::newRow("size overflow")
            << QStringList{"run", path_, "--sizes", "99999999999999999999G"} << "too large";
        QTest::newRow("unknown strategy")
            << QStringList{"run", path_, "--strategies", "pread-magic"} << "pread-magic";
        QTest::newRow("threads negative") << QStringList{"run", path_, "--threads", "-3"} << "-3";
        QTest::newRow("threads junk") << QStringList{"run", path_, "--threads", "two"} << "two";
        QTest::newRow("rounds huge")
            << QStringList{"run", path_, "--rounds", "99999999999"} << "out of range";
        QTest::newRow("missing value") << QStringList{"run", path_, "--rounds"} << "needs a value";
        QTest::newRow("unknown option") << QStringList{"run", "--frobnicate"} << "--frobnicate";
        QTest::newRow("unknown option after FILE")
            << QStringList{"run", path_, "--frobnicate"} << "unknown option '--frobnicate'";
        QTest::newRow("output folder missing")
            << QStringList{"run", path_, "--csv", dir + "/no/such/x.csv"} << "does not exist";
        QTest::newRow("output is target")
            << QStringList{"run", path_, "--json", path_} << "never writes";
        QTest::newRow("unknown command") << QStringList{"explode"} << "unknown command";
        QTest::newRow("no command") << QStringList{} << "no command";
        QTest::newRow("pattern") << QStringList{"run", path_, "--pattern", "zigzag"} << "zigzag";
        QTest::newRow("offset sweep at two sizes")
            << QStringList{"run", path_, "--sizes", "64K,1M", "--buffer-offset", "0,16"}
            << "one range size";
        QTest::newRow("offset auto in a list")
            << QStringList{"run", path_, "--buffer-offset", "0,auto"} << "'auto'";
        QTest::newRow("generate exists")
            << QStringList{"generate", path_, "--size", "1M"} << "already exists";
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const auto before = readscope::testing::fileFingerprint(file_->path());
        auto r = cli(args);
        QVERIFY2(r.code == 2 || (args.value(0) == "generate" && r.code == 1),
                 qPrintable(QString("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
        QVERIFY(r.err.startsWith("readscope-cli: "));
        QCOMPARE(readscope::testing::fileFingerprint(file_->path()), before);
    }

    void everyValueFlagRejectsBadValues_data() {
        QTest::addColumn<QStringList>("args");
        const QStringList flags = {"--sizes",         "--threads",     "--rounds",   "--warmup",
                                   "--seed",          "--budget",      "--time-cap", "--threshold",
                                   "--pattern",       "--cache",       "--consume",  "--strategies",
                                   "--buffer-offset", "--memory-limit"};
        const QStringList values = {
            "",      "-1",   "-0.5", "abc", "99999999999999999999", "99999999999999999999G",
            "1e999", "12abc"};
        for (const auto& flag : flags)
            for (const auto& value : values) {
                if (flag == "--seed" && value == "-0.5")
                    continue;
                QTest::newRow(qPrintable(flag + " '" + value + "'"))
                    << QStringList{"run", path_, flag, value};
            }
    }
    void everyValueFlagRejectsBadValues() {
        QFETCH(QStringList, args);
        auto r = cli(args);
        QVERIFY2(r.code == 2, qPrintable(QString("exit %1, stderr: %2").arg(r.code).arg(r.err)));
        QVERIFY(r.err.startsWith("readscope-cli: "));
        QVERIFY2(r.err.contains(args[2]) || r.err.contains("needs a value") ||
                     r.err.contains(args[3]),
                 qPrintable(r.err));
    }

    void fullDiskKeepsThePreviousExport() {
        // A 4 KiB tmpfs in a private mount namespace stands for a full disk.
        const QString unshare = QStandardPaths::findExecutable("unshare");
        if (unshare.isEmpty())
            QSKIP("no unshare(1)");
        QTemporaryDir dir;
        const QString script =
            QString("mount -t tmpfs -o size=4k none '%1' && printf old > '%1/r.json' && "
                    "'%2' run '%3' --sizes 64K --strategies pread-uninit --rounds 3 --warmup 0 "
                    "--quiet --json '%1/r.json'; echo \"exit=$?\"; cat '%1/r.json'")
                .arg(dir.path(), READSCOPE_CLI, path_);
        QProcess p;
        p.start(unshare, {"-rm", "sh", "-c", script});
        QVERIFY(p.waitForFinished(60000));
        const QString out = p.readAllStandardOutput(), err = p.readAllStandardError();
        if (err.contains("mount:") || err.contains("unshare:"))
            QSKIP(qPrintable("cannot mount a private tmpfs here: " + err));
        QVERIFY2(out.contains("exit=1"), qPrintable(out + err));
        QVERIFY2(err.contains("No space left"), qPrintable(err));
        QVERIFY2(out.trimmed().endsWith("old"), qPrintable(out)); // the previous file, intact
    }

    void emptyFile() {
        const QString path = file_->dir() + "/empty";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        auto r = cli({"run", path});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("is empty"));
    }

    void fifo() {
        const QString path = file_->dir() + "/fifo";
        QCOMPARE(::mkfifo(path.toLocal8Bit().constData(), 0600), 0);
        auto r = cli({"run", path});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("a FIFO"));
    }

    void unreadableFile() {
        // As root every file is readable, so drop to 'nobody' for this one check.
        QTemporaryDir dir("/tmp/readscope-perm-XXXXXX");
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                              QFileDevice::ExeOwner | QFileDevice::ExeOther |
                                              QFileDevice::ReadOther);
        const QString path = dir.path() + "/secret.bin";
        QVERIFY(QFile::copy(path_, path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
        QStringList prefix;
        if (::geteuid() == 0) {
            const QString setpriv = QStandardPaths::findExecutable("setpriv");
            if (setpriv.isEmpty())
                QSKIP("running as root without setpriv: cannot test an unreadable file");
            prefix = {setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"};
        }
        auto r = cli({"run", path}, prefix);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("cannot open") && r.err.contains("Permission denied"),
                 qPrintable(r.err));
    }

    // Someone else's read-only file: cachestat and mincore would lie to this reader, so each
    // round's pages are sampled with RWF_NOWAIT reads; cold must still be verified cold and
    // warm verified warm.
    void residencyOfSomeoneElsesFile() {
        if (::geteuid() != 0)
            QSKIP("needs root to make a file owned by someone else and read it as 'nobody'");
        const QString setpriv = QStandardPaths::findExecutable("setpriv");
        if (setpriv.isEmpty())
            QSKIP("no setpriv(1) to read the file as 'nobody'");
        QTemporaryDir dir("/tmp/readscope-nowait-XXXXXX");
        QVERIFY(
            QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                  QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                                  QFileDevice::WriteOther | QFileDevice::ExeOther));
        const QString path = dir.path() + "/roots.bin";
        QVERIFY(QFile::copy(path_, path)); // owned by root, mode 0644
        const QStringList nobody = {setpriv,          "--reuid=65534", "--regid=65534",
                                    "--clear-groups", "env",           "HOME=" + dir.path()};
        for (const char* cache : {"cold", "warm"}) {
            const QString json = dir.path() + "/" + cache + ".json";
            auto r = cli({"run", path, "--cache", cache, "--sizes", "64K", "--strategies",
                          "pread-uninit,mmap-touch", "--rounds", "3", "--warmup", "1", "--json",
                          json, "--quiet"},
                         nobody);
            QVERIFY2(r.code == 0,
                     qPrintable(QString("exit %1\n%2%3").arg(r.code).arg(r.out, r.err)));
            auto doc = readscope::loadDocument(json.toStdString());
            QVERIFY2(doc.ok(), doc.ok() ? "" : doc.error().message.c_str());
            QCOMPARE(doc->cells.size(), std::size_t(2));
            for (const auto& c : doc->cells) {
                QVERIFY2(c.residencyMethod.rfind("nowait-sample: ", 0) == 0,
                         c.residencyMethod.c_str());
                for (const auto& s : c.samples) {
                    QVERIFY(s.residentBefore.has_value());
                    if (QByteArray(cache) == "cold")
                        QVERIFY2(*s.residentBefore <= 0.01, c.message.c_str());
                    else
                        QVERIFY2(*s.residentBefore >= 0.99, c.message.c_str());
                }
            }
            qInfo("%s as nobody: %s, %.1f%% resident", cache, doc->cells[0].residencyMethod.c_str(),
                  *doc->cells[0].residentBefore * 100);
        }
    }

    void directRefusedStillRunsOthers() {
        // ramfs refuses O_DIRECT; a user + mount namespace lets anyone mount one privately.
        const QString unshare = QStandardPaths::findExecutable("unshare");
        if (unshare.isEmpty())
            QSKIP("no unshare(1) to mount a private ramfs");
        QTemporaryDir dir;
        const QString script =
            QString(
                "mount -t ramfs none '%1' && '%2' generate '%1/f.bin' --size 1M >/dev/null "
                "&& exec '%2' run '%1/f.bin' --sizes 64K --strategies direct-pread,pread-uninit "
                "--rounds 2 --warmup 0 --quiet")
                .arg(dir.path(), READSCOPE_CLI);
        QProcess p;
        p.start(unshare, {"-rm", "sh", "-c", script});
        QVERIFY(p.waitForFinished(60000));
        const QString out = p.readAllStandardOutput(), err = p.readAllStandardError();
        if (err.contains("mount:") || err.contains("unshare:"))
            QSKIP(qPrintable("cannot mount a private ramfs here: " + err));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(out.contains("unavailable"), qPrintable(out));
        QVERIFY2(out.contains("refuses O_DIRECT"), qPrintable(out));
        QVERIFY(out.contains(QRegularExpression("pread-uninit +[0-9]+\\.[0-9]+")));
    }

    void compareAndBaseline() {
        const QString dir = file_->dir();
        auto runTo = [this](const QString& json) {
            return cli(QStringList{"run", path_, "--sizes", "64K", "--strategies",
                                   "pread-zerofill,pread-uninit", "--rounds", "5", "--warmup", "0",
                                   "--quiet", "--json", json})
                .code;
        };
        const QString a = dir + "/a.json";
        QCOMPARE(runTo(a), 0);
        auto same = cli({"compare", a, a, "--markdown"});
        QCOMPARE(same.code, 0);
        QVERIFY2(same.out.contains("| pread-uninit | 64 KiB |"), qPrintable(same.out));
        // Two runs with no drift between runs measured here: every row cannot tell, and the
        // first line says how to measure it; never "faster", "slower" or "within noise".
        QVERIFY2(same.out.startsWith("Cannot tell any row") &&
                     same.out.contains("cannot tell (separate runs"),
                 qPrintable(same.out));
        for (const char* word : {"| faster", "| slower", "within noise", "95%"})
            QVERIFY2(!same.out.contains(word), qPrintable(same.out));
        auto ref = cli({"compare", a, "--reference", "pread-zerofill"});
        QCOMPARE(ref.code, 0);
        QVERIFY(ref.out.contains("pread-uninit vs pread-zerofill"));
        QCOMPARE(cli({"compare", a, "--reference", "nope"}).code, 2);
        QCOMPARE(cli({"compare", a}).code, 2);
        QCOMPARE(cli({"compare", a, dir + "/missing.json"}).code, 2);
        QCOMPARE(cli({"compare", a, a, "--threshold", "-5"}).code, 2);
        QCOMPARE(cli({"compare", a, a, "--threshold", "abc"}).code, 2);
        auto run = cli(QStringList{"run", path_, "--sizes", "64K", "--strategies", "pread-uninit",
                                   "--baseline", a} +
                       kQuick);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains("compared with") && run.out.contains("Only in the baseline"),
                 qPrintable(run.out));

        // drift: A/A runs of one plan measure this machine's drift between runs, kept for
        // every later compare (here a.json against itself and a second run b.json).
        const QString b = dir + "/b.json", c = dir + "/c.json";
        QCOMPARE(runTo(b), 0);
        QCOMPARE(runTo(c), 0);
        auto before = cli({"compare", a, b});
        QVERIFY2(before.out.contains("was never measured"), qPrintable(before.out));
        auto drift = cli({"drift", a, b, c});
        QCOMPARE(drift.code, 0);
        QVERIFY2(drift.out.contains("Between these 3 runs of one plan") &&
                     drift.out.contains("Kept as the drift of"),
                 qPrintable(drift.out));
        QVERIFY(QFile::exists(file_->dir() + "/data/machine-drift.json"));
        auto after = cli({"compare", a, b});
        QVERIFY2(after.out.startsWith("Drift between runs: ±") &&
                     after.out.contains("this machine's, from 3 runs of one plan"),
                 qPrintable(after.out));
        // A document that is not there, and too few runs, are usage errors.
        QCOMPARE(cli({"drift", a, b, dir + "/missing.json"}).code, 2);
        QCOMPARE(cli({"drift", a, b}).code, 2); // two runs: no spread
    }

    // The report's chart is drawn by readscope-cli itself: a copy of it alone in a folder (no
    // desktop app beside it, as an installation with only the CLI), with no display, writes it.
    void reportFolder() {
        const QString dir = file_->dir() + "/report";
        const QString alone = file_->dir() + "/cli-only/readscope-cli";
        QVERIFY(QDir().mkpath(file_->dir() + "/cli-only"));
        QVERIFY(QFile::copy(READSCOPE_CLI, alone));
        QVERIFY(QDir(file_->dir() + "/cli-only").entryList(QDir::Files) ==
                QStringList{"readscope-cli"});
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(var);
        p.setProcessEnvironment(env);
        p.start(alone, QStringList{"run", path_, "--sizes", "64K", "--strategies",
                                   "pread-uninit,seek-read", "--report", dir} +
                           kQuick);
        QVERIFY(p.waitForFinished(180000));
        const Outcome r{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                        QString::fromUtf8(p.readAllStandardError())};
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile md(dir + "/readscope-report.md");
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QString text = md.readAll();
        QVERIFY(text.contains("| range | pread-uninit | seek-read |"));
        // The test file is a generated one: the rerun command makes the same bytes first.
        QVERIFY2(text.contains("Rerun: `readscope-cli generate readscope-test.bin --size 4M && "
                               "readscope-cli run readscope-test.bin --sizes 64K --strategies "
                               "pread-uninit,seek-read"),
                 qPrintable(text));
        QVERIFY(text.contains("## System"));
        QVERIFY(QFile::exists(dir + "/readscope-results.json"));
        if (r.err.contains("built without Qt"))
            QSKIP("built without Qt: no chart to check");
        QVERIFY2(!r.err.contains("chart"), qPrintable(r.err));
        QVERIFY(text.contains("![GB/s per range size](readscope-chart.png)"));
        const QImage chart(dir + "/readscope-chart.png");
        QCOMPARE(chart.size(), QSize(2400, 1400)); // 1200 x 700 at twice the pixels
        // Drawn, not blank: the lines' colours are in it.
        QSet<QRgb> colours;
        for (int y = 0; y < chart.height(); y += 7)
            for (int x = 0; x < chart.width(); x += 7)
                colours.insert(chart.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        QCOMPARE(cli({"run", path_, "--report", file_->dir() + "/no/such/dir"}).code, 2);
    }

    // --duration: the rounds go on for the time, and the report shows them over time too; the
    // rerun command says the duration, and a duration over an hour is a usage error.
    void durationRunsReportOverTime() {
        const QString dir = file_->dir() + "/report-over-time";
        auto r = cli({"run", path_, "--sizes", "64K", "--strategies", "pread-uninit", "--pattern",
                      "random", "--duration", "0.5s", "--report", dir, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile md(dir + "/readscope-report.md");
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QString text = md.readAll();
        QVERIFY2(text.contains("--duration 0.5"), qPrintable(text));
        if (!r.err.contains("built without Qt")) {
            QVERIFY2(text.contains("![GB/s of each round over time](readscope-over-time.png)"),
                     qPrintable(text));
            QCOMPARE(QImage(dir + "/readscope-over-time.png").size(), QSize(2400, 1400));
        }
        QCOMPARE(cli({"run", path_, "--duration", "2h"}).code, 2);
        QCOMPARE(cli({"run", path_, "--duration", "61m"}).code, 2);
    }

    void killDashNineLosesNothingFinished() {
        const QString rec = file_->dir() + "/recovery.jsonl";
        QProcess p;
        p.start(READSCOPE_CLI, {"run", path_, "--sizes", "1M,256K,64K", "--strategies",
                                "pread-uninit,seek-read", "--rounds", "10000", "--warmup", "0",
                                "--time-cap", "3", "--quiet", "--recovery", rec});
        QVERIFY(p.waitForStarted());
        // Header + the 1 MiB cells. The kill must land before the run ends: with the 3 s time
        // cap (10000 rounds of 4 MiB per strategy outlast it) the two sizes left need 6 s,
        // against a 50 ms poll; and the test says so if it ever lost that race.
        QVERIFY(killOnceRecovered(p, rec, 3));
        auto recovered = readscope::readRecovery(rec.toStdString());
        QVERIFY(recovered.ok());
        QVERIFY(recovered->cells.size() >= 2);
        QVERIFY(!recovered->complete);

        const QString out = file_->dir() + "/resumed.json";
        auto r = cli({"run", "--resume", rec, "--quiet", "--json", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto doc = readscope::loadDocument(out.toStdString());
        QVERIFY(doc.ok());
        QVERIFY(doc->complete);
        QCOMPARE(doc->cells.size(), std::size_t(6));
        QVERIFY(doc->find("seek-read", 64 << 10));
        QVERIFY(!QFile::exists(rec));
        QCOMPARE(cli({"run", path_, "--resume", rec}).code, 2);
    }

    void strategiesList() {
        auto r = cli({"strategies", path_});
        QCOMPARE(r.code, 0);
        for (const char* id : {"pread-zerofill", "seek-read", "mmap-populate", "uring-batch"})
            QVERIFY(r.out.contains(id));
        auto e = cli({"strategies", path_, "--explain"});
        QVERIFY(e.out.contains("memset"));
    }

    void generateWritesFile() {
        const QString path = file_->dir() + "/gen.bin";
        auto r = cli({"generate", path, "--size", "1M"});
        QCOMPARE(r.code, 0);
        QCOMPARE(QFileInfo(path).size(), qint64(1 << 20));
        QVERIFY(!QFile::exists(path + ".readscope-partial"));
    }

    void defaultRunUsesGeneratedFileAndCleansUp() {
        QTemporaryDir tmp;
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("TMPDIR", tmp.path());
        p.setProcessEnvironment(env);
        p.start(READSCOPE_CLI, QStringList{"run", "--sizes", "1M", "--strategies", "pread-reuse",
                                           "--budget", "16M"} +
                                   kQuick);
        QVERIFY(p.waitForFinished(180000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString(p.readAllStandardOutput()).contains("256 MiB"));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
    }

    void interruptStopsAndCleansUp() {
        QTemporaryDir tmp;
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("TMPDIR", tmp.path());
        p.setProcessEnvironment(env);
        // 10000 rounds of 256 MiB in 4 KiB ranges: only the 60 s time cap would end this run,
        // so it is still going when the interrupt lands.
        p.start(READSCOPE_CLI,
                {"run", "--sizes", "4K", "--rounds", "10000", "--strategies", "pread-uninit"});
        QVERIFY(p.waitForStarted());
        // The CLI says where it keeps finished cells once the file is generated and the run
        // starts (stderr is not a terminal here, so there is no progress bar to wait for).
        QString err;
        QVERIFY(QTest::qWaitFor(
            [&] {
                err += QString::fromUtf8(p.readAllStandardError());
                return err.contains("Finished cells are kept in");
            },
            120000));
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        err += QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("the run was stopped"), qPrintable(err));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
