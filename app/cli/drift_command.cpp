// readscope-cli drift RUN.json RUN.json [...]: how far runs of one plan drift apart on this
// machine with nothing changed, kept for every later compare between runs of this machine.
#include "cli_parse.h"
#include "commands.h"

#include "readscope/documents.h"
#include "readscope/machine_drift.h"
#include "readscope/machine_drift_store.h"

#include <fmt/format.h>

#include <memory>

namespace readscope::cli {

namespace {

struct DriftOptions {
    std::vector<std::string> files;
    std::string store; // empty: machineDriftPath()
    bool save = true;
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
    fmt::print("Between these {} runs of one plan ({} cells each, {} pairs of runs), a cell's "
               "median moved by up to {:.1f}% (typically {:.1f}%) with nothing changed.\n",
               drift->runs, drift->cells, drift->runs * (drift->runs - 1) / 2, drift->drift * 100,
               drift->medianDrift * 100);
    if (drift->runs < 4)
        fmt::print("With {} runs the largest change is a rough floor: 5 or 6 runs, some minutes "
                   "apart, show more of what this machine does.\n",
                   drift->runs);
    if (!o.save)
        return kExitOk;
    const std::string path = o.store.empty() ? machineDriftPath() : o.store;
    if (auto st = saveMachineDrift(*drift, path); !st)
        return complain(st.error().message, kExitFailed);
    fmt::print("Kept as the drift of {} · {} · {} in {}: compare holds every change between two "
               "runs of this machine to it.\n",
               drift->cpuModel, drift->kernel, drift->filesystem, path);
    return kExitOk;
}

} // namespace

Command addDriftCommand(CLI::App& root) {
    auto o = std::make_shared<DriftOptions>();
    CLI::App* command = addCommand(
        root, "drift",
        "measure how far runs drift apart on this machine (A/A runs)\n\n"
        "Give two or more result documents of one plan, run on this machine with nothing "
        "changed\n(ideally some minutes apart). The largest change of a cell's median between "
        "any two of them\nis kept as this machine's drift between runs; compare then calls a "
        "change between two runs\nof this machine only when it is larger.");
    command->footer("Exit codes: 0 measured (and kept), 1 it could not be kept, 2 a usage error "
                    "or documents that do not match.");
    addPositionals(*command, "RUN", [o](const std::vector<std::string>& files) {
        o->files = files;
        return okStatus();
    })->option_text("RUN.json RUN.json [...]");
    command->add_flag("!--no-save", o->save, "print the drift, keep nothing");
    addValue(*command, "--store", "PATH", "where the drifts are kept", [o](const std::string& v) {
        o->store = v;
        return okStatus();
    })->default_str(machineDriftPath());
    return {command, [o] { return runDrift(*o); }};
}

} // namespace readscope::cli
