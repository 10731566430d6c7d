#include "cli_parse.h"
#include "commands.h"
#include "option_values.h"

#include "readscope/compare.h"
#include "readscope/comparison_text.h"
#include "readscope/documents.h"
#include "readscope/machine_drift_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace readscope::cli {

namespace {

struct CompareOptions {
    std::vector<std::string> files;
    bool markdown = false;
    double threshold = kDefaultNoiseThreshold;
    std::string reference;
};

int runCompare(const CompareOptions& o) {
    const auto& [files, markdown, threshold, reference] = o;
    const std::size_t wanted = reference.empty() ? 2 : 1;
    if (files.size() != wanted)
        return complain(reference.empty() ? "compare needs two documents: BASELINE CURRENT"
                                          : "compare --reference needs exactly one document",
                        kExitUsage);
    std::vector<ResultDocument> docs;
    for (const auto& f : files) {
        auto doc = loadDocument(f);
        if (!doc)
            return complain(doc.error().message, kExitUsage);
        docs.push_back(std::move(*doc));
    }
    Comparison c;
    if (!reference.empty()) {
        if (std::none_of(docs[0].cells.begin(), docs[0].cells.end(),
                         [&](const Cell& cell) { return cell.strategy == reference; }))
            return complain(fmt::format("'{}' has no cells of strategy '{}'", files[0], reference),
                            kExitUsage);
        c = compareToReference(docs[0], reference, threshold);
    } else {
        c = compareRuns(docs[0], docs[1], threshold);
    }
    fmt::print("{}", markdown ? comparisonMarkdown(c) : comparisonText(c));
    return kExitOk;
}

} // namespace

Command addCompareCommand(CLI::App& root) {
    auto o = std::make_shared<CompareOptions>();
    CLI::App* command = addCommand(
        root, "compare",
        "compare two result documents (faster, slower, the same, or cannot tell and why)\n\n"
        "Compares result documents (JSON, or CSV summaries): for every cell in both, the change "
        "of the\nmedian GB/s, its interval with the coverage it really has, a p-value and a "
        "verdict: faster or\nslower (p < 0.05 after Holm's adjustment, the interval clear of "
        "zero, past PCT percent and past\nthis machine's drift between runs), the same within "
        "±PCT (the whole interval inside it), or\ncannot tell, with why (too few rounds for "
        "the comparisons made and how many would do, an\ninterval wider than the change, no "
        "drift between runs measured, two speeds in a cell...).\nBetween two runs a direction "
        "needs this machine's drift between runs: 'readscope-cli drift'\nover three runs of "
        "the plan measures it (or run with --repeat); until then every row of a\ntwo-run "
        "comparison cannot tell, and the first line says so. Cells in only one document are\n"
        "listed; how the runs differ (machine, plan, load) is warned about.\n"
        "With --reference ID, give one document, RESULT: every strategy in it is compared with "
        "strategy\nID, size by size, round by round.");
    command->footer("Exit codes: 0 the comparison ran (whatever it found), 2 a usage error or "
                    "unreadable document.");
    addPositionals(*command, "DOCUMENT", [o](const std::vector<std::string>& files) {
        o->files = files;
        return okStatus();
    })->option_text("BASELINE CURRENT");
    command->add_flag("--markdown", o->markdown, "print Markdown tables");
    addValue(*command, "--threshold", "PCT", "noise threshold, in percent",
             [o](const std::string& v) { return assign(o->threshold, parseThreshold(v)); })
        ->default_str(fmt::format("{}", kDefaultNoiseThreshold * 100));
    addValue(*command, "--reference", "ID", "compare every strategy of one RESULT with this one",
             [o](const std::string& v) {
                 o->reference = v;
                 return okStatus();
             });
    return {command, [o] { return runCompare(*o); }};
}

} // namespace readscope::cli
