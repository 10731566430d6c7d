// The rerun command a document prints is parsed back by readscope-cli's own option parser into
// the document's plan, field by field: no option the run used may be left out of it.
#include "cli_options.h"

#include "readscope/plan_flags.h"
#include "readscope/provenance.h"

#include <CLI/CLI.hpp>
#include <QTest>

#include <set>
#include <string>
#include <vector>

using namespace readscope;

namespace {

// The words of a POSIX shell command as printed by shellWord: plain words and '...' quoting,
// with a quote inside written as '\''.
std::vector<std::string> shellWords(const std::string& command) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == '\'') {
            inWord = true;
            const auto end = command.find('\'', i + 1);
            word += command.substr(i + 1, end - i - 1);
            i = end;
        } else if (c == '\\' && i + 1 < command.size()) {
            inWord = true;
            word += command[++i];
        } else if (c == ' ') {
            if (inWord)
                words.push_back(word);
            word.clear();
            inWord = false;
        } else {
            inWord = true;
            word += c;
        }
    }
    if (inWord)
        words.push_back(word);
    return words;
}

// "readscope-cli run ..." through the CLI's parser, as readscope-cli would run it.
Plan parsed(const std::string& command) {
    auto words = shellWords(command);
    if (words.size() < 2 || words[0] != "readscope-cli" || words[1] != "run")
        qFatal("not a run command: %s", command.c_str());
    CLI::App root;
    cli::RunOptions o;
    cli::addRunOptions(root, o);
    std::vector<char*> argv;
    for (auto& w : words)
        argv.push_back(w.data());
    root.parse(int(argv.size()), argv.data());
    if (auto st = cli::finishPlan(o); !st)
        qFatal("%s", st.error().message.c_str());
    return o.plan;
}

#define SAME(field)                                                                                \
    QVERIFY2(back.field == plan.field,                                                             \
             "--> " #field " differs after the round trip: " + QByteArray::fromStdString(command))

void roundTrip(const Plan& plan) {
    ResultDocument doc;
    doc.plan = plan;
    const std::string command = rerunCommand(doc);
    const Plan back = parsed(command);
    SAME(file);
    SAME(sizes);
    SAME(strategies);
    SAME(pattern);
    SAME(fileSizes);
    SAME(cache);
    SAME(consume);
    SAME(threads);
    SAME(threadCounts);
    SAME(queueDepths);
    SAME(rounds);
    SAME(warmup);
    SAME(seed);
    SAME(budget);
    SAME(timeCapSeconds);
    SAME(roundTimeSeconds);
    SAME(dropCachesAsRoot);
    SAME(repeats);
    SAME(precision);
    SAME(maxTimeSeconds);
    SAME(bufferOffsets);
}

} // namespace

class TestRerun : public QObject {
    Q_OBJECT
private slots:
    // Every option away from its default.
    void everyOptionSetComesBack() {
        Plan p;
        p.file = "/data/a file's copy.bin";
        p.sizes = {4 << 10, 1 << 20};
        p.strategies = {"pread-uninit", "uring-batch", "mmap-touch"};
        p.pattern = Pattern::Random;
        p.cache = CacheMode::Cold;
        p.consume = Consume::Minimal;
        p.threads = 3;
        p.queueDepths = {8};
        p.rounds = 7;
        p.warmup = 2;
        p.seed = 7;
        p.budget = 32 << 20;
        p.timeCapSeconds = 12.5;
        p.roundTimeSeconds = 0.05;
        p.dropCachesAsRoot = true;
        p.repeats = 2;
        p.precision = 0.025;
        p.maxTimeSeconds = 90;
        p.bufferOffsets = {16};
        roundTrip(p);
    }

    // The sweep lists and the whole pattern's file sizes.
    void sweepsAndFileSizesComeBack() {
        Plan p;
        p.file = "f.bin";
        p.pattern = Pattern::Whole;
        p.fileSizes = {128, 8 << 10, 2 << 20};
        p.strategies = {"read-grow", "read-prealloc"};
        p.threadCounts = {1, 2, 4};
        roundTrip(p);
        Plan offsets;
        offsets.file = "f.bin";
        offsets.sizes = {256 << 10};
        offsets.strategies = {"pread-uninit"};
        offsets.bufferOffsets = {0, 16, 4096 + 16};
        roundTrip(offsets);
        Plan depths = offsets;
        depths.bufferOffsets.clear();
        depths.strategies = {"uring-batch"};
        depths.queueDepths = {1, 4, 16};
        roundTrip(depths);
    }

    // The rerun command is written from the table the CLI declares its plan options by: every
    // entry is a `run` option, and every option of `run` that is not about where results go
    // is an entry, so a plan option added to the CLI alone fails here.
    void thePlanFlagTableIsTheCliOptionTable() {
        CLI::App root;
        cli::RunOptions o;
        CLI::App* run = cli::addRunOptions(root, o);
        std::set<std::string> table;
        for (const PlanFlag& f : planFlags()) {
            QVERIFY2(table.insert(std::string(f.name)).second, f.name.data());
            QVERIFY2(run->get_option_no_throw(std::string(f.name)), f.name.data());
        }
        const std::set<std::string> notPlan = {
            "--csv",      "--samples-csv", "--json",   "--markdown", "--baseline", "--threshold",
            "--recovery", "--resume",      "--report", "--quiet",    "--help",     "--version"};
        int options = 0;
        for (const CLI::Option* opt : run->get_options()) {
            for (const auto& name : opt->get_lnames()) {
                const std::string flag = "--" + name;
                ++options;
                QVERIFY2(table.count(flag) || notPlan.count(flag),
                         qPrintable(QString::fromStdString(flag) + " is a plan option of `run` "
                                                                   "missing from planFlags()"));
            }
        }
        QVERIFY(options >= int(table.size() + notPlan.size()) - 1);
    }

    // The defaults come back as defaults.
    void aDefaultPlanComesBack() {
        Plan p;
        p.file = "f.bin";
        p.strategies = {"pread-zerofill"};
        roundTrip(p);
    }
};

QTEST_GUILESS_MAIN(TestRerun)
#include "tst_rerun.moc"
