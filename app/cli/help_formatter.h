#pragma once
// readscope-cli's help, made from the CLI11 declarations in readscope's layout: the usage line
// first, then what the command does, its commands or options (each with its default), and the
// footer.
#include <CLI/CLI.hpp>

#include <string>

namespace readscope::cli {

class HelpFormatter : public CLI::Formatter {
public:
    explicit HelpFormatter(std::size_t columnWidth) { column_width(columnWidth); }

    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode mode) const override;
    std::string make_usage(const CLI::App* app, std::string name) const override;
    std::string make_subcommand(const CLI::App* command) const override;
    std::string make_group(std::string group, bool positional,
                           std::vector<const CLI::Option*> options) const override;
    std::string make_option_name(const CLI::Option* option, bool positional) const override;
    std::string make_option_opts(const CLI::Option* option) const override;
    std::string make_option_desc(const CLI::Option* option) const override;
};

// "readscope-cli generate PATH --size SIZE": the command, its positionals and required options.
std::string requiredUsage(const CLI::App& command);

} // namespace readscope::cli
