#pragma once
// A run in the measurement's own process: what needs a process-wide setting (a memory limit
// moves the whole process into a cgroup) runs in a child that readscope starts, so the
// process that asked (the desktop app) keeps its cgroup, memory and threads.
//
// The child is `readscope-cli worker`. It reads one request line on its standard input, runs
// it with the engine, and writes what the engine reports as lines on its standard output,
// each a word and a JSON value:
//   hello {"version": "0.9.0", "pid": 1234}     first, always
//   started <document JSON: the run's header>
//   progress <Progress>
//   round <cell> / cell <cell>                    onRoundMeasured / onCellFinished
//   warning "<text>"
//   done <document JSON> / error "<text>"         last
// A line "stop" (or the end of its input) on its standard input stops the run as a Stop
// does; the document it then writes keeps every round measured.
#include "readscope/result.h"
#include "readscope/result_document.h"
#include "readscope/runner.h"

#include <cstdio>
#include <functional>
#include <stop_token>
#include <string>

namespace readscope {

// Where the child is: the readscope-cli executable, and what it is told when it starts.
struct Worker {
    std::string program; // a path to readscope-cli
    // Called once the child is known (its pid), before any of its lines: a test reads its
    // cgroup from /proc/PID/cgroup here.
    std::function<void(int pid)> onStarted;
};

// runPlan in the child: the sink gets what the child reports, in order, on this thread.
// A child that ends before its last line (killed, crashed, out of memory) is an error that
// names how it ended and the rounds it sent, all of which the sink has already been given.
Result<ResultDocument> runPlanInWorker(const Worker& worker, const Plan& plan, RunSink& sink,
                                       std::stop_token stop = {});
// refineRun in the child (a memory-limited run's refinement).
Result<ResultDocument> refineRunInWorker(const Worker& worker, const ResultDocument& done,
                                         double precision, double maxTimeSeconds, RunSink& sink,
                                         std::stop_token stop = {});

// resumeRun in the child (a memory-limited run finished after a stop or a crash).
Result<ResultDocument> resumeRunInWorker(const Worker& worker, const ResultDocument& recovered,
                                         RunSink& sink, std::stop_token stop = {});

// The child's side: reads the request from `in` (its standard input; its later lines stop
// the run), runs it, writes the lines above to `out`. Returns the exit status: 0 when the run
// ran (stopped or not), 1 when it failed, 2 for a request it could not read.
int serveWorker(std::FILE* in, std::FILE* out);

} // namespace readscope
