#pragma once
// What a plan setting does, worded once for both front ends: the CLI wraps it into its --help,
// the app shows it as the field's tooltip. Each front end adds only how to give the value.
#include <string>

namespace readscope {

// The memory limit: a memory cgroup the file's page cache counts against.
std::string memoryLimitHelp();
// The duration: measure for a time instead of a number of rounds.
std::string durationHelp();

} // namespace readscope
