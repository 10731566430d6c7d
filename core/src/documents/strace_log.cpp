// An strace -f -y log's reads of one file (trace_formats.h: parseStraceLog).
#include "readscope/trace_formats.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace readscope {

namespace {

struct Call {
    std::string pid; // empty without -f
    std::string name;
    std::vector<std::string_view> args; // top-level, as written
    std::string_view result;            // after " = "
};

std::optional<std::int64_t> integer(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end == s.data())
        return std::nullopt;
    return v;
}

// Splits "a, [b, c], {d}, \"e, f\"" at its top-level commas.
std::vector<std::string_view> topLevel(std::string_view s) {
    std::vector<std::string_view> out;
    int depth = 0;
    bool quoted = false;
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == '[' || c == '{' || c == '(') {
            ++depth;
        } else if (c == ']' || c == '}' || c == ')') {
            --depth;
        } else if (c == ',' && depth == 0) {
            out.push_back(s.substr(from, i - from));
            from = i + 1;
            while (from < s.size() && s[from] == ' ')
                ++from;
            i = from - 1;
        }
    }
    auto last = s.substr(from);
    while (!last.empty() && last.back() == ' ')
        last.remove_suffix(1);
    if (!last.empty() || !out.empty())
        out.push_back(last);
    return out;
}

// "3</data/f.bin>": 3 and "/data/f.bin".
std::optional<std::pair<int, std::string>> fdAndPath(std::string_view arg) {
    const auto open = arg.find('<');
    if (open == std::string_view::npos || arg.size() < open + 2 || arg.back() != '>')
        return std::nullopt;
    const auto fd = integer(arg.substr(0, open));
    if (!fd)
        return std::nullopt;
    return std::pair{int(*fd), std::string(arg.substr(open + 1, arg.size() - open - 2))};
}

// One whole call: "name(args) = result", its unfinished and resumed halves joined first.
std::optional<Call> parseCall(std::string_view line, std::string pid) {
    const auto paren = line.find('(');
    const auto equals = line.rfind(") = ");
    if (paren == std::string_view::npos || equals == std::string_view::npos || equals < paren)
        return std::nullopt;
    Call c;
    c.pid = std::move(pid);
    c.name = std::string(line.substr(0, paren));
    auto args = line.substr(paren + 1, equals - paren - 1);
    while (!args.empty() && args.back() == ' ') // strace pads a call out to a column
        args.remove_suffix(1);
    c.args = topLevel(args);
    c.result = line.substr(equals + 4);
    return c;
}

// What a program's runtime reads for itself, not the data it was asked to read: its libraries,
// its own modules and byte code, the system's configuration.
bool isSystemFile(const std::string& path) {
    for (const char* prefix : {"/usr/", "/lib/", "/lib32/", "/lib64/", "/etc/", "/bin/", "/sbin/",
                               "/snap/", "/nix/", "/opt/"})
        if (path.starts_with(prefix))
            return true;
    for (const char* part : {"/site-packages/", "/dist-packages/", "/__pycache__/", "/.pyenv/",
                             "/.rustup/", "/.cargo/", "/node_modules/", "/.m2/"})
        if (path.find(part) != std::string::npos)
            return true;
    for (const char* suffix : {".so", ".pyc", ".jar", ".class"})
        if (path.ends_with(suffix))
            return true;
    return path.find(".so.") != std::string::npos;
}

// The most read of the files `keep` accepts; empty when it accepts none.
template <class Keep>
std::string mostReadOf(const std::map<std::string, std::uint64_t>& bytesOf, Keep keep) {
    std::string chosen;
    for (const auto& [path, bytes] : bytesOf)
        if (keep(path) && (chosen.empty() || bytes > bytesOf.at(chosen)))
            chosen = path;
    return chosen;
}

// The file the trace keeps when none was named: the most read of the candidates (the files
// named on the command line) that were read; else the most read that is not a system file;
// none when only system files were read.
std::string mostRead(const std::map<std::string, std::uint64_t>& bytesOf,
                     std::span<const std::string> candidates) {
    std::string chosen = mostReadOf(bytesOf, [&](const std::string& path) {
        return std::find(candidates.begin(), candidates.end(), path) != candidates.end();
    });
    return chosen.empty()
               ? mostReadOf(bytesOf, [](const std::string& path) { return !isSystemFile(path); })
               : chosen;
}

bool isDataFile(const std::string& path) {
    return path.starts_with("/") && !path.starts_with("/dev/") && !path.starts_with("/proc/") &&
           !path.starts_with("/sys/");
}

struct Seen {
    std::vector<std::pair<std::string, TraceRead>> reads; // path, read (thread: pid index)
    std::map<std::string, std::uint64_t> bytesOf;
    std::map<std::string, std::vector<std::string>> mappedOf;
};

} // namespace

Result<Trace> parseStraceLog(std::string_view text, const std::string& name,
                             const std::string& file, std::span<const std::string> candidates) {
    Seen seen;
    std::unordered_map<std::string, std::string> pending; // pid: the unfinished call's start
    std::map<int, std::uint64_t> position;                // fd: the file position
    std::map<std::string, std::uint32_t> threadOf;        // pid: the reads' thread number
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        std::string pid;
        // strace -f without -o marks another thread's lines "[pid  1234] ".
        if (line.starts_with("[pid ")) {
            const auto close = line.find(']');
            if (close == std::string_view::npos)
                continue;
            auto number = line.substr(5, close - 5);
            while (!number.empty() && number.front() == ' ')
                number.remove_prefix(1);
            pid = std::string(number);
            line.remove_prefix(close + 1);
            while (!line.empty() && line.front() == ' ')
                line.remove_prefix(1);
        } else if (const auto space = line.find(' ');
                   space != std::string_view::npos && integer(line.substr(0, space)) &&
                   line.substr(0, space).find_first_not_of("0123456789") ==
                       std::string_view::npos) {
            pid = std::string(line.substr(0, space));
            line.remove_prefix(space);
            while (!line.empty() && line.front() == ' ')
                line.remove_prefix(1);
        }
        std::string joined;
        if (const auto cut = line.find(" <unfinished ...>"); cut != std::string_view::npos) {
            pending[pid] = std::string(line.substr(0, cut));
            continue;
        }
        if (line.starts_with("<... ")) {
            const auto resumed = line.find(" resumed>");
            const auto it = pending.find(pid);
            if (resumed == std::string_view::npos || it == pending.end())
                continue; // its start came before the log did
            joined = it->second + std::string(line.substr(resumed + 9));
            pending.erase(it);
            line = joined;
        }
        const auto call = parseCall(line, pid);
        if (!call || call->args.empty())
            continue;
        const auto ret = integer(call->result);
        if (!ret || *ret < 0)
            continue; // failed calls read nothing
        const auto fd = fdAndPath(call->args[0]);
        const std::string& n = call->name;
        if (n == "openat" || n == "open") {
            if (const auto opened = fdAndPath(call->result))
                position[opened->first] = 0;
            continue;
        }
        if (n == "mmap" && call->args.size() >= 6) {
            if (const auto mapped = fdAndPath(call->args[4]))
                seen.mappedOf[mapped->second].push_back(fmt::format("{} bytes at offset {}",
                                                                    std::string(call->args[1]),
                                                                    std::string(call->args[5])));
            continue;
        }
        if (!fd)
            continue;
        const auto& [number, path] = *fd;
        std::optional<std::uint64_t> offset;
        if (n == "lseek") {
            position[number] = std::uint64_t(*ret);
            continue;
        } else if (n == "close") {
            position.erase(number);
            continue;
        } else if (n == "pread64" || n == "preadv" || n == "preadv2") {
            // (fd, buffer or vector, count, offset[, flags]); preadv2 at -1 reads at the
            // file position and moves it.
            if (call->args.size() < 4)
                continue;
            const auto o = integer(call->args[3]);
            if (o && *o >= 0) {
                offset = std::uint64_t(*o);
            } else if (o && *o == -1) {
                offset = position[number];
                position[number] += std::uint64_t(*ret);
            }
        } else if (n == "read" || n == "readv") {
            offset = position[number];
            position[number] += std::uint64_t(*ret);
        } else {
            continue;
        }
        if (!offset || *ret == 0 || !isDataFile(path))
            continue;
        const auto thread = threadOf.try_emplace(call->pid, std::uint32_t(threadOf.size()));
        seen.reads.push_back({path, TraceRead{*offset, std::uint64_t(*ret), thread.first->second}});
        seen.bytesOf[path] += std::uint64_t(*ret);
    }
    std::string chosen = file.empty() ? mostRead(seen.bytesOf, candidates) : file;
    if (chosen.empty() && !seen.bytesOf.empty())
        return Error{
            fmt::format("{}: the only files read are the program's runtime's own (the "
                        "most read: {}); name the file to keep with --file",
                        name, mostReadOf(seen.bytesOf, [](const std::string&) { return true; }))};
    if (chosen.empty())
        return Error{fmt::format("{}: the strace log shows no reads of a file (was it made with "
                                 "-y, and does it trace pread64, read and lseek?)",
                                 name)};
    Trace t;
    t.source = fmt::format("strace log: {}", name);
    t.file = chosen;
    for (const auto& [path, read] : seen.reads)
        if (path == chosen)
            t.reads.push_back(read);
    // Threads renumbered among the chosen file's readers, in the order they first read it.
    numberThreadsDensely(t.reads);
    if (const auto mapped = seen.mappedOf.find(chosen); mapped != seen.mappedOf.end())
        t.notReplayed.push_back(
            fmt::format("the program mapped the file {} ({}{}): what it read through a mapping is "
                        "page faults, which a system call trace does not see",
                        mapped->second.size() == 1 ? std::string("once")
                                                   : fmt::format("{} times", mapped->second.size()),
                        mapped->second.front(), mapped->second.size() > 1 ? ", ..." : ""));
    if (t.reads.empty() && file.size())
        return Error{fmt::format("{}: the strace log shows no reads of '{}'", name, file)};
    const auto others = seen.bytesOf.size() - seen.bytesOf.count(chosen);
    if (others)
        t.notReplayed.push_back(
            fmt::format("reads of {} other file{} left out", others, others == 1 ? "" : "s"));
    return t;
}

} // namespace readscope
