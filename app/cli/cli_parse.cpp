#include "cli_parse.h"

#include "help_formatter.h"

#include "readscope/system_info.h"

#include <memory>

namespace readscope::cli {

namespace {

constexpr const char* kCommandsGroup = "Commands";
constexpr std::size_t kOptionColumnWidth = 24;
constexpr std::size_t kCommandColumnWidth = 28;

std::string versionText() { return fmt::format("readscope-cli {}", toolVersion()); }

// "run, strategies, generate or compare": the commands a person may type.
std::string commandList(const CLI::App& root) {
    std::string list;
    const auto commands =
        root.get_subcommands([](const CLI::App* c) { return !c->get_group().empty(); });
    for (std::size_t i = 0; i < commands.size(); ++i)
        list += (i == 0 ? "" : i + 1 == commands.size() ? " or " : ", ") + commands[i]->get_name();
    return list;
}

} // namespace

void configureRoot(CLI::App& root) {
    root.formatter(std::make_shared<HelpFormatter>(kCommandColumnWidth));
    root.failure_message([](const CLI::App* app, const CLI::Error& e) {
        return fmt::format("readscope-cli: {}\n", usageMessage(*app, e));
    });
    // As the hand-written parsers did: a flag given twice keeps its last value.
    root.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    root.require_subcommand(1);
    // CLI11 takes /word for an option on Windows by default, so a Unix-style path under Wine
    // (/tmp/x.bin) or a Windows one given with forward slashes would be refused as an unknown
    // option. readscope's options are --long only; subcommands inherit this.
    root.allow_windows_style_options(false);
    root.set_version_flag("-V,--version", versionText(), "print the version");
}

CLI::App* addCommand(CLI::App& root, const std::string& name, const std::string& description) {
    CLI::App* command = root.add_subcommand(name, description);
    command->group(kCommandsGroup);
    command->formatter(std::make_shared<HelpFormatter>(kOptionColumnWidth));
    command->set_help_flag("-h,--help", "this text");
    command->set_version_flag("--version", versionText())->group(""); // works, but not listed
    return command;
}

CLI::Option* addValue(CLI::App& command, const std::string& flag, const std::string& valueName,
                      const std::string& help, Apply apply) {
    const CLI::App* app = &command;
    // each() sees every value given, in order: each is checked, and the last one stays.
    return command.add_option(flag, help)
        ->option_text(valueName)
        ->each([flag, app, apply = std::move(apply)](const std::string& value) {
            if (value.empty())
                throw UsageError(
                    fmt::format("{} needs a value (see '{} --help')", flag, commandPath(*app)));
            if (auto st = apply(value); !st)
                throw UsageError(st.error().message);
        });
}

CLI::Option* addPositionals(CLI::App& command, const std::string& name, ApplyAll apply) {
    return command.add_option_function<std::vector<std::string>>(
        name, [apply = std::move(apply)](const std::vector<std::string>& values) {
            if (auto st = apply(values); !st)
                throw UsageError(st.error().message);
        });
}

std::string commandPath(const CLI::App& command) {
    const CLI::App* parent = command.get_parent();
    return parent ? commandPath(*parent) + " " + command.get_name() : command.get_name();
}

std::string usageMessage(const CLI::App& root, const CLI::Error& error) {
    if (dynamic_cast<const UsageError*>(&error))
        return error.what();
    const auto chosen = root.get_subcommands();
    const auto extras = root.remaining(true);
    if (chosen.empty())
        return extras.empty()
                   ? "no command given: try 'readscope-cli run' or 'readscope-cli --help'"
                   : fmt::format("unknown command '{}': use {} (see 'readscope-cli --help')",
                                 extras.front(), commandList(root));
    const CLI::App& command = *chosen.front();
    const std::string seeHelp = fmt::format("(see '{} --help')", commandPath(command));
    if (error.get_name() == "RequiredError")
        return "usage: " + requiredUsage(command);
    if (error.get_name() == "ArgumentMismatch") { // "--rounds: 1 required TEXT missing"
        const std::string what = error.what();
        return fmt::format("{} needs a value {}", what.substr(0, what.find(':')), seeHelp);
    }
    // record runs a command of its own: its options are the command's, after --.
    if (!extras.empty() && command.get_name() == "record")
        return fmt::format("unknown option '{}': put -- before the command to record, e.g. "
                           "readscope-cli record -o reads.trace -- python3 -c ... {}",
                           extras.front(), seeHelp);
    if (!extras.empty())
        return fmt::format("unknown option '{}' {}", extras.front(), seeHelp);
    return fmt::format("{} {}", error.what(), seeHelp);
}

} // namespace readscope::cli
