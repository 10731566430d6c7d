#pragma once
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace readscope::cli {

// A command declared on the root App, and what it does once the command line chose it.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

Command addRunCommand(CLI::App& root);
Command addStrategiesCommand(CLI::App& root);
Command addGenerateCommand(CLI::App& root);
Command addCompareCommand(CLI::App& root);
Command addDriftCommand(CLI::App& root);
Command addWorkerCommand(CLI::App& root);
Command addRecordCommand(CLI::App& root);
Command addTraceCommand(CLI::App& root);

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;

// Prints "readscope-cli: <message>" to stderr and returns code.
int complain(const std::string& message, int code);
// A core message that advises generating a test file, with the command that does it.
std::string cliAdvice(const std::string& message);

} // namespace readscope::cli
