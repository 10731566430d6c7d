// Golden outputs: fixed result documents (tests/golden/input, real runs saved once, and one
// built from them with every condition and finding: eventful()) rendered
// by every renderer and compared byte for byte with tests/golden/*. A sentence changed
// anywhere in a table, warning, comparison or report fails here, naming the file and the
// first line that differs. scripts/update-golden.sh writes them anew and shows the diff.
#include "every_verdict.h"
#include "text_table.h"

#include "readscope/compare.h"
#include "readscope/comparison_text.h"
#include "readscope/documents.h"
#include "readscope/report.h"
#include "readscope/run_findings.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <functional>

using namespace readscope;

namespace {

const QDir kGolden(READSCOPE_GOLDEN_DIR);

ResultDocument input(const char* name) {
    auto doc = loadDocument(kGolden.filePath(QString("input/%1.json").arg(name)).toStdString());
    if (!doc)
        qFatal("golden input %s: %s", name, doc.error().message.c_str());
    return *doc;
}

// The cold run with everything that can go wrong in one: a memory limit, a cell that did not
// go cold, cells above a (lowered) device limit, a changed file, a time cap, an unavailable
// strategy, a failed cell, a note and a stop. Built here, not saved: a saved document carries
// its cells' conditions only as words, and these must go through every renderer as structure.
ResultDocument eventful() {
    ResultDocument doc = input("cold");
    doc.plan.memoryLimit = 256ull << 20;
    doc.memoryLimit = ResultDocument::MemoryLimit{
        256ull << 20, "cgroup v1 /sys/fs/cgroup/memory/user/readscope-4242 "
                      "(memory.limit_in_bytes 268435456, made by readscope)"};
    doc.deviceLimit->gbps = 1.25; // the pread cells pass it
    auto& notCold = doc.cells[0];
    notCold.status = CellStatus::NotCold;
    notCold.conditions.push_back({NotCold{3, 4, 0.42, 0.01}});
    doc.cells[1].conditions.push_back({RoundsCut{3, 4, false}});
    doc.cells[2].conditions.push_back(
        {FileChanged{FileChange{FileChange::How::Resized, 268435456, 134217728, ""}}});
    doc.plan.strategies.push_back("direct-pread");
    doc.plan.strategies.push_back("mmap-copy");
    auto without = [&](const char* strategy, std::uint64_t size, CellStatus status,
                       const char* why) {
        Cell c;
        c.strategy = strategy;
        c.rangeBytes = size;
        c.status = status;
        c.message = why;
        doc.cells.push_back(c);
    };
    for (const std::uint64_t size : doc.plan.sizes) {
        without("direct-pread", size, CellStatus::Unavailable, "the filesystem refuses O_DIRECT");
        without("mmap-copy", size, CellStatus::Failed,
                "SIGBUS while reading the mapping: the file shrank");
    }
    doc.note = "file sizes 512 MiB are larger than 'g256.bin' (256 MiB): skipped";
    doc.complete = false;
    return doc;
}

// The warm run with each strategy's rounds sped up by its factor (1.3: 30% faster), so that a
// comparison with the baseline has verdicts to give.
ResultDocument scaled(std::initializer_list<std::pair<const char*, double>> factors) {
    ResultDocument doc = input("warm");
    for (auto& cell : doc.cells)
        for (const auto& [id, factor] : factors)
            if (cell.strategy == id) {
                for (auto& s : cell.samples)
                    s.seconds /= factor;
                cell.summarize();
            }
    return doc;
}

// Faster, slower and unchanged rows between two runs of one machine.
Comparison mixedComparison() {
    return compareDocuments(input("warm-baseline"),
                            scaled({{"pread-uninit", 1.3}, {"seek-read", 0.7}}), 0.02);
}

// Every row faster alike, a cell only in each run, and another kernel: every note under the
// rows.
Comparison shiftedComparison() {
    ResultDocument current =
        scaled({{"pread-uninit", 1.3}, {"seek-read", 1.3}, {"mmap-touch", 1.3}});
    current.cells.pop_back();
    Cell extra = current.cells.front();
    extra.strategy = "pread-zerofill";
    current.cells.push_back(extra);
    current.system.kernel = "Linux 6.19.1";
    return compareDocuments(input("warm-baseline"), current, 0.02);
}

// A buffer-offset sweep built from the warm run's 1 MiB pread-uninit cell: page-aligned as
// measured, and at page offset 16 each round a third as fast (a cliff the paired test calls
// with six rounds and one comparison).
ResultDocument offsetSweep() {
    ResultDocument doc = input("warm");
    const Cell* aligned = doc.find("pread-uninit", 1 << 20);
    if (!aligned)
        qFatal("golden input warm: no pread-uninit cell at 1 MiB");
    Cell zero = *aligned, sixteen = *aligned;
    zero.bufferOffset = 0;
    sixteen.bufferOffset = 16;
    for (auto& s : sixteen.samples)
        s.seconds *= 3;
    zero.summarize();
    sixteen.summarize();
    doc.plan.strategies = {"pread-uninit"};
    doc.plan.sizes = {1 << 20};
    doc.plan.bufferOffsets = {0, 16};
    doc.cells = {zero, sixteen};
    return doc;
}

// What `run` prints: standard output, then the warnings on standard error.
std::string runPrinted(const ResultDocument& doc, bool markdown) {
    const auto findings = runFindings(doc);
    std::string out = cli::runOutput(doc, findings, markdown, nullptr, "");
    for (const auto& l : cli::runWarnings(doc, findings))
        out += l.text + "\n";
    return out;
}

// Each golden file and how it is made from the inputs.
std::vector<std::pair<QString, std::function<std::string()>>> renderers() {
    std::vector<std::pair<QString, std::function<std::string()>>> out;
    for (const char* run : {"warm", "cold", "eventful"}) {
        const QString r = run;
        const std::function<ResultDocument()> doc = [run] {
            return std::string_view(run) == "eventful" ? eventful() : input(run);
        };
        out.push_back({r + ".json", [doc] { return toJson(doc()); }});
        out.push_back({r + ".summary.csv", [doc] { return toSummaryCsv(doc()); }});
        out.push_back({r + ".samples.csv", [doc] { return toSamplesCsv(doc()); }});
        out.push_back({r + ".md", [doc] { return toMarkdown(doc()); }});
        out.push_back({r + ".txt", [doc] { return runPrinted(doc(), false); }});
        out.push_back({r + ".report.md",
                       [doc] { return reportMarkdown(doc(), nullptr, "readscope-chart.png"); }});
    }
    auto compared = [] { return compareDocuments(input("warm-baseline"), input("warm"), 0.02); };
    out.push_back({"compare.txt", [compared] {
                       const auto c = compared();
                       const auto doc = input("warm");
                       return cli::runOutput(doc, runFindings(doc), false, &c,
                                             "warm-baseline.json");
                   }});
    out.push_back({"compare.md", [compared] { return comparisonMarkdown(compared()); }});
    out.push_back({"compare.report.md", [compared] {
                       const auto c = compared();
                       return reportMarkdown(input("warm"), &c, "readscope-chart.png");
                   }});
    // A duration run's report: its rounds' GB/s and TLB shootdowns over time, each drawn.
    out.push_back({"over-time.report.md", [] {
                       ResultDocument doc = input("warm");
                       doc.plan.durationSeconds = 30;
                       for (auto& s : doc.cells.at(0).samples)
                           s.tlbShootdowns = 12;
                       return reportMarkdown(doc, nullptr, "readscope-chart.png",
                                             reportExtraCharts(doc));
                   }});
    // `run --markdown` of an offset sweep: its verdict once, among the findings.
    out.push_back({"offset-sweep.txt", [] { return runPrinted(offsetSweep(), false); }});
    out.push_back({"offset-sweep.run.md", [] { return runPrinted(offsetSweep(), true); }});
    out.push_back({"compare-mixed.txt", [] { return comparisonText(mixedComparison()); }});
    out.push_back({"compare-mixed.md", [] { return comparisonMarkdown(mixedComparison()); }});
    out.push_back({"compare-shifted.txt", [] { return comparisonText(shiftedComparison()); }});
    out.push_back({"compare-shifted.md", [] { return comparisonMarkdown(shiftedComparison()); }});
    // Every outcome and every cause of "cannot tell", as the terminal and the Markdown word
    // them (tst_comparison_model holds the Compare tab to compare-verdicts.tab).
    out.push_back({"compare-verdicts.txt", [] { return comparisonText(testing::everyVerdict()); }});
    out.push_back(
        {"compare-verdicts.md", [] { return comparisonMarkdown(testing::everyVerdict()); }});
    out.push_back(
        {"reference.txt",
         [] { return comparisonText(compareToReference(input("warm"), "pread-uninit", 0.02)); }});
    return out;
}

} // namespace

class TestGolden : public QObject {
    Q_OBJECT
private slots:
    void outputs_data() {
        QTest::addColumn<int>("index");
        const auto all = renderers();
        for (int i = 0; i < int(all.size()); ++i)
            QTest::newRow(qPrintable(all[std::size_t(i)].first)) << i;
    }

    void outputs() {
        QFETCH(int, index);
        const auto [name, render] = renderers()[std::size_t(index)];
        const QByteArray now = QByteArray::fromStdString(render());
        const QString path = kGolden.filePath(name);
        if (qEnvironmentVariableIsSet("READSCOPE_UPDATE_GOLDEN")) {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(now);
            return;
        }
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly),
                 qPrintable(path + " is missing: scripts/update-golden.sh writes it"));
        const QByteArray golden = file.readAll();
        if (now == golden)
            return;
        const auto a = golden.split('\n'), b = now.split('\n');
        int line = 0;
        while (line < a.size() && line < b.size() && a[line] == b[line])
            ++line;
        QFAIL(qPrintable(QString("%1 differs at line %2:\n  golden: %3\n  now:    %4\n"
                                 "(scripts/update-golden.sh shows the whole diff and takes it)")
                             .arg(name)
                             .arg(line + 1)
                             .arg(QString::fromUtf8(line < a.size() ? a[line] : "(end)"),
                                  QString::fromUtf8(line < b.size() ? b[line] : "(end)"))));
    }

    // The eventful document's findings as values, the ones its golden files word: one cell
    // past the device limit (pread-uninit at 1 MiB, 122% of 1.25 GB/s), one cell not cold.
    void eventfulFindingsAreValues() {
        const ResultDocument doc = eventful();
        const auto findings = runFindings(doc);
        std::vector<FindingKind> kinds;
        for (const auto& f : findings)
            kinds.push_back(f.kind());
        QCOMPARE(kinds, (std::vector{FindingKind::AboveDeviceLimit, FindingKind::NotCold}));
        const auto& device = std::get<AboveDeviceLimitFinding>(findings[0].value);
        QCOMPARE(device.limitGbps, 1.25);
        QCOMPARE(device.cells.size(), std::size_t(1));
        const Cell& past = doc.cells.at(device.cells[0].cell);
        QCOMPARE(past.strategy, std::string("pread-uninit"));
        QCOMPARE(past.rangeBytes, std::uint64_t(1) << 20);
        QCOMPARE(qRound(device.cells[0].pct), 122);
        QCOMPARE(std::get<NotColdFinding>(findings[1].value).cells, std::size_t(1));
        QVERIFY(findings[0].serious() && findings[1].serious());
    }
};

QTEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
