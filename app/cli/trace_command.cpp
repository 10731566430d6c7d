// readscope-cli record and trace: a program's reads of one file, recorded under strace or
// imported from a log, written in readscope's trace format for `run --trace`.
#include "cli_parse.h"
#include "cli_platform.h"
#include "commands.h"

#include "readscope/documents.h"
#include "readscope/trace_formats.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace readscope::cli {

namespace {

namespace fs = std::filesystem;

// The system calls a range read is made of, and those that say which file an fd is.
constexpr const char* kTracedCalls =
    "trace=open,openat,openat2,close,lseek,read,readv,pread64,preadv,preadv2,mmap";

struct TraceOptions {
    std::string input, output, file;
    std::vector<std::string> command;
};

Status outputAllowed(const std::string& output, const std::string& traced) {
    return checkOutputPath(output, "-o", traced, "the traced file");
}

// The trace's size when it was recorded, where the file is still there.
void noteFileSize(Trace& trace) {
    std::error_code ec;
    if (!trace.fileBytes && !trace.file.empty())
        if (const auto size = fs::file_size(trace.file, ec); !ec)
            trace.fileBytes = size;
}

int finish(Trace trace, const std::string& output, bool named) {
    noteFileSize(trace);
    if (!output.empty()) // the file the trace kept is known now: -o may not be it
        if (auto st = outputAllowed(output, trace.file); !st)
            return complain(st.error().message, kExitUsage);
    if (!named && !trace.file.empty())
        fmt::print("Kept the reads of {} (the most read; --file names another)\n", trace.file);
    if (!output.empty())
        if (auto st = writeFileAtomically(output, traceText(trace)); !st)
            return complain(st.error().message, kExitFailed);
    fmt::print("{}", traceSummaryText(trace, summarize(trace, trace.fileBytes)));
    if (!output.empty())
        fmt::print("Trace written to {}; replay it with: readscope-cli run {} --trace {}\n", output,
                   trace.file.empty() ? "FILE" : trace.file, output);
    return kExitOk;
}

std::string canonical(const std::string& path) {
    std::error_code ec;
    const auto real = fs::canonical(path, ec);
    return ec ? path : real.string();
}

// The files the command line names (a word, or what follows '=' in --flag=PATH), as
// canonical paths: the data a reader was asked to read is usually among them.
std::vector<std::string> namedFiles(const std::vector<std::string>& command) {
    std::vector<std::string> out;
    for (std::size_t i = 1; i < command.size(); ++i)
        for (std::string word : {command[i], command[i].substr(command[i].find('=') + 1)}) {
            std::error_code ec;
            if (!word.empty() && fs::is_regular_file(word, ec))
                out.push_back(canonical(word));
        }
    return out;
}

bool runnable(const std::string& program) {
    std::error_code ec;
    return program.find('/') == std::string::npos ? !findProgram(program).empty()
                                                  : fs::is_regular_file(program, ec);
}

int record(TraceOptions o) {
    if (!o.command.empty() && o.command.front() == "--")
        o.command.erase(o.command.begin());
    if (o.command.empty())
        return complain("record: give the command to run after --, e.g. readscope-cli record -o "
                        "reads.trace -- python3 reader.py data.parquet",
                        kExitUsage);
    if (o.output.empty())
        return complain("record: give -o TRACE, the file the trace is written to", kExitUsage);
    if (!runnable(o.command.front()))
        return complain(fmt::format("record: cannot find the command '{}'", o.command.front()),
                        kExitUsage);
    std::error_code ec;
    if (!o.file.empty() && !fs::is_regular_file(o.file, ec))
        return complain(fmt::format("--file '{}' is not a file", o.file), kExitUsage);
    if (auto st = outputAllowed(o.output, o.file); !st)
        return complain(st.error().message, kExitUsage);
    const std::string strace = findProgram("strace");
    if (strace.empty())
        return complain("record runs the command under strace, which is not on PATH; install it "
                        "(Debian: apt install strace), or record a log yourself with strace -f -y "
                        "and import it with 'readscope-cli trace LOG'",
                        kExitFailed);
    auto dir = makeTempDir("readscope-record");
    if (!dir)
        return complain(dir.error().message, kExitFailed);
    struct Cleanup {
        std::string dir;
        ~Cleanup() {
            std::error_code ignored;
            fs::remove_all(dir, ignored);
        }
    } cleanup{*dir};
    const std::string log = (fs::path(*dir) / "strace.log").string();
    std::vector<std::string> argv{strace, "-f",         "-qq", "-s", "0", "-y",
                                  "-e",   kTracedCalls, "-o",  log,  "--"};
    argv.insert(argv.end(), o.command.begin(), o.command.end());
    auto status = runProgram(argv);
    if (!status)
        return complain(status.error().message, kExitFailed);
    if (*status != 0)
        fmt::print(stderr,
                   "readscope-cli: the command exited with status {}; its reads up to "
                   "then are kept\n",
                   *status);
    std::ifstream in(log, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string source = fmt::format("strace: {}", fmt::join(o.command, " "));
    const auto named = namedFiles(o.command);
    auto trace = parseStraceLog(text.str(), source, o.file.empty() ? "" : canonical(o.file), named);
    if (!trace)
        return complain(trace.error().message, kExitFailed);
    trace->source = source;
    return finish(std::move(*trace), o.output, !o.file.empty());
}

int import(const TraceOptions& o) {
    auto trace = loadTrace(o.input, o.file.empty() ? "" : canonical(o.file));
    if (!trace)
        return complain(trace.error().message, kExitUsage);
    return finish(std::move(*trace), o.output, !o.file.empty() || trace->file.empty());
}

} // namespace

Command addRecordCommand(CLI::App& root) {
    auto o = std::make_shared<TraceOptions>();
    CLI::App* command = addCommand(
        root, "record",
        "run a command under strace and keep its reads of one file as a trace\n\n"
        "Runs CMD under strace (Linux) and keeps, in order, the reads of one file: the one\n"
        "--file names, else the file most bytes were read from. pread64, preadv and preadv2\n"
        "at their offsets; read and readv at the file position (lseek moves it); each read\n"
        "as long as what it returned, with the thread that made it. A mapping of the file is\n"
        "said, not recorded: reads through it are page faults a syscall trace cannot see.\n"
        "Replay the trace with 'readscope-cli run FILE --trace TRACE'.");
    command->footer("Exit codes: 0 recorded, 1 strace missing or no reads of a file, 2 a usage "
                    "error.\nExample: readscope-cli record -o reads.trace -- python3 reader.py "
                    "data.parquet");
    addValue(*command, "--file", "PATH", "keep the reads of this file (default: the most read)",
             [o](const std::string& v) {
                 o->file = v;
                 return okStatus();
             });
    addValue(*command, "-o,--output", "TRACE", "where the trace is written (required)",
             [o](const std::string& v) {
                 o->output = v;
                 return okStatus();
             });
    // The command and its own options, after --.
    addPositionals(*command, "CMD", [o](const std::vector<std::string>& words) {
        o->command = words;
        return okStatus();
    });
    return {command, [o] { return record(*o); }};
}

Command addTraceCommand(CLI::App& root) {
    auto o = std::make_shared<TraceOptions>();
    CLI::App* command = addCommand(
        root, "trace",
        "import a trace (strace log, fio I/O log, CSV) and summarize it\n\n"
        "Reads LOG, whose format is recognised from its first lines: readscope's trace, an\n"
        "strace -f -y log, a fio I/O log (version 2 or 3, as --write_iolog writes it) or a CSV\n"
        "of offset,length[,thread]. Prints its reads, bytes, size histogram and threads; with\n"
        "-o, writes it in readscope's trace format (docs/traces.md).");
    command->footer("Exit codes: 0 imported, 1 the trace could not be written, 2 an unreadable or "
                    "unknown trace, or a usage error.");
    addValue(*command, "--file", "PATH",
             "keep the reads of this file (logs of several; default: the most read)",
             [o](const std::string& v) {
                 o->file = v;
                 return okStatus();
             });
    addValue(*command, "-o,--output", "TRACE", "write the trace in readscope's format",
             [o](const std::string& v) {
                 o->output = v;
                 return okStatus();
             });
    addPositionals(*command, "LOG", [o](const std::vector<std::string>& files) -> Status {
        if (files.size() != 1)
            return Error{"give one trace or log to import"};
        o->input = files.front();
        return okStatus();
    })->required();
    return {command, [o] { return import(*o); }};
}

} // namespace readscope::cli
