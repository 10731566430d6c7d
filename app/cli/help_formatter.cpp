#include "help_formatter.h"

#include "cli_parse.h"

#include <fmt/format.h>

#include <algorithm>

namespace readscope::cli {

namespace {

// A command's description: its summary line, a blank line, and the text of its own help.
constexpr std::string_view kParagraph = "\n\n";
constexpr std::size_t kHelpWidth = 96; // columns a help line may take

std::string summary(const std::string& description) {
    return description.substr(0, description.find(kParagraph));
}

std::string details(const CLI::App& app) {
    const std::string& d = app.get_description();
    const auto split = d.find(kParagraph);
    return app.get_parent() == nullptr || split == std::string::npos
               ? d
               : d.substr(split + kParagraph.size());
}

// "[FILE]", "PATH" or the option's own text ("BASELINE CURRENT").
std::string positionalUsage(const CLI::Option& p) {
    if (!p.get_option_text().empty())
        return p.get_option_text();
    return p.get_required() ? p.get_name() : "[" + p.get_name() + "]";
}

std::string positionalsUsage(const CLI::App& command) {
    std::string usage;
    for (const CLI::Option* p : command.get_options([](auto* o) { return o->get_positional(); }))
        usage += " " + positionalUsage(*p);
    return usage;
}

} // namespace

std::string requiredUsage(const CLI::App& command) {
    std::string usage = commandPath(command) + positionalsUsage(command);
    for (const CLI::Option* o :
         command.get_options([](auto* o) { return o->nonpositional() && o->get_required(); }))
        usage += fmt::format(" {} {}", o->get_name(), o->get_option_text());
    return usage;
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string) const {
    std::string usage = requiredUsage(*app);
    if (!app->get_subcommands({}).empty())
        usage += " COMMAND";
    if (!app->get_options([](auto* o) { return o->nonpositional() && !o->get_required(); }).empty())
        usage += " [options]";
    return fmt::format("Usage: {}\n", usage);
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
    std::string help = make_usage(app, name);
    if (const std::string text = details(*app); !text.empty())
        help += "\n" + text + "\n";
    help += make_subcommands(app, mode);
    for (const std::string& group : app->get_groups()) {
        const auto options = app->get_options([&group](const CLI::Option* o) {
            return o->get_group() == group && o->nonpositional();
        });
        if (!group.empty() && !options.empty())
            help += make_group(group, false, options);
    }
    if (!app->get_footer().empty())
        help += "\n" + app->get_footer() + "\n";
    return help;
}

std::string HelpFormatter::make_subcommand(const CLI::App* command) const {
    std::stringstream out;
    CLI::detail::format_help(out, command->get_name() + positionalsUsage(*command),
                             summary(command->get_description()), get_column_width());
    return out.str();
}

std::string HelpFormatter::make_group(std::string group, bool positional,
                                      std::vector<const CLI::Option*> options) const {
    // -h, --help last, after the options it explains.
    std::stable_partition(options.begin(), options.end(),
                          [](const CLI::Option* o) { return !o->check_lname("help"); });
    return CLI::Formatter::make_group(std::move(group), positional, std::move(options));
}

std::string HelpFormatter::make_option_name(const CLI::Option* option, bool positional) const {
    return CLI::detail::join(
        CLI::detail::split(CLI::Formatter::make_option_name(option, positional), ','), ", ");
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
    const std::string& text = option->get_option_text();
    return text.empty() ? std::string() : " " + text;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
    const std::string& description = option->get_description();
    const std::string& fallback = option->get_default_str();
    if (fallback.empty())
        return description;
    // On the description's last line where it fits, else on a line of its own.
    const std::string said = fmt::format("(default {})", fallback);
    const auto lastLine = description.size() - (description.rfind('\n') + 1);
    const bool fits = get_column_width() + lastLine + 1 + said.size() <= kHelpWidth;
    return description + (fits ? " " : "\n") + said;
}

} // namespace readscope::cli
