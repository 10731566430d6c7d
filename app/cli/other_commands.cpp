#include "cli_parse.h"
#include "cli_platform.h"
#include "commands.h"

#include "readscope/generator.h"
#include "readscope/probe.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <fmt/ranges.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

namespace readscope::cli {

int complain(const std::string& message, int code) {
    fmt::print(stderr, "readscope-cli: {}\n", message);
    return code;
}

std::string cliAdvice(const std::string& message) {
    return advisesGenerating(message)
               ? message + fmt::format(" with 'readscope-cli generate PATH --size {}'",
                                       formatSizeShort(kDefaultTestFileSize))
               : message;
}

namespace {

// A small throwaway file, so availability can be judged where test files usually live.
Result<FileProbe> probeTemporary() {
    auto dir = makeTempDir("readscope-probe");
    if (!dir)
        return dir.error();
    const std::string path = (std::filesystem::path(*dir) / "probe.bin").string();
    Result<FileProbe> probe = Error{""};
    if (auto st = generateFile(path, 1 << 20); st)
        probe = probeFile(path);
    else
        probe = st.error();
    std::error_code ec;
    std::filesystem::remove_all(*dir, ec);
    return probe;
}

int listStrategies(const std::string& file, bool explain) {
    auto probe = file.empty() ? probeTemporary() : probeFile(file);
    if (!probe)
        return complain(cliAdvice(probe.error().message), file.empty() ? kExitFailed : kExitUsage);
    fmt::print("Availability checked on '{}' ({}).\n\n", file.empty() ? "a temporary file" : file,
               probe->filesystem);
    std::size_t familyWidth = 6;
    for (const auto& s : allStrategies())
        familyWidth = std::max(familyWidth, s.family.size());
    fmt::print("{:<21} {:<{}} {:<38} {}\n", "id", "family", familyWidth, "name", "available");
    auto list = [&](const StrategyInfo& s) {
        const auto a = availability(s, *probe);
        fmt::print("{:<21} {:<{}} {:<38} {}\n", s.id, s.family, familyWidth, s.name,
                   a.available ? "yes" : "no: " + a.reason);
        if (explain) {
            fmt::print("    {}\n\n{}\n", s.summary, strategyExplanation(s.id));
            // A runtime's read: its calls for a small file, from the code that makes them.
            if (const auto calls = runtimeCalls(s, 100); !calls.empty())
                fmt::print("System calls for a 100-byte file: {}.\n\n", fmt::join(calls, ", "));
        }
    };
    // This platform's strategies first, then the other platform's, which say why they cannot
    // run here.
    for (const StrategyInfo* s : offeredStrategies())
        list(*s);
    for (const auto& s : allStrategies())
        if (s.platform != currentPlatform())
            list(s);
    return kExitOk;
}

struct GenerateOptions {
    std::string path;
    std::uint64_t size = 0;
    bool force = false;
};

int generate(const GenerateOptions& o) {
    const auto& [path, size, force] = o;
    if (auto st = generateFile(path, size, force); !st)
        return complain(st.error().message, kExitFailed);
    fmt::print("wrote {} ({})\n", path, formatSize(size));
    return kExitOk;
}

} // namespace

Command addStrategiesCommand(CLI::App& root) {
    struct Options {
        std::string file;
        bool explain = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* command = addCommand(
        root, "strategies",
        "list the strategies and whether they can run on FILE\n\n"
        "Lists every strategy: id, family, name, and whether it can run on FILE (default: a "
        "small\nprobe file in the temporary folder), with the reason when it cannot.");
    addPositionals(*command, "FILE", [o](const std::vector<std::string>& files) -> Status {
        if (files.size() > 1)
            return Error{"give at most one FILE"};
        o->file = files.front();
        return okStatus();
    });
    command->add_flag("--explain", o->explain,
                      "add what each strategy does per range and what that costs");
    return {command, [o] { return listStrategies(o->file, o->explain); }};
}

Command addGenerateCommand(CLI::App& root) {
    auto o = std::make_shared<GenerateOptions>();
    CLI::App* command = addCommand(
        root, "generate",
        "write a test file (--size SIZE)\n\n"
        "Writes a test file whose bytes depend on their offset (a read from a wrong offset shows "
        "up as\na wrong checksum). SIZE takes K, M, G suffixes (1K = 1024). An existing file is "
        "never replaced\nunless --force is given.");
    addPositionals(*command, "PATH", [o](const std::vector<std::string>& paths) -> Status {
        if (paths.size() > 1)
            return Error{"give exactly one PATH"};
        o->path = paths.front();
        return okStatus();
    })->required();
    addValue(*command, "--size", "SIZE", "size of the file, e.g. 256M", [o](const std::string& v) {
        return assign(o->size, parseSize(v), "--size");
    })->required();
    command->add_flag("--force", o->force, "replace an existing file");
    return {command, [o] { return generate(*o); }};
}

} // namespace readscope::cli
