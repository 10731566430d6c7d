#pragma once
// What readscope-cli's commands share on top of CLI11: values parsed by the core's own parsers,
// a usage error in readscope's words, and the failure message that says it.
#include "commands.h"

#include "readscope/result.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace readscope::cli {

// A bad command line, said as readscope says it: printed after "readscope-cli: ", exit 2.
class UsageError : public CLI::ParseError {
public:
    explicit UsageError(const std::string& message)
        : CLI::ParseError("UsageError", message, kExitUsage) {}
};

// The root App: readscope's help layout, failure messages and --version.
void configureRoot(CLI::App& root);
// A command on root. Its description is a one-line summary for the root's list, a blank line,
// and the text its own help shows.
CLI::App* addCommand(CLI::App& root, const std::string& name, const std::string& description);

// --flag VALUE: apply turns each value given into the setting, or says what is wrong with it.
using Apply = std::function<Status(const std::string& value)>;
CLI::Option* addValue(CLI::App& command, const std::string& flag, const std::string& valueName,
                      const std::string& help, Apply apply);
// The command's positional arguments, all of them, so apply can say how many it takes.
using ApplyAll = std::function<Status(const std::vector<std::string>& values)>;
CLI::Option* addPositionals(CLI::App& command, const std::string& name, ApplyAll apply);

// target = *value, or value's error, led by "prefix: " when a prefix is given.
template <class T> Status assign(T& target, Result<T> value, std::string_view prefix = {}) {
    if (!value)
        return Error{prefix.empty() ? value.error().message
                                    : fmt::format("{}: {}", prefix, value.error().message)};
    target = std::move(*value);
    return okStatus();
}

// "readscope-cli run": how the help and the messages name a command.
std::string commandPath(const CLI::App& command);
// What a failed parse of root's command line says, after "readscope-cli: ".
std::string usageMessage(const CLI::App& root, const CLI::Error& error);

} // namespace readscope::cli
