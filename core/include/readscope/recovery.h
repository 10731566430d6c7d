#pragma once
// Nothing finished is lost to a crash or a kill -9: a RecoverySink appends the run's header,
// each cell after every recorded round (marked partial) and every finished cell to a file as
// they happen (one JSON document per line, flushed to disk), and readRecovery() turns whatever
// made it to disk back into a document.
#include "readscope/result.h"
#include "readscope/result_document.h"
#include "readscope/runner.h"

#include <cstdio>
#include <string>

namespace readscope {

class RecoverySink final : public RunSink {
public:
    // Forwards everything to inner; failures to write the recovery file become warnings.
    RecoverySink(RunSink& inner, std::string path);
    ~RecoverySink() override;
    RecoverySink(const RecoverySink&) = delete;
    RecoverySink& operator=(const RecoverySink&) = delete;

    void onStarted(const ResultDocument& header) override;
    void onProgress(const Progress& progress) override { inner_.onProgress(progress); }
    void onRoundMeasured(const Cell& cell) override;
    void onCellFinished(const Cell& cell) override;
    void onWarning(const RunWarning& warning) override { inner_.onWarning(warning); }

    const std::string& path() const { return path_; }
    void discard(); // the run ended normally: the file is no longer needed

private:
    void appendLine(const std::string& line);

    RunSink& inner_;
    std::string path_;
    int fd_ = -1;
    bool warned_ = false;
};

// The header's plan and system, and each cell as its last complete line left it (partial:
// rounds of a run that did not finish); a torn last line is ignored.
Result<ResultDocument> readRecovery(const std::string& path);

// Runs what a recovered document's plan still lacks (the points whose cells are missing or
// partial; a partial cell goes on from its recorded rounds) and returns the recovered cells
// and the new ones as one document. A stopped run's document is finished the same way: its
// measured cells with fewer rounds than planned count as partial.
// Whether resumeRun can finish it: a stopped A/A run (repeats) or duration run cannot (say
// why); a recovered one, or any other stopped run, can.
Status finishable(const ResultDocument& doc);
Result<ResultDocument> resumeRun(const ResultDocument& recovered, RunSink& sink,
                                 std::stop_token stop = {});

} // namespace readscope
