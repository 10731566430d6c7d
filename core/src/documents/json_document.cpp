#include "readscope/condition_words.h"
#include "readscope/cost_model.h"
#include "readscope/cost_model_words.h"
#include "readscope/documents.h"
#include "readscope/run_notes.h"
#include "readscope/state_words.h"
#include "readscope/time_split.h"
#include "readscope/time_split_words.h"

#include "json_parts.h"
#include "sample_fields.h"
#include "summary_fields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <type_traits>
#include <variant>

namespace readscope {

using nlohmann::json;

namespace {

json optionalNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json optionalNanoseconds(const std::optional<double>& seconds) {
    return seconds ? json(*seconds * 1e9) : json(nullptr);
}

std::optional<double> readOptional(const json& j, const char* key) {
    if (!j.contains(key) || j.at(key).is_null())
        return std::nullopt;
    return j.at(key).get<double>();
}

// The plan's own fields; planJson adds a trace run's trace.
json planFields(const Plan& p) {
    return {{"file", p.file},
            {"sizes", p.sizes},
            {"file_sizes", p.fileSizes},
            {"strategies", p.strategies},
            {"pattern", toString(p.pattern)},
            {"cache", toString(p.cache)},
            {"consume", toString(p.consume)},
            {"threads", p.threads},
            {"thread_counts", p.threadCounts},
            {"queue_depths", p.queueDepths},
            {"rounds", p.rounds},
            {"warmup", p.warmup},
            {"seed", p.seed},
            {"budget", p.budget},
            {"time_cap_seconds", p.timeCapSeconds},
            {"round_time_seconds", p.roundTimeSeconds},
            {"repeats", p.repeats},
            {"precision", p.precision},
            {"max_time_seconds", p.maxTimeSeconds},
            {"buffer_offsets", p.bufferOffsets},
            {"memory_limit", p.memoryLimit},
            {"duration_seconds", p.durationSeconds},
            {"sweep", toString(sweepAxis(p))}};
}

} // namespace

json planJson(const Plan& p) {
    json out = planFields(p);
    if (p.pattern == Pattern::Trace)
        out["trace"] = traceJson(p);
    return out;
}

json offsetCountsJson(const OffsetCounts& counts) {
    json out = json::array();
    for (const auto& c : counts)
        out.push_back({{"offset", c.offset == kOtherOffsets ? json(nullptr) : json(c.offset)},
                       {"buffers", c.count}});
    return out;
}

OffsetCounts offsetCountsFrom(const json& j) {
    OffsetCounts out;
    for (const auto& item : j) {
        OffsetCount c;
        const auto& offset = item.at("offset");
        c.offset = offset.is_null() ? kOtherOffsets : offset.get<std::uint32_t>();
        c.count = item.value("buffers", std::uint64_t{0});
        out.push_back(c);
    }
    return out;
}

Plan planFrom(const json& j) {
    Plan p;
    p.file = j.value("file", "");
    p.sizes = j.value("sizes", std::vector<std::uint64_t>{});
    p.fileSizes = j.value("file_sizes", std::vector<std::uint64_t>{});
    p.strategies = j.value("strategies", std::vector<std::string>{});
    if (auto r = parsePattern(j.value("pattern", "sequential")))
        p.pattern = *r;
    if (auto r = parseCacheMode(j.value("cache", "warm")))
        p.cache = *r;
    if (auto r = parseConsume(j.value("consume", "minimal")))
        p.consume = *r;
    p.threads = j.value("threads", 1);
    p.threadCounts = j.value("thread_counts", std::vector<int>{});
    p.queueDepths = j.value("queue_depths", std::vector<unsigned>{});
    p.rounds = j.value("rounds", 0);
    p.warmup = j.value("warmup", 0);
    p.seed = j.value("seed", std::uint64_t{0});
    p.budget = j.value("budget", std::uint64_t{0});
    p.timeCapSeconds = j.value("time_cap_seconds", 60.0);
    p.repeats = j.value("repeats", 1);
    p.precision = j.value("precision", 0.0);
    p.maxTimeSeconds = j.value("max_time_seconds", 0.0);
    p.roundTimeSeconds = j.value("round_time_seconds", 0.0); // older documents: the budget
    p.bufferOffsets = j.value("buffer_offsets", std::vector<std::uint32_t>{});
    p.memoryLimit = j.value("memory_limit", std::uint64_t{0});
    p.durationSeconds = j.value("duration_seconds", 0.0);
    if (p.pattern == Pattern::Trace && j.contains("trace"))
        traceFrom(j.at("trace"), p);
    return p;
}

namespace {

const std::pair<const char*, std::optional<double> ResultDocument::UnitCosts::*> kUnitCosts[] = {
    {"null_syscall", &ResultDocument::UnitCosts::nullSyscall},
    {"anonymous_fault", &ResultDocument::UnitCosts::anonymousFault},
    {"file_fault", &ResultDocument::UnitCosts::fileFault},
    {"cached_page", &ResultDocument::UnitCosts::cachedPage},
    {"unmap_page", &ResultDocument::UnitCosts::unmapPage}};

json unitCostsJson(const ResultDocument::UnitCosts& u) {
    json out = json::object();
    for (const auto& [name, member] : kUnitCosts)
        out[name] = optionalNanoseconds(u.*member);
    return out;
}

ResultDocument::UnitCosts unitCostsFrom(const json& j) {
    ResultDocument::UnitCosts u;
    for (const auto& [name, member] : kUnitCosts)
        if (const auto ns = readOptional(j, name))
            u.*member = *ns / 1e9;
    return u;
}

// What can move pages under a run (system_info.h); null when it was not looked at.
json memoryJson(const std::optional<MemoryDaemons>& m) {
    if (!m)
        return nullptr;
    json damon = json::array();
    for (const auto& d : m->damon)
        damon.push_back({{"action", d.action},
                         {"operations", d.operations},
                         {"min_idle_seconds", d.minIdleSeconds}});
    return {{"damon_schemes", damon},
            {"thp", m->thp},
            {"mglru", m->mglru ? json(*m->mglru) : json(nullptr)},
            {"swap_bytes", m->swapBytes},
            {"zswap", m->zswap ? json(*m->zswap) : json(nullptr)}};
}

std::optional<MemoryDaemons> memoryFrom(const json& j) {
    if (!j.is_object())
        return std::nullopt;
    MemoryDaemons m;
    for (const auto& d : j.value("damon_schemes", json::array()))
        m.damon.push_back(
            {d.value("action", ""), d.value("operations", ""), d.value("min_idle_seconds", 0.0)});
    m.thp = j.value("thp", "");
    if (const auto v = j.find("mglru"); v != j.end() && v->is_boolean())
        m.mglru = v->get<bool>();
    m.swapBytes = j.value("swap_bytes", std::uint64_t{0});
    if (const auto v = j.find("zswap"); v != j.end() && v->is_boolean())
        m.zswap = v->get<bool>();
    return m;
}

json systemJson(const SystemInfo& s) {
    json out = {
        {"cpu", s.cpuModel},
        {"logical_cores", s.logicalCores},
        {"kernel", s.kernel},
        {"os", s.os},
        {"filesystem", s.filesystem},
        {"page_size", s.pageSize},
        {"tool_version", s.toolVersion},
        {"date", s.date},
        {"faults_counted", s.faultsCounted},
        {"caches",
         {{"l1d_bytes", s.caches.l1d}, {"l2_bytes", s.caches.l2}, {"l3_bytes", s.caches.l3}}}};
    if (s.memory) // documents that did not look keep the shape they had
        out["memory"] = memoryJson(s.memory);
    if (s.hardwareCounters)
        out["hardware_counters"] = hardwareCountersKey(*s.hardwareCounters);
    return out;
}

SystemInfo systemFrom(const json& j) {
    SystemInfo s;
    s.cpuModel = j.value("cpu", "");
    s.logicalCores = j.value("logical_cores", 0);
    s.kernel = j.value("kernel", "");
    s.os = j.value("os", "");
    s.filesystem = j.value("filesystem", "");
    s.pageSize = j.value("page_size", 0);
    s.toolVersion = j.value("tool_version", "");
    s.date = j.value("date", "");
    s.faultsCounted = j.value("faults_counted", true); // absent before 0.1.0's Windows layer
    if (const auto c = j.find("caches"); c != j.end() && c->is_object()) {
        s.caches.l1d = c->value("l1d_bytes", std::uint64_t{0});
        s.caches.l2 = c->value("l2_bytes", std::uint64_t{0});
        s.caches.l3 = c->value("l3_bytes", std::uint64_t{0});
    }
    if (const auto m = j.find("memory"); m != j.end())
        s.memory = memoryFrom(*m);
    if (const auto c = j.find("hardware_counters"); c != j.end() && c->is_string())
        s.hardwareCounters = hardwareCountersFrom(c->get<std::string>());
    return s;
}

json sampleJson(const Sample& s) {
    json out = json::object();
    for (const auto& f : kSampleFields)
        std::visit(
            [&](auto member) {
                const auto& v = s.*member;
                if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::optional<double>>)
                    out[f.json] = optionalNumber(v);
                else
                    out[f.json] = v;
            },
            f.member);
    return out;
}

Sample sampleFrom(const json& j) {
    Sample s;
    for (const auto& f : kSampleFields)
        std::visit(
            [&](auto member) {
                auto& v = s.*member;
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::optional<double>>)
                    v = readOptional(j, f.json);
                else
                    v = j.value(f.json, T{});
            },
            f.member);
    return s;
}

template <class Rate> json summaryJson(const Summary& m, Rate rate) {
    json out = json::object();
    for (const auto& f : kSummaryFields)
        out[f.name] = rate(m.*f.member);
    out["noisy"] = m.noisy;
    return out;
}

// Derived from the medians, for scripts; not read back (a loaded document refits).
json costModelJson(const ResultDocument& doc) {
    // A fixed cost the sizes do not resolve is null, with the reason; the sizes past the cache
    // the fit stopped at are named.
    json out = json::array();
    const auto cut = fitCut(doc);
    for (const auto& f : fitCosts(doc))
        out.push_back({{"strategy", f.strategy},
                       {"fixed_us", f.fixedResolved() ? json(f.fixedSeconds * 1e6) : json(nullptr)},
                       {"fixed_not_resolved",
                        f.fixedResolved() ? json(nullptr) : json(unresolvedFixedText(f))},
                       {"bandwidth_gbps", f.bytesPerSecond / 1e9},
                       {"fixed_dominated_below_bytes",
                        f.fixedResolved() ? json(f.halfFixedBytes()) : json(nullptr)},
                       {"r2", f.r2},
                       {"worst_misfit", f.worstMisfit},
                       {"points", f.points},
                       {"fitted_up_to_bytes", cut ? json(cut->bytes) : json(nullptr)},
                       {"left_out_bytes", cut ? json(cut->leftOut) : json::array()}});
    return out;
}

// Where the cell's time goes (time_split.h), derived for scripts and not read back: each part's
// share of the measured time per range (null: counted but not priced), the rest unexplained (and
// at the ends of the median's interval); null with the reason when the cell has no split.
json timeSplitJson(const ResultDocument& doc, const Cell& c) {
    const auto split = timeSplit(doc, c);
    if (!split)
        return {{"per_range_us", nullptr}, {"missing", timeSplitMissing(doc, c)}};
    json shares = json::object();
    for (TimePart p : kTimeParts)
        shares[std::string(partKey(p))] =
            split->partSeconds(p) ? json(split->share(p)) : json(nullptr);
    shares["unexplained"] = split->unexplainedShare();
    const auto range = split->unexplainedInterval();
    return {{"per_range_us", split->measuredSeconds * 1e6},
            {"shares", shares},
            {"unexplained_interval", range ? json{range->first, range->second} : json(nullptr)},
            {"copy", split->copyInUserSpace ? "memcpy" : "kernel"},
            {"not_priced", unpricedText(*split)}};
}

} // namespace

json cellJson(const ResultDocument& doc, const Cell& c, std::span<const CellField> fields) {
    json samples = json::array();
    for (const auto& s : c.samples)
        samples.push_back(sampleJson(s));
    const auto& m = c.summary;
    // A cell without figures (failed, unavailable) has no rates: null, never 0.
    auto rate = [&](double v) { return c.measured() ? json(v) : json(nullptr); };
    json out = {{"strategy", c.strategy},
                {"range_bytes", c.rangeBytes},
                {"buffer_offset", c.bufferOffset ? json(*c.bufferOffset) : json(nullptr)},
                {"buffer_page_offsets", offsetCountsJson(c.bufferPageOffsets)},
                {"ranges_per_round", c.rangesPerRound},
                {"queue_depth", c.queueDepth ? json(*c.queueDepth) : json(nullptr)},
                {"point_threads", c.pointThreads ? json(*c.pointThreads) : json(nullptr)},
                {"point_queue_depth", c.pointQueueDepth ? json(*c.pointQueueDepth) : json(nullptr)},
                // Derived from the median, for scripts; not read back.
                {"pct_of_copy_limit", optionalNumber(pctOfCopyLimit(c))},
                {"pct_of_device_limit", optionalNumber(pctOfDeviceLimit(doc, c))},
                {"median_iops", optionalNumber(medianIops(c))},
                {"status", toString(c.status)},
                {"message", cellNotes(c)},
                {"checksum", checksumText(c.checksum)},
                {"residency_method", c.residencyMethod},
                {"summary", summaryJson(m, rate)},
                {"time_split", timeSplitJson(doc, c)},
                {"samples", samples}};
    for (const CellField& f : fields)
        out[f.name] = optionalNumber(writtenValue(f, c));
    if (c.partial)
        out["partial"] = true;
    return out;
}

Cell cellFrom(const json& j, std::span<const CellField> fields) {
    Cell c;
    c.strategy = j.at("strategy").get<std::string>();
    c.rangeBytes = j.at("range_bytes").get<std::uint64_t>();
    if (j.contains("buffer_offset") && !j.at("buffer_offset").is_null())
        c.bufferOffset = j.at("buffer_offset").get<std::uint32_t>();
    if (j.contains("buffer_page_offsets"))
        c.bufferPageOffsets = offsetCountsFrom(j.at("buffer_page_offsets"));
    c.rangesPerRound = j.value("ranges_per_round", std::uint64_t{0});
    if (j.contains("queue_depth") && !j.at("queue_depth").is_null())
        c.queueDepth = j.at("queue_depth").get<unsigned>();
    if (j.contains("point_threads") && !j.at("point_threads").is_null())
        c.pointThreads = j.at("point_threads").get<int>();
    if (j.contains("point_queue_depth") && !j.at("point_queue_depth").is_null())
        c.pointQueueDepth = j.at("point_queue_depth").get<unsigned>();
    for (const CellField& f : fields)
        if (const auto v = readOptional(j, f.name))
            storeWritten(f, c, *v);
    c.status = parseCellStatus(j.value("status", "failed"));
    c.partial = j.value("partial", false);
    c.message = j.value("message", "");
    c.checksum = parseChecksum(j.value("checksum", ""));
    c.residencyMethod = j.value("residency_method", "");
    if (j.contains("samples"))
        for (const auto& s : j.at("samples"))
            c.samples.push_back(sampleFrom(s));
    if (j.contains("summary")) {
        const auto& m = j.at("summary");
        for (const auto& f : kSummaryFields)
            c.summary.*f.member = readOptional(m, f.name).value_or(0);
        // Documents from before the interval existed: no bar rather than a made-up one.
        for (const SummaryField& bound :
             {summaryField("median_ci_low_gbps"), summaryField("median_ci_high_gbps")})
            if (!readOptional(m, bound.name))
                c.summary.*bound.member = c.summary.median;
        c.summary.noisy = m.value("noisy", false);
        c.summary.tooFewRounds = c.status == CellStatus::TooFewRounds;
    }
    return c;
}

namespace {

json deviceLimitJson(const ResultDocument& doc) {
    if (!doc.deviceLimit)
        return doc.deviceLimitMissing.empty() ? json(nullptr)
                                              : json{{"missing", doc.deviceLimitMissing}};
    const DeviceLimit& d = *doc.deviceLimit;
    return {{"gbps", d.gbps},
            {"fastest", d.fastest},
            {"device", d.device},
            {"measured_at", d.measuredAt},
            {"block_bytes", d.blockBytes},
            {"span_bytes", d.spanBytes},
            {"queue_depth", d.queueDepth},
            {"direct_gbps", optionalNumber(d.directGbps)},
            {"direct_queued_gbps", optionalNumber(d.directQueuedGbps)},
            {"buffered_gbps", optionalNumber(d.bufferedGbps)},
            {"skipped", d.skipped}};
}

void readDeviceLimit(const json& j, ResultDocument& doc) {
    if (!j.is_object())
        return;
    if (!j.contains("gbps")) {
        doc.deviceLimitMissing = j.value("missing", "");
        return;
    }
    DeviceLimit d;
    d.gbps = j.at("gbps").get<double>();
    d.fastest = j.value("fastest", "");
    d.device = j.value("device", "");
    d.measuredAt = j.value("measured_at", "");
    d.blockBytes = j.value("block_bytes", std::uint64_t{0});
    d.spanBytes = j.value("span_bytes", std::uint64_t{0});
    d.queueDepth = j.value("queue_depth", 0u);
    d.directGbps = readOptional(j, "direct_gbps");
    d.directQueuedGbps = readOptional(j, "direct_queued_gbps");
    d.bufferedGbps = readOptional(j, "buffered_gbps");
    d.skipped = j.value("skipped", "");
    doc.deviceLimit = d;
}

} // namespace

json documentJson(const ResultDocument& doc) {
    json cells = json::array();
    for (const auto& c : doc.cells)
        cells.push_back(cellJson(doc, c));
    return json{{"format", "readscope-result"},
                {"format_version", doc.formatVersion},
                {"plan", planJson(doc.plan)},
                {"file_size", doc.fileSize},
                {"system", systemJson(doc.system)},
                {"complete", doc.complete},
                {"file_generated", doc.fileGenerated},
                {"copies_folder", doc.copiesFolder},
                {"lseek_ns", doc.lseekSeconds ? json(*doc.lseekSeconds * 1e9) : json(nullptr)},
                {"unit_costs_ns", unitCostsJson(doc.unitCosts)},
                {"device_limit", deviceLimitJson(doc)},
                {"memory_limit", doc.memoryLimit ? json{{"bytes", doc.memoryLimit->bytes},
                                                        {"how", doc.memoryLimit->how}}
                                                 : json(nullptr)},
                {"note", documentNote(doc)},
                {"cost_model", costModelJson(doc)},
                {"cells", cells}};
}

// Text that is not valid UTF-8 (a file's path, a system's message) is replaced in what is
// written, never thrown on.
std::string toJson(const ResultDocument& doc) {
    return documentJson(doc).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string toJsonLine(const ResultDocument& doc) {
    return documentJson(doc).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<ResultDocument> fromJson(std::string_view text) {
    try {
        return documentFrom(json::parse(text));
    } catch (const json::exception& e) {
        return Error{fmt::format("the result document is not valid: {}", e.what())};
    }
}

Result<ResultDocument> documentFrom(const json& j) {
    try {
        if (!j.is_object() || j.value("format", "") != "readscope-result")
            return Error{"not a readscope result document (no \"format\": \"readscope-result\")"};
        ResultDocument doc;
        doc.formatVersion = j.value("format_version", 1);
        if (doc.formatVersion > 1)
            return Error{fmt::format("result document format {} is newer than this readscope "
                                     "understands (1): update readscope",
                                     doc.formatVersion)};
        doc.plan = planFrom(j.value("plan", json::object()));
        doc.fileSize = j.value("file_size", std::uint64_t{0});
        doc.system = systemFrom(j.value("system", json::object()));
        doc.complete = j.value("complete", true);
        doc.fileGenerated = j.value("file_generated", false);
        doc.copiesFolder = j.value("copies_folder", "");
        if (const auto ns = readOptional(j, "lseek_ns"))
            doc.lseekSeconds = *ns / 1e9;
        if (const auto u = j.find("unit_costs_ns"); u != j.end() && u->is_object())
            doc.unitCosts = unitCostsFrom(*u);
        if (j.contains("device_limit"))
            readDeviceLimit(j.at("device_limit"), doc);
        if (const auto m = j.find("memory_limit"); m != j.end() && m->is_object())
            doc.memoryLimit = ResultDocument::MemoryLimit{m->value("bytes", std::uint64_t{0}),
                                                          m->value("how", "")};
        doc.note = j.value("note", "");
        for (const auto& c : j.value("cells", json::array()))
            doc.cells.push_back(cellFrom(c));
        return doc;
    } catch (const json::exception& e) {
        return Error{fmt::format("the result document is not valid: {}", e.what())};
    }
}

} // namespace readscope
