#include "chart_renderer.h"
#include "cli_options.h"
#include "cli_platform.h"
#include "commands.h"
#include "console_sink.h"
#include "text_table.h"

#include "readscope/compare.h"
#include "readscope/comparison_text.h"
#include "readscope/documents.h"
#include "readscope/generator.h"
#include "readscope/machine_drift_store.h"
#include "readscope/offset_trap.h"
#include "readscope/probe.h"
#include "readscope/recovery.h"
#include "readscope/report.h"
#include "readscope/runner.h"
#include "readscope/user_folders.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <thread>
#include <utility>

namespace readscope::cli {

namespace {

namespace fs = std::filesystem;

// Ctrl-C requests a stop instead of killing the process, so finished cells are printed and a
// generated file is removed. A watcher thread turns the signal into a stop request; it sleeps
// until one comes (polling every 10 ms woke it 100 times a second during the rounds).
class InterruptGuard {
public:
    explicit InterruptGuard(std::stop_source& source) {
        catchInterrupts();
        watcher_ = std::jthread([&source] {
            if (waitForInterrupt())
                source.request_stop();
        });
    }
    ~InterruptGuard() {
        wakeInterruptWaiter();
        watcher_.join();
        restoreInterrupts();
    }

private:
    std::jthread watcher_;
};

// A generated default file lives in its own temporary folder and goes with it.
class TempFile {
public:
    ~TempFile() {
        std::error_code ec;
        if (!dir_.empty())
            fs::remove_all(dir_, ec);
    }
    Result<std::string> create(std::uint64_t size, bool showProgress, std::stop_token stop) {
        auto dir = makeTempDir("readscope");
        if (!dir)
            return dir.error();
        dir_ = *dir;
        const std::string path = (fs::path(dir_) / "readscope-default.bin").string();
        if (showProgress)
            fmt::print(stderr, "Generating a {} MiB test file {} ...\n", size >> 20, path);
        if (auto st = generateFile(path, size, false, {}, stop); !st)
            return st.error();
        return path;
    }

private:
    std::string dir_;
};

std::string defaultRecoveryPath() {
    return (fs::path(stateFolder()) / fmt::format("recovery-{}.jsonl", processId())).string();
}

int runCommand(RunOptions& o) {
    for (auto [path, flag] : {std::pair{&o.csvPath, "--csv"},
                              {&o.samplesCsvPath, "--samples-csv"},
                              {&o.jsonPath, "--json"}})
        if (auto st = *path ? checkOutputPath(**path, flag, o.plan.file, "the file being measured")
                            : okStatus();
            !st)
            return complain(st.error().message, kExitUsage);
    if (o.reportDir) {
        std::error_code ec;
        const fs::path dir(*o.reportDir);
        if (!fs::is_directory(dir, ec) && !fs::create_directory(dir, ec))
            return complain(fmt::format("--report '{}': cannot create that folder ({}); does "
                                        "its parent exist?",
                                        *o.reportDir, ec.message()),
                            kExitUsage);
    }
    if (auto st = finishPlan(o); !st)
        return complain(st.error().message, kExitUsage);
    std::optional<ResultDocument> recovered;
    if (o.resumePath) {
        if (o.planFlagsGiven || !o.plan.file.empty())
            return complain("--resume takes the file and the plan from the recovery file: give "
                            "no FILE and no --sizes, --strategies, --cache ... with it",
                            kExitUsage);
        auto doc = readRecovery(*o.resumePath);
        if (!doc)
            return complain("--resume: " + doc.error().message, kExitUsage);
        recovered = std::move(*doc);
        // A crashed whole-file sweep's copies go now, even if the run cannot resume (its
        // target changed or is gone).
        removeLeftoverCopies(*recovered);
        o.plan = recovered->plan;
    }
    std::optional<ResultDocument> baseline;
    if (o.baselinePath) {
        auto doc = loadDocument(*o.baselinePath);
        if (!doc)
            return complain("--baseline: " + doc.error().message, kExitUsage);
        baseline = std::move(*doc);
    }
    if (auto why = dropCachesRefusal(); o.plan.dropCachesAsRoot && !why.empty())
        return complain(why, kExitUsage);

    // Ctrl-C from here on stops the work and still cleans up (the generated file included).
    std::stop_source stop;
    Result<ResultDocument> result = Error{""};
    ConsoleSink sink(o.quiet);
    TempFile generated;
    {
        InterruptGuard guard(stop);
        if (o.plan.file.empty()) {
            auto path = generated.create(kDefaultTestFileSize, !o.quiet, stop.get_token());
            if (!path)
                return complain(path.error().message, kExitFailed);
            o.plan.file = *path;
        }
        auto checked = checkPlan(o.plan);
        if (!checked)
            return complain(cliAdvice(checked.error().message), kExitUsage);
        // A plan whose rounds cannot call its comparisons is said before it runs.
        if (!o.quiet && !recovered)
            for (const auto& line :
                 planWarnings(o.plan, checked->file().size, baseline.has_value()))
                fmt::print(stderr, "Before this run: {}.\n", line);
        RecoverySink recovery(sink, o.recoveryPath ? *o.recoveryPath : defaultRecoveryPath());
        // Once the run has started and the file is there: a run refused before (a memory
        // limit that cannot be made) keeps nothing.
        if (!o.quiet)
            sink.whenStarted([&recovery] {
                if (std::filesystem::exists(recovery.path()))
                    fmt::print(stderr,
                               "Finished cells are kept in {} until the run ends; after a "
                               "crash: readscope-cli run --resume {}\n",
                               recovery.path(), recovery.path());
            });
        result = recovered ? resumeRun(*recovered, recovery, stop.get_token())
                           : runPlan(*checked, recovery, stop.get_token());
        if (result || !recovered)
            recovery.discard();
        if (result && recovered && o.resumePath && *o.resumePath != recovery.path())
            std::filesystem::remove(*o.resumePath);
    }
    sink.clearLine();
    if (!result)
        return complain(result.error().message, kExitFailed);
    const ResultDocument& doc = *result;
    std::optional<Comparison> comparison;
    if (baseline)
        comparison = compareRuns(*baseline, doc, o.threshold);
    const auto findings = runFindings(doc);
    fmt::print("{}", runOutput(doc, findings, o.markdown, comparison ? &*comparison : nullptr,
                               o.baselinePath.value_or("")));

    int code = kExitOk;
    auto write = [&](const std::optional<std::string>& path, const std::string& content) {
        if (!path)
            return;
        if (auto st = writeFileAtomically(*path, content); !st)
            code = complain(st.error().message, kExitFailed);
    };
    write(o.jsonPath, o.jsonPath ? toJson(doc) : "");
    write(o.csvPath, o.csvPath ? toSummaryCsv(doc) : "");
    write(o.samplesCsvPath, o.samplesCsvPath ? toSamplesCsv(doc) : "");
    if (o.reportDir) {
        const fs::path dir(*o.reportDir);
        const std::string json = (dir / ReportFiles::results).string();
        std::string chart = ReportFiles::chart;
        write(json, toJson(doc));
        if (auto st = renderChart(doc, (dir / chart).string()); !st) {
            fmt::print(stderr, "readscope-cli: {}\n", st.error().message);
            chart.clear();
        }
        // Each chart beside it that this run has, drawn where the first one could be (else
        // none: no Qt, said once above).
        std::vector<ReportExtraChart> drawn;
        for (const auto& extra :
             chart.empty() ? std::vector<ReportExtraChart>{} : reportExtraCharts(doc)) {
            if (auto st = renderChart(doc, (dir / extra.file).string(), extra.chart); !st)
                fmt::print(stderr, "readscope-cli: {}\n", st.error().message);
            else
                drawn.push_back(extra);
        }
        const std::string report = (dir / ReportFiles::markdown).string();
        write(report, reportMarkdown(doc, comparison ? &*comparison : nullptr, chart, drawn));
        if (!o.quiet)
            fmt::print(stderr, "report written to {}\n", report);
    }
    if (!doc.complete)
        return complain("the run was stopped; the cells that finished are shown", kExitFailed);
    for (const auto& cell : doc.cells)
        if (cell.status == CellStatus::Failed)
            code = kExitFailed;
    // Every finding; one that makes the figures other than asked (not cold) fails the run and
    // is said even with --quiet.
    for (const auto& line : runWarnings(doc, findings)) {
        if (line.failsRun)
            code = kExitFailed;
        if (line.failsRun || !o.quiet)
            fmt::print(stderr, "{}\n", line.text);
    }
    return code;
}

} // namespace

Command addRunCommand(CLI::App& root) {
    auto options = std::make_shared<RunOptions>();
    return {addRunOptions(root, *options), [options] { return runCommand(*options); }};
}

} // namespace readscope::cli
