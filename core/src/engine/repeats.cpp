// An A/A run (--repeats): the whole run again from its own set-up, its cells pooled with the
// earlier repeats' as the rounds come.
#include "eviction.h"
#include "memory_limit.h"
#include "plan_run.h"
#include "platform.h"
#include "readscope/probe.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope {

namespace {

// A cell of a later repeat added to the same cell of the earlier ones: its rounds numbered on
// after theirs and marked with their repeat, the summary over all of them. A repeat's reason
// and conditions (not cold, time cap) stay with the pooled cell, marked with the repeat unless
// the same was found already, and a not-cold or failed repeat makes the pooled cell so.
void pool(Cell& into, const Cell& more, int repeat) {
    int last = 0;
    for (const auto& s : into.samples)
        last = std::max(last, s.round);
    for (Sample s : more.samples) {
        s.round += last;
        s.repeat = repeat;
        into.samples.push_back(s);
    }
    if (more.status == CellStatus::NotCold || more.status == CellStatus::Failed)
        into.status = more.status;
    if (!more.message.empty() && into.message.find(more.message) == std::string::npos)
        into.message += (into.message.empty() ? "" : "; ") +
                        fmt::format("repeat {}: {}", repeat + 1, more.message);
    for (CellCondition c : more.conditions) {
        const bool known =
            std::any_of(into.conditions.begin(), into.conditions.end(),
                        [&](const CellCondition& had) { return had.what == c.what; });
        if (known)
            continue;
        c.repeat = repeat;
        into.conditions.push_back(std::move(c));
    }
    into.summarize();
}

// Forwards one repeat's run to the run's sink: its progress says which repeat, and its cells
// arrive pooled with the earlier repeats' rounds, so the live chart and the recovery file see
// the whole run's cells.
class RepeatSink final : public RunSink {
public:
    RepeatSink(RunSink& inner, const ResultDocument& pooled, int repeat, int repeats)
        : inner_(inner), pooled_(pooled), repeat_(repeat), repeats_(repeats) {}
    void onStarted(const ResultDocument& header) override {
        if (repeat_ == 0)
            inner_.onStarted(header);
    }
    void onProgress(const Progress& p) override {
        Progress tagged = p;
        tagged.repeat = repeat_ + 1;
        tagged.repeats = repeats_;
        inner_.onProgress(tagged);
    }
    void onRoundMeasured(const Cell& c) override { inner_.onRoundMeasured(pooled(c)); }
    void onCellFinished(const Cell& c) override { inner_.onCellFinished(pooled(c)); }
    void onWarning(const RunWarning& w) override {
        RunWarning tagged = w;
        if (repeat_ > 0)
            tagged.repeat = repeat_ + 1;
        inner_.onWarning(tagged);
    }

private:
    Cell pooled(const Cell& c) const {
        const Cell* before = pooled_.find(c.strategy, c.point());
        if (!before)
            return c;
        Cell out = *before;
        pool(out, c, repeat_);
        return out;
    }
    RunSink& inner_;
    const ResultDocument& pooled_;
    int repeat_, repeats_;
};

// The run inside its memory limit (Plan::memoryLimit), when it has one: entered before
// anything is read and left when the run ends. The file is evicted once inside it: pages
// cached before were charged to another cgroup, and the limit would never push them out.
// The plan run is the one asked for, its memory limit the one in force: a cgroup the process
// was started in may be limited below what was asked, and the plan is checked against that.
class LimitedRun {
public:
    explicit LimitedRun(const Plan& plan) : plan_(plan) {}
    const Plan& plan() const { return plan_; }
    Status enter(const FileProbe& file, RunSink& sink) {
        if (!plan_.memoryLimit)
            return okStatus();
        auto scope = platform::enterMemoryLimit(plan_.memoryLimit);
        if (!scope)
            return scope.error();
        scope_ = std::move(*scope);
        if (scope_->bytes() != plan_.memoryLimit) {
            plan_.memoryLimit = scope_->bytes();
            if (auto st = validatePlan(plan_, file); !st) {
                (void)scope_->leave();
                return Error{fmt::format("under the memory limit in force ({}): {}", scope_->how(),
                                         st.error().message)};
            }
        }
        UniqueFd fd(platform::openForReading(file.path));
        if (fd.valid()) {
            const Range whole{0, file.size};
            evictUntilCold(fd.get(), file, std::span(&whole, 1), plan_.dropCachesAsRoot,
                           [&](const std::string& w) { sink.onWarning(SaidAsIs{w}); });
        }
        return okStatus();
    }
    // The run's document with the limit it ran under; the limit left, and said when leaving
    // it failed.
    Result<ResultDocument> recorded(Result<ResultDocument> doc, RunSink& sink) const {
        if (!scope_)
            return doc;
        if (doc)
            doc->memoryLimit = ResultDocument::MemoryLimit{scope_->bytes(), scope_->how()};
        if (auto st = scope_->leave(); !st)
            sink.onWarning(SaidAsIs{st.error().message});
        return doc;
    }

private:
    Plan plan_;
    std::unique_ptr<platform::MemoryLimitScope> scope_;
};

Result<ResultDocument> runRepeats(const Plan& plan, const FileProbe& file, RunSink& sink,
                                  std::stop_token stop);

} // namespace

Result<CheckedPlan> checkPlan(const Plan& plan) {
    auto file = probeFile(plan.file);
    if (!file)
        return file.error();
    if (auto st = validatePlan(plan, *file); !st)
        return st.error();
    return CheckedPlan(plan, std::move(*file));
}

Result<ResultDocument> runPlan(const Plan& plan, RunSink& sink, std::stop_token stop) {
    auto checked = checkPlan(plan);
    if (!checked)
        return checked.error();
    return runPlan(*checked, sink, stop);
}

Result<ResultDocument> runPlan(const CheckedPlan& checked, RunSink& sink, std::stop_token stop) {
    LimitedRun limited(checked.plan());
    if (auto st = limited.enter(checked.file(), sink); !st)
        return st.error();
    return limited.recorded(runRepeats(limited.plan(), checked.file(), sink, stop), sink);
}

namespace {

Result<ResultDocument> runRepeats(const Plan& plan, const FileProbe& file, RunSink& sink,
                                  std::stop_token stop) {
    if (plan.repeats <= 1)
        return measureOnce(plan, file, sink, stop, nullptr, nullptr);
    // An A/A pair (or more): the whole run again, from its own set-up, after the last.
    ResultDocument pooled;
    for (int k = 0; k < plan.repeats; ++k) {
        RepeatSink tagged(sink, pooled, k, plan.repeats);
        auto doc = measureOnce(plan, file, tagged, stop, nullptr, nullptr);
        if (!doc)
            return doc.error();
        if (k == 0) {
            pooled = std::move(*doc);
        } else {
            for (const auto& cell : doc->cells) {
                auto into =
                    std::find_if(pooled.cells.begin(), pooled.cells.end(), [&](const Cell& c) {
                        return c.strategy == cell.strategy && c.point() == cell.point();
                    });
                if (into != pooled.cells.end())
                    pool(*into, cell, k);
                else
                    pooled.cells.push_back(cell);
            }
            pooled.complete = doc->complete;
        }
        if (!pooled.complete)
            break;
    }
    return pooled;
}

} // namespace

Result<ResultDocument> runPlanPoints(const Plan& plan, const std::vector<SweepPoint>& points,
                                     RunSink& sink, std::stop_token stop,
                                     const ResultDocument* recovered) {
    auto file = probeFile(plan.file);
    if (!file)
        return file.error();
    if (auto st = validatePlan(plan, *file); !st)
        return st.error();
    LimitedRun limited(plan);
    if (auto st = limited.enter(*file, sink); !st)
        return st.error();
    return limited.recorded(measureOnce(limited.plan(), *file, sink, stop, &points, recovered),
                            sink);
}

} // namespace readscope
