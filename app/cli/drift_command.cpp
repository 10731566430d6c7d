// readscope-cli drift RUN.json RUN.json [...]: how far runs of one plan drift apart on this
// machine with nothing changed, kept for every later compare between runs of this machine.
#include "cli_parse.h"
#include "commands.h"

#include "readscope/comparison_text.h"
#include "readscope/documents.h"
#include "readscope/machine_drift.h"
#include "readscope/machine_drift_store.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace readscope::cli {

namespace {

struct DriftOptions {
    std::vector<std::string> files;
    std::string store; // empty: machineDriftPath()
    bool noSave = false;
};

int runDrift(const DriftOptions& o) {
    std::vector<ResultDocument> runs;
    for (const auto& f : o.files) {
        auto doc = loadDocument(f);
        if (!doc)
            return complain(doc.error().message, kExitUsage);
        runs.push_back(std::move(*doc));
    }
    auto drift = measureMachineDrift(runs);
    if (!drift)
        return complain(drift.error().message, kExitUsage);
    fmt::print("Between these {} runs of one plan ({} cells in common), a cell's median moved "
               "from run to run with a spread of {:.1f}% (the largest change seen: {:.1f}%).\n"
               "A change between two runs of this machine counts only above +{:.1f}% or below "
               "1/{:.2f} of the baseline: {}.\n",
               drift->runs, drift->cells, (std::exp(drift->spread) - 1) * 100,
               drift->largestSeen * 100, drift->drift * 100, 1 + drift->drift, driftFloorMeaning());
    if (o.noSave)
        return kExitOk;
    const std::string path = o.store.empty() ? machineDriftPath() : o.store;
    if (auto st = saveMachineDrift(*drift, path); !st)
        return complain(st.error().message, kExitFailed);
    fmt::print("Kept as the drift of {} · {} · {} ({} cache) in {}: compare holds every change "
               "between two runs of this machine and cache mode to it.\n",
               drift->cpuModel, drift->kernel, drift->filesystem, drift->cache, path);
    return kExitOk;
}

} // namespace

Command addDriftCommand(CLI::App& root) {
    auto o = std::make_shared<DriftOptions>();
    CLI::App* command = addCommand(
        root, "drift",
        "measure how far runs drift apart on this machine (A/A runs)\n\n"
        "Give three or more result documents of one plan, run on this machine with nothing "
        "changed\n(5 or 6, some minutes apart, are better). From how far a cell's median moves "
        "from run to run\n(its spread, pooled over the cells) comes this machine's drift between "
        "runs: a change that\nrarely happens with nothing changed (it says how rarely). It is "
        "kept, and compare\nthen calls a change between two runs of this machine only when it "
        "is larger.");
    command->footer("Exit codes: 0 measured (and kept), 1 it could not be kept, 2 a usage error "
                    "or documents that do not match.");
    addPositionals(*command, "RUN", [o](const std::vector<std::string>& files) {
        o->files = files;
        return okStatus();
    })->option_text("RUN.json RUN.json [...]");
    command->add_flag("--no-save", o->noSave, "print the drift, keep nothing");
    addValue(*command, "--store", "PATH", "where the drifts are kept", [o](const std::string& v) {
        o->store = v;
        return okStatus();
    })->default_str(machineDriftPath());
    return {command, [o] { return runDrift(*o); }};
}

} // namespace readscope::cli
