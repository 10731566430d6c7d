#include "csv_document.h"
#include "cell_fields.h"
#include "readscope/condition_words.h"
#include "readscope/document_words.h"
#include "readscope/documents.h"
#include "readscope/state_words.h"
#include "readscope/time_split.h"
#include "sample_fields.h"
#include "summary_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <string_view>
#include <type_traits>
#include <variant>

namespace readscope {

namespace csv {

std::string field(std::string_view value) {
    if (value.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(value);
    std::string out = "\"";
    for (char c : value) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string record(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i)
            out += ',';
        out += field(fields[i]);
    }
    return out + "\r\n";
}

bool parse(std::string_view text, std::vector<std::vector<std::string>>& records) {
    std::vector<std::string> current;
    std::string value;
    bool quoted = false, fieldStarted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    value += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                value += c;
            }
            continue;
        }
        if (c == '"' && value.empty()) {
            quoted = fieldStarted = true;
        } else if (c == ',') {
            current.push_back(std::move(value));
            value.clear();
            fieldStarted = true;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            if (fieldStarted || !value.empty() || !current.empty()) {
                current.push_back(std::move(value));
                records.push_back(std::move(current));
            }
            current.clear();
            value.clear();
            fieldStarted = false;
        } else {
            value += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        return false;
    if (fieldStarted || !value.empty() || !current.empty()) {
        current.push_back(std::move(value));
        records.push_back(std::move(current));
    }
    return true;
}

} // namespace csv

namespace {

std::string offsetField(const std::optional<std::uint32_t>& offset) {
    return offset ? std::to_string(*offset) : "auto";
}

std::string number(double v) { return fmt::format("{}", v); }
std::string optional(const std::optional<double>& v) { return v ? number(*v) : ""; }

template <class T> void addOnce(std::vector<T>& values, T value) {
    if (std::find(values.begin(), values.end(), value) == values.end())
        values.push_back(value);
}

template <class T> bool parseNumber(const std::string& text, T& out) {
    if (text.empty())
        return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && end == text.data() + text.size();
}

} // namespace

namespace {

// The summary CSV, column by column, in the order people's scripts know; the figures' names
// come from the table the JSON uses too (summary_fields.h).
struct Column {
    const char* name;
    std::function<std::string(const Cell&, const ResultDocument&)> value;
};

Column figure(const SummaryField& field) {
    const auto member = field.member;
    // A cell without figures has empty rate fields, never 0.
    return {field.name, [member](const Cell& c, const ResultDocument&) {
                return c.measured() ? number(c.summary.*member) : std::string();
            }};
}

// Where the cell's time goes (time_split.h): the time per range the split was made of and
// each part's share of it in %, then the unexplained rest; empty where the cell has no split
// (the JSON's time_split says why) or a part's unit cost was not measured.
std::vector<Column> timeSplitColumns() {
    using D = const ResultDocument&;
    std::vector<Column> columns{{"time_per_range_us", [](const Cell& c, D d) {
                                     const auto split = timeSplit(d, c);
                                     return split ? number(split->measuredSeconds * 1e6)
                                                  : std::string();
                                 }}};
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (TimePart p : kTimeParts)
            out.push_back(fmt::format("share_{}_pct", partKey(p)));
        return out;
    }();
    for (std::size_t i = 0; i < kTimeParts.size(); ++i)
        columns.push_back({names[i].c_str(), [part = kTimeParts[i]](const Cell& c, D d) {
                               const auto split = timeSplit(d, c);
                               return split && split->partSeconds(part)
                                          ? number(split->share(part) * 100)
                                          : std::string();
                           }});
    columns.push_back({"share_unexplained_pct", [](const Cell& c, D d) {
                           const auto split = timeSplit(d, c);
                           return split ? number(split->unexplainedShare() * 100) : std::string();
                       }});
    return columns;
}

// The columns, in the order scripts know them: the cell's optional figures (cell_fields.h)
// where they have always been, and any the table has beyond those at the end.
std::vector<Column> summaryColumns(std::span<const CellField> fields) {
    using D = const ResultDocument&;
    std::vector<std::string_view> done;
    const auto column = [](const CellField& f) {
        return Column{f.name, [f](const Cell& c, D) { return optional(writtenValue(f, c)); }};
    };
    const auto placed = [&](std::string_view name) -> Column {
        for (const CellField& f : fields)
            if (name == f.name) {
                done.push_back(name);
                return column(f);
            }
        return Column{nullptr, {}}; // not in this table: no column
    };
    const std::vector<Column> listed{
        {"strategy", [](const Cell& c, D) { return c.strategy; }},
        {"range_bytes", [](const Cell& c, D) { return std::to_string(c.rangeBytes); }},
        {"pattern", [](const Cell&, D d) { return std::string(toString(d.plan.pattern)); }},
        {"cache", [](const Cell&, D d) { return std::string(toString(d.plan.cache)); }},
        // The threads that read this cell: the point's own on a threads sweep.
        {"threads",
         [](const Cell& c, D d) { return std::to_string(threadsAt(d.plan, c.point())); }},
        {"rounds", [](const Cell& c, D) { return std::to_string(c.samples.size()); }},
        figure(summaryField("median_gbps")),
        figure(summaryField("min_gbps")),
        figure(summaryField("max_gbps")),
        figure(summaryField("p25_gbps")),
        figure(summaryField("p75_gbps")),
        figure(summaryField("cv")),
        placed("resident_before"),
        {"status", [](const Cell& c, D) { return std::string(toString(c.status)); }},
        {"message", [](const Cell& c, D) { return cellNotes(c); }},
        {"consume", [](const Cell&, D d) { return std::string(toString(d.plan.consume)); }},
        {"checksum", [](const Cell& c, D) { return std::string(checksumText(c.checksum)); }},
        {"ranges_per_round", [](const Cell& c, D) { return std::to_string(c.rangesPerRound); }},
        {"buffer_offset", [](const Cell& c, D) { return offsetField(c.bufferOffset); }},
        {"buffer_page_offsets",
         [](const Cell& c, D) { return formatOffsetCounts(c.bufferPageOffsets); }},
        {"queue_depth",
         [](const Cell& c, D) {
             return c.queueDepth ? std::to_string(*c.queueDepth) : std::string();
         }},
        figure(summaryField("median_ci_low_gbps")),
        figure(summaryField("median_ci_high_gbps")),
        {"bytes_consumed", [](const Cell& c, D d) { return bytesConsumed(c, d.plan.consume); }},
        placed("fold_gbps"),
        figure(summaryField("median_ci_coverage")),
        {"median_iops", [](const Cell& c, D) { return optional(medianIops(c)); }},
        placed("copy_limit_gbps"),
        {"pct_of_copy_limit", [](const Cell& c, D) { return optional(pctOfCopyLimit(c)); }},
        {"warmup", [](const Cell&, D d) { return std::to_string(d.plan.warmup); }},
        {"round_time", [](const Cell&, D d) { return number(d.plan.roundTimeSeconds); }},
        // A threads or queue-depth sweep's point (empty on other runs).
        {"point_threads",
         [](const Cell& c, D) {
             return c.pointThreads ? std::to_string(*c.pointThreads) : std::string();
         }},
        {"point_queue_depth",
         [](const Cell& c, D) {
             return c.pointQueueDepth ? std::to_string(*c.pointQueueDepth) : std::string();
         }},
        // Bytes read per byte wanted (pread-coalesce's merged spans; empty for the others).
        placed("read_amplification"),
        // Cold and direct runs: the run's device limit (the same on every row; the JSON says
        // how it was measured, on which device and when).
        {"device_limit_gbps",
         [](const Cell&, D d) {
             return optional(deviceLimitGbps(d)); // the figure its cells are held against
         }},
        {"pct_of_device_limit",
         [](const Cell& c, D d) { return optional(pctOfDeviceLimit(d, c)); }},
        // Bytes fetched from storage per round (median; empty where not counted), and per
        // byte wanted.
        placed("device_bytes_read"),
        placed("fetched_per_wanted"),
        // What the rounds left in the page cache (median), where measured.
        placed("resident_after"),
        // The plan's memory limit (bytes, empty: none; the JSON says how it was applied) and
        // duration (seconds, empty: rounds as planned): a rerun from this file keeps them.
        {"memory_limit",
         [](const Cell&, D d) {
             return d.plan.memoryLimit ? std::to_string(d.plan.memoryLimit) : std::string();
         }},
        {"duration_s",
         [](const Cell&, D d) {
             return d.plan.durationSeconds > 0 ? number(d.plan.durationSeconds) : std::string();
         }},
        placed("memset_gbps"),
        placed("kernel_copy_gbps"),
        placed("memcpy_gbps"),
        // Mappings: the fold and memcpy from the cached file's own mapped pages, the rates
        // their time split prices (empty for strategies that do not map the file).
        placed("mapped_fold_gbps"),
        placed("mapped_copy_gbps"),
        // ... and the pause each copy price's pass came after, in nanoseconds.
        placed("copy_pause_ns"),
        // ... and a fault and an unmapped page of those pages, in nanoseconds.
        placed("mapped_fault_ns"),
        placed("mapped_unmap_page_ns"),
    };
    std::vector<Column> columns;
    for (const auto& c : listed)
        if (c.name)
            columns.push_back(c);
    for (const CellField& f : fields)
        if (std::find(done.begin(), done.end(), f.name) == done.end())
            columns.push_back(column(f));
    for (auto& c : timeSplitColumns())
        columns.push_back(std::move(c));
    // A trace run's trace: its path (what a rerun gives --trace) and the digest of its reads.
    columns.push_back({"trace", [](const Cell&, D d) { return d.plan.tracePath; }});
    columns.push_back({"trace_digest", [](const Cell&, D d) {
                           return d.plan.trace ? traceDigest(d.plan.trace->reads) : std::string();
                       }});
    return columns;
}

} // namespace

std::string toSummaryCsv(const ResultDocument& doc) { return toSummaryCsv(doc, kCellFields); }

std::string toSummaryCsv(const ResultDocument& doc, std::span<const CellField> fields) {
    const auto columns = summaryColumns(fields);
    std::vector<std::string> header;
    for (const auto& col : columns)
        header.push_back(col.name);
    std::string out = csv::record(header);
    for (const auto& c : doc.cells) {
        std::vector<std::string> row;
        for (const auto& col : columns)
            row.push_back(col.value(c, doc));
        out += csv::record(row);
    }
    return out;
}

std::string toSamplesCsv(const ResultDocument& doc) {
    // The cell's columns, the sample's (gbps, derived, after seconds), as scripts know them.
    std::vector<std::string> header = {"strategy", "range_bytes", "buffer_offset"};
    for (const auto& f : kSampleFields) {
        header.push_back(f.csv);
        if (std::string_view(f.csv) == "seconds")
            header.push_back("gbps");
    }
    std::string out = csv::record(header);
    for (const auto& c : doc.cells)
        for (const auto& s : c.samples) {
            std::vector<std::string> row = {c.strategy, std::to_string(c.rangeBytes),
                                            offsetField(c.bufferOffset)};
            for (const auto& f : kSampleFields) {
                std::visit(
                    [&](auto member) {
                        const auto& v = s.*member;
                        using T = std::decay_t<decltype(v)>;
                        if constexpr (std::is_same_v<T, std::optional<double>>)
                            row.push_back(optional(v));
                        else if constexpr (std::is_same_v<T, double>)
                            row.push_back(number(v));
                        else
                            row.push_back(std::to_string(v));
                    },
                    f.member);
                if (std::string_view(f.csv) == "seconds")
                    row.push_back(optional(s.gbps()));
            }
            out += csv::record(row);
        }
    return out;
}

Result<ResultDocument> fromSummaryCsv(std::string_view text) {
    return fromSummaryCsv(text, kCellFields);
}

Result<ResultDocument> fromSummaryCsv(std::string_view text, std::span<const CellField> fields) {
    std::vector<std::vector<std::string>> rows;
    if (!csv::parse(text, rows))
        return Error{"the CSV has an unterminated quoted field"};
    if (rows.empty())
        return Error{"the CSV is empty: expected a readscope summary with a header row"};
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < rows[0].size(); ++i)
        column[rows[0][i]] = i;
    for (const char* needed : {"strategy", "range_bytes", "median_gbps", "status"})
        if (!column.count(needed))
            return Error{
                fmt::format("the CSV has no '{}' column: is it a readscope summary?", needed)};
    ResultDocument doc;
    doc.plan.strategies.clear();
    doc.plan.sizes.clear();
    auto get = [&](const std::vector<std::string>& row, const char* name) -> std::string {
        auto it = column.find(name);
        return it != column.end() && it->second < row.size() ? row[it->second] : std::string();
    };
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const auto& row = rows[r];
        Cell c;
        c.strategy = get(row, "strategy");
        if (!parseNumber(get(row, "range_bytes"), c.rangeBytes))
            return Error{fmt::format("CSV row {}: range_bytes '{}' is not a whole number", r + 1,
                                     get(row, "range_bytes"))};
        c.summary.ciLow = c.summary.ciHigh = -1; // absent unless the columns say
        for (const auto& f : kSummaryFields) {
            const auto v = get(row, f.name);
            if (!v.empty() && !parseNumber(v, c.summary.*f.member))
                return Error{fmt::format("CSV row {}: {} '{}' is not a number", r + 1, f.name, v)};
        }
        if (c.summary.ciLow < 0 || c.summary.ciHigh < 0) // a CSV from before the interval
            c.summary.ciLow = c.summary.ciHigh = c.summary.median;
        c.summary.noisy = c.summary.uncertainty() > kNoisyUncertainty;
        for (const CellField& f : fields)
            if (const auto v = get(row, f.name); !v.empty()) {
                double written = 0;
                if (!parseNumber(v, written))
                    return Error{
                        fmt::format("CSV row {}: {} '{}' is not a number", r + 1, f.name, v)};
                storeWritten(f, c, written);
            }
        c.status = parseCellStatus(get(row, "status"));
        c.summary.tooFewRounds = c.status == CellStatus::TooFewRounds;
        c.summary.noisy = c.summary.noisy && !c.summary.tooFewRounds;
        c.message = get(row, "message");
        c.checksum = parseChecksum(get(row, "checksum"));
        parseNumber(get(row, "ranges_per_round"), c.rangesPerRound);
        if (unsigned depth = 0; parseNumber(get(row, "queue_depth"), depth))
            c.queueDepth = depth;
        if (const auto text = get(row, "buffer_offset"); !text.empty()) {
            auto offset = parseBufferOffset(text);
            if (!offset)
                return Error{fmt::format("CSV row {}: {}", r + 1, offset.error().message)};
            c.bufferOffset = *offset;
        }
        auto placed = parseOffsetCounts(get(row, "buffer_page_offsets"));
        if (!placed)
            return Error{fmt::format("CSV row {}: {}", r + 1, placed.error().message)};
        c.bufferPageOffsets = std::move(*placed);
        if (int threads = 0; parseNumber(get(row, "point_threads"), threads)) {
            c.pointThreads = threads;
            addOnce(doc.plan.threadCounts, threads);
        }
        if (unsigned depth = 0; parseNumber(get(row, "point_queue_depth"), depth)) {
            c.pointQueueDepth = depth;
            addOnce(doc.plan.queueDepths, depth);
        }
        if (c.bufferOffset &&
            std::find(doc.plan.bufferOffsets.begin(), doc.plan.bufferOffsets.end(),
                      *c.bufferOffset) == doc.plan.bufferOffsets.end())
            doc.plan.bufferOffsets.push_back(*c.bufferOffset);
        if (r == 1) {
            if (auto p = parsePattern(get(row, "pattern")))
                doc.plan.pattern = *p;
            if (auto m = parseCacheMode(get(row, "cache")))
                doc.plan.cache = *m;
            if (auto m = parseConsume(get(row, "consume")))
                doc.plan.consume = *m;
            parseNumber(get(row, "threads"), doc.plan.threads);
            parseNumber(get(row, "rounds"), doc.plan.rounds);
            // Summaries from before these columns were written with 2 warm-up rounds of
            // 0.1 s, the defaults then: a rerun command must not claim today's.
            doc.plan.warmup = 2;
            doc.plan.roundTimeSeconds = 0.1;
            parseNumber(get(row, "warmup"), doc.plan.warmup);
            parseNumber(get(row, "round_time"), doc.plan.roundTimeSeconds);
            parseNumber(get(row, "memory_limit"), doc.plan.memoryLimit);
            parseNumber(get(row, "duration_s"), doc.plan.durationSeconds);
            doc.plan.tracePath = get(row, "trace");
            if (double limit = 0; parseNumber(get(row, "device_limit_gbps"), limit)) {
                doc.deviceLimit.emplace();
                doc.deviceLimit->gbps = limit;
            }
        }
        if (std::find(doc.plan.strategies.begin(), doc.plan.strategies.end(), c.strategy) ==
            doc.plan.strategies.end())
            doc.plan.strategies.push_back(c.strategy);
        if (std::find(doc.plan.sizes.begin(), doc.plan.sizes.end(), c.rangeBytes) ==
            doc.plan.sizes.end())
            doc.plan.sizes.push_back(c.rangeBytes);
        doc.cells.push_back(std::move(c));
    }
    doc.note = "loaded from a CSV summary: per-round samples and system information are not in it";
    return doc;
}

} // namespace readscope
