// readscope-cli: the headless front end on the core engine, for servers, scripts and CI.
#include "cli_parse.h"
#include "commands.h"

#include <fmt/format.h>

#include <array>

namespace {

constexpr const char* kExamples = R"(Examples:
  readscope-cli run
  readscope-cli run data.parquet --sizes 64K,1M --strategies pread-zerofill,pread-uninit
  readscope-cli run big.bin --cache cold --markdown --json result.json
  readscope-cli record -o reads.trace -- python3 reader.py data.parquet
  readscope-cli run data.parquet --trace reads.trace)";

} // namespace

int main(int argc, char** argv) {
    using namespace readscope::cli;
    CLI::App app("What it costs to read byte ranges of a file, per strategy and range size.",
                 "readscope-cli");
    configureRoot(app);
    app.set_help_flag("-h,--help", "help (also after a command: 'readscope-cli run --help')");
    const std::array commands = {addRunCommand(app),      addStrategiesCommand(app),
                                 addGenerateCommand(app), addCompareCommand(app),
                                 addDriftCommand(app),    addRecordCommand(app),
                                 addTraceCommand(app),    addWorkerCommand(app)};
    CLI::App* help = app.add_subcommand("help")->group(""); // as --help; not listed
    app.footer(kExamples);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Help and version exit 0; every other code of CLI11's (105, 106...) is a usage error.
        return app.exit(e) == kExitOk ? kExitOk : kExitUsage;
    }
    for (const auto& command : commands)
        if (command.app->parsed())
            return command.run();
    if (help->parsed())
        fmt::print(
            "{}", app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal));
    return kExitOk;
}
