#include "cli_platform.h"
#include "commands.h"

#include "readscope/generator.h"
#include "readscope/probe.h"
#include "readscope/strategy.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

namespace readscope::cli {

int complain(const std::string& message, int code) {
    fmt::print(stderr, "readscope-cli: {}\n", message);
    return code;
}

namespace {

constexpr const char* kStrategiesHelp = R"(Usage: readscope-cli strategies [FILE] [--explain]

Lists every strategy: id, family, name, and whether it can run on FILE (default: a small
probe file in the temporary folder), with the reason when it cannot. --explain adds what each
strategy does per range and what that costs.
)";

constexpr const char* kGenerateHelp = R"(Usage: readscope-cli generate PATH --size SIZE [--force]

Writes a test file whose bytes depend on their offset (a read from a wrong offset shows up as
a wrong checksum). SIZE takes K, M, G suffixes (1K = 1024). An existing file is never replaced
unless --force is given.
)";

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

} // namespace

int strategiesCommand(const std::vector<std::string>& args) {
    std::string file;
    bool explain = false;
    for (const auto& a : args) {
        if (a == "-h" || a == "--help") {
            fmt::print("{}", kStrategiesHelp);
            return kExitOk;
        }
        if (a == "--explain")
            explain = true;
        else if (a.rfind("-", 0) == 0)
            return complain(fmt::format("unknown option '{}' (see 'readscope-cli strategies "
                                        "--help')",
                                        a),
                            kExitUsage);
        else if (!file.empty())
            return complain("give at most one FILE", kExitUsage);
        else
            file = a;
    }
    auto probe = file.empty() ? probeTemporary() : probeFile(file);
    if (!probe)
        return complain(probe.error().message, file.empty() ? kExitFailed : kExitUsage);
    fmt::print("Availability checked on '{}' ({}).\n\n", file.empty() ? "a temporary file" : file,
               probe->filesystem);
    fmt::print("{:<21} {:<16} {:<38} {}\n", "id", "family", "name", "available");
    auto list = [&](const StrategyInfo& s) {
        const auto a = availability(s, *probe);
        fmt::print("{:<21} {:<16} {:<38} {}\n", s.id, s.family, s.name,
                   a.available ? "yes" : "no: " + a.reason);
        if (explain)
            fmt::print("    {}\n\n{}\n", s.summary, strategyExplanation(s.id));
    };
    // This platform's strategies first, then the other platform's, which say why they cannot
    // run here.
    for (const auto& s : strategies())
        list(s);
    for (const auto& s : allStrategies())
        if (s.platform != currentPlatform())
            list(s);
    return kExitOk;
}

int generateCommand(const std::vector<std::string>& args) {
    std::string path;
    std::optional<std::uint64_t> size;
    bool force = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "-h" || a == "--help") {
            fmt::print("{}", kGenerateHelp);
            return kExitOk;
        }
        if (a == "--force") {
            force = true;
        } else if (a == "--size") {
            if (i + 1 >= args.size())
                return complain("--size needs a value such as 256M", kExitUsage);
            auto s = parseSize(args[++i]);
            if (!s)
                return complain("--size: " + s.error().message, kExitUsage);
            size = *s;
        } else if (a.rfind("-", 0) == 0) {
            return complain(fmt::format("unknown option '{}' (see 'readscope-cli generate "
                                        "--help')",
                                        a),
                            kExitUsage);
        } else if (!path.empty()) {
            return complain("give exactly one PATH", kExitUsage);
        } else {
            path = a;
        }
    }
    if (path.empty() || !size)
        return complain("usage: readscope-cli generate PATH --size SIZE", kExitUsage);
    if (auto st = generateFile(path, *size, force); !st)
        return complain(st.error().message, kExitFailed);
    fmt::print("wrote {} ({})\n", path, formatSize(*size));
    return kExitOk;
}

} // namespace readscope::cli
