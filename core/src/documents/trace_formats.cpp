#include "readscope/trace_formats.h"

#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace readscope {

namespace {

constexpr std::string_view kMagic = "# readscope trace 1";
constexpr std::uint64_t kMaxTraceFileBytes = 512ull << 20;

std::vector<std::string_view> linesOf(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        auto line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
    return lines;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::uint64_t> number(std::string_view s) {
    s = trim(s);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

std::vector<std::string_view> split(std::string_view s, char by) {
    std::vector<std::string_view> parts;
    for (;;) {
        const auto at = s.find(by);
        parts.push_back(s.substr(0, at));
        if (at == std::string_view::npos)
            return parts;
        s.remove_prefix(at + 1);
    }
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        const std::size_t from = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t')
            ++i;
        if (i > from)
            out.push_back(s.substr(from, i - from));
    }
    return out;
}

Error lineError(const std::string& name, std::size_t line, std::string_view what) {
    return Error{fmt::format("{} line {}: {}", name, line, what)};
}

// offset,length[,thread] rows; '#' lines and one header line of words are skipped.
Result<std::vector<TraceRead>> csvRows(const std::vector<std::string_view>& lines,
                                       const std::string& name) {
    std::vector<TraceRead> reads;
    bool header = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto line = trim(lines[i]);
        if (line.empty() || line.front() == '#')
            continue;
        const auto cells = split(line, ',');
        if (!header && reads.empty() && !number(cells[0])) {
            if (trim(cells[0]) != "offset" || cells.size() < 2 || trim(cells[1]) != "length")
                return lineError(name, i + 1, "expected a header 'offset,length[,thread]'");
            header = true;
            continue;
        }
        if (cells.size() < 2 || cells.size() > 3)
            return lineError(name, i + 1, "expected offset,length[,thread]");
        const auto offset = number(cells[0]), length = number(cells[1]);
        const auto thread = cells.size() == 3 ? number(cells[2]) : std::optional<std::uint64_t>(0);
        if (!offset || !length || !thread || *thread > 0xffffffffull)
            return lineError(name, i + 1, "an offset, length or thread that is not a number");
        if (*length == 0)
            return lineError(name, i + 1, "a read of 0 bytes");
        if (*length > UINT64_MAX - *offset)
            return lineError(name, i + 1, "a read that ends past 2^64 bytes");
        reads.push_back({*offset, *length, std::uint32_t(*thread)});
    }
    return reads;
}

Result<Trace> readscopeTrace(const std::vector<std::string_view>& lines, const std::string& name) {
    Trace t;
    std::optional<std::uint64_t> count, bytes;
    std::string digest;
    for (const auto raw : lines) {
        if (!raw.starts_with("# "))
            continue;
        const auto line = raw.substr(2);
        const auto colon = line.find(": ");
        if (colon == std::string_view::npos)
            continue;
        const auto key = line.substr(0, colon);
        const auto value = std::string(line.substr(colon + 2));
        if (key == "source")
            t.source = value;
        else if (key == "file")
            t.file = value;
        else if (key == "file-bytes")
            t.fileBytes = number(value);
        else if (key == "reads")
            count = number(value);
        else if (key == "bytes")
            bytes = number(value);
        else if (key == "digest")
            digest = value;
        else if (key == "not replayed")
            t.notReplayed.push_back(value);
    }
    auto rows = csvRows(lines, name);
    if (!rows)
        return rows.error();
    t.reads = std::move(*rows);
    if ((count && *count != t.reads.size()) || (bytes && *bytes != t.bytes()) ||
        (!digest.empty() && digest != traceDigest(t.reads)))
        return Error{fmt::format("{}: its reads do not match its header (reads, bytes or digest): "
                                 "the trace was cut short or edited",
                                 name)};
    return t;
}

// fio's I/O log: "fio version 2 iolog", then "FILE add|open|close" and "FILE read|write OFFSET
// LENGTH"; version 3 puts a timestamp in front of each line. A file name may hold spaces.
Result<Trace> fioLog(const std::vector<std::string_view>& lines, const std::string& name,
                     const std::string& file, int version) {
    std::map<std::string, std::vector<TraceRead>> byFile;
    std::map<std::string, std::uint64_t> bytesOf;
    std::size_t writes = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        auto w = words(lines[i]);
        if (w.empty())
            continue;
        if (version == 3)
            w.erase(w.begin());
        if (w.size() >= 4 && (w[w.size() - 3] == "read" || w[w.size() - 3] == "write")) {
            const auto offset = number(w[w.size() - 2]), length = number(w.back());
            if (!offset || !length)
                return lineError(name, i + 1, "a read whose offset or length is not a number");
            if (*length > UINT64_MAX - *offset)
                return lineError(name, i + 1, "a read that ends past 2^64 bytes");
            const auto path = std::string(lines[i].substr(
                std::size_t(w.front().data() - lines[i].data()),
                std::size_t(w[w.size() - 4].data() + w[w.size() - 4].size() - w.front().data())));
            if (w[w.size() - 3] == "write") {
                ++writes;
                continue;
            }
            if (*length)
                byFile[path].push_back({*offset, *length, 0});
            bytesOf[path] += *length;
        } else if (w.size() < 2) {
            return lineError(name, i + 1, "not a line of a fio I/O log");
        }
    }
    if (byFile.empty())
        return Error{fmt::format("{}: the fio log holds no reads", name)};
    std::string chosen = file;
    if (chosen.empty())
        for (const auto& [path, b] : bytesOf)
            if (chosen.empty() || b > bytesOf[chosen])
                chosen = path;
    const auto it = byFile.find(chosen);
    if (it == byFile.end())
        return Error{fmt::format("{}: the fio log holds no reads of '{}'", name, chosen)};
    Trace t;
    t.source = fmt::format("fio iolog v{}: {}", version, name);
    t.file = chosen;
    t.reads = it->second;
    if (byFile.size() > 1)
        t.notReplayed.push_back(fmt::format("reads of {} other files left out", byFile.size() - 1));
    if (writes)
        t.notReplayed.push_back(fmt::format("{} writes left out", writes));
    return t;
}

// A line as it can be shown: bytes that are not printable ASCII as '?'.
std::string printable(std::string_view line) {
    std::string out(line);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
            c = '?';
    return out;
}

bool looksLikeStrace(const std::vector<std::string_view>& lines) {
    for (std::size_t i = 0; i < lines.size() && i < 20; ++i) {
        auto w = words(lines[i]);
        if (w.empty())
            continue;
        std::string_view call = w.front();
        if (number(call) && w.size() > 1) // a pid
            call = w[1];
        const auto paren = call.find('(');
        if (paren != std::string_view::npos && paren > 0 &&
            call.substr(0, paren).find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") ==
                std::string_view::npos)
            return true;
        if (call.starts_with("<...") || call.starts_with("+++") || call.starts_with("---"))
            return true;
    }
    return false;
}

} // namespace

Result<Trace> parseTrace(std::string_view text, const std::string& name, const std::string& file) {
    const auto lines = linesOf(text);
    std::size_t first = 0;
    while (first < lines.size() && trim(lines[first]).empty())
        ++first;
    if (first == lines.size())
        return Error{fmt::format("{} is empty: a trace holds at least one read", name)};
    const auto head = trim(lines[first]);
    Result<Trace> trace = Error{""};
    if (head == kMagic)
        trace = readscopeTrace(lines, name);
    else if (head == "fio version 2 iolog" || head == "fio version 3 iolog")
        trace = fioLog(lines, name, file, head[12] - '0');
    else if (looksLikeStrace(lines))
        trace = parseStraceLog(text, name, file);
    else if (number(split(head, ',')[0]) || head.starts_with("offset,length"))
        trace = [&]() -> Result<Trace> {
            auto rows = csvRows(lines, name);
            if (!rows)
                return rows.error();
            Trace t;
            t.source = fmt::format("csv: {}", name);
            t.reads = std::move(*rows);
            return t;
        }();
    else
        return Error{fmt::format("{}: unknown trace format (its first line is '{}'): give a "
                                 "readscope trace, a CSV of offset,length[,thread], a fio I/O "
                                 "log or an strace -f -y log",
                                 name, printable(head.substr(0, 60)))};
    if (trace && trace->reads.empty())
        return Error{fmt::format("{} holds no reads to replay", name)};
    if (trace) // threads numbered 0, 1, ... as they first read, whatever ids the source used
        numberThreadsDensely(trace->reads);
    return trace;
}

Result<Trace> loadTrace(const std::string& path, const std::string& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Error{fmt::format("the trace '{}' is a folder: give a trace file", path)};
    // Not a pipe or a device (a FIFO would block, /dev/zero never ends), nor a data file chosen
    // by mistake: a trace of a million reads is some 30 MB.
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        return Error{fmt::format("the trace '{}' is not a regular file", path)};
    if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxTraceFileBytes)
        return Error{fmt::format("the trace '{}' is {} MiB: larger than any trace readscope "
                                 "replays ({} MiB); is it the data file?",
                                 path, size >> 20, kMaxTraceFileBytes >> 20)};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{fmt::format("cannot read the trace '{}'", path)};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        return Error{fmt::format("cannot read the trace '{}'", path)};
    return parseTrace(text.str(), path, file);
}

// A header value on one line: a command's newlines (python3 -c "...") become spaces.
std::string oneLine(std::string text) {
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string traceText(const Trace& t) {
    std::string out = fmt::format("{}\n# source: {}\n", kMagic, oneLine(t.source));
    if (!t.file.empty())
        out += fmt::format("# file: {}\n", oneLine(t.file));
    if (t.fileBytes)
        out += fmt::format("# file-bytes: {}\n", *t.fileBytes);
    out += fmt::format("# reads: {}\n# bytes: {}\n# digest: {}\n", t.reads.size(), t.bytes(),
                       traceDigest(t.reads));
    for (const auto& note : t.notReplayed)
        out += fmt::format("# not replayed: {}\n", oneLine(note));
    out += "offset,length,thread\n";
    for (const auto& r : t.reads)
        out += fmt::format("{},{},{}\n", r.offset, r.length, r.thread);
    return out;
}

std::string traceSummaryText(const Trace& t, const TraceSummary& s) {
    std::string out = fmt::format("{} read{}, {}, median {}, {} thread{}", s.reads,
                                  s.reads == 1 ? "" : "s", formatSize(s.bytes),
                                  formatSize(s.median), s.threads, s.threads == 1 ? "" : "s");
    if (s.fileTouched)
        out += fmt::format("; {:.1f}% of the file touched", *s.fileTouched * 100);
    out += fmt::format("; {:.1f}% of the bytes re-read\n", s.reRead * 100);
    out += "sizes (up to):";
    for (const auto& [upTo, count] : s.histogram)
        out += fmt::format(" {} x{}", formatSize(upTo), count);
    out += "\n";
    for (const auto& note : t.notReplayed)
        out += fmt::format("not replayed: {}\n", note);
    return out;
}

} // namespace readscope
