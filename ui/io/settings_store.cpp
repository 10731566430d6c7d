#include "settings_store.h"

#include "qt_text.h"
#include "readscope/trace_formats.h"

#include "readscope/buffer_offsets.h"

#include <QFileInfo>
#include <QMainWindow>
#include <QScreen>
#include <QSplitter>
#include <QStringList>

#include <algorithm>

namespace readscope::ui {

namespace {

// An enum saved by name; an unknown name (or the integers older versions wrote) keeps the
// default rather than becoming an enum value nobody defined.
template <class E, class Parse>
E enumSetting(const QSettings& s, const char* key, E fallback, Parse parse) {
    if (!s.contains(key))
        return fallback;
    auto parsed = parse(s.value(key).toString().toStdString());
    return parsed ? *parsed : fallback;
}

int intSetting(const QSettings& s, const char* key, int fallback, IntLimit limit) {
    bool ok = false;
    const int v = s.value(key, fallback).toInt(&ok);
    return ok && limit.contains(v) ? v : fallback;
}

QStringList numberList(const std::vector<std::uint64_t>& values) {
    QStringList out;
    for (auto v : values)
        out << QString::number(v);
    return out;
}

// The positive whole numbers of a saved list; anything else (a hand edit) is dropped.
std::vector<std::uint64_t> sizesFrom(const QStringList& saved) {
    std::vector<std::uint64_t> sizes;
    for (const auto& v : saved) {
        bool ok = false;
        if (const auto size = v.toULongLong(&ok); ok && size > 0)
            sizes.push_back(size);
    }
    return sizes;
}

} // namespace

void savePlanSettings(QSettings& s, const QString& file, const Plan& plan) {
    s.setValue("file", file);
    s.setValue("sizes", numberList(plan.sizes));
    s.setValue("fileSizes", numberList(plan.fileSizes));
    QStringList ids;
    for (const auto& id : plan.strategies)
        ids << QString::fromStdString(id);
    s.setValue("strategies", ids);
    s.setValue("pattern", qs(toString(plan.pattern)));
    s.setValue("trace", QString::fromStdString(plan.tracePath));
    s.setValue("cache", qs(toString(plan.cache)));
    s.setValue("consume", qs(toString(plan.consume)));
    s.setValue("threads", plan.threads);
    // The threads sweep's list, apart from the one count above (empty: none).
    s.setValue("threadCounts", plan.threadCounts.empty()
                                   ? QString()
                                   : QString::fromStdString(threadsListText(plan)));
    s.setValue("queueDepths", QString::fromStdString(queueDepthsText(plan)));
    s.setValue("rounds", plan.rounds);
    s.setValue("warmup", plan.warmup);
    s.setValue("precision", plan.precision);
    s.setValue("maxTime", plan.maxTimeSeconds);
    s.setValue("seed", quint64(plan.seed));
    s.setValue("memoryLimit", quint64(plan.memoryLimit));
    s.setValue("duration", plan.durationSeconds);
    QStringList offsets;
    for (auto o : plan.bufferOffsets)
        offsets << QString::number(o);
    s.setValue("bufferOffsets", offsets);
}

Plan firstStartPlan() {
    Plan plan;
    plan.strategies = {"pread-zerofill", "pread-uninit", "seek-read",
                       "pread-reuse",    "mmap-copy",    "mmap-touch"};
    return plan;
}

Plan loadPlanSettings(const QSettings& s, const Plan& defaults) {
    Plan plan = defaults;
    if (s.contains("strategies")) {
        plan.strategies.clear();
        for (const auto& id : s.value("strategies").toStringList())
            plan.strategies.push_back(id.toStdString());
    }
    if (s.contains("sizes")) {
        plan.sizes = sizesFrom(s.value("sizes").toStringList());
        if (plan.sizes.empty())
            plan.sizes = defaults.sizes;
    }
    plan.fileSizes = sizesFrom(s.value("fileSizes").toStringList()); // none: the file itself
    plan.pattern = enumSetting(s, "pattern", defaults.pattern, parsePattern);
    // A trace is read again from where it was opened; gone or changed, the pattern is the
    // default one (Run would have nothing to replay).
    if (plan.pattern == Pattern::Trace) {
        const std::string path = s.value("trace").toString().toStdString();
        if (auto trace = path.empty() ? Result<Trace>(Error{""}) : loadTrace(path)) {
            plan.trace = std::make_shared<const Trace>(std::move(*trace));
            plan.tracePath = path;
        } else {
            plan.pattern = defaults.pattern;
        }
    }
    plan.cache = enumSetting(s, "cache", defaults.cache, parseCacheMode);
    plan.consume = enumSetting(s, "consume", defaults.consume, parseConsume);
    plan.threads = intSetting(s, "threads", defaults.threads, kThreadsLimit);
    // A list that no longer reads (edited by hand) is dropped, not half taken.
    if (Plan lists = plan; setThreads(lists, s.value("threadCounts").toString().toStdString()))
        plan.threadCounts = lists.threadCounts; // a list; one count is "threads" above
    if (Plan lists = plan; setQueueDepths(lists, s.value("queueDepths").toString().toStdString()))
        plan.queueDepths = lists.queueDepths;
    plan.rounds = intSetting(s, "rounds", defaults.rounds, kRoundsLimit);
    plan.warmup = intSetting(s, "warmup", defaults.warmup, kWarmupLimit);
    // A precision out of the core's range (edited by hand) is off.
    if (const double p = s.value("precision", 0.0).toDouble();
        p >= kMinPrecision && p <= kMaxPrecision)
        plan.precision = p;
    if (const double t = s.value("maxTime", 0.0).toDouble(); t > 0 && t <= kMaxMaxTimeSeconds)
        plan.maxTimeSeconds = t;
    plan.seed = s.value("seed", quint64(defaults.seed)).toULongLong();
    // A limit under the least the core takes, or a duration out of range (edited by hand): off.
    if (const auto limit = s.value("memoryLimit", quint64(0)).toULongLong();
        limit >= kMinMemoryLimit)
        plan.memoryLimit = limit;
    if (const double d = s.value("duration", 0.0).toDouble(); d > 0 && d <= kMaxDurationSeconds)
        plan.durationSeconds = d;
    if (s.contains("bufferOffsets"))
        plan.bufferOffsets.clear();
    for (const auto& v : s.value("bufferOffsets").toStringList()) {
        bool ok = false; // a value that is not a number is dropped, not read as offset 0
        if (const uint o = v.toUInt(&ok); ok && o <= kMaxBufferOffset)
            plan.bufferOffsets.push_back(o);
    }
    return plan;
}

QString rememberedFolder(const QSettings& s, const QString& purpose, const QString& fallback) {
    const QString dir = s.value("folders/" + purpose).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : fallback;
}

void rememberFolder(QSettings& s, const QString& purpose, const QString& path) {
    const QFileInfo info(path);
    s.setValue("folders/" + purpose, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

void saveSlowBand(QSettings& s, const std::string& cpu, const QString& verdict,
                  const std::optional<SlowBand>& band) {
    s.beginGroup("offsetTrap");
    s.setValue("cpu", QString::fromStdString(cpu));
    s.setValue("verdict", verdict);
    auto numbers = [](const std::vector<std::uint32_t>& v) {
        QStringList out;
        for (auto o : v)
            out << QString::number(o);
        return out;
    };
    if (band) {
        s.setValue("slow", numbers(band->slow));
        s.setValue("fast", numbers(band->fast));
        s.setValue("ratio", band->worstRatio);
    } else {
        s.remove("slow");
        s.remove("fast");
        s.remove("ratio");
    }
    s.endGroup();
}

std::optional<SlowBand> loadSlowBand(const QSettings& s, const std::string& cpu) {
    auto key = [](const char* k) { return QString("offsetTrap/%1").arg(k); };
    if (!s.contains(key("slow")))
        return std::nullopt;
    // Measured on another CPU, the band says nothing about this document's figures.
    if (!cpu.empty() && s.value(key("cpu")).toString().toStdString() != cpu)
        return std::nullopt;
    auto offsets = [&](const char* k) {
        std::vector<std::uint32_t> out;
        for (const auto& v : s.value(key(k)).toStringList()) {
            bool ok = false;
            const uint o = v.toUInt(&ok);
            if (ok && o <= kMaxBufferOffset)
                out.push_back(o);
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    SlowBand band{offsets("slow"), offsets("fast"), s.value(key("ratio"), 1.0).toDouble()};
    if (band.slow.empty())
        return std::nullopt;
    return band;
}

} // namespace readscope::ui

namespace readscope::ui {

void saveWindowLayout(QSettings& s, const QMainWindow& window, const QSplitter& panels) {
    s.setValue("geometry", window.saveGeometry());
    s.setValue("state", window.saveState());
    s.setValue("splitter", panels.saveState());
}

bool restoreWindowLayout(const QSettings& s, QMainWindow& window, QSplitter& panels) {
    const bool fits = window.restoreGeometry(s.value("geometry").toByteArray()) &&
                      window.screen()->availableGeometry().contains(window.frameGeometry());
    if (fits)
        panels.restoreState(s.value("splitter").toByteArray());
    window.restoreState(s.value("state").toByteArray());
    return fits;
}

} // namespace readscope::ui
