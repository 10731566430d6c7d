// The measurement's own process, both sides: the child (readscope-cli worker) runs a request
// with the engine and writes what it reports as lines; the parent starts it, reads the lines
// into its sink, and tells it to stop.
#include "readscope/worker_run.h"
#include "readscope/run_notes.h"

#include "readscope/documents.h"
#include "readscope/recovery.h"

#include "child_process.h"
#include "json_parts.h"
#include "readscope_version.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <functional>
#include <mutex>
#include <thread>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace readscope {

using nlohmann::json;

namespace {

// One line of JSON; text that is not valid UTF-8 (a path, a message from the system) is
// replaced, never thrown on.
std::string line(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

json progressJson(const Progress& p) {
    json out = {{"step", p.step},
                {"total", p.total},
                {"range_bytes", p.rangeBytes},
                {"strategy", p.strategy},
                {"phase", int(p.at.phase)},
                {"round", p.at.round},
                {"rounds", p.at.rounds},
                {"run_seconds", p.at.runSeconds},
                {"precision", p.at.precision},
                {"repeat", p.repeat},
                {"repeats", p.repeats},
                {"elapsed_seconds", p.elapsedSeconds},
                {"eta_seconds", p.etaSeconds}};
    if (p.bufferOffset)
        out["buffer_offset"] = *p.bufferOffset;
    if (p.threads)
        out["threads"] = *p.threads;
    if (p.queueDepth)
        out["queue_depth"] = *p.queueDepth;
    return out;
}

Progress progressFrom(const json& j) {
    Progress p;
    p.step = j.at("step").get<std::uint64_t>();
    p.total = j.at("total").get<std::uint64_t>();
    p.rangeBytes = j.at("range_bytes").get<std::uint64_t>();
    p.strategy = j.at("strategy").get<std::string>();
    const int phase = j.at("phase").get<int>();
    if (phase < int(RunPhase::Starting) || phase > int(RunPhase::Refining))
        throw std::out_of_range(fmt::format("no run phase {}", phase));
    p.at.phase = RunPhase(phase);
    p.at.round = j.at("round").get<int>();
    p.at.rounds = j.at("rounds").get<int>();
    p.at.runSeconds = j.at("run_seconds").get<double>();
    p.at.precision = j.at("precision").get<double>();
    p.repeat = j.at("repeat").get<int>();
    p.repeats = j.at("repeats").get<int>();
    p.elapsedSeconds = j.at("elapsed_seconds").get<double>();
    p.etaSeconds = j.at("eta_seconds").get<double>();
    if (j.contains("buffer_offset"))
        p.bufferOffset = j.at("buffer_offset").get<std::uint32_t>();
    if (j.contains("threads"))
        p.threads = j.at("threads").get<int>();
    if (j.contains("queue_depth"))
        p.queueDepth = j.at("queue_depth").get<unsigned>();
    return p;
}

// ---- the child ----

// What the engine reports, as lines on the child's standard output.
class LineSink final : public RunSink {
public:
    explicit LineSink(std::FILE* out) : out_(out) {}
    // A parent gone (its end of the pipe closed) stops the run: writes fail (SIGPIPE is
    // ignored in the worker) and `onLost` is called once.
    void write(std::string_view word, const json& value) {
        std::lock_guard lock(mutex_);
        const std::string text = line(value);
        const bool ok =
            std::fprintf(out_, "%.*s %s\n", int(word.size()), word.data(), text.c_str()) > 0 &&
            std::fflush(out_) == 0;
        if (!ok && onLost && !lost_) {
            lost_ = true;
            onLost();
        }
    }
    std::function<void()> onLost;
    void onStarted(const ResultDocument& header) override {
        header_ = header;
        write("started", documentJson(header));
    }
    void onProgress(const Progress& p) override { write("progress", progressJson(p)); }
    void onRoundMeasured(const Cell& c) override { write("round", cellJson(header_, c)); }
    void onCellFinished(const Cell& c) override { write("cell", cellJson(header_, c)); }
    // In words: the app shows them as they are.
    void onWarning(const RunWarning& w) override { write("warning", json(warningText(w))); }

private:
    std::FILE* out_;
    std::mutex mutex_;
    bool lost_ = false;
    ResultDocument header_;
};

} // namespace

int serveWorker(std::FILE* in, std::FILE* out) {
    LineSink lines(out);
#ifdef _WIN32
    lines.write("error", json("a measurement in its own process is not built for Windows"));
    (void)in;
    return 2;
#else
    // The parent gone mid-write must not kill the run unfinished (it leaves its cgroup and
    // removes its copies as it ends): a failed write stops it instead.
    std::signal(SIGPIPE, SIG_IGN);
    lines.write("hello", {{"version", READSCOPE_VERSION}, {"pid", int(::getpid())}});
    // Read without stdio's buffer: what follows the request (a "stop") stays where the
    // watcher below reads it.
    auto reader = std::make_shared<platform::LineReader>(::fileno(in));
    const auto request = reader->next();
    json r;
    try {
        if (!request)
            throw std::runtime_error("no request on standard input");
        r = json::parse(*request);
    } catch (const std::exception& e) {
        lines.write("error", json(fmt::format("the worker's request is not valid: {}", e.what())));
        return 2;
    }
    // The rest of the input only stops the run: a "stop" line, or its end (the parent gone).
    auto stop = std::make_shared<std::stop_source>();
    lines.onLost = [stop] { stop->request_stop(); };
    std::thread([reader, stop] {
        for (;;) {
            const auto line = reader->next();
            if (!line || *line == "stop") {
                stop->request_stop();
                return;
            }
        }
    }).detach(); // blocked in read(2) until then; the process may end under it
    Result<ResultDocument> result = Error{""};
    try {
        if (r.value("request", "") == "run") {
            Plan plan = planFrom(r.at("plan"));
            plan.dropCachesAsRoot = r.value("drop_caches_as_root", false);
            result = runPlan(plan, lines, stop->get_token());
        } else if (r.value("request", "") == "refine") {
            auto done = documentFrom(r.at("document"));
            if (!done) {
                lines.write("error", json(done.error().message));
                return 2;
            }
            result = refineRun(*done, r.at("precision").get<double>(),
                               r.at("max_time_seconds").get<double>(), lines, stop->get_token());
        } else if (r.value("request", "") == "resume") {
            auto recovered = documentFrom(r.at("document"));
            if (!recovered) {
                lines.write("error", json(recovered.error().message));
                return 2;
            }
            result = resumeRun(*recovered, lines, stop->get_token());
        } else {
            lines.write("error", json(fmt::format("the worker does not know the request '{}'",
                                                  r.value("request", ""))));
            return 2;
        }
    } catch (const json::exception& e) {
        lines.write("error", json(fmt::format("the worker's request is not valid: {}", e.what())));
        return 2;
    } catch (const std::exception& e) {
        lines.write("error", json(fmt::format("the measurement failed: {}", e.what())));
        return 1;
    }
    if (!result) {
        lines.write("error", json(result.error().message));
        return 1;
    }
    lines.write("done", documentJson(*result));
    return 0;
#endif
}

namespace {

// ---- the parent ----

// A line whose document does not read back.
struct Unreadable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Result<ResultDocument> talkToWorker(const Worker& worker, const json& request, RunSink& sink,
                                    std::stop_token stop) {
    auto started = platform::ChildProcess::start({worker.program, "worker"});
    if (!started)
        return Error{fmt::format("the measurement's process could not be started: {}",
                                 started.error().message)};
    platform::ChildProcess& child = **started;
    if (worker.onStarted)
        worker.onStarted(child.pid());
    // A Stop, from whichever thread presses it, reaches the child as a line (once it has its
    // request: before, its end of the run is the request's refusal below).
    std::atomic<bool> asked{false};
    std::stop_callback onStop(stop, [&child, &asked] {
        if (asked)
            child.writeLine("stop");
    });
    std::size_t rounds = 0;
    std::optional<Result<ResultDocument>> last;
    ResultDocument header;
    bool greeted = false;
    while (auto text = child.readLine()) {
        const auto space = text->find(' ');
        const std::string word = text->substr(0, space);
        try {
            const json value =
                json::parse(space == std::string::npos ? "null" : text->substr(space + 1));
            if (word == "hello") {
                const auto version = value.at("version").get<std::string>();
                if (version != READSCOPE_VERSION) {
                    child.kill();
                    return Error{fmt::format("the measurement's process, {}, is readscope {}, "
                                             "not {} as this one: install them together",
                                             worker.program, version, READSCOPE_VERSION)};
                }
                greeted = true;
                // The request once the child has said who it is: a program that is not the
                // worker never gets a request it would not read.
                if (!child.writeLine(line(request)))
                    continue; // it ended: its exit says how
                asked = true;
                if (stop.stop_requested())
                    child.writeLine("stop");
            } else if (word == "started") {
                auto doc = documentFrom(value);
                if (!doc)
                    throw Unreadable(doc.error().message);
                header = *doc;
                sink.onStarted(header);
            } else if (word == "progress") {
                sink.onProgress(progressFrom(value));
            } else if (word == "round") {
                ++rounds;
                sink.onRoundMeasured(cellFrom(value));
            } else if (word == "cell") {
                sink.onCellFinished(cellFrom(value));
            } else if (word == "warning") {
                sink.onWarning(SaidAsIs{value.get<std::string>()});
            } else if (word == "done") {
                auto doc = documentFrom(value);
                if (!doc)
                    throw Unreadable(doc.error().message);
                last = std::move(*doc);
            } else if (word == "error") {
                last = Error{value.get<std::string>()};
            }
        } catch (const std::exception& e) {
            if (!dynamic_cast<const json::exception*>(&e) && !dynamic_cast<const Unreadable*>(&e))
                throw; // the sink's own, not the line's
            child.kill();
            (void)child.wait();
            removeLeftoverCopies(header);
            return Error{fmt::format("the measurement's process wrote a line this readscope "
                                     "cannot read ({}): {}",
                                     e.what(), text->substr(0, 80))};
        }
    }
    child.closeInput();
    const std::string ended = child.wait();
    if (last)
        return *last;
    // It ended without its last line: a whole-file sweep's copies are its to remove, and it
    // could not.
    removeLeftoverCopies(header);
    if (!greeted)
        return Error{fmt::format("the measurement's process, {} worker, ended before it started "
                                 "({}): is it readscope-cli?",
                                 worker.program, ended.empty() ? "it exited" : ended)};
    return Error{fmt::format("the measurement's process {} before the run ended; what it sent "
                             "({} cell round{}) is kept",
                             ended.empty() ? "exited" : ended, rounds, rounds == 1 ? "" : "s")};
}

} // namespace

Result<ResultDocument> runPlanInWorker(const Worker& worker, const Plan& plan, RunSink& sink,
                                       std::stop_token stop) {
    return talkToWorker(worker,
                        {{"request", "run"},
                         {"plan", planJson(plan)},
                         {"drop_caches_as_root", plan.dropCachesAsRoot}},
                        sink, stop);
}

Result<ResultDocument> refineRunInWorker(const Worker& worker, const ResultDocument& done,
                                         double precision, double maxTimeSeconds, RunSink& sink,
                                         std::stop_token stop) {
    return talkToWorker(worker,
                        {{"request", "refine"},
                         {"document", documentJson(done)},
                         {"precision", precision},
                         {"max_time_seconds", maxTimeSeconds}},
                        sink, stop);
}

} // namespace readscope

namespace readscope {

Result<ResultDocument> resumeRunInWorker(const Worker& worker, const ResultDocument& recovered,
                                         RunSink& sink, std::stop_token stop) {
    return talkToWorker(worker, {{"request", "resume"}, {"document", documentJson(recovered)}},
                        sink, stop);
}

} // namespace readscope
