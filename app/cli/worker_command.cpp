// readscope-cli worker: the measurement's own process for the desktop app (worker_run.h).
#include "cli_parse.h"
#include "commands.h"

#include "readscope/worker_run.h"

#include <cstdio>

namespace readscope::cli {

Command addWorkerCommand(CLI::App& root) {
    CLI::App* command = addCommand(
        root, "worker",
        "run one measurement for the desktop app in this process (not for typing)\n\n"
        "Reads a request (a JSON line: a plan to run, or a result to refine) on standard input "
        "and\nwrites what the run reports as lines on standard output; a line 'stop', or the "
        "end of the\ninput, stops the run. The app starts it for a run with a memory limit, so "
        "that the\nlimit's cgroup holds only the measurement, never the app.");
    command->footer("Exit codes: 0 the run ran (stopped or not), 1 it failed, 2 a request it "
                    "could not read.");
    return {command, [] { return serveWorker(stdin, stdout); }};
}

} // namespace readscope::cli
