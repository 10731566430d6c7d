#pragma once
#include <string>
#include <vector>

namespace readscope::cli {

int runCommand(const std::vector<std::string>& args);
int strategiesCommand(const std::vector<std::string>& args);
int generateCommand(const std::vector<std::string>& args);
int compareCommand(const std::vector<std::string>& args);

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;

// Prints "readscope-cli: <message>" to stderr and returns code.
int complain(const std::string& message, int code);

} // namespace readscope::cli
