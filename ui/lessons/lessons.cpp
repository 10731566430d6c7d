#include "lessons.h"

#include "readscope/buffer_offsets.h"
#include "readscope/trace_formats.h"
#include "readscope/units.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <utility>

namespace readscope::ui {

namespace {
ChartMode chartOf(const QString& key) {
    if (key == "time-split")
        return ChartMode::TimeSplit;
    if (key == "over-time")
        return ChartMode::OverTime;
    return ChartMode::Throughput;
}
} // namespace

QList<Lesson> loadLessons() {
    QFile file(":/lessons.json");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<Lesson> lessons;
    for (const auto& value : QJsonDocument::fromJson(file.readAll()).array()) {
        const QJsonObject o = value.toObject();
        Lesson l;
        l.title = o["title"].toString();
        l.text = o["text"].toString();
        l.reference = o["reference"].toString();
        if (auto sizes = parseSizeList(o["sizes"].toString().toStdString()))
            l.plan.sizes = *sizes;
        l.plan.strategies.clear();
        for (const auto& id : o["strategies"].toArray())
            l.plan.strategies.push_back(id.toString().toStdString());
        if (auto offsets = parseBufferOffsetList(o["buffer_offsets"].toString().toStdString());
            offsets && o.contains("buffer_offsets"))
            l.plan.bufferOffsets = *offsets;
        if (auto p = parsePattern(o["pattern"].toString().toStdString()))
            l.plan.pattern = *p;
        takeSizesAsFileSizes(l.plan);
        // A lesson on a trace: the trace shipped beside lessons.json, read from the resources;
        // its path as a checkout holds it, for the rerun command.
        if (o.contains("trace")) {
            QFile traceFile(":/" + o["trace"].toString());
            if (!traceFile.open(QIODevice::ReadOnly))
                continue;
            auto trace =
                parseTrace(traceFile.readAll().toStdString(), o["trace"].toString().toStdString());
            if (!trace)
                continue;
            l.plan.trace = std::make_shared<const Trace>(std::move(*trace));
            l.plan.tracePath = "resources/" + o["trace"].toString().toStdString();
            l.plan.pattern = Pattern::Trace;
            l.plan.sizes.clear();
        }
        if (auto c = parseCacheMode(o["cache"].toString().toStdString()))
            l.plan.cache = *c;
        if (auto c = parseConsume(o["consume"].toString("all").toStdString()))
            l.plan.consume = *c;
        l.plan.rounds = o["rounds"].toInt(Plan{}.rounds);
        l.plan.durationSeconds = o["duration_seconds"].toDouble(0);
        if (auto limit = parseSize(o["memory_limit"].toString().toStdString());
            limit && o.contains("memory_limit"))
            l.plan.memoryLimit = *limit;
        if (o.contains("fill")) {
            const QJsonObject f = o["fill"].toObject();
            l.fill = CacheFillFinding{f["falls"].toString().toStdString(),
                                      f["published"].toString().toStdString()};
        }
        if (o.contains("finding")) {
            const QJsonObject f = o["finding"].toObject();
            Finding finding;
            finding.faster = f["faster"].toString().toStdString();
            finding.than = f["than"].toString().toStdString();
            if (auto sizes = parseSizeList(f["sizes"].toString().toStdString());
                sizes && f.contains("sizes"))
                finding.sizes = *sizes;
            if (auto ties = parseSizeList(f["ties"].toString().toStdString());
                ties && f.contains("ties"))
                finding.ties = *ties;
            if (f.contains("published_low") && f.contains("published_high")) {
                finding.publishedLow = f["published_low"].toDouble();
                finding.publishedHigh = f["published_high"].toDouble();
            }
            finding.published = f["published"].toString().toStdString();
            l.finding = finding;
        }
        l.explainsZeroing = l.finding && o["verdict"].toString() == "zeroing";
        l.chart = chartOf(o["chart"].toString());
        l.chartStrategy = o["chart_strategy"].toString();
        if (auto least = parseSize(o["min_file_size"].toString().toStdString());
            least && o.contains("min_file_size"))
            l.minFileBytes = *least;
        lessons << l;
    }
    return lessons;
}

} // namespace readscope::ui
