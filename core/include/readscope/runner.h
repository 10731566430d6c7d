#pragma once
// Runs a plan: for each point (range size, or the swept threads, depth or offset) an untimed
// calibration and verification pass, then warm-up and measured rounds, each round visiting
// every point in a seeded order of its own and interleaving the strategies within each point
// (A B C, B C A ...), so that every cell's rounds are spread over the whole run. A whole-file
// sweep reads one point's copy at a time instead. Results leave through a RunSink; a stop
// token ends the run within one range read, keeping the rounds recorded so far.
#include "readscope/plan.h"
#include "readscope/probe.h"
#include "readscope/result.h"
#include "readscope/result_document.h"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>

namespace readscope {

// Where a run is (state_words.h's phaseText says it in words).
enum class RunPhase {
    Starting,
    WarmingCache,  // reading the file once so that a warm run starts warm
    DeviceLimit,   // measuring the device limit of a cold or direct run (untimed)
    Copying,       // a whole-file sweep making its point's copy
    Calibrating,   // finding how many ranges a strategy reads in the round time
    Verifying,     // checking a strategy's bytes against the file's
    OpeningPrices, // a warm point's unit prices before its rounds (untimed)
    ClosingPrices, // ... and after them
    WarmUp,        // an unrecorded round
    Round,         // a recorded round of a planned number
    TimedRound,    // a recorded round of a duration run
    Refining,      // a round --precision adds past the planned ones
};
// The phase and, for a round, which: what ProgressReporter::report is told.
struct PhaseStep {
    RunPhase phase = RunPhase::Starting;
    int round = 0;         // WarmUp, Round, TimedRound, Refining: from 1
    int rounds = 0;        // WarmUp: the warm-up rounds; Round: the planned rounds
    double runSeconds = 0; // TimedRound: the run's duration
    double precision = 0;  // Refining: the ± fraction asked for
};

struct Progress {
    std::uint64_t step = 0;  // finished (strategy, round) steps
    std::uint64_t total = 0; // all steps of the run
    std::uint64_t rangeBytes = 0;
    std::optional<std::uint32_t> bufferOffset; // the point's pinned offset, if any
    std::optional<int> threads;                // a threads sweep's point
    std::optional<unsigned> queueDepth;        // a queue-depth sweep's point
    std::string strategy;
    PhaseStep at;
    int repeat = 0, repeats = 0; // an A/A run: this repeat (from 1) of how many; 0: not one
    double elapsedSeconds = 0;
    double etaSeconds = -1; // < 0 while unknown
};

// One interface for every front end (CLI table, GUI worker, tests). Called on the runner's
// thread; implementations hand work to their own threads themselves.
class RunSink {
public:
    virtual ~RunSink() = default;
    virtual void onStarted(const ResultDocument& /*header*/) {}
    virtual void onProgress(const Progress& /*progress*/) {}
    // A point's round is recorded: each of its cells with the rounds so far (summarized; the
    // status and notes are final only in onCellFinished). The live chart and the recovery file
    // take them, so a crash late in a run loses only the round it was in.
    virtual void onRoundMeasured(const Cell& /*cell*/) {}
    virtual void onCellFinished(const Cell& /*cell*/) {}
    // What the run says while it goes, as a value (run_notes.h words it).
    virtual void onWarning(const RunWarning& /*warning*/) {}
};

// A plan checked against its file, once: the file probed and validatePlan passed. Only
// checkPlan makes one, so a run given one does not check it again; a front end that must
// tell a refused plan (a usage error) from a failed run checks first and runs what it got.
class CheckedPlan {
public:
    const Plan& plan() const { return plan_; }
    const FileProbe& file() const { return file_; }

private:
    CheckedPlan(Plan plan, FileProbe file) : plan_(std::move(plan)), file_(std::move(file)) {}
    friend Result<CheckedPlan> checkPlan(const Plan& plan);
    Plan plan_;
    FileProbe file_;
};
Result<CheckedPlan> checkPlan(const Plan& plan);

// Returns the document (complete == false when stopped), or an error when the plan or file
// is unusable. Failed and unavailable cells are in the document with their reasons.
Result<ResultDocument> runPlan(const Plan& plan, RunSink& sink, std::stop_token stop = {});
Result<ResultDocument> runPlan(const CheckedPlan& plan, RunSink& sink, std::stop_token stop = {});
// The same plan, measuring only these of its points (a resumed run): everything else about the
// run (its sweep axis, the allocation size of pinned buffers) stays what the plan made it. A
// cell that `recovered` holds with rounds goes on from them (its ranges per round kept) to the
// plan's rounds.
Result<ResultDocument> runPlanPoints(const Plan& plan, const std::vector<SweepPoint>& points,
                                     RunSink& sink, std::stop_token stop = {},
                                     const ResultDocument* recovered = nullptr);

// A finished run's noisy cells made surer: the points holding a cell whose median's interval
// reaches further than `precision` of it (or has too few rounds to say) get more interleaved
// rounds, and in them only those cells, as --precision adds after the planned rounds, until
// every such cell meets it or maxTimeSeconds have passed (0: kDefaultMaxTimeSeconds). The
// quiet cells are not measured again. Returns `done` with the refined cells in their places
// (their earlier rounds kept, the new ones numbered on). A whole-file sweep is refused: each
// point reads a copy made for it, which a finished run has removed.
Result<ResultDocument> refineRun(const ResultDocument& done, double precision,
                                 double maxTimeSeconds, RunSink& sink, std::stop_token stop = {});
// Whether more rounds may join these results: their file, the same size, on a machine with the
// same CPU and kernel; else why not ("... `doing` would mix two files' rounds").
Status sameFileAndMachine(const ResultDocument& done, std::string_view doing);
// Why these results cannot be refined at all (a whole-file sweep), before anything is read.
Status refinable(const ResultDocument& done);
// Whether a cell's median is as sure as `precision` asks: its interval within that fraction of
// it, and enough rounds for the interval to say.
bool meetsPrecision(const Cell& cell, double precision);
// A measured cell with rounds whose median is not as sure as `precision` asks: the cells
// refineRun adds rounds to.
bool needsRefining(const Cell& cell, double precision);
std::size_t cellsToRefine(const ResultDocument& done, double precision);

// A whole-file sweep's copies that a crash or kill left behind, in the folder the document
// names (copiesFolder): removes those copies and the folder, nothing else. Resuming the run,
// or the app's recovery, calls it.
void removeLeftoverCopies(const ResultDocument& doc);

} // namespace readscope
