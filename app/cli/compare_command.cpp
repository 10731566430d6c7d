#include "cli_options.h"
#include "commands.h"

#include "readscope/compare.h"
#include "readscope/documents.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope::cli {

namespace {

constexpr const char* kCompareHelp =
    R"(Usage: readscope-cli compare BASELINE CURRENT [--markdown] [--threshold PCT]
       readscope-cli compare RESULT --reference ID [--markdown] [--threshold PCT]

Compares result documents (JSON, or CSV summaries): for every cell in both, the change of the
median GB/s, a 95% bootstrap interval, a Mann-Whitney U p-value (5 or more rounds a side), and
a verdict: faster, slower, or within noise (changes under PCT percent, default 2, are noise).
Cells in only one document are listed; differences between the runs (CPU, kernel,
filesystem, cache mode, pattern, threads) are warned about.
With --reference, every strategy of one RESULT is compared with strategy ID, size by size.

Exit codes: 0 the comparison ran (whatever it found), 2 a usage error or unreadable document.
)";

} // namespace

int compareCommand(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    bool markdown = false;
    double threshold = kDefaultNoiseThreshold;
    std::string reference;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "-h" || a == "--help") {
            fmt::print("{}", kCompareHelp);
            return kExitOk;
        }
        if (a == "--markdown") {
            markdown = true;
        } else if (a == "--threshold" || a == "--reference") {
            if (i + 1 >= args.size() || args[i + 1].empty())
                return complain(fmt::format("{} needs a value", a), kExitUsage);
            if (a == "--reference") {
                reference = args[++i];
                continue;
            }
            auto t = parseThreshold(args[++i]);
            if (!t)
                return complain(t.error().message, kExitUsage);
            threshold = *t;
        } else if (a.rfind("-", 0) == 0) {
            return complain(fmt::format("unknown option '{}' (see 'readscope-cli compare "
                                        "--help')",
                                        a),
                            kExitUsage);
        } else {
            files.push_back(a);
        }
    }
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
        c = compareDocuments(docs[0], docs[1], threshold);
    }
    fmt::print("{}", markdown ? comparisonMarkdown(c) : comparisonText(c));
    return kExitOk;
}

} // namespace readscope::cli
