// readscope-lessons: every lesson of the Lessons menu run with its own plan on one file, and
// the verdict its panel would show, one lesson after another. Prints; never pass/fail: whether
// this machine agrees with a published finding is what the run is for.
//
//   readscope-lessons FILE [TITLE-SUBSTRING]
#include "lessons.h"

#include "readscope/cache_fill.h"
#include "readscope/finding.h"
#include "readscope/lesson_words.h"
#include "readscope/runner.h"

#include <QCoreApplication>

#include <chrono>
#include <cstdio>

using namespace readscope;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: readscope-lessons FILE [TITLE-SUBSTRING]\n");
        return 2;
    }
    const QString only = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QString();
    for (const auto& lesson : ui::loadLessons()) {
        if (!(lesson.finding || lesson.fill) || (!only.isEmpty() && !lesson.title.contains(only)))
            continue;
        Plan plan = lesson.plan;
        plan.file = argv[1];
        RunSink quiet;
        const auto t0 = std::chrono::steady_clock::now();
        auto doc = runPlan(plan, quiet);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("## %s (%d rounds, %.0f s)\n", qPrintable(lesson.title), plan.rounds, secs);
        if (!doc) {
            std::printf("run failed: %s\n\n", doc.error().message.c_str());
            continue;
        }
        if (lesson.fill) {
            const auto verdict = judgeCacheFill(*doc, *lesson.fill);
            std::printf("%s\n\n", verdict
                                      ? cacheFillVerdictText(*doc, *lesson.fill, *verdict).c_str()
                                      : "This run did not measure the file's residency.");
            continue;
        }
        const auto verdict = judgeFinding(*doc, *lesson.finding);
        std::printf("%s\n\n", verdict ? findingVerdictText(*lesson.finding, *verdict).c_str()
                                      : "This run measured neither side of the finding.");
        std::fflush(stdout);
    }
    return 0;
}
