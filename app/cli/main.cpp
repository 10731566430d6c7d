// readscope-cli: the headless front end on the core engine, for servers, scripts and CI.
#include "commands.h"

#include "readscope/system_info.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace {

constexpr const char* kHelp = R"(Usage: readscope-cli COMMAND [options]

What it costs to read byte ranges of a file, per strategy and range size.

Commands:
  run [FILE]          measure strategies on FILE (default: a generated 256 MiB temp file)
  strategies [FILE]   list the strategies and whether they can run on FILE
  generate PATH       write a test file (--size SIZE)
  compare A B         compare two result documents (faster, slower, within noise)

Options:
  -h, --help          help (also after a command: 'readscope-cli run --help')
  --version           print the version

Examples:
  readscope-cli run
  readscope-cli run data.parquet --sizes 64K,1M --strategies pread-zerofill,pread-uninit
  readscope-cli run big.bin --cache cold --markdown --json result.json
)";

} // namespace

int main(int argc, char** argv) {
    using namespace readscope::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return complain("no command given: try 'readscope-cli run' or 'readscope-cli --help'",
                        kExitUsage);
    const std::string command = args.front();
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "-h" || command == "--help" || command == "help") {
        fmt::print("{}", kHelp);
        return kExitOk;
    }
    if (command == "--version" || command == "-V") {
        fmt::print("readscope-cli {}\n", readscope::toolVersion());
        return kExitOk;
    }
    for (const auto& a : rest)
        if (a == "--version") {
            fmt::print("readscope-cli {}\n", readscope::toolVersion());
            return kExitOk;
        }
    if (command == "run")
        return runCommand(rest);
    if (command == "strategies")
        return strategiesCommand(rest);
    if (command == "generate")
        return generateCommand(rest);
    if (command == "compare")
        return compareCommand(rest);
    return complain(fmt::format("unknown command '{}': use run, strategies, generate or compare "
                                "(see 'readscope-cli --help')",
                                command),
                    kExitUsage);
}
